// Parts of the GUI checked on their own: the schema-built parameter form (every type, ranges,
// exact round trip), the snapshot store's memory budget, the ETA estimate, and the JobRunner's
// "finish early" flag and posts from the worker.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>

#include "app/qt/EtaEstimator.h"
#include "app/qt/JobRunner.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/charts/SnapshotStore.h"
#include "ui/panels/ParameterForm.h"

namespace tomo::ui {
namespace {

using namespace std::chrono_literals;
using test::waitFor;

AlgorithmSpec testSpec() {
    AlgorithmSpec s;
    s.id = "test";
    ParameterSpec n{"iterations", "Iterations", ParameterType::Integer, "30", 1, 1000};
    ParameterSpec r{"relaxation", "Relaxation", ParameterType::Real, "1", 0.001, 1.999};
    ParameterSpec l{"lambda", "Lambda", ParameterType::Real, "0.05", 1e-8, 1e6, true};
    ParameterSpec b{"nonnegative", "Non-negative", ParameterType::Boolean, "false"};
    ParameterSpec c{"projector", "Projector", ParameterType::Choice, "matched"};
    c.choices = {"locality", "matched"};
    s.parameters = {n, r, l, b, c};
    return s;
}

TEST(ParameterForm, BuildsOneEditorPerParameterWithDefaultsAndRanges) {
    ParameterForm form;
    form.setSpec(testSpec());
    auto* iterations = form.findChild<QSpinBox*>(QStringLiteral("iterations"));
    ASSERT_NE(iterations, nullptr);
    EXPECT_EQ(iterations->minimum(), 1);
    EXPECT_EQ(iterations->maximum(), 1000);
    EXPECT_NE(form.findChild<QLineEdit*>(QStringLiteral("lambda")), nullptr) << "log scale";
    EXPECT_NE(form.findChild<QCheckBox*>(QStringLiteral("nonnegative")), nullptr);
    EXPECT_EQ(form.findChild<QComboBox*>(QStringLiteral("projector"))->count(), 2);
    const std::map<std::string, std::string> defaults{{"iterations", "30"},
                                                      {"relaxation", "1"},
                                                      {"lambda", "0.050000000000000003"},
                                                      {"nonnegative", "false"},
                                                      {"projector", "matched"}};
    EXPECT_EQ(form.values(), defaults);
    // The defaults resolve against the schema (what the job does with them).
    Result<ParameterValues> resolved = ParameterValues::resolve(testSpec(), form.values());
    ASSERT_TRUE(resolved.isOk()) << resolved.status().toString();
    EXPECT_DOUBLE_EQ(resolved->real("lambda"), 0.05);
}

TEST(ParameterForm, SetValuesRoundTripsAndRejectsWhatDoesNotFit) {
    ParameterForm form;
    form.setSpec(testSpec());
    QSignalSpy changed(&form, &ParameterForm::valuesChanged);
    const std::map<std::string, std::string> v{{"iterations", "123"},
                                               {"relaxation", "1.5"},
                                               {"lambda", "2.5e-05"},
                                               {"nonnegative", "true"},
                                               {"projector", "locality"}};
    EXPECT_TRUE(form.setValues(v).empty());
    EXPECT_GE(changed.count(), 5);
    auto back = form.values();
    EXPECT_EQ(back.at("iterations"), "123");
    EXPECT_EQ(back.at("relaxation"), "1.5");
    // Shown as typed, not as 1.500000.
    EXPECT_EQ(form.findChild<QDoubleSpinBox*>(QStringLiteral("relaxation"))->text(),
              QStringLiteral("1.5"));
    EXPECT_DOUBLE_EQ(std::stod(back.at("lambda")), 2.5e-5);
    EXPECT_EQ(back.at("nonnegative"), "true");
    EXPECT_EQ(back.at("projector"), "locality");
    // Setting what values() returned changes nothing: an exact round trip.
    EXPECT_TRUE(form.setValues(back).empty());
    EXPECT_EQ(form.values(), back);
    std::vector<std::string> rejected = form.setValues(
        {{"iterations", "0"}, {"relaxation", "2.5"}, {"projector", "magic"}, {"nope", "1"}});
    EXPECT_EQ(rejected.size(), 4u);
    EXPECT_EQ(form.values(), back) << "rejected values leave the editors alone";
    form.resetToDefaults();
    EXPECT_EQ(form.values().at("iterations"), "30");
}

std::shared_ptr<const app::SliceImage> slice(float value) {
    auto s = std::make_shared<app::SliceImage>();
    s->rows = s->cols = 16;
    s->values.assign(256, value);  // 1 KiB
    return s;
}

TEST(SnapshotStore, StaysWithinItsBudgetByThinningEvenly) {
    SnapshotStore store(10 * 1024);  // ten 1 KiB slices
    for (int k = 1; k <= 40; ++k) {
        store.add(k, slice(static_cast<float>(k)));
        EXPECT_LE(store.bytes(), store.budget()) << "after iteration " << k;
    }
    EXPECT_TRUE(store.contains(1)) << "the first is kept";
    EXPECT_TRUE(store.contains(40)) << "the newest is kept";
    EXPECT_GE(store.size(), 5u);
    // Kept iterations are spread over the whole run, not only the latest ones.
    int found = 0;
    auto mid = store.nearest(20, &found);
    ASSERT_NE(mid, nullptr);
    EXPECT_LE(std::abs(found - 20), 8);
    EXPECT_EQ(mid->values.front(), static_cast<float>(found));
    // nearest() of a kept one is itself.
    store.nearest(40, &found);
    EXPECT_EQ(found, 40);
    store.setBudget(1024);
    EXPECT_EQ(store.size(), 1u);
    EXPECT_TRUE(store.contains(40));
}

TEST(EtaEstimator, ExtrapolatesTheRateAfterTheWarmUp) {
    app::EtaEstimator eta;
    eta.smoothing = 1.0;  // no smoothing: exact values
    auto t0 = app::EtaEstimator::Clock::time_point{} + 10s;
    eta.update(0.0, t0);
    eta.update(0.1, t0 + 1s);  // the clock starts here
    eta.update(0.11, t0 + 1200ms);
    EXPECT_FALSE(eta.remainingSeconds()) << "too early";
    eta.update(0.3, t0 + 3s);  // 0.2 in 2 s -> 0.7 left takes 7 s
    ASSERT_TRUE(eta.remainingSeconds());
    EXPECT_NEAR(*eta.remainingSeconds(), 7.0, 1e-9);
    EXPECT_EQ(app::EtaEstimator::format(7.0), "ETA 0:07");
    EXPECT_EQ(app::EtaEstimator::format(3725.0), "ETA 1:02:05");
    eta.update(1.0, t0 + 10s);
    EXPECT_FALSE(eta.remainingSeconds());
}

TEST(JobRunner, FinishEarlyIsSeenByAControlledJobAndPostsArriveInOrder) {
    app::JobRunner runner;
    QSignalSpy finished(&runner, &app::JobRunner::finished);
    std::vector<int> received;
    std::atomic<int> loops{0};
    ASSERT_TRUE(runner.startControlled(
        [&](const ExecContext& ctx, const app::JobControl& control) -> Status {
            for (int i = 0; i < 20000; ++i) {
                if (ctx.stop.stop_requested()) return cancelled();
                control.post([&received, i] { received.push_back(i); });
                loops = i + 1;
                if (control.finishEarlyRequested()) return Status::ok();
                std::this_thread::sleep_for(1ms);
            }
            return internalError("finishEarly was not seen");
        }));
    while (loops < 5)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);  // test thread only
    runner.finishEarly();
    ASSERT_TRUE(waitFor(finished, 1, 5000));
    EXPECT_TRUE(finished.at(0).at(0).toBool()) << finished.at(0).at(1).toString().toStdString();
    // Every post made before the job returned was delivered, in order, before finished.
    ASSERT_EQ(static_cast<int>(received.size()), loops.load());
    for (std::size_t i = 0; i < received.size(); ++i)
        EXPECT_EQ(received[i], static_cast<int>(i));
}

}  // namespace
}  // namespace tomo::ui
