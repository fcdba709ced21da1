#pragma once

// Waiting for a HistoryWriter in tests: its open and its queue reaching the file. Header-only.

#include "history/historywriter.h"

#include <QSignalSpy>
#include <QString>

namespace capwatch::testing {

/// Waits until everything queued on `writer` so far is in the file.
inline bool flushed(history::HistoryWriter &writer)
{
    QSignalSpy done(&writer, &history::HistoryWriter::flushed);
    writer.flush();
    return done.wait(10000);
}

/// Opens `writer` on `path` and waits: true when it opened a file (not in memory).
inline bool openedAt(history::HistoryWriter &writer, const QString &path)
{
    QSignalSpy opened(&writer, &history::HistoryWriter::opened);
    writer.open(path);
    return opened.wait(10000) && opened.first().at(0).value<history::OpenResult>().persistent();
}

} // namespace capwatch::testing
