#pragma once

// Internal to capwatch_net (not installed, not for other layers): the fast path of
// decodeStreamEvent().

#include "chatstream.h"

#include <QByteArrayView>

namespace capwatch::net::detail {

/// Reads the common chunk shape of a streamed chat completion straight from the bytes of an
/// event's (trimmed) data, without building a JSON DOM. True when `update` holds the complete
/// result, exactly what decodeStreamEventGeneral() would give; false: it could not decide with
/// certainty, use the general path (then `update` may hold a partial result).
[[nodiscard]] bool readCommonChunk(QByteArrayView data, ChatStreamUpdate &update);

} // namespace capwatch::net::detail
