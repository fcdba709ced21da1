#pragma once

// Internal to capwatch_history: what the store's source files (historystore.cpp, historyopen.cpp,
// historywrites.cpp, historyreads.cpp, historysearch.cpp) share. Not part of the API.

#include "history/historystore.h"

#include <QDateTime>
#include <QHash>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QUuid>
#include <QVariant>
#include <atomic>
#include <cmath>
#include <optional>
#include <string_view>

namespace capwatch::history {

/// The statements prepared once per connection, by SQL text.
struct HistoryStore::Statements
{
    QHash<QString, QSqlQuery> cache;
};

namespace detail {

using namespace Qt::StringLiterals;

constexpr int kBusyTimeoutMs = 5000;
constexpr int kBusyRetries = 20;

inline QString newConnectionName()
{
    static std::atomic<int> counter { 0 };
    return u"capwatch-history-%1"_s.arg(counter.fetch_add(1));
}

/// SQLite's primary result code from a Qt SQL error.
inline int sqliteCode(const QSqlError &error)
{
    return error.nativeErrorCode().toInt() & 0xff;
}

inline bool isBusy(const QSqlError &error)
{
    const int code = sqliteCode(error);
    return code == 5 /* SQLITE_BUSY */ || code == 6 /* SQLITE_LOCKED */;
}

inline QString errorText(const QSqlError &error)
{
    const QString text = error.databaseText();
    return text.isEmpty() ? error.text() : text;
}

inline QVariant msOrNull(const QDateTime &t)
{
    return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant();
}

inline QDateTime timeOf(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

/// A QString() binds as NULL; NOT NULL text columns get an empty string.
inline QString nonNull(const QString &s)
{
    return s.isNull() ? u""_s : s;
}

inline QVariant textOrNull(const QString &s)
{
    return s.isEmpty() ? QVariant() : QVariant(s);
}

template<class T> inline QVariant optional(const std::optional<T> &v)
{
    return v ? QVariant::fromValue(*v) : QVariant();
}

/// A number read strictly: null, text (a hand-edited cell SQLite could not make a number of) or a
/// fraction in an integer column reads as unset, never as 0.
inline std::optional<qint64> integerOf(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::Int:
    case QMetaType::LongLong:
        return v.toLongLong();
    case QMetaType::Double: {
        const double d = v.toDouble();
        // 2^63 is the first double past qint64's range.
        if (std::isfinite(d) && d == std::trunc(d) && std::abs(d) < 9.2233720368547758e18)
            return qint64(d);
        return std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

/// As integerOf(), for a REAL column: any finite number.
inline std::optional<double> realOf(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::Int:
    case QMetaType::LongLong:
        return v.toDouble();
    case QMetaType::Double:
        if (const double d = v.toDouble(); std::isfinite(d))
            return d;
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

/// A time stored as ms, read strictly (integerOf()); invalid when unset or not a number.
inline QDateTime strictTimeOf(const QVariant &v)
{
    const std::optional<qint64> ms = integerOf(v);
    return ms ? QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC) : QDateTime();
}

inline QString nameText(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

inline QString uuidText(const QUuid &id)
{
    return id.toString(QUuid::WithoutBraces);
}

inline QDateTime nowUtc()
{
    return QDateTime::currentDateTimeUtc();
}
} // namespace detail

} // namespace capwatch::history
