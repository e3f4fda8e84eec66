#pragma once
/// @file LessonJob.h
/// @brief How both lessons (TeachingPanel, ConeTeachingPanel) compute: one job through the
/// GUI's debounced preview runner (PreviewRunner.h), "Computing..." on the lesson's status
/// line meanwhile, the result handed over on the GUI thread, an error shown on the status line
/// (a cancelled run, replaced by a newer one, shows nothing).
///
/// Threading: call on the GUI thread; @p make runs on the runner's worker.

#include <memory>
#include <utility>

#include <QLabel>
#include <QObject>

#include "app/qt/JobRunner.h"
#include "core/base/Status.h"
#include "ui/main/PreviewRunner.h"

namespace tomo::ui {

/// Runs @p make (ExecContext -> Result<R>) now (a button) or after the runner's debounce (a
/// slider), interruptible by the next request; @p onResult(std::shared_ptr<const R>) gets the
/// result.
template <class R, class Make, class OnResult>
void runLessonJob(PreviewRunner& runner, bool now, QLabel* status, Make make, OnResult onResult) {
    auto out = std::make_shared<app::JobOutput<R>>();
    auto job = [make = std::move(make), out](const ExecContext& ctx) -> Status {
        TOMO_ASSIGN_OR_RETURN(R r, make(ctx));
        out->set(std::move(r));
        return Status::ok();
    };
    auto done = [status, out, onResult = std::move(onResult)](bool ok, const QString& message,
                                                              double) {
        auto result = out->take();
        if (!ok || !result) {
            if (!message.endsWith(QStringLiteral("cancelled"))) status->setText(message);
            return;
        }
        onResult(std::move(result));
    };
    if (now)
        runner.runNow(job, done, PreviewRunner::Kind::Interruptible);
    else
        runner.request(job, done);
    status->setText(QObject::tr("Computing..."));
}

}  // namespace tomo::ui
