#pragma once

// The notice across the top when the history database could not be used as it was: moved aside
// and started anew (the old file's path, selectable, with a Copy path button), or off for this
// run. Styled as PromptMessage (KMessageWidget): the palette's text on a tinted background.

#include "history/historystore.h"

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;

namespace capwatch::ui {

class HistoryBanner final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryBanner)

public:
    explicit HistoryBanner(QWidget *parent = nullptr);

    /// Shows what `result` calls for (nothing for Opened and Created).
    void showResult(const history::OpenResult &result);
    /// The sentence for `result`, empty when there is nothing to say.
    static QString textFor(const history::OpenResult &result);
    QString shownText() const;
    QString movedTo() const { return m_result.movedTo; }
    void restyle(const QPalette &window);
    QPushButton *copyButton() const { return m_copy; }
    QToolButton *closeButton() const { return m_close; }

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    history::OpenResult m_result;
    QLabel *m_icon;
    QLabel *m_text;
    QPushButton *m_copy;
    QToolButton *m_close;
};

} // namespace capwatch::ui
