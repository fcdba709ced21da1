#include "ui/profiles/pricerows.h"

#include "retry/pricetable.h"

#include <QLocale>
#include <QSet>

namespace capwatch::ui::pricerows {

using namespace Qt::StringLiterals;

bool Row::isBlank() const
{
    return model.trimmed().isEmpty() && input.trimmed().isEmpty() && output.trimmed().isEmpty()
        && cached.trimmed().isEmpty();
}

QString figureText(double value)
{
    QLocale locale;
    locale.setNumberOptions(QLocale::OmitGroupSeparator);
    return locale.toString(value, 'f', QLocale::FloatingPointShortest);
}

std::optional<double> figureOf(const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    // No group separators: "1.500" in German would be 1500 by them, and 1.5 is meant as often.
    QLocale locale;
    locale.setNumberOptions(QLocale::RejectGroupSeparator);
    bool ok = false;
    double v = locale.toDouble(t, &ok);
    if (!ok) {
        QLocale c = QLocale::c();
        c.setNumberOptions(QLocale::RejectGroupSeparator);
        v = c.toDouble(t, &ok);
    }
    return ok ? std::optional<double>(v) : std::nullopt;
}

QList<Row> toRows(const QList<std::pair<QString, retry::Price>> &prices)
{
    QList<Row> rows;
    for (const auto &[model, price] : prices)
        rows.append({ model, figureText(price.inputPerMTok), figureText(price.outputPerMTok),
            price.cachedInputPerMTok ? figureText(*price.cachedInputPerMTok) : QString() });
    return rows;
}

QList<std::pair<QString, retry::Price>> parse(const QList<Row> &rows, Problem *problem)
{
    QList<std::pair<QString, retry::Price>> out;
    *problem = {};
    QSet<QString> seen;
    const auto fail = [problem](Problem::Kind kind, int row, int column, const QString &text) {
        if (problem->isEmpty())
            *problem = { kind, row, column, text };
    };
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row &r = rows.at(i);
        const int n = int(i + 1);
        if (r.isBlank())
            continue;
        const QString model = r.model.trimmed();
        if (model.isEmpty()) {
            fail(Problem::Kind::NoModel, n, ModelColumn, QString());
            continue;
        }
        if (std::size_t(model.toUtf8().size()) > retry::kMaxModelNameBytes) {
            fail(Problem::Kind::LongModel, n, ModelColumn, model);
            continue;
        }
        retry::Price price;
        const std::optional<double> input = figureOf(r.input);
        const std::optional<double> output = figureOf(r.output);
        const std::optional<double> cached = figureOf(r.cached);
        price.inputPerMTok = input.value_or(-1);
        price.outputPerMTok = output.value_or(-1);
        price.cachedInputPerMTok = cached;
        if (!input || !retry::isValidPrice({ *input, 0, {}, {} })) {
            fail(Problem::Kind::NotAPrice, n, InputColumn, r.input.trimmed());
            continue;
        }
        if (!output || !retry::isValidPrice({ 0, *output, {}, {} })) {
            fail(Problem::Kind::NotAPrice, n, OutputColumn, r.output.trimmed());
            continue;
        }
        if ((!cached && !r.cached.trimmed().isEmpty()) || !retry::isValidPrice(price)) {
            fail(Problem::Kind::NotAPrice, n, CachedColumn, r.cached.trimmed());
            continue;
        }
        // The price table and the settings file compare names case-insensitively.
        const QString key = model.toLower();
        if (seen.contains(key)) {
            fail(Problem::Kind::Twice, n, ModelColumn, model);
            continue;
        }
        seen.insert(key);
        out.append({ model, price });
    }
    return out;
}

} // namespace capwatch::ui::pricerows
