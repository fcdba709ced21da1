// libFuzzer target: `capwatch-cli explain` argument parsing and classification, in process.
// The input is the argument list, split on NUL bytes (the program name is put in front);
// standard input is empty. What the command answers is held to explainchecks.h.

#include "explainchecks.h"
#include "explaincommand.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QStringList>
#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    // Qt's own arguments must not see libFuzzer's flags: a fixed argv of its own.
    static int argc = 1;
    static char name[] = "fuzz_explain_args";
    static char *argv[] = { name, nullptr };
    static QCoreApplication app(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    QStringList args { QStringLiteral("capwatch-cli") };
    const QByteArrayView input(reinterpret_cast<const char *>(data), qsizetype(size));
    qsizetype start = 0;
    for (qsizetype i = 0; !input.isEmpty() && i <= input.size(); ++i) {
        if (i == input.size() || input[i] == '\0') {
            args.append(QString::fromUtf8(input.sliced(start, i - start)));
            start = i + 1;
        }
    }
    // --body-file opens what it is given: keep the fuzzer away from devices and endless files.
    for (const QString &arg : std::as_const(args)) {
        if (arg.contains(u"/dev") || arg.contains(u"/proc") || arg.contains(u"/sys"))
            return -1;
    }

    QBuffer in;
    in.open(QIODevice::ReadOnly);
    QBuffer out;
    out.open(QIODevice::WriteOnly);
    QBuffer err;
    err.open(QIODevice::WriteOnly);
    const int code = capwatch::cli::runExplain(args, &in, &out, &err);
    const std::string violation = capwatch::fuzz::explainViolation(code, out.data(), err.data());
    if (!violation.empty()) {
        std::fprintf(stderr, "fuzz_explain_args: invariant broken: %s\n  exit code %d\n",
            violation.c_str(), code);
        for (const QString &arg : std::as_const(args))
            std::fprintf(stderr, "  arg [%s]\n", arg.toUtf8().constData());
        std::fprintf(stderr, "  stdout [%s]\n  stderr [%s]\n", out.data().constData(),
            err.data().constData());
        __builtin_trap();
    }
    return 0;
}
