#include "app/cli/CliSupport.h"

#include "app/cli/ArgParser.h"
#include "core/base/JsonValue.h"

#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace tomo::cli {

int exitCodeFor(const Status& status) {
    switch (status.code()) {
        case ErrorCode::Ok:
            return kExitOk;
        case ErrorCode::InvalidArgument:
            return kExitUsage;
        case ErrorCode::InvalidData:
        case ErrorCode::NotFound:
            return kExitBadInput;
        case ErrorCode::IoError:
            return kExitOutput;
        case ErrorCode::OutOfMemory:
            return kExitOutOfMemory;
        case ErrorCode::Cancelled:
            return kExitCancelled;
        case ErrorCode::Unsupported:
            return kExitUnsupported;
        case ErrorCode::DeviceError:
        case ErrorCode::Internal:
            return kExitFailure;
    }
    return kExitFailure;
}

int reportError(const std::string& command, const Status& status) {
    std::cerr << "tomo " << command << ": " << status.message() << "\n";
    return exitCodeFor(status);
}

int runCommand(ArgParser& args, int argc, char** argv, const std::function<Status()>& body) {
    const std::string command = argv[1];
    if (Status s = args.parse(argc, argv); !s) return reportError(command, s);
    if (args.helpRequested()) {
        std::cout << args.help();
        return kExitOk;
    }
    Status s = body();
    return s ? kExitOk : reportError(command, s);
}

ProgressBar::ProgressBar(bool quiet)
    : m_quiet(quiet),
      m_tty(isatty(STDERR_FILENO) != 0),
      m_start(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() {
    finish();
}

void ProgressBar::onProgress(double fraction, std::string_view stage) {
    if (m_quiet) return;
    std::lock_guard lock(m_mutex);
    auto now = std::chrono::steady_clock::now();
    double elapsed = std::chrono::duration<double>(now - m_start).count();
    if (m_tty) {
        if (fraction < 1.0 && now - m_last < std::chrono::milliseconds(100)) return;
        m_last = now;
        constexpr int kWidth = 30;
        int filled = static_cast<int>(fraction * kWidth);
        std::string bar(static_cast<std::size_t>(filled), '=');
        bar.resize(kWidth, ' ');
        double eta = fraction > 0.01 ? elapsed * (1.0 - fraction) / fraction : 0.0;
        std::fprintf(stderr, "\r[%s] %3d%% %-16.16s %6.1fs elapsed, ~%.0fs left ", bar.c_str(),
                     static_cast<int>(fraction * 100), std::string(stage).c_str(), elapsed, eta);
        m_drawn = true;
    } else {
        // Logs get a line per 10%, and only for work that lasts (quick jobs stay quiet).
        int decile = static_cast<int>(fraction * 10);
        if (decile <= m_lastDecile || elapsed < 2.0) return;
        m_lastDecile = decile;
        std::fprintf(stderr, "progress %3d%% %s (%.1fs)\n", decile * 10, std::string(stage).c_str(),
                     elapsed);
    }
    std::fflush(stderr);
}

void ProgressBar::finish() {
    std::lock_guard lock(m_mutex);
    if (m_drawn) std::fputc('\n', stderr);
    m_drawn = false;
}

namespace {
sigset_t interruptSignals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);  // InterruptToStop's destructor's wake-up
    return set;
}
}  // namespace

void blockInterrupts() {
    const sigset_t set = interruptSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);  // inherited by every thread started later
}

InterruptToStop::InterruptToStop() {
    const sigset_t set = interruptSignals();
    blockInterrupts();
    m_watcher = std::jthread([this, set](std::stop_token self) {
        timespec timeout{1, 0};
        while (!self.stop_requested()) {
            const int sig = sigtimedwait(&set, nullptr, &timeout);
            if (sig == SIGINT || sig == SIGTERM) {
                m_source.request_stop();
                return;
            }
        }
    });
}

InterruptToStop::~InterruptToStop() {
    m_watcher.request_stop();
    // Wake the watcher now rather than at its next timeout (every command would wait for it).
    pthread_kill(m_watcher.native_handle(), SIGUSR1);
    m_watcher = {};
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set,
                    nullptr);  // SIGUSR1 stays blocked: a late wake-up is ignored
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, sep))
        parts.push_back(item);
    if (!text.empty() && text.back() == sep) parts.emplace_back();
    return parts;
}

Result<double> number(const std::string& text, const std::string& option) {
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    return invalidArgument(option + ": '" + text + "' is not a number");
}

std::string jsonEscape(const std::string& s) {
    return JsonValue::string(s).dump(0);  // one JSON writer for the project (core/selection)
}

std::string jsonNumber(double v) {
    if (!std::isfinite(v)) return "null";
    std::ostringstream os;
    os.precision(6);
    os << v;
    return os.str();
}

Status checkWritableOutput(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p(path);
    fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return ioError("cannot write " + path + ": directory " + dir.string() + " does not exist");
    if (access(dir.c_str(), W_OK) != 0)
        return ioError("cannot write " + path + ": directory " + dir.string() + " is not writable");
    if (fs::is_directory(p, ec)) return ioError("cannot write " + path + ": it is a directory");
    return Status::ok();
}

}  // namespace tomo::cli
