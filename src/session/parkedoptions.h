#pragma once

// What a parked send keeps besides its prompt (history::ParkedSend::options, a JSON object): the
// options it was sent with and where its records belong in the retry log.

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

} // namespace capwatch::session
