#include "ui/conversation/contextcontroller.h"

#include "session/chatsession.h"
#include "ui/conversation/contextgauge.h"
#include "ui/conversation/conversationpresenter.h"
#include "ui/conversation/requestoptionsrow.h"
#include "ui/panel/retrypanel.h"
#include "ui/settings/settings.h"
#include "ui/settings/settingsdialog.h"

#include <QPlainTextEdit>
#include <QSpinBox>

namespace capwatch::ui {

using namespace Qt::StringLiterals;
using session::ChatSession;

namespace {

// Estimating is a pass over the conversation's characters; while typing it runs once the keys
// pause this long, not on every key.
constexpr int kGaugeDebounceMs = 150;

} // namespace

ContextController::ContextController(
    session::ChatSession *session, Settings &settings, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_memory(new session::ProviderMemory(this))
{
    m_memory->setSettings(settings.store());
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kGaugeDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &ContextController::updateGauge);
    m_afterSend.setSingleShot(true);
    m_afterSend.setInterval(0);
    connect(&m_afterSend, &QTimer::timeout, this, &ContextController::updateGauge);
}

void ContextController::attach(const Parts &parts)
{
    m_parts = parts;
    ChatSession *session = m_session;
    const auto later = [this] { m_debounce.start(); };
    connect(parts.editor, &QPlainTextEdit::textChanged, this, later);
    connect(parts.options->systemPrompt(), &QPlainTextEdit::textChanged, this, later);
    connect(parts.options->maxTokens(), &QSpinBox::valueChanged, this, later);
    const auto now = [this] { updateGauge(); };
    connect(session, &ChatSession::leftOutChanged, this, now);
    connect(session, &ChatSession::conversationChanged, this, now);
    connect(parts.presenter, &ConversationPresenter::restoreFilled, this, now);
    connect(session, &ChatSession::providerChanged, this, [this] {
        updateGauge();
        updateProviderWindow();
    });
    connect(m_memory, &session::ProviderMemory::estimatesChanged, this,
        [this, session](const QString &provider, const QString &model) {
            if (provider == session->provider().lane() && model == session->provider().model())
                updateGauge();
        });
    connect(m_memory, &session::ProviderMemory::windowChanged, this,
        [this](const QString &provider, const QString &model) {
            if (std::pair(provider, model) == shownWindow())
                updateProviderWindow();
        });
    // From the send's one state: the gauge once it ended (its answer joined the transcript, or
    // its prompt is the failed one), and the window shown is the provider's the last send went to
    // (a fallback's after a send to it) from the moment it starts; another conversation: the
    // session's own again. Only a change of send or of its end counts, never a tick.
    connect(session, &ChatSession::sendStateChanged, this, [this](const session::SendState &s) {
        const std::pair<quint64, bool> seen { s.send, s.ended() };
        if (seen == m_seen)
            return;
        const bool newSend = seen.first != m_seen.first;
        m_seen = seen;
        if (seen.second)
            m_afterSend.start();
        if (newSend)
            updateProviderWindow();
    });
    connect(session, &ChatSession::conversationChanged, this, [this] {
        m_seen = { 0, false }; // its sends are numbered from 1 again
        updateProviderWindow();
    });
    connect(
        m_memory, &session::ProviderMemory::loaded, this, &ContextController::updateProviderWindow);
    connect(parts.gauge, &ContextGauge::trimRequested, this, [this, session] {
        const session::TrimOffer offer
            = session->trimOfferFor(prompt(), m_parts.options->sendOptions());
        if (offer.offered && !session->busy())
            m_parts.presenter->trimTo(offer.plan.leftOut);
    });
    updateGauge();
    updateProviderWindow();
}

void ContextController::setHistory(history::HistoryWriter *writer)
{
    m_memory->setHistory(writer);
    updateProviderWindow();
}

QString ContextController::prompt() const
{
    ChatSession *session = m_session;
    // Editing replaces the last exchange: the editor's text is then the prompt either way.
    const QString typed = m_parts.editor->toPlainText();
    return typed.isEmpty() ? session->failedPrompt() : typed;
}

void ContextController::updateGauge()
{
    m_debounce.stop();
    m_afterSend.stop();
    ChatSession *session = m_session;
    const session::SendOptions options = m_parts.options->sendOptions();
    const session::ContextGauge gauge = session->contextGauge(prompt(), options);
    bool canTrim = false;
    if (!gauge.fits) {
        const session::TrimOffer offer = session->trimOfferFor(prompt(), options);
        canTrim = offer.offered && !session->busy();
    }
    m_parts.gauge->setGauge(gauge, canTrim);
}

std::pair<QString, QString> ContextController::shownWindow() const
{
    ChatSession *session = m_session;
    const session::SendState sent = session->sendState();
    if (sent.send != 0 && !sent.lane.isEmpty())
        return { sent.lane, sent.model };
    return { session->provider().lane(), session->provider().model() };
}

void ContextController::updateProviderWindow()
{
    const auto [lane, model] = shownWindow();
    m_parts.panel->setProviderWindow(m_memory->window(lane, model));
}

} // namespace capwatch::ui
