#include "ui/main/LivePreview.h"

#include "app/jobs/CenterJob.h"
#include "ui/main/Session.h"

namespace tomo::ui {

LivePreview::LivePreview(Session& session, QObject* parent)
    : QObject(parent), m_session(session), m_runner(kDebounceMs, session.runner().threads()) {}

void LivePreview::request(const FbpOptions& options, const std::string& variantId, int slice,
                          const app::AnalyticMethod& method) {
    auto data = m_session.dataset();
    if (!data) return;
    const app::Engine* engine = &m_session.engine();
    auto out = std::make_shared<app::JobOutput<app::SliceImage>>();
    const FilterOptions filter = options.filter;
    m_runner.request(
        [engine, data, filter, variantId, slice, method, out](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::SliceImage s,
                                  app::reconstructSliceAtCenter(*engine, *data, slice,
                                                                data->geometry.centerOfRotation(),
                                                                filter, variantId, ctx, method));
            out->set(std::move(s));
            return Status::ok();
        },
        [this, out, filter, slice, gridrec = method.algorithm == "gridrec"](
            bool ok, const QString& message, double seconds) {
            if (!ok) {
                if (!message.endsWith(QStringLiteral("cancelled"))) emit failed(message);
                return;
            }
            if (auto image = out->take())
                emit ready(image, slice, seconds,
                           tr("%1 %2, cutoff %3")
                               .arg(gridrec ? tr("gridrec") : tr("FBP"))
                               .arg(QString::fromLatin1(filterWindowName(filter.window)))
                               .arg(filter.cutoff));
        });
}

void LivePreview::prepare(const FbpOptions& options, const std::string& variantId, int slice,
                          const app::AnalyticMethod& method) {
    auto data = m_session.dataset();
    if (!data) return;
    const app::Engine* engine = &m_session.engine();
    m_runner.request(
        [engine, data, filter = options.filter, variantId, slice, method](const ExecContext&) {
            // A failure here is the first preview's to report, with its own message.
            (void)app::prepareSliceAtCenter(*engine, *data, slice,
                                            data->geometry.centerOfRotation(), filter, variantId,
                                            method);
            return Status::ok();
        },
        [](bool, const QString&, double) {});
}

void LivePreview::cancel() {
    m_runner.cancel();
}

}  // namespace tomo::ui
