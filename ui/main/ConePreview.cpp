#include "ui/main/ConePreview.h"

#include <QDateTime>

#include "ui/main/Session.h"

namespace tomo::ui {

namespace {
double nowSeconds() {
    return static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}
}  // namespace

ConePreview::ConePreview(Session& session, QObject* parent) : QObject(parent), m_session(session) {
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    m_runner.setThreads(session.runner().threads());
    connect(&m_debounce, &QTimer::timeout, this, &ConePreview::start);
    connect(&m_runner, &app::JobRunner::finished, this, &ConePreview::onFinished);
}

void ConePreview::request(const app::ConeJobSpec& spec) {
    m_pending = spec;
    m_debounce.start();
}

void ConePreview::cancel() {
    m_pending.reset();
    m_debounce.stop();
    m_runner.cancel();
    m_out.reset();  // a preview that finished before the cancel is not shown either
}

void ConePreview::start() {
    if (!m_pending) return;
    if (m_runner.isRunning()) {
        m_runner.cancel();  // superseded: onFinished starts the newest request
        return;
    }
    auto data = m_session.coneDataset();
    if (!data) return;
    m_running = *std::exchange(m_pending, std::nullopt);
    auto out = std::make_shared<app::JobOutput<app::ConePlane>>();
    m_out = out;
    const app::Engine* engine = &m_session.engine();
    const app::ConeJobSpec spec = m_running;
    m_startedAt = nowSeconds();
    m_runner.start(
        [engine, data, spec, out](const ExecContext& ctx) -> Status {
            const app::ReconService service(*engine);
            TOMO_ASSIGN_OR_RETURN(app::ConePlane plane,
                                  app::reconstructCentralPlane(service, *data, spec, ctx));
            out->set(std::move(plane));
            return Status::ok();
        },
        QStringLiteral("preview"));
}

void ConePreview::onFinished(bool ok, const QString& message) {
    auto plane = m_out ? m_out->take() : nullptr;
    if (m_pending) {  // superseded while it ran: show nothing, run the newest
        m_debounce.stop();
        start();
        return;
    }
    if (!ok) {
        if (!message.endsWith(QStringLiteral("cancelled"))) emit failed(message);
        return;
    }
    if (plane) emit ready(plane, nowSeconds() - m_startedAt);
}

}  // namespace tomo::ui
