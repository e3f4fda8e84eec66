#include "ui/main/MbirRestart.h"

#include <utility>

#include "ui/panels/AlgorithmPanel.h"

namespace tomo::ui {

MbirRestart::MbirRestart(Session& session, AlgorithmPanel& panel, Starter start, QObject* parent)
    : QObject(parent), m_session(session), m_panel(panel), m_start(std::move(start)) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(400);
    connect(&m_timer, &QTimer::timeout, this, &MbirRestart::onTimeout);
    connect(&panel, &AlgorithmPanel::liveParameterEdited, this, &MbirRestart::onLiveEdited);
    connect(&session, &Session::jobFinished, this,
            [this](Session::JobKind kind, bool ok, const QString&) { onJobFinished(kind, ok); });
}

bool MbirRestart::mbirInPlay() const {
    if (m_panel.algorithm() != "mbir" || !m_session.dataset()) return false;
    if (m_session.isBusy())
        return m_session.currentJob() == Session::JobKind::Iterate &&
               m_session.iterativeSpec().algorithm == "mbir";
    auto recon = m_session.reconstruction();
    return recon && recon->variant == "mbir";
}

void MbirRestart::onLiveEdited() {
    if (!m_waiting && !mbirInPlay()) return;
    if (m_session.isBusy() && !m_waiting) {
        // Stop at once, keeping the iterate so far: it is the image the new run continues
        // from. (Not behind the timer: a tiny problem's stream of reports can hold timers back.)
        m_waiting = true;
        m_session.stopAndKeep();
    }
    m_timer.start();  // (re)starts the debounce
}

void MbirRestart::onTimeout() {
    if (m_session.isBusy()) return;  // the stopping job's end restarts
    restart();
}

void MbirRestart::onJobFinished(Session::JobKind kind, bool ok) {
    if (!m_waiting || kind != Session::JobKind::Iterate) return;
    m_waiting = false;
    if (!ok) {  // cancelled by the user (or failed): no restart
        m_timer.stop();
        return;
    }
    // After every other slot of jobFinished (the window finishes the old run's charts first),
    // or when the debounce ends.
    if (!m_timer.isActive()) QTimer::singleShot(0, this, &MbirRestart::restart);
}

void MbirRestart::restart() {
    if (m_session.isBusy() || !mbirInPlay()) return;
    auto recon = m_session.reconstruction();
    auto data = m_session.dataset();
    const std::array<std::size_t, 3> grid{std::size_t(data->grid.nz), std::size_t(data->grid.ny),
                                          std::size_t(data->grid.nx)};
    if (!recon || recon->image.dims() != grid) return;
    auto initial = std::shared_ptr<const Volume>(recon, &recon->image);
    if (m_start(initial)) emit restarted(initial);
}

}  // namespace tomo::ui
