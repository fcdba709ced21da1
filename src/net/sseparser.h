#pragma once

// Server-Sent Events framing (WHATWG HTML, "Parsing an event stream"), byte-exact and
// incremental, so a streamed chat completion can be decoded as it arrives.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace capwatch::net {

struct SseEvent
{
    QByteArray type; ///< the `event:` field; empty when the event had none
    QByteArray data; ///< the `data:` lines joined with `\n`
    QByteArray id; ///< the last event ID in effect when the event was dispatched
};

/// Splits a byte stream into events. Data stays raw bytes (decoding is the payload's business),
/// which is also why a chunk boundary inside a UTF-8 sequence needs no special care.
class SseParser final
{
public:
    explicit SseParser(qsizetype maxEventBytes = 16 * 1024 * 1024);

    /// Feeds bytes exactly as they came off the wire; appends every event they complete.
    /// Returns false (and stays failed) when an event or line exceeds maxEventBytes.
    bool feed(QByteArrayView bytes, QList<SseEvent> &events);
    /// True when bytes of an unterminated event/line are buffered (used at end of stream to
    /// tell a truncated stream): a partial line, or `data:`/`event:` fields not yet followed by
    /// the blank line that dispatches them.
    bool hasPendingData() const;
    bool failed() const;
    /// Back to the state of a new stream (last event ID and failure included).
    void reset();

private:
    bool feedLines(QByteArrayView bytes, QList<SseEvent> &events);
    bool processLine(QByteArrayView line, QList<SseEvent> &events);
    void fail();

    qsizetype m_maxEventBytes;
    QByteArray m_line; ///< the unterminated tail of the last feed; never holds a line end
    QByteArray m_bomProbe; ///< the first bytes of the stream while they may still be a BOM
    QByteArray m_data;
    QByteArray m_type;
    QByteArray m_lastEventId;
    bool m_bomChecked = false;
    bool m_skipLf = false; ///< the previous feed ended in CR: a leading LF belongs to it
    bool m_failed = false;
};

} // namespace capwatch::net
