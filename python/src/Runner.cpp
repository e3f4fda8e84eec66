// A job run from Python on a worker thread, the calling thread watching (Runner.h).
#include "python/src/Runner.h"

#include <chrono>
#include <new>
#include <thread>

namespace tomo::python {

Runner::Runner(py::object progress, double interval)
    : m_progressCallback(std::move(progress)), m_interval(interval) {}

void Runner::onProgress(double fraction, std::string_view stage) {
    std::lock_guard lock(m_mutex);
    m_fraction = fraction;
    m_stage.assign(stage);
}

void Runner::stopWith(py::error_already_set&& error) {
    if (!m_error) m_error.emplace(std::move(error));
    m_stop.request_stop();
}

void Runner::serviceOnce() {
    const std::function<void()>* task = nullptr;
    double fraction = 0;
    std::string stage;
    {
        std::lock_guard lock(m_mutex);
        task = m_taskFinished ? nullptr : m_task;
        fraction = m_fraction;
        stage = m_stage;
    }
    if (task) {
        bool ran = false;
        if (!m_stop.stop_requested()) {
            try {
                (*task)();
                ran = true;
            } catch (py::error_already_set& e) {
                stopWith(std::move(e));
            }
        }
        std::lock_guard lock(m_mutex);
        m_taskRan = ran;
        m_taskFinished = true;
        m_cv.notify_all();
    }
    if (!m_stop.stop_requested() && PyErr_CheckSignals() != 0) stopWith(py::error_already_set());
    if (!m_progressCallback.is_none() && fraction != m_reported && !m_stop.stop_requested()) {
        m_reported = fraction;
        try {
            m_progressCallback(fraction, stage);
        } catch (py::error_already_set& e) {
            stopWith(std::move(e));
        }
    }
}

bool Runner::callInPython(const std::function<void()>& task) {
    std::unique_lock lock(m_mutex);
    if (m_stop.stop_requested()) return false;
    m_task = &task;
    m_taskFinished = false;
    m_cv.notify_all();
    m_cv.wait(lock, [this] { return m_taskFinished; });
    m_task = nullptr;
    return m_taskRan;
}

Status Runner::run(int threads, const std::function<Status(const ExecContext&)>& job) {
    Progress progress(m_progressCallback.is_none() ? nullptr : this);
    const ExecContext ctx{threads, m_stop.get_token(), &progress};
    Status status;
    {
        py::gil_scoped_release release;
        std::thread worker([&] {
            try {
                status = job(ctx);
            } catch (const std::bad_alloc&) {
                status = outOfMemory("out of memory");
            } catch (const std::exception& e) {
                status = internalError(e.what());
            }
            std::lock_guard lock(m_mutex);
            m_done = true;
            m_cv.notify_all();
        });
        const auto interval = std::chrono::duration<double>(m_interval);
        std::unique_lock lock(m_mutex);
        while (!m_done) {
            m_cv.wait_for(lock, interval, [this] { return m_done || (m_task && !m_taskFinished); });
            lock.unlock();
            {
                py::gil_scoped_acquire gil;
                serviceOnce();
            }
            lock.lock();
        }
        lock.unlock();
        worker.join();
    }
    if (m_error) {
        py::error_already_set error = std::move(*m_error);
        m_error.reset();
        throw error;
    }
    if (status.isOk() && !m_progressCallback.is_none() && m_reported < 1.0)
        m_progressCallback(1.0, "done");
    return status;
}

}  // namespace tomo::python
