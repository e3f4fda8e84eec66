#pragma once
/// @file CliSupport.h
/// @brief What every `tomo` subcommand shares: exit codes, error printing, the stderr progress
/// bar, Ctrl-C turned into a stop request, and a minimal JSON writer.
///
/// Exit codes (scripts rely on them; docs/cli.md):
///   0 success; 1 internal or device failure; 2 bad usage (unknown option, bad value);
///   3 bad input data (missing file, wrong size, NaN/Inf); 4 output cannot be written;
///   5 out of memory; 6 unsupported in this build; 130 cancelled (Ctrl-C).

#include <chrono>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/base/Progress.h"
#include "core/base/Status.h"

namespace tomo::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitBadInput = 3;
inline constexpr int kExitOutput = 4;
inline constexpr int kExitOutOfMemory = 5;
inline constexpr int kExitUnsupported = 6;
inline constexpr int kExitCancelled = 130;

/// Maps an error to its exit code (IoError -> output error: readers report unreadable input as
/// NotFound or InvalidData).
int exitCodeFor(const Status& status);
/// Prints "tomo <command>: <message>" on one line to stderr and returns exitCodeFor(status).
int reportError(const std::string& command, const Status& status);

/// A progress bar on stderr: redrawn in place on a terminal (at most 10 times a second), or a
/// line per 10% when stderr is not a terminal. Silent when quiet.
class ProgressBar final : public ProgressSink {
  public:
    explicit ProgressBar(bool quiet);
    ~ProgressBar() override;
    void onProgress(double fraction, std::string_view stage) override;
    /// Ends the bar's line (call before printing results).
    void finish();

  private:
    bool m_quiet;
    bool m_tty;
    std::mutex m_mutex;
    std::chrono::steady_clock::time_point m_start, m_last;
    int m_lastDecile = -1;
    bool m_drawn = false;
};

/// Blocks SIGINT and SIGTERM in the calling thread and in every thread it starts later, so that
/// they reach an InterruptToStop's watcher only. Call it before a library starts threads of its
/// own (MPI_Init): a thread that does not block them would take the signal's default action
/// and end the process without its cleanup (a temporary output file left behind).
void blockInterrupts();

/// Turns SIGINT/SIGTERM into a stop request for the lifetime of the object: the signals are
/// blocked in every thread started afterwards and a watcher thread waits for them with
/// sigtimedwait. No global state.
class InterruptToStop {
  public:
    InterruptToStop();
    ~InterruptToStop();
    InterruptToStop(const InterruptToStop&) = delete;
    InterruptToStop& operator=(const InterruptToStop&) = delete;
    std::stop_token token() const { return m_source.get_token(); }

  private:
    std::stop_source m_source;
    std::jthread m_watcher;
};

/// Escapes a string for JSON.
/// Splits @p text at @p sep (a trailing separator gives a last empty part).
std::vector<std::string> split(const std::string& text, char sep);
/// The whole of @p text as a number; InvalidArgument naming @p option otherwise.
Result<double> number(const std::string& text, const std::string& option);

std::string jsonEscape(const std::string& s);
/// Formats a double for JSON (finite numbers with 6 significant digits, null otherwise).
std::string jsonNumber(double v);

class ArgParser;
/// Parses the arguments into @p args, prints --help when asked, otherwise runs @p body and maps
/// its Status to the exit code, printing the error on one line.
int runCommand(ArgParser& args, int argc, char** argv, const std::function<Status()>& body);

/// Returns InvalidArgument unless the directory of @p path exists and is writable, so that a
/// command fails before computing rather than after.
Status checkWritableOutput(const std::string& path);

}  // namespace tomo::cli
