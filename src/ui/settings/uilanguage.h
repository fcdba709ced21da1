#pragma once

// The user interface language of the desktop client: which catalogue, which number and date
// formats, and Qt's own translations (the standard buttons of dialogs). A language capwatch has
// no catalogue for falls back to English text *and* English formats, so a window never mixes
// English words with, say, French numbers.

#include <QList>
#include <QLocale>
#include <QString>

class QCoreApplication;
class QTranslator;

namespace capwatch::ui {

struct UiLanguage
{
    /// The locale for QLocale::setDefault(): numbers, dates and the catalogues to load.
    QLocale locale;
    /// A capwatch catalogue exists for `locale` (English needs none).
    bool translated = false;
    /// One line for stderr when an explicitly requested language is not available; else empty.
    QString warning;
};

/// Where the compiled catalogues of the programs live (their resources).
inline constexpr QStringView kCatalogueDir = u":/i18n";

/// The language for `requested` (the --lang value; empty: the `system` locale). English, and
/// languages with a catalogue `capwatch_<lang>.qm` in `catalogueDir`, are kept with their own
/// formats; any other falls back to English (en_US), with a warning when it was requested.
UiLanguage chooseUiLanguage(const QString &requested, const QLocale &system = QLocale::system(),
    const QString &catalogueDir = kCatalogueDir.toString());

/// Installs capwatch's catalogue for `language` from `catalogueDir` and Qt's own (`qtbase_*`
/// from QLibraryInfo::TranslationsPath, Debian's qt6-translations-l10n) into the running
/// application. Returns the translators installed, children of `app`.
QList<QTranslator *> installTranslations(QCoreApplication *app, const UiLanguage &language,
    const QString &catalogueDir = kCatalogueDir.toString());

} // namespace capwatch::ui
