#pragma once

// The extra headers of a profile as the Providers page shows and takes them: "Name: value", one
// per line.

#include <QByteArray>
#include <QList>
#include <QString>
#include <utility>

namespace capwatch::ui::extraheaders {

/// One "Name: value" line per header, in order.
QString toText(const QList<std::pair<QByteArray, QByteArray>> &headers);
/// "Name: value" per line; blank lines are skipped. `badLine` (1-based) is the first line that
/// is not a header, 0 when none.
QList<std::pair<QByteArray, QByteArray>> parse(const QString &text, int *badLine);

} // namespace capwatch::ui::extraheaders
