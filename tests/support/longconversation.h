#pragma once

// A stored conversation of many exchanges, for the tests that open one in the window
// (tst_responsiveness, tst_historyrestore). Header-only.

#include "history/historystore.h"

#include <QUuid>

namespace capwatch::testing {

/// `exchanges` prompts and answers (a short Markdown list and a paragraph each) added to `store`
/// in one transaction; the conversation's id, or a null id when a row could not be written.
inline QUuid addLongConversation(history::HistoryStore &store, int exchanges)
{
    using namespace Qt::StringLiterals;
    if (!store.begin())
        return {};
    history::Conversation c;
    c.title = u"A long one"_s;
    c.endpoint = u"http://127.0.0.1:8000/v1"_s;
    c.model = u"capwatch-demo"_s;
    if (!store.addConversation(c))
        return {};
    for (int i = 0; i < exchanges; ++i) {
        history::Message user;
        user.conversation = c.id;
        user.text = u"Question %1 about **token caps** and how a window counts them"_s.arg(i);
        history::Message answer;
        answer.conversation = c.id;
        answer.role = history::Role::Assistant;
        answer.text
            = u"Answer %1: a cap counts the prompt *and* the answer.\n\n- one\n- two\n\n"
              u"A paragraph more, so that an answer takes a few lines of the view."_s.arg(i);
        if (!store.addMessage(user) || !store.addMessage(answer))
            return {};
    }
    return store.commit() ? c.id : QUuid();
}

} // namespace capwatch::testing
