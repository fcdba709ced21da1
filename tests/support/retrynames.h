#pragma once

// The typed values of a retry log record from their interfaces.md names, so tests can keep
// writing records the way the log files spell them. A name that none has is a mistake in the
// test.

#include "retry/classifier.h"
#include "retry/sendpolicy.h"

#include <QString>
#include <QtGlobal>
#include <optional>

namespace capwatch::test {

template<typename Enum> Enum orFail(std::optional<Enum> value, QStringView name)
{
    if (!value)
        qFatal("no such name: %s", qPrintable(name.toString()));
    return *value;
}

/// `token_limit` and the other categories; empty: none.
inline std::optional<retry::Category> categoryNamed(QStringView name)
{
    if (name.isEmpty())
        return std::nullopt;
    return orFail(retry::categoryNamed(name.toString().toStdString()), name);
}

/// `retry-after` and the other wait sources; empty: None.
inline retry::WaitSource waitSourceNamed(QStringView name)
{
    if (name.isEmpty())
        return retry::WaitSource::None;
    return orFail(retry::waitSourceNamed(name.toString().toStdString()), name);
}

/// `budget_exhausted` and the other end reasons; empty: None.
inline retry::EndReason reasonNamed(QStringView name)
{
    if (name.isEmpty())
        return retry::EndReason::None;
    return orFail(retry::endReasonNamed(name.toString().toStdString()), name);
}

} // namespace capwatch::test
