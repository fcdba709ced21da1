#include "ui/insights/insightstable.h"

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

QString csvField(const QString &text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n')
        && !text.contains(u'\r'))
        return text;
    QString quoted = text;
    quoted.replace(u'"', u"\"\""_s);
    return u'"' + quoted + u'"';
}

QString unitSuffix(InsightsTable::Unit unit, const QString &currency)
{
    switch (unit) {
    case InsightsTable::Unit::Tokens:
        return u"_tokens"_s;
    case InsightsTable::Unit::Money:
        return currency.isEmpty() ? QString() : u'_' + currency;
    case InsightsTable::Unit::Minutes:
        return u"_min"_s;
    case InsightsTable::Unit::Count:
        return {};
    }
    return {};
}

} // namespace

double InsightsTable::value(int row, int s) const
{
    if (row < 0 || row >= values.size() || s < 0 || s >= values.at(row).size())
        return 0;
    return values.at(row).at(s);
}

double InsightsTable::seriesTotal(int s) const
{
    double total = 0;
    for (int row = 0; row < values.size(); ++row)
        total += value(row, s);
    return total;
}

bool InsightsTable::isEmpty() const
{
    for (const QList<double> &row : values) {
        for (double v : row) {
            if (v != 0)
                return false;
        }
    }
    return true;
}

QByteArray InsightsTable::toCsv() const
{
    QString out = csvField(rowKind.isEmpty() ? u"row"_s : rowKind);
    for (const Series &s : series)
        out += u','
            + csvField(s.key
                + unitSuffix(s.unit,
                    s.currency.isEmpty()       ? currency
                        : s.currency == u"-"_s ? QString()
                                               : s.currency));
    out += u"\r\n"_s;
    for (int row = 0; row < rows.size(); ++row) {
        out += csvField(row < rowKeys.size() ? rowKeys.at(row) : rows.at(row));
        for (int s = 0; s < series.size(); ++s) {
            const double v = value(row, s);
            // Whole numbers as such; money and minutes with what they need, never a
            // locale's comma.
            out += u','
                + (v == double(qint64(v)) ? QString::number(qint64(v))
                                          : QString::number(v, 'g', 12));
        }
        out += u"\r\n"_s;
    }
    return out.toUtf8();
}

} // namespace capwatch::ui
