#pragma once

// The whole answer of the `length` and `drop` scenarios, and how the demo answers a request that
// continues a cut answer: the rest of the whole text after what the client already has, starting
// with an overlap as real models do (they repeat the last few words before going on). Pure
// functions; the tests of other layers use wholeAnswer() and continuationOverlap() (through
// DemoProvider) to check that a client put a cut answer back together exactly.

#include <QString>
#include <QStringView>

namespace capwatch::demo {

/// The last user message of a continuation request starts with this, once trimmed
/// (case-sensitive): "Continue exactly where your previous answer stopped. ..."
inline constexpr QStringView kContinuePrefix = u"Continue exactly where";
/// A continuation's overlap is at most this many characters (UTF-16 code units).
constexpr qsizetype kOverlapMaxChars = 64;
/// What wholeAnswer() quotes of the prompt at most, in characters ("..." follows a cut).
constexpr qsizetype kQuotedPromptChars = 40;

/// The whole text the demo answers `prompt` with in `length` and `drop`: a few sentences that
/// quote the prompt (white space simplified, cut to kQuotedPromptChars with "..."). Deterministic:
/// the same prompt always gets the same text, whatever the request's index or time.
QString wholeAnswer(const QString &prompt);

/// What a continuation repeats of `partial` before going on: its tail from the start of its
/// third-last word (words are separated by white space, QChar::isSpace), or all of it when it
/// has fewer than three words; when that is longer than kOverlapMaxChars, from the first word
/// start within its last kOverlapMaxChars (its last ones when a single word is that long, one
/// fewer when the cut would split a surrogate pair). Always a suffix of `partial`.
QString continuationOverlap(const QString &partial);

/// The length of the longest common prefix of a and b, never ending inside a surrogate pair.
qsizetype commonPrefixLength(QStringView a, QStringView b);

/// The first `chars` characters of text (all of it when shorter), one fewer when the cut would
/// split a surrogate pair.
QStringView cutAtCharBoundary(QStringView text, qsizetype chars);

/// One response of a (possibly continued) answer.
struct AnswerPart
{
    QString content; ///< the overlap, then the new text
    qsizetype overlapChars = 0; ///< how much of content is the overlap
    bool complete = true; ///< reaches the end of the whole text ("stop"); else "length"
};

/// The response to a request whose whole answer is `whole`: without `partial` (a new answer),
/// whole from its start; with one (a continuation), continuationOverlap(*partial) and then whole
/// after its longest common prefix with *partial. The new text is cut to maxTokens tokens (4
/// characters each, cutAtCharBoundary()) when it is longer; maxTokens < 0: never cut.
AnswerPart answerPart(const QString &whole, const QString *partial, qint64 maxTokens);

} // namespace capwatch::demo
