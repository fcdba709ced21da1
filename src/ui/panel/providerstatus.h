#pragma once

// The status bar's account of the provider in use: the endpoint, the model and where the key
// comes from (or that none is needed or it is missing), as the session has them.

#include <QObject>

class QLabel;
class QStatusBar;

namespace capwatch::session {
class ChatSession;
}

namespace capwatch::ui {

class ProviderStatus final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProviderStatus)

public:
    ProviderStatus(session::ChatSession *session, QStatusBar *bar);

    /// Endpoint, model and key, after the provider changed.
    void update();
    /// The conversation's provider profile (issue 17), shown first: "Profile: Free tier".
    /// Empty: none shown (a provider of before profiles).
    void setProfileName(const QString &name);
    /// The endpoint is this run's (--endpoint): "Endpoint: URL (this run)", and no profile
    /// named (the profile's own endpoint is not the one talked to).
    void setRunEndpoint(bool thisRun);
    /// The key alone: a key file or variable may have changed since.
    void updateKey();
    void retranslate();
    /// "Profile: ... | Endpoint: ... | Model: ... | Key: ..." (no profile part without one).
    QString text() const;

private:
    QString keyText() const;

    session::ChatSession *m_session;
    QLabel *m_profile;
    QLabel *m_endpoint;
    QLabel *m_model;
    QLabel *m_key;
    bool m_runEndpoint = false;
};

} // namespace capwatch::ui
