#pragma once

// capwatch-cli as a child process, for every test that runs it: runCli() runs it to its end,
// CliProcess starts it and leaves it running (a `demo` server, a process to interrupt). Both wait
// in an event loop, never blocking this thread, so an in-process server here (a DemoProvider)
// keeps answering it. Header-only; the tests define CAPWATCH_CLI_PATH (tests/CMakeLists.txt).

#include <QByteArray>
#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QStringList>
#include <algorithm>
#include <functional>

namespace capwatch::testing {

/// How a run of capwatch-cli ended, and what it wrote.
struct CliRun
{
    bool started = false;
    bool finished = false; ///< ended within the time allowed (else it was killed)
    QProcess::ExitStatus status = QProcess::CrashExit;
    int exitCode = -1; ///< -1 unless it exited normally: killed, crashed, or not in time
    QByteArray out;
    QByteArray err;

    /// Standard output as a JSON object (`explain` prints one).
    [[nodiscard]] QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

struct CliOptions
{
    /// Written to its standard input, which is then closed (also when empty).
    QByteArray input;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    int timeoutMs = 60000;
    /// Called once it runs, before it is waited for: to watch its files, to signal it.
    std::function<void(QProcess &)> whileRunning;
};

inline QString cliPath()
{
    return QStringLiteral(CAPWATCH_CLI_PATH);
}

/// capwatch-cli, started and left running; killed, if it still runs, when this goes.
class CliProcess final
{
    Q_DISABLE_COPY_MOVE(CliProcess)

public:
    /// `setup` is called before the start (a child process modifier, an output file).
    explicit CliProcess(const QStringList &args,
        const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(),
        const std::function<void(QProcess &)> &setup = {})
    {
        m_process.setProcessEnvironment(environment);
        if (setup)
            setup(m_process);
        m_process.start(cliPath(), args);
        m_started = m_process.waitForStarted(10000);
    }

    ~CliProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }

    [[nodiscard]] QProcess &process() { return m_process; }
    [[nodiscard]] bool started() const { return m_started; }
    [[nodiscard]] qint64 pid() const { return m_process.processId(); }
    /// It has ended (as far as this thread's event loop has seen).
    [[nodiscard]] bool finished() const { return !m_finished.isEmpty(); }

    /// Waits until a whole line of standard output can be read (`demo` prints its URL first).
    [[nodiscard]] bool waitForLine(int timeoutMs = 10000)
    {
        QSignalSpy ready(&m_process, &QProcess::readyReadStandardOutput);
        QDeadlineTimer deadline(timeoutMs);
        while (!m_process.canReadLine()) {
            if (!m_started || finished() || deadline.hasExpired()
                || !ready.wait(int(std::max<qint64>(1, deadline.remainingTime()))))
                return m_process.canReadLine();
        }
        return true;
    }

    /// Waits for it to end; true if it did in time.
    [[nodiscard]] bool waitForFinished(int timeoutMs = 10000)
    {
        return m_started && (finished() || m_finished.wait(timeoutMs));
    }

    /// How it ended (if it did), and whatever it wrote that was not read yet (which this reads).
    [[nodiscard]] CliRun result()
    {
        CliRun run;
        run.started = m_started;
        run.finished = finished();
        if (run.finished) {
            run.status = m_process.exitStatus();
            if (run.status == QProcess::NormalExit)
                run.exitCode = m_process.exitCode();
        }
        run.out = m_process.readAllStandardOutput();
        run.err = m_process.readAllStandardError();
        return run;
    }

private:
    QProcess m_process;
    QSignalSpy m_finished { &m_process, &QProcess::finished };
    bool m_started = false;
};

/// Runs capwatch-cli to its end (or for options.timeoutMs, then kills it).
inline CliRun runCli(const QStringList &args, const CliOptions &options = {})
{
    CliProcess cli(args, options.environment);
    if (!cli.started())
        return cli.result();
    cli.process().write(options.input);
    cli.process().closeWriteChannel();
    if (options.whileRunning)
        options.whileRunning(cli.process());
    if (!cli.waitForFinished(options.timeoutMs)) {
        cli.process().kill();
        CliRun run = cli.result();
        run.finished = false;
        return run;
    }
    return cli.result();
}

} // namespace capwatch::testing
