#include "ui/settings/uilanguage.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

bool hasCatalogue(const QLocale &locale, const QString &dir)
{
    QTranslator probe;
    return probe.load(locale, u"capwatch"_s, u"_"_s, dir);
}

} // namespace

UiLanguage chooseUiLanguage(
    const QString &requested, const QLocale &system, const QString &catalogueDir)
{
    UiLanguage out;
    const QLocale wanted = requested.isEmpty() ? system : QLocale(requested);
    if (wanted.language() == QLocale::English) {
        out.locale = wanted;
        return out;
    }
    if (wanted.language() != QLocale::C && hasCatalogue(wanted, catalogueDir)) {
        out.locale = wanted;
        out.translated = true;
        return out;
    }
    // A system set to the C/POSIX locale keeps it: it asked for no language at all.
    if (requested.isEmpty() && wanted.language() == QLocale::C) {
        out.locale = wanted;
        return out;
    }
    out.locale = QLocale(QLocale::English, QLocale::UnitedStates);
    if (!requested.isEmpty()) {
        // Not translated on purpose: it is shown exactly when there is no catalogue to use.
        out.warning = u"capwatch: warning: no translation for '%1'; using English"_s.arg(requested);
    }
    return out;
}

QList<QTranslator *> installTranslations(
    QCoreApplication *app, const UiLanguage &language, const QString &catalogueDir)
{
    QList<QTranslator *> installed;
    if (!language.translated)
        return installed; // English: the source texts, and Qt's own are English too
    auto *own = new QTranslator(app);
    if (own->load(language.locale, u"capwatch"_s, u"_"_s, catalogueDir)
        && QCoreApplication::installTranslator(own))
        installed << own;
    else
        delete own;
    auto *qt = new QTranslator(app);
    if (qt->load(language.locale, u"qtbase"_s, u"_"_s,
            QLibraryInfo::path(QLibraryInfo::TranslationsPath))
        && QCoreApplication::installTranslator(qt))
        installed << qt;
    else
        delete qt;
    return installed;
}

} // namespace capwatch::ui
