#pragma once
/// @file Runner.h
/// @brief Runs a job (a reconstruction, a phantom, preprocessing) from Python: the job on a
/// worker thread with the GIL released, the calling thread watching.
///
/// The calling thread wakes every `interval` seconds (and whenever the worker asks), takes the
/// GIL and
///  - checks for signals (PyErr_CheckSignals): Ctrl-C requests the job's stop (the std::stop_token
///    in its ExecContext, checked by every loop within one chunk or tile), waits for the job to
///    return, then raises KeyboardInterrupt;
///  - calls the progress callback with the job's latest fraction and stage when they changed;
///  - runs what the worker asked to run in Python (callInPython: the per-iteration callback),
///    while the worker waits for the answer. Python callbacks therefore run on the thread that
///    called, as in a plain Python loop (a matplotlib figure can be updated from them).
/// An exception raised by a callback stops the job the same way and is raised when it returns.

#include <pybind11/pybind11.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Progress.h"
#include "core/base/Status.h"

namespace tomo::python {

namespace py = pybind11;

class Runner final : private ProgressSink {
  public:
    /// @p progress: None or a callable (fraction, stage); @p interval: seconds between checks.
    explicit Runner(py::object progress, double interval = 0.05);
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    /// Runs @p job (called with the ExecContext of @p threads workers, the stop token and the
    /// progress scope) on a worker thread; call with the GIL held. Returns the job's status, or
    /// raises what stopped it (KeyboardInterrupt, a callback's exception).
    Status run(int threads, const std::function<Status(const ExecContext&)>& job);

    /// From the worker: runs @p task on the calling thread with the GIL held and waits for it.
    /// False when it did not run or raised (the job is then being stopped: return Cancel).
    bool callInPython(const std::function<void()>& task);

  private:
    void onProgress(double fraction, std::string_view stage) override;
    /// With the GIL: signals, progress, a pending task. Stores what it raised.
    void serviceOnce();
    void stopWith(py::error_already_set&& error);

    py::object m_progressCallback;
    double m_interval;
    std::stop_source m_stop;
    std::optional<py::error_already_set> m_error;  ///< raised by a callback or a signal

    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_done = false;
    const std::function<void()>* m_task = nullptr;  ///< asked by the worker, run by serviceOnce
    bool m_taskRan = false, m_taskFinished = false;
    double m_fraction = 0, m_reported = -1;
    std::string m_stage;
};

}  // namespace tomo::python
