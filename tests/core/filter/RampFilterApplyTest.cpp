// RampFilter::apply: linear convolution against a double reference, windows through the
// response, determinism across threads and reuse, cancellation and progress.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <stop_token>
#include <thread>
#include <vector>

#include "FilterReference.h"
#include "TestUtil.h"
#include "core/filter/RampFilter.h"

namespace tomo {
namespace {

/// max |got - ref| / max |ref| over one row.
double rowRelError(std::span<const float> got, const std::vector<double>& ref) {
    double maxDiff = 0, maxRef = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        maxDiff = std::max(maxDiff, std::abs(double(got[i]) - ref[i]));
        maxRef = std::max(maxRef, std::abs(ref[i]));
    }
    return maxDiff / maxRef;
}

bool bitIdentical(const Array3<float>& a, const Array3<float>& b) {
    return a.dims() == b.dims() &&
           std::memcmp(a.data(), b.data(), a.dim(0) * a.dim(1) * a.pitch() * sizeof(float)) == 0;
}

Array3<float> filtered(const RampFilter& f, const Array3<float>& in, int threads) {
    Array3<float> out = in.clone();
    ExecContext ctx;
    ctx.threads = threads;
    EXPECT_TRUE(f.apply(out.rows(), ctx).isOk());
    return out;
}

TEST(RampFilterApply, EqualsLinearConvolutionWithoutWrapAround) {
    const double pitch = 0.7;
    for (int width : {1, 2, 5, 64, 300, 513}) {
        SCOPED_TRACE("width " + std::to_string(width));
        auto f = RampFilter::create(width, pitch);
        ASSERT_TRUE(f.isOk()) << f.status().toString();
        // 70 random rows (full blocks and a partial one) plus rows whose mass sits at an edge.
        Array3<float> rows(1, 72, static_cast<std::size_t>(width));
        test::fillRandom(rows, static_cast<std::uint32_t>(width), 0.f, 1.f);
        const std::size_t edge = std::min<std::size_t>(5, rows.dim(2));
        for (std::size_t c = 0; c < rows.dim(2); ++c) {
            rows(0, 70, c) = c < edge ? 1.f : 0.f;
            rows(0, 71, c) = c + edge >= rows.dim(2) ? 2.f : 0.f;
        }
        Array3<float> out = filtered(*f, rows, 2);
        for (std::size_t r = 0; r < rows.dim(1); ++r) {
            const auto ref = test::linearRamp(rows.row(0, r), pitch);
            EXPECT_LT(rowRelError(out.row(0, r), ref), 1e-5) << "row " << r;
        }
        // Wrap-around would be visible: the circular (unpadded) result differs at this size.
        if (width >= 64) {
            const auto wrapped = test::circularRamp(rows.row(0, 71), pitch);
            EXPECT_GT(rowRelError(out.row(0, 71), wrapped), 1e-3);
        }
    }
}

TEST(RampFilterApply, ImpulseResponseIsInverseDftOfResponseForEveryWindow) {
    const int width = 200;
    const std::size_t impulse = 37;
    for (FilterWindow w : {FilterWindow::SheppLogan, FilterWindow::Cosine, FilterWindow::Hamming,
                           FilterWindow::Hann}) {
        SCOPED_TRACE(filterWindowName(w));
        auto f = RampFilter::create(width, 1.3, {w, 0.6});
        ASSERT_TRUE(f.isOk()) << f.status().toString();
        Array3<float> row(1, 1, width);
        row(0, 0, impulse) = 1.f;
        Array3<float> out = filtered(*f, row, 1);
        // q[k] = sum over all N bins of R(m) cos(2 pi m (k - impulse) / N), R even in m.
        const auto n = static_cast<long>(f->paddedWidth());
        const auto r = f->response();
        std::vector<double> ref(width);
        for (long k = 0; k < width; ++k) {
            double s = 0;
            for (long m = 0; m < n; ++m) {
                const long lag = ((m * (k - static_cast<long>(impulse))) % n + n) % n;
                s += r[static_cast<std::size_t>(std::min(m, n - m))] *
                     std::cos(2.0 * std::numbers::pi * double(lag) / double(n));
            }
            ref[static_cast<std::size_t>(k)] = s;
        }
        EXPECT_LT(rowRelError(out.row(0, 0), ref), 1e-5);
    }
}

TEST(RampFilterApply, MultithreadedIsBitIdenticalToSingleThreaded) {
    auto f = RampFilter::create(300, 1.0, {FilterWindow::SheppLogan, 0.9});
    ASSERT_TRUE(f.isOk());
    Array3<float> rows(3, 50, 300);  // 150 rows: full blocks and a partial one
    test::fillRandom(rows, 7);
    const Array3<float> one = filtered(*f, rows, 1);
    EXPECT_FALSE(bitIdentical(one, rows));
    for (int threads : {2, 3, 0})
        EXPECT_TRUE(bitIdentical(filtered(*f, rows, threads), one));
}

TEST(RampFilterApply, ReusedFilterMatchesFreshOneAndConcurrentCalls) {
    auto reused = RampFilter::create(129, 0.5, {FilterWindow::Hamming, 1.0});
    ASSERT_TRUE(reused.isOk());
    Array3<float> a(1, 40, 129), b(1, 40, 129);
    test::fillRandom(a, 1);
    test::fillRandom(b, 2);
    const Array3<float> a1 = filtered(*reused, a, 2);
    const Array3<float> b1 = filtered(*reused, b, 2);
    auto fresh = RampFilter::create(129, 0.5, {FilterWindow::Hamming, 1.0});
    ASSERT_TRUE(fresh.isOk());
    EXPECT_TRUE(bitIdentical(filtered(*fresh, b, 1), b1));
    EXPECT_TRUE(bitIdentical(filtered(*reused, a, 1), a1));
    // Two calls at once on the same object.
    Array3<float> a2 = a.clone(), b2 = b.clone();
    Status sa, sb;
    {
        std::jthread ta([&] { sa = reused->apply(a2.rows(), ExecContext{1, {}, nullptr}); });
        std::jthread tb([&] { sb = reused->apply(b2.rows(), ExecContext{1, {}, nullptr}); });
    }
    EXPECT_TRUE(sa.isOk() && sb.isOk());
    EXPECT_TRUE(bitIdentical(a2, a1));
    EXPECT_TRUE(bitIdentical(b2, b1));
}

TEST(RampFilterApply, WrongWidthIsAnError) {
    auto f = RampFilter::create(100, 1.0);
    ASSERT_TRUE(f.isOk());
    Array3<float> rows(1, 4, 99);
    Status s = f->apply(rows.rows(), {});
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(s.message().find("99"), std::string::npos) << s.message();
}

TEST(RampFilterApply, TriggeredStopTokenReturnsCancelledAndLeavesRows) {
    auto f = RampFilter::create(64, 1.0);
    ASSERT_TRUE(f.isOk());
    Array3<float> rows(1, 200, 64);
    test::fillRandom(rows, 3);
    const Array3<float> before = rows.clone();
    std::stop_source source;
    source.request_stop();
    ExecContext ctx;
    ctx.threads = 2;
    ctx.stop = source.get_token();
    EXPECT_EQ(f->apply(rows.rows(), ctx).code(), ErrorCode::Cancelled);
    EXPECT_TRUE(bitIdentical(rows, before));
}

struct RecordingSink : ProgressSink {
    std::mutex mutex;
    std::vector<double> values;
    void onProgress(double fraction, std::string_view) override {
        std::lock_guard lock(mutex);
        values.push_back(fraction);
    }
};

TEST(RampFilterApply, ProgressCoversTheRowsMonotonically) {
    auto f = RampFilter::create(64, 1.0);  // blocks of 64 rows
    ASSERT_TRUE(f.isOk());
    Array3<float> rows(1, 300, 64);
    RecordingSink sink;
    Progress root(&sink);
    Progress stage = root.child(0.0, 0.5, "filtering");
    stage.setTotal(3000);  // apply() must set the total to its row count itself
    ExecContext ctx;
    ctx.threads = 2;
    ctx.progress = &stage;
    ASSERT_TRUE(f->apply(rows.rows(), ctx).isOk());
    EXPECT_DOUBLE_EQ(stage.fraction(), 1.0);
    // At most one report per block of 64 rows; with 2 threads two blocks finishing together can
    // share one report (progress never repeats a value).
    ASSERT_GE(sink.values.size(), 1u);
    EXPECT_LE(sink.values.size(), 5u);
    EXPECT_DOUBLE_EQ(sink.values.back(), 0.5);
    for (std::size_t i = 1; i < sink.values.size(); ++i)
        EXPECT_GT(sink.values[i], sink.values[i - 1]);
}

// Timing, not an assertion: run with --gtest_also_run_disabled_tests --gtest_filter='*Timing*'.
TEST(RampFilterApply, DISABLED_Timing) {
    for (int size : {1024, 2048}) {
        auto f = RampFilter::create(size, 1.0, {FilterWindow::SheppLogan, 1.0});
        ASSERT_TRUE(f.isOk());
        Array3<float> rows(1, static_cast<std::size_t>(size), static_cast<std::size_t>(size));
        test::fillRandom(rows, 5);
        ExecContext ctx;
        ctx.threads = 2;
        double best = 1e9;
        for (int rep = 0; rep < 5; ++rep) {
            auto t0 = std::chrono::steady_clock::now();
            ASSERT_TRUE(f->apply(rows.rows(), ctx).isOk());
            best = std::min(best, std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - t0)
                                      .count());
        }
        std::printf("[timing] %s: %d rows x %d, 2 threads: %.2f ms (best of 5)\n",
                    RampFilter::fftBackendName(), size, size, best);
    }
}

}  // namespace
}  // namespace tomo
