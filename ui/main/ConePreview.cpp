#include "ui/main/ConePreview.h"

#include "ui/main/Session.h"

namespace tomo::ui {

ConePreview::ConePreview(Session& session, QObject* parent)
    : QObject(parent), m_session(session), m_runner(kDebounceMs, session.runner().threads()) {}

void ConePreview::request(const app::ConeJobSpec& spec) {
    auto data = m_session.coneDataset();
    if (!data) return;
    auto out = std::make_shared<app::JobOutput<app::ConePlane>>();
    const app::Engine* engine = &m_session.engine();
    m_runner.request(
        [engine, data, spec, out](const ExecContext& ctx) -> Status {
            const app::ReconService service(*engine);
            TOMO_ASSIGN_OR_RETURN(app::ConePlane plane,
                                  app::reconstructCentralPlane(service, *data, spec, ctx));
            out->set(std::move(plane));
            return Status::ok();
        },
        [this, out, spec](bool ok, const QString& message, double seconds) {
            if (!ok) {
                if (!message.endsWith(QStringLiteral("cancelled"))) emit failed(message);
                return;
            }
            if (auto plane = out->take()) {
                m_shown = spec;
                emit ready(plane, seconds);
            }
        });
}

void ConePreview::cancel() {
    m_runner.cancel();
}

}  // namespace tomo::ui
