#pragma once
/// @file MbirRestart.h
/// @brief MBIR's warm restart (issue 15): moving the Sharpness or SNR slider (the algorithm
/// panel's live parameters) after or during an MBIR run reconstructs again from the current
/// image instead of from the FBP start, so that the effect of the new regularisation is seen
/// within a few equits.
///
/// Sequence: the first edit during an MBIR job stops it and keeps its current iterate
/// (Session::stopAndKeep: the image so far becomes the result; Cancel would discard it); every
/// edit restarts a debounce timer (debounceMs, default 400 ms: a slider drag gives one restart).
/// When the timer has fired and no job runs (the stopped one has finished), MBIR starts with
/// the panel's parameters and IterativeJobSpec::initial = the session's reconstruction (all
/// slices; ReconRequest::initial hands each slab its planes). Nothing happens when the last
/// result is not MBIR's (run MBIR first), when another kind of job runs, or when the user
/// cancels the stopping job.
///
/// Threading: GUI thread only; nothing blocks (the stop is asked for, its end awaited by signal).

#include <functional>
#include <memory>

#include <QObject>
#include <QTimer>

#include "core/data/Array.h"
#include "ui/main/Session.h"

namespace tomo::ui {

class AlgorithmPanel;

class MbirRestart : public QObject {
    Q_OBJECT

  public:
    /// Starts an iterative job with the panel's settings from @p initial; false when none
    /// started (MainWindow::startIterative).
    using Starter = std::function<bool(std::shared_ptr<const Volume> initial)>;

    /// @p session and @p panel must outlive this object.
    MbirRestart(Session& session, AlgorithmPanel& panel, Starter start, QObject* parent = nullptr);

    void setDebounceMs(int ms) { m_timer.setInterval(ms); }
    int debounceMs() const { return m_timer.interval(); }
    /// True while a restart is scheduled or waits for the running job to stop.
    bool pending() const { return m_timer.isActive() || m_waiting; }

  signals:
    /// A warm restart started from @p initial (the image it continues from).
    void restarted(std::shared_ptr<const tomo::Volume> initial);

  private:
    void onLiveEdited();
    void onTimeout();
    void onJobFinished(Session::JobKind kind, bool ok);
    void restart();
    /// MBIR runs now, or the current result is MBIR's.
    bool mbirInPlay() const;

    Session& m_session;
    AlgorithmPanel& m_panel;
    Starter m_start;
    QTimer m_timer;
    bool m_waiting = false;  ///< a stop-and-keep was asked for; restart when the job ends
};

}  // namespace tomo::ui
