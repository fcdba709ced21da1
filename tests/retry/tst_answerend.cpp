// How an answer ended (issue 29): the end from the finish reason and what came, and the overlap a
// continuation repeats at its seam.

#include "retry/answerend.h"

#include <QString>
#include <QTest>

using namespace capwatch::retry;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(AnswerEnd)

namespace {

std::u16string_view view(const QString &s)
{
    return { QStringView(s).utf16(), std::size_t(s.size()) };
}

} // namespace

class TestAnswerEnd : public QObject
{
    Q_OBJECT

private slots:
    void ends_data()
    {
        QTest::addColumn<bool>("answered");
        QTest::addColumn<bool>("broken");
        QTest::addColumn<QString>("finishReason");
        QTest::addColumn<qint64>("chars");
        QTest::addColumn<AnswerEnd>("expected");
        QTest::newRow("stop") << true << false << u"stop"_s << qint64(120) << AnswerEnd::Complete;
        QTest::newRow("no finish reason")
            << true << false << QString() << qint64(5) << AnswerEnd::Complete;
        QTest::newRow("length") << true << false << u"length"_s << qint64(120) << AnswerEnd::CutOff;
        QTest::newRow("max_tokens (Anthropic)")
            << true << false << u"max_tokens"_s << qint64(9) << AnswerEnd::CutOff;
        QTest::newRow("MAX_TOKENS (Gemini)")
            << true << false << u"MAX_TOKENS"_s << qint64(9) << AnswerEnd::CutOff;
        QTest::newRow("max_output_tokens")
            << true << false << u"max_output_tokens"_s << qint64(9) << AnswerEnd::CutOff;
        QTest::newRow("lengthy is not length")
            << true << false << u"lengthy"_s << qint64(9) << AnswerEnd::Complete;
        QTest::newRow("content_filter")
            << true << false << u"content_filter"_s << qint64(9) << AnswerEnd::Complete;
        QTest::newRow("empty, stop") << true << false << u"stop"_s << qint64(0) << AnswerEnd::Empty;
        QTest::newRow("empty, length (reasoning spent it)")
            << true << false << u"length"_s << qint64(0) << AnswerEnd::Empty;
        QTest::newRow("broken after content")
            << false << true << QString() << qint64(300) << AnswerEnd::Interrupted;
        QTest::newRow("broken before any content")
            << false << true << QString() << qint64(0) << AnswerEnd::None;
        QTest::newRow("refused") << false << false << QString() << qint64(0) << AnswerEnd::None;
    }

    void ends()
    {
        QFETCH(bool, answered);
        QFETCH(bool, broken);
        QFETCH(QString, finishReason);
        QFETCH(qint64, chars);
        QFETCH(AnswerEnd, expected);
        const std::string reason = finishReason.toStdString();
        QCOMPARE(answerEndOf({ answered, broken, reason, chars }), expected);
    }

    void namesRoundTrip()
    {
        for (AnswerEnd e :
            { AnswerEnd::Complete, AnswerEnd::CutOff, AnswerEnd::Interrupted, AnswerEnd::Empty }) {
            QVERIFY(!nameOf(e).empty());
            QCOMPARE(answerEndFromName(nameOf(e)), e);
        }
        QCOMPARE(nameOf(AnswerEnd::CutOff), std::string_view("cut_off"));
        QCOMPARE(answerEndFromName("finished"), AnswerEnd::None);
        QCOMPARE(answerEndFromName(""), AnswerEnd::None);
        QVERIFY(continuable(AnswerEnd::CutOff) && continuable(AnswerEnd::Interrupted));
        QVERIFY(!continuable(AnswerEnd::Complete) && !continuable(AnswerEnd::Empty));
    }

    void overlap_data()
    {
        QTest::addColumn<QString>("partial");
        QTest::addColumn<QString>("continuation");
        QTest::addColumn<QString>("joined");
        QTest::newRow("three words repeated")
            << u"The quick brown fox jumps over"_s << u"fox jumps over the lazy dog."_s
            << u"The quick brown fox jumps over the lazy dog."_s;
        QTest::newRow("cut inside a word")
            << u"The quick brown fox ju"_s << u"brown fox jumps over."_s
            << u"The quick brown fox jumps over."_s;
        QTest::newRow("repeat after a leading space")
            << u"The quick brown fox"_s << u" brown fox jumps."_s
            << u"The quick brown fox jumps."_s;
        QTest::newRow("no repeat") << u"The quick brown fox"_s << u" jumps over."_s
                                   << u"The quick brown fox jumps over."_s;
        QTest::newRow("partial ends with a space")
            << u"The quick brown "_s << u"quick brown fox."_s << u"The quick brown fox."_s;
        QTest::newRow("too short to be a repeat")
            << u"It is a"_s << u"a dog."_s << u"It is aa dog."_s;
        QTest::newRow("not at a word's start")
            << u"A prefix"_s << u"efix again"_s << u"A prefixefix again"_s;
        QTest::newRow("Cyrillic") << u"Превышен лимит токенов, повторите"_s
                                  << u"токенов, повторите попытку."_s
                                  << u"Превышен лимит токенов, повторите попытку."_s;
        QTest::newRow("whole partial repeated")
            << u"Hello there"_s << u"Hello there, friend."_s << u"Hello there, friend."_s;
        QTest::newRow("empty continuation") << u"Hello there"_s << QString() << u"Hello there"_s;
    }

    void overlap()
    {
        QFETCH(QString, partial);
        QFETCH(QString, continuation);
        QFETCH(QString, joined);
        const std::size_t n = seamOverlap(view(partial), view(continuation));
        QCOMPARE(partial + continuation.mid(qsizetype(n)), joined);
    }

    void overlapNeverSplitsACharacter()
    {
        // "😀" is a surrogate pair: an overlap that would end between its halves is none.
        const QString partial = u"word \U0001F600x"_s;
        const QString continuation = u"\U0001F600y"_s;
        const std::size_t n = seamOverlap(view(partial), view(continuation));
        QCOMPARE(n, std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestAnswerEnd)
#include "tst_answerend.moc"
