#pragma once

// What a parked send keeps besides its prompt (history::ParkedSend::options, a JSON object): the
// options it was sent with and where its records belong in the retry log.

#include "history/historytypes.h"
#include "net/retrylog.h"
#include "sessiontypes.h"

#include <QString>

namespace capwatch::session {

struct ParkedOptions
{
    SendOptions send;
    quint64 request = 0; ///< the retry log's number of the send that was parked
    int attempt = 0; ///< its last attempt

    /// `{"system":...,"max_tokens":...,"temperature":...,"request":...,"attempt":...}`; unset
    /// options are left out.
    QString toJson() const;
    /// Whatever of it is readable: a missing or malformed field stays unset (0).
    static ParkedOptions fromJson(const QString &json);
};

/// The `unparked` record of `parked` made from what is stored of it alone (the lot's Cancel of a
/// conversation no session shows; a park that is not the shown session's own).
net::RetryRecord unparkedRecord(
    const history::ParkedSend &parked, net::RetryRecord::Unpark why, const QDateTime &now);

} // namespace capwatch::session
