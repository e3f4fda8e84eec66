#include "ui/main/LivePreview.h"

#include <QDateTime>

#include "app/jobs/CenterJob.h"
#include "ui/main/Session.h"

namespace tomo::ui {

namespace {
double nowSeconds() {
    return static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}
}  // namespace

LivePreview::LivePreview(Session& session, QObject* parent) : QObject(parent), m_session(session) {
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &LivePreview::start);
    connect(&m_runner, &app::JobRunner::finished, this, &LivePreview::onFinished);
}

void LivePreview::request(const FbpOptions& options, const std::string& variantId, int slice,
                          const app::AnalyticMethod& method) {
    m_pending = Request{options, variantId, slice, method};
    m_debounce.start();
}

void LivePreview::cancel() {
    m_pending.reset();
    m_debounce.stop();
    m_runner.cancel();
    m_out.reset();  // a preview that finished before the cancel is not shown either
}

void LivePreview::start() {
    if (!m_pending) return;
    if (m_runner.isRunning()) {
        m_runner.cancel();  // superseded: onFinished starts the newest request
        return;
    }
    auto data = m_session.dataset();
    if (!data) return;
    m_running = *std::exchange(m_pending, std::nullopt);
    auto out = std::make_shared<app::JobOutput<app::SliceImage>>();
    m_out = out;
    const app::Engine* engine = &m_session.engine();
    const Request r = m_running;
    m_startedAt = nowSeconds();
    m_runner.start(
        [engine, data, r, out](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::SliceImage s,
                                  app::reconstructSliceAtCenter(
                                      *engine, *data, r.slice, data->geometry.centerOfRotation(),
                                      r.options.filter, r.variantId, ctx, r.method));
            out->set(std::move(s));
            return Status::ok();
        },
        QStringLiteral("preview"));
}

void LivePreview::onFinished(bool ok, const QString& message) {
    auto image = m_out ? m_out->take() : nullptr;
    if (m_pending) {  // superseded while it ran: show nothing, run the newest
        m_debounce.stop();
        start();
        return;
    }
    if (!ok) {
        if (!message.endsWith(QStringLiteral("cancelled"))) emit failed(message);
        return;
    }
    if (!image) return;
    const FilterOptions& f = m_running.options.filter;
    emit ready(image, m_running.slice, nowSeconds() - m_startedAt,
               tr("%1 %2, cutoff %3")
                   .arg(m_running.method.algorithm == "gridrec" ? tr("gridrec") : tr("FBP"))
                   .arg(QString::fromLatin1(filterWindowName(f.window)))
                   .arg(f.cutoff));
}

}  // namespace tomo::ui
