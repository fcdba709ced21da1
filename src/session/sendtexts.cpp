#include "sendtexts.h"

#include "parkingtexts.h"
#include "retry/classifier.h"
#include "retrytexts.h"

#include <QLocale>
#include <algorithm>

namespace capwatch::session {

using namespace Qt::StringLiterals;
using retry::Millis;

namespace {

/// One decimal, in the UI locale: "42.3" / "42,3".
QString seconds1(qint64 ms)
{
    return QLocale().toString(double(ms) / 1000.0, 'f', 1);
}

/// A token figure as the provider gave it: whole, or to one decimal.
QString tokenFigure(std::optional<double> v)
{
    if (!v)
        return SendTexts::tr("?");
    return *v == double(qint64(*v)) ? QLocale().toString(qint64(*v))
                                    : QLocale().toString(*v, 'f', 1);
}

/// The same for capwatch-cli: plain digits, as a script reads them.
QString plainFigure(std::optional<double> v)
{
    return v ? QString::number(*v, 'f', *v == double(qint64(*v)) ? 0 : 3) : u"?"_s;
}

/// Whether the countdown runs: a retry's wait, pacing, a parked send before its reset.
bool counting(const SendState &s)
{
    return s.phase == SendPhase::Waiting || (s.phase == SendPhase::Pacing && s.pace);
}

} // namespace

QString SendTexts::phase(const SendState &s)
{
    switch (s.phase) {
    case SendPhase::Idle:
        return tr("Ready. Retries of your next send show here.");
    case SendPhase::Sending:
        return s.attempt > 1 ? tr("Retrying: sending attempt %1…").arg(s.attempt) : tr("Sending…");
    case SendPhase::Waiting:
        return tr("Waiting to send attempt %1").arg(s.attempt);
    case SendPhase::Streaming:
        return tr("Answer streaming in");
    case SendPhase::Silent:
        return tr("Nothing from the provider for %1")
            .arg(RetryTexts::duration(Millis(
                s.silentFor.count() / 1000 * 1000))); // whole seconds: it ticks by the second
    case SendPhase::Succeeded:
        if (s.attempt <= 1)
            return tr("Answered");
        return s.attempt == 2 ? tr("Answered after 1 retry")
                              : tr("Answered after %1 retries").arg(s.attempt - 1);
    case SendPhase::GaveUp:
        if (s.answerEnd == retry::AnswerEnd::Interrupted) // not a refusal: the answer broke off
            return answerEnd(s);
        return tr("Gave up: %1")
            .arg(RetryTexts::reasonSentence(s.reason, s.limits, s.failureCategory()));
    case SendPhase::Cancelled:
        return tr("Cancelled");
    case SendPhase::Pacing:
        return pacing(s);
    case SendPhase::Parked:
    case SendPhase::Due:
    case SendPhase::WaitsForProvider:
    case SendPhase::WaitsForConsent:
        return s.parked ? ParkingTexts::panelLine(*s.parked, s.standing(), s.now) : QString();
    }
    return {};
}

QString SendTexts::phaseName(const SendState &s)
{
    if (s.parked)
        return ParkingTexts::stateName(s.standing());
    switch (s.phase) {
    case SendPhase::Idle:
        return {};
    case SendPhase::Pacing:
        return tr("pacing");
    case SendPhase::Sending:
        return tr("sending");
    case SendPhase::Streaming:
        return tr("streaming");
    case SendPhase::Silent:
        return tr("silent");
    case SendPhase::Waiting:
        return tr("waiting to retry");
    case SendPhase::Succeeded:
        return tr("answered");
    case SendPhase::GaveUp:
        return tr("gave up");
    case SendPhase::Cancelled:
        return tr("cancelled");
    case SendPhase::Parked:
    case SendPhase::Due:
    case SendPhase::WaitsForProvider:
    case SendPhase::WaitsForConsent:
        break;
    }
    return ParkingTexts::stateName(s.standing());
}

QString SendTexts::attemptOf(const SendState &s)
{
    if (s.attempt == 0)
        return tr("–");
    return tr("%1 of %2")
        .arg(QLocale().toString(s.attempt), QLocale().toString(s.limits.maxAttempts));
}

QString SendTexts::attempt(const SendState &s)
{
    if (s.attempt == 0)
        return {};
    return tr("Attempt %1 of %2")
        .arg(QLocale().toString(s.attempt), QLocale().toString(s.limits.maxAttempts));
}

QString SendTexts::failure(const SendState &s)
{
    if (!s.lastFailure)
        return tr("–");
    // The answer of an HTTP 200 broke off: that, not "fatal", is what failed.
    const QString name = s.answerEnd == retry::AnswerEnd::Interrupted
        ? tr("answer interrupted")
        : RetryTexts::category(s.lastFailure->category);
    return s.lastFailure->status > 0
        ? tr("%1 (HTTP %2)").arg(name, QString::number(s.lastFailure->status))
        : name;
}

QString SendTexts::failedLead(const SendState &s)
{
    const QString category = s.failureCategory();
    const QString why = RetryTexts::reasonSentence(s.reason, s.limits, category);
    // An answer that began and broke off is no refusal: what came is kept, Continue goes on.
    if (s.answerEnd == retry::AnswerEnd::Interrupted)
        return tr("The answer was interrupted after %1 characters: what came is kept, and "
                  "Continue asks for the rest.")
            .arg(QLocale().toString(qint64(s.answerChars)));
    if (s.reason == retry::EndReason::AuthUnchanged || category == u"auth")
        return tr("The provider rejected the key: check the profile's key in Settings.");
    if (category == u"billing") {
        return s.fallback.offered
            ? tr("Out of credit at this provider: send it to %1, or top up the account.")
                  .arg(s.fallback.toProfile)
            : tr("Out of credit at this provider: top up the account, then retry.");
    }
    if (category == u"too_large")
        return tr("The request is larger than the model accepts: trim the conversation or "
                  "shorten the prompt.");
    if (category == u"token_limit" || category == u"rate_limit") {
        // When it resets: the park offer's time, which is the provider's figure.
        const bool tokens = category == u"token_limit";
        if (s.park.dueAt.isValid()) {
            // "14:09", "14:09 tomorrow": the day too when it is not today's.
            const QString at = ParkingTexts::clockTime(
                s.park.dueAt, s.now.isValid() ? s.now : QDateTime::currentDateTimeUtc());
            return tokens ? tr("Capped until %1: %2.").arg(at, why)
                          : tr("Rate-limited until %1: %2.").arg(at, why);
        }
        return tokens ? tr("Capped at this provider: %1.").arg(why)
                      : tr("Rate-limited at this provider: %1.").arg(why);
    }
    if (s.reason == retry::EndReason::Timeout)
        return tr("The provider did not answer in time: try again later.");
    if (s.lastFailure && s.lastFailure->status == 0)
        return tr("The provider could not be reached: %1.").arg(why);
    if (category == u"transient")
        return tr("The provider is overloaded or failing: %1.").arg(why);
    if (s.reason == retry::EndReason::NotRetryable)
        return tr("The provider refused the request, and waiting will not change that: see "
                  "Details.");
    return why.isEmpty() ? tr("The send failed.") : tr("The send failed: %1.").arg(why);
}

QString SendTexts::earlyParkWhy(const SendState &s)
{
    if (!s.waiting() || !s.earlyPark.parkable)
        return {};
    const QDateTime now = s.now.isValid() ? s.now : QDateTime::currentDateTimeUtc();
    return tr("The provider's cap resets at %1, later than the retries can reach: the retries "
              "go on unless you park it now, to be sent by itself at the reset.")
        .arg(ParkingTexts::clockTime(s.earlyPark.dueAt, now));
}

QString SendTexts::tokens(const SendState &s)
{
    if (s.answerTokens)
        return tr("%1 used by the answer").arg(QLocale().toString(*s.answerTokens));
    if (!s.used && !s.limit)
        return tr("–");
    return tr("%1 / %2").arg(tokenFigure(s.used), tokenFigure(s.limit));
}

QString SendTexts::countdown(const SendState &s)
{
    if (s.phase == SendPhase::Parked && s.parked)
        return ParkingTexts::countdown(s.parked->dueAt, s.now);
    if (!counting(s))
        return tr("–");
    return tr("%1 s").arg(seconds1(s.waitLeft.count()));
}

QString SendTexts::budget(const SendState &s)
{
    const qint64 whole = s.limits.budget.count();
    const qint64 left = s.send != 0 ? std::min<qint64>(s.budgetLeft.count(), whole) : whole;
    return tr("%1 s of %2 s").arg(seconds1(left), QLocale().toString(whole / 1000));
}

QString SendTexts::source(const SendState &s)
{
    // Pacing, and a send cancelled while it paced: the window's reset, outside the budget.
    const bool paced = s.pace && !s.lastWait && s.attempt == 0;
    if (s.lastAsked) // the refusal it gave up on asked for more than was left
        return tr("%1; not waited: the send gave up")
            .arg(RetryTexts::waitSourceSentence(
                s.lastAsked->source, s.lastAsked->rawWait, s.lastAsked->rawWait));
    if (!paced && !s.lastWait)
        return tr("–");
    const QString sentence = paced ? RetryTexts::paceSentence(s.pace->wait, s.pace->tokensFull)
                                   : RetryTexts::waitSourceSentence(*s.lastWait);
    if (s.cutWait) {
        // To a tenth of a second, as the countdown showed it.
        const Millis ran((s.cutWait->count() + 50) / 100 * 100);
        return tr("%1; cancelled after %2").arg(sentence, RetryTexts::duration(ran));
    }
    return sentence;
}

QString SendTexts::pacing(const SendState &s)
{
    if (s.phase != SendPhase::Pacing || !s.pace)
        return {};
    // Whole seconds, rounded up: "sending in 0 s" only once it sends.
    const QString in = QLocale().toString((s.waitLeft.count() + 999) / 1000);
    if (s.pace->declared != retry::DeclaredKind::None)
        return tr("Pacing: sending in %1 s (%2)")
            .arg(in, declaredLimit(s.pace->declared, s.pace->declaredUsed, s.pace->declaredLimit));
    return s.pace->tokensFull
        ? tr("Pacing: sending in %1 s (the provider's window is full)").arg(in)
        : tr("Pacing: sending in %1 s (the provider's request limit is reached)").arg(in);
}

QString SendTexts::declaredLimit(
    retry::DeclaredKind kind, qint64 used, qint64 limit, const QDateTime &resets)
{
    const QLocale locale;
    const QString u = locale.toString(used);
    const QString l = locale.toString(limit);
    const QString at
        = resets.isValid() ? locale.toString(resets.toLocalTime().time(), u"HH:mm"_s) : QString();
    switch (kind) {
    case retry::DeclaredKind::None:
        break;
    case retry::DeclaredKind::RequestsPerMinute:
        return tr("Requests this minute: %1 of %2").arg(u, l);
    case retry::DeclaredKind::TokensPerMinute:
        return tr("Tokens this minute: %1 of %2").arg(u, l);
    case retry::DeclaredKind::RequestsPerDay:
        return at.isEmpty() ? tr("Requests today: %1 of %2").arg(u, l)
                            : tr("Requests today: %1 of %2, resets at %3").arg(u, l, at);
    case retry::DeclaredKind::TokensPerDay:
        return at.isEmpty() ? tr("Tokens today: %1 of %2").arg(u, l)
                            : tr("Tokens today: %1 of %2, resets at %3").arg(u, l, at);
    case retry::DeclaredKind::InFlight:
        return tr("Requests in flight: %1 of %2").arg(u, l);
    }
    return {};
}

QString SendTexts::money(double amount, const QString &currency)
{
    const QLocale locale;
    // Enough digits to tell a send from nothing: 4 places under a cent, 2 from a unit on.
    const int places = amount == 0 ? 2 : amount < 0.01 ? 4 : amount < 1 ? 3 : 2;
    // Dollars as the locale writes an amount ("$0.0042", "0,0042 $"); another currency by its
    // code after the figure.
    if (currency.isEmpty() || currency == u"USD")
        return locale.toCurrencyString(amount, u"$"_s, places);
    return locale.toString(amount, 'f', places) + u' ' + currency;
}

QString SendTexts::cost(const history::CostTotal &total)
{
    if (!total.known())
        return {};
    const QString billed = money(total.billed, {});
    const QString estimated = money(total.estimated, total.currency);
    if (total.billed > 0 && total.estimated > 0)
        return tr("%1 (%2 billed, %3 estimated)")
            .arg(money(total.amount(), total.currency), billed, estimated);
    return total.billed > 0 ? tr("%1 billed").arg(billed) : tr("%1 estimated").arg(estimated);
}

QString SendTexts::limitResets(const LimitHold &hold)
{
    if (!hold.resetsAt.isValid())
        return {};
    const QLocale locale;
    const QDateTime at = hold.resetsAt.toLocalTime();
    if (at.time() == QTime(0, 0) && at.date() == QDate::currentDate().addDays(1))
        return locale.toString(at.time(), u"HH:mm"_s);
    return locale.toString(at.date(), QLocale::ShortFormat) + u' '
        + locale.toString(at.time(), u"HH:mm"_s);
}

QString SendTexts::limitHold(const LimitHold &hold)
{
    if (!hold.holds)
        return {};
    const QLocale locale;
    if (!hold.spending)
        return declaredLimit(
            hold.declared.holds, hold.declared.used, hold.declared.limit, hold.resetsAt);
    const retry::SpendCheck &c = hold.check;
    if (retry::isMoney(c.limit)) {
        const QString used = money(c.used, hold.currency);
        const QString allowed = money(c.allowed, hold.currency);
        const QString worst = money(c.worst, hold.currency);
        return retry::isDaily(c.limit)
            ? tr("Spent today: %1 of %2; this send may cost up to %3").arg(used, allowed, worst)
            : tr("Spent this month: %1 of %2; this send may cost up to %3")
                  .arg(used, allowed, worst);
    }
    const QString used = locale.toString(qint64(c.used));
    const QString allowed = locale.toString(qint64(c.allowed));
    const QString worst = locale.toString(qint64(c.worst));
    return retry::isDaily(c.limit)
        ? tr("Tokens today: %1 of %2; this send may use up to %3").arg(used, allowed, worst)
        : tr("Tokens this month: %1 of %2; this send may use up to %3").arg(used, allowed, worst);
}

QString SendTexts::pacingWhy(const SendState &s)
{
    if (s.phase != SendPhase::Pacing || !s.pace)
        return {};
    const QString in = QLocale().toString((s.waitLeft.count() + 999) / 1000);
    if (s.pace->declared != retry::DeclaredKind::None)
        return tr("Held for %1 s: %2, as this profile declares for its provider (Settings → "
                  "Providers), and capwatch sends when it has room. Send now sends it anyway.")
            .arg(in, declaredLimit(s.pace->declared, s.pace->declaredUsed, s.pace->declaredLimit));
    return s.pace->tokensFull
        ? tr("Held for %1 s: the provider's token window is full, and capwatch sends when it "
             "has room so that the cap is never hit. Send now sends it anyway (and shows the "
             "retry cycle if the provider refuses).")
              .arg(in)
        : tr("Held for %1 s: the provider's request limit is reached, and capwatch sends when "
             "it has room so that the cap is never hit. Send now sends it anyway (and shows the "
             "retry cycle if the provider refuses).")
              .arg(in);
}

QString SendTexts::statusLine(const SendState &s)
{
    if (s.phase == SendPhase::Silent)
        return phase(s);
    if (s.phase == SendPhase::Pacing && s.pace)
        return pacingWhy(s);
    if (s.phase != SendPhase::Waiting)
        return tr("Waiting for the provider…");
    const int seconds = int((s.waitLeft.count() + 999) / 1000);
    return !s.lastFailure ? tr("Retrying in %n s", nullptr, seconds)
                          : tr("Retrying in %n s: %1", nullptr, seconds)
                                .arg(RetryTexts::category(s.lastFailure->category));
}

QString SendTexts::statusBar(const SendState &s)
{
    switch (s.phase) {
    case SendPhase::Pacing:
        return pacing(s);
    case SendPhase::Sending:
    case SendPhase::Streaming:
        return attempt(s);
    case SendPhase::Silent:
        return tr("%1 · %2").arg(attempt(s), phase(s));
    case SendPhase::Waiting:
        return tr("%1 · retry in %2").arg(attempt(s), countdown(s));
    default:
        break;
    }
    return {};
}

QString SendTexts::attemptFailedLine(const SendState &s)
{
    if (!s.lastFailure)
        return {};
    const net::AttemptFailure &f = *s.lastFailure;
    QString line = tr("attempt %1 of %2 failed: ").arg(f.attempt).arg(s.limits.maxAttempts);
    if (f.status > 0)
        line += QString::number(f.status) + u' ' + QString::fromLatin1(retry::statusText(f.status))
            + u", "_s;
    line += QString::fromLatin1(retry::nameOf(f.category));
    if (f.used || f.limit)
        line += tr(" (used %1, limit %2)").arg(plainFigure(f.used), plainFigure(f.limit));
    if (f.status == 0 && !f.errorText.isEmpty())
        line += u": "_s + f.errorText;
    return line;
}

QString SendTexts::waitingLine(const SendState &s)
{
    if (!s.lastWait)
        return {};
    const net::RetryInfo &w = *s.lastWait;
    return tr("waiting %1 (%2) before attempt %3 of %4; %5 of the %6 budget left")
        .arg(
            RetryTexts::seconds(double(w.wait.count()) / 1000.0), RetryTexts::waitSourceSentence(w))
        .arg(w.nextAttempt)
        .arg(s.limits.maxAttempts)
        .arg(RetryTexts::seconds(double(w.budgetLeft.count()) / 1000.0),
            RetryTexts::seconds(double(s.limits.budget.count()) / 1000.0));
}

QString SendTexts::decidedBy(const SendState &s)
{
    if (!s.lastFailure || s.lastFailure->rule.isEmpty())
        return {};
    return tr("Decided by %1").arg(s.lastFailure->rule);
}

QString SendTexts::pacingLine(const SendState &s)
{
    if (s.phase != SendPhase::Pacing || !s.pace)
        return {};
    const net::PacePlan &plan = *s.pace;
    const qint64 in = (plan.wait.count() + 999) / 1000;
    if (plan.declared != retry::DeclaredKind::None)
        return tr("pacing: sending in %1 s (%2, the profile's declared limit)")
            .arg(in)
            .arg(declaredLimit(plan.declared, plan.declaredUsed, plan.declaredLimit));
    return plan.tokensFull
        ? tr("pacing: sending in %1 s, when the provider's window resets (it has %2 tokens left, "
             "this request needs about %3)")
              .arg(in)
              .arg(plan.windowTokensLeft.value_or(0))
              .arg(plan.estimatedTokens.value_or(0))
        : tr("pacing: sending in %1 s, when the provider's request limit resets").arg(in);
}

QString SendTexts::answeredLine(const SendState &s)
{
    QString line = tr("answered on attempt %1 of %2").arg(s.attempt).arg(s.limits.maxAttempts);
    if (s.answerTokens)
        line += tr(" (%1 tokens)").arg(*s.answerTokens);
    return line;
}

QString SendTexts::answerEnd(
    retry::AnswerEnd end, std::optional<qint64> completionTokens, qsizetype chars)
{
    const QLocale locale;
    const bool tokens = completionTokens && *completionTokens > 0;
    switch (end) {
    case retry::AnswerEnd::None:
    case retry::AnswerEnd::Complete:
        break;
    case retry::AnswerEnd::CutOff:
        return tokens
            ? tr("Cut off at the output limit · %1 tokens").arg(locale.toString(*completionTokens))
            : tr("Cut off at the output limit");
    case retry::AnswerEnd::Interrupted:
        return tr("Interrupted after %1 characters").arg(locale.toString(qint64(chars)));
    case retry::AnswerEnd::Empty:
        // Output tokens spent and no word shown: the model reasoned its budget away.
        return tokens ? tr("Empty answer: the output budget (%1 tokens) went to reasoning")
                            .arg(locale.toString(*completionTokens))
                      : tr("Empty answer");
    }
    return {};
}

QString SendTexts::answerEnd(const SendState &s)
{
    std::optional<qint64> completion;
    if (s.usage && s.usage->completionTokens >= 0)
        completion = s.usage->completionTokens;
    return answerEnd(s.answerEnd, completion, s.answerChars);
}

QString SendTexts::answerEndLine(const SendState &s)
{
    const std::optional<qint64> completion = s.usage && s.usage->completionTokens >= 0
        ? std::optional<qint64>(s.usage->completionTokens)
        : std::nullopt;
    switch (s.answerEnd) {
    case retry::AnswerEnd::None:
    case retry::AnswerEnd::Complete:
        break;
    case retry::AnswerEnd::CutOff:
        return completion
            ? tr("the answer was cut off at the output limit (%1 tokens)").arg(*completion)
            : tr("the answer was cut off at the output limit");
    case retry::AnswerEnd::Interrupted:
        return tr("the answer was interrupted after %1 characters").arg(s.answerChars);
    case retry::AnswerEnd::Empty:
        return completion && *completion > 0
            ? tr("the answer is empty: its output budget (%1 tokens) went to reasoning")
                  .arg(*completion)
            : tr("the answer is empty");
    }
    return {};
}

} // namespace capwatch::session
