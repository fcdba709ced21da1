#include "userrules.h"

#include "retry/rulesparser.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <optional>
#include <string>
#include <vector>

using namespace Qt::StringLiterals;

namespace capwatch::app {

namespace {

struct ReadFile
{
    std::optional<retry::RuleSet> rules;
    RulesLoadError error;
};

RulesLoadError errorOf(const QString &shownAs, int line, const QString &what)
{
    return RulesLoadError { shownAs, line, what };
}

/// Reads and parses one file; never the whole of a huge one.
ReadFile readRulesFile(const QString &path, const QString &shownAs)
{
    ReadFile out;
    const QFileInfo info(path);
    if (!info.exists()) {
        out.error = errorOf(shownAs, 1, u"no such file"_s);
        return out;
    }
    if (!info.isFile()) {
        out.error = errorOf(shownAs, 1, u"not a regular file"_s);
        return out;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = errorOf(shownAs, 1, u"cannot be read: "_s + file.errorString());
        return out;
    }
    const QByteArray bytes = file.read(qint64(retry::kMaxRulesFileBytes) + 1);
    retry::ParsedRules parsed
        = retry::parseRules(std::string_view(bytes.constData(), std::size_t(bytes.size())),
            shownAs.toStdString(), retry::RulesKind::User);
    if (!parsed.rules) {
        out.error = errorOf(QString::fromStdString(parsed.problem.file), parsed.problem.line,
            QString::fromStdString(parsed.problem.what));
        return out;
    }
    out.rules = std::move(parsed.rules);
    return out;
}

} // namespace

QString userRulesDirectory()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(u"capwatch/rules.d"_s);
}

UserRulesLoad loadUserRules(const QStringList &extraFiles)
{
    UserRulesLoad out;
    QList<std::pair<QString, QString>> files; // path, shown as
    const QDir dir(userRulesDirectory());
    for (const QString &name :
        dir.entryList({ u"*.json"_s }, QDir::Files | QDir::Readable | QDir::Hidden, QDir::Name))
        files.append({ dir.filePath(name), u"rules.d/"_s + name });
    for (const QString &path : extraFiles)
        files.append({ path, path });

    std::vector<retry::RuleSet> sets;
    std::size_t phrases = retry::Rules::phraseCount(retry::Rules::builtinRules().set());
    for (const auto &[path, shownAs] : files) {
        ReadFile read = readRulesFile(path, shownAs);
        if (!read.rules) {
            out.errors.append(read.error);
            continue;
        }
        const std::size_t more = retry::Rules::phraseCount(*read.rules);
        if (phrases + more > retry::kMaxPhrases) {
            out.errors.append(errorOf(shownAs, 1,
                u"too many phrases and words together with the rules already in force (at most "
                "%1); the file is left out"_s.arg(retry::kMaxPhrases)));
            continue;
        }
        phrases += more;
        sets.push_back(std::move(*read.rules));
        out.files.append(shownAs);
    }
    std::vector<const retry::RuleSet *> additions;
    for (const retry::RuleSet &s : sets)
        additions.push_back(&s);
    out.rules = retry::Rules::withAdditions(additions);
    return out;
}

QList<RulesLoadError> checkRulesFile(const QString &path, const QString &shownAs)
{
    const QString name = shownAs.isEmpty() ? path : shownAs;
    ReadFile read = readRulesFile(path, name);
    if (!read.rules)
        return { read.error };
    const std::size_t total = retry::Rules::phraseCount(retry::Rules::builtinRules().set())
        + retry::Rules::phraseCount(*read.rules);
    if (total > retry::kMaxPhrases)
        return { errorOf(name, 1,
            u"too many phrases and words together with the built-in rules (at most %1)"_s.arg(
                retry::kMaxPhrases)) };
    return {};
}

QList<RulesLoadError> installUserRules(const QStringList &extraFiles)
{
    UserRulesLoad load = loadUserRules(extraFiles);
    retry::Rules::install(load.rules);
    return load.errors;
}

} // namespace capwatch::app
