#pragma once
/// @file QuitOnSignal.h
/// @brief SIGTERM and SIGINT end the GUI promptly (a session logout, `kill`, Ctrl+C in the
/// terminal): the handler only writes a byte to a socket pair (async-signal-safe); the event loop
/// reads it and calls the given function, which cancels the running jobs and quits without
/// asking (every job returns within a second of its cancel, docs/performance.md).
///
/// Threading: create on the GUI thread, once (it owns the process's handlers while it lives).

#include <functional>

#include <QObject>

class QSocketNotifier;

namespace tomo::ui {

class QuitOnSignal : public QObject {
    Q_OBJECT

  public:
    explicit QuitOnSignal(std::function<void()> quit, QObject* parent = nullptr);
    ~QuitOnSignal() override;

  private:
    std::function<void()> m_quit;
    QSocketNotifier* m_notifier = nullptr;
};

}  // namespace tomo::ui
