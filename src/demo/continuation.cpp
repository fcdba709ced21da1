#include "continuation.h"

#include <algorithm>

namespace capwatch::demo {

QString wholeAnswer(const QString &prompt)
{
    QString quoted = prompt.simplified();
    if (quoted.size() > kQuotedPromptChars)
        quoted = cutAtCharBoundary(quoted, kQuotedPromptChars).toString() + QStringLiteral("...");
    // 640 characters for "hi", at most 41 more for a long prompt: more than one
    // response of the default --max-answer (100 tokens, 400 characters) and less than two, so
    // the default answer needs exactly one continuation.
    return QStringLiteral(
        "You wrote \"%1\". This is the whole answer of the capwatch demo provider, which plays a "
        "provider that cuts answers short, as capped providers do: at its output limit "
        "(finish_reason \"length\"), when the connection drops, or when an error arrives after "
        "the first words. capwatch keeps what came, says that the answer stopped, and offers "
        "Continue, which sends the partial answer back and asks for the rest. The demo answers "
        "with the rest of this very text, starting a few words back as real models do, so the "
        "client has to take out the words it already has. Put back together, the answer reads "
        "exactly like this: nothing lost, nothing said twice.")
        .arg(quoted);
}

QString continuationOverlap(const QString &partial)
{
    qsizetype start = 0;
    qsizetype i = partial.size();
    for (int words = 0; i > 0 && words < 3;) {
        while (i > 0 && partial.at(i - 1).isSpace())
            --i;
        if (i == 0)
            break;
        while (i > 0 && !partial.at(i - 1).isSpace())
            --i;
        if (++words == 3)
            start = i;
    }
    QStringView tail = QStringView(partial).sliced(start);
    if (tail.size() > kOverlapMaxChars) {
        // At most so many characters, from a word's start when one is within them (as a model
        // repeats words, not halves of them).
        QStringView last = tail.last(kOverlapMaxChars);
        qsizetype wordStart = 0;
        while (wordStart < last.size() && !last.at(wordStart).isSpace())
            ++wordStart;
        while (wordStart < last.size() && last.at(wordStart).isSpace())
            ++wordStart;
        if (wordStart < last.size())
            last = last.sliced(wordStart);
        if (last.front().isLowSurrogate())
            last = last.sliced(1);
        tail = last;
    }
    return tail.toString();
}

qsizetype commonPrefixLength(QStringView a, QStringView b)
{
    const qsizetype limit = std::min(a.size(), b.size());
    qsizetype n = 0;
    while (n < limit && a[n] == b[n])
        ++n;
    // A high surrogate whose low half differs (or is missing) is half a character.
    if (n > 0 && a[n - 1].isHighSurrogate())
        --n;
    return n;
}

QStringView cutAtCharBoundary(QStringView text, qsizetype chars)
{
    if (chars >= text.size())
        return text;
    if (chars > 0 && text[chars - 1].isHighSurrogate())
        --chars;
    return text.first(std::max<qsizetype>(0, chars));
}

AnswerPart answerPart(const QString &whole, const QString *partial, qint64 maxTokens)
{
    AnswerPart part;
    qsizetype from = 0;
    if (partial) {
        part.content = continuationOverlap(*partial);
        part.overlapChars = part.content.size();
        from = commonPrefixLength(whole, *partial);
    }
    QStringView rest = QStringView(whole).sliced(from);
    if (maxTokens >= 0 && rest.size() > maxTokens * 4) {
        rest = cutAtCharBoundary(rest, maxTokens * 4);
        part.complete = false;
    }
    part.content += rest;
    return part;
}

} // namespace capwatch::demo
