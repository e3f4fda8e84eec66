// L-curve corner on curves with a known corner, and the CSV / JSON exports.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/JsonValue.h"
#include "core/solvers/IterationCorner.h"
#include "core/solvers/LCurve.h"
#include "core/solvers/VectorOps.h"

namespace tomo {
namespace {

/// An L in log-log space, traversed like an iterative method: residual falling 10^3 -> 10^1
/// at norm ~1 (points 0..9), then norm rising 10^0 -> 10^3 at residual ~10 (points 10..19).
std::vector<LCurvePoint> syntheticL(bool noisyTail) {
    std::vector<LCurvePoint> pts;
    for (int i = 0; i < 10; ++i)
        pts.push_back({double(i + 1), std::pow(10.0, 3.0 - 2.0 * i / 9.0), std::pow(10.0, 0.02 * i),
                       std::nullopt});
    for (int i = 1; i <= 10; ++i) {
        double res = std::pow(10.0, 1.0 - 0.02 * i);
        if (noisyTail && i % 2 == 0) res *= 1.01;  // non-monotone tail
        pts.push_back({double(10 + i), res, std::pow(10.0, 0.18 + 0.3 * i), std::nullopt});
    }
    return pts;
}

TEST(LCurve, CornerOfAnLIsItsKnee) {
    auto pts = syntheticL(false);
    auto c = lcurveCorner(pts);
    ASSERT_TRUE(c.isOk());
    EXPECT_EQ(*c, 9u);
    auto noisy = syntheticL(true);
    auto cn = lcurveCorner(noisy);
    ASSERT_TRUE(cn.isOk());
    EXPECT_NEAR(double(*cn), 9.0, 1.0);
    // Reversed traversal (a lambda sweep from small to large lambda) finds the same point.
    std::vector<LCurvePoint> reversed(pts.rbegin(), pts.rend());
    auto cr = lcurveCorner(reversed);
    ASSERT_TRUE(cr.isOk());
    EXPECT_EQ(*cr, pts.size() - 1 - 9);
}

/// SIRT-like, shaped after SIRT on issue 29's 256^2 90-view case: the residual falls as
/// (1 + (k - 1) / 5)^-0.8 from 1716 while ||x|| climbs quickly, then slowly, towards 62.5 (the
/// bend of the first iterations); with @p noiseBranch further iterations where ||x|| grows by
/// 3% per iteration while the residual falls by 0.2%.
std::vector<LCurvePoint> sirtLike(int iterations, int noiseBranch) {
    std::vector<LCurvePoint> pts;
    double r = 0, x = 0;
    for (int k = 1; k <= iterations; ++k) {
        r = 1716.0 * std::pow(1.0 + (k - 1) / 5.0, -0.8);
        x = 62.5 - 29.6 * std::exp(-(k - 1) / 60.0);
        pts.push_back({double(k), r, x, {}});
    }
    for (int k = 1; k <= noiseBranch; ++k)
        pts.push_back({double(iterations + k), r *= 0.998, x *= 1.03, {}});
    return pts;
}

TEST(IterationCorner, TheFirstBendIsNeverACorner) {
    // Issue 29: SIRT's curve bends in its first iterations; the triangle criterion called that
    // bend the corner (iteration 2 of 300).
    for (int iterations : {60, 150, 300}) {
        const auto pts = sirtLike(iterations, 0);
        auto c = iterationCorner(pts);
        ASSERT_FALSE(c.isOk()) << iterations << " iterations: corner " << *c;
        EXPECT_NE(c.status().message().find("not the turn into the noise branch"),
                  std::string::npos)
            << c.status().message();
    }
    auto old = lcurveCorner(sirtLike(300, 0));  // what the old rule did: a corner in the bend
    ASSERT_TRUE(old.isOk());
    EXPECT_LE(*old, 10u);
    // With a noise branch after the flat part, the corner is its start, not the first bend.
    auto c = iterationCorner(sirtLike(150, 30));
    ASSERT_TRUE(c.isOk()) << c.status().message();
    EXPECT_NEAR(double(*c), 149.0, 4.0);  // the knee at index 149, within 3% of the run
}

TEST(IterationCorner, AnLHasItsKneeAndCurvesWithoutANoiseBranchHaveNone) {
    auto c = iterationCorner(syntheticL(false));
    ASSERT_TRUE(c.isOk()) << c.status().message();
    EXPECT_EQ(*c, 9u);
    auto noisy = iterationCorner(syntheticL(true));
    ASSERT_TRUE(noisy.isOk());
    EXPECT_NEAR(double(*noisy), 9.0, 1.0);
    // A straight line in log-log (||x|| rising steadily as the residual falls): no turn.
    std::vector<LCurvePoint> straight;
    for (int i = 0; i < 40; ++i)
        straight.push_back(
            {double(i + 1), std::pow(10.0, 3 - 0.05 * i), std::pow(10.0, 0.05 * i), {}});
    auto s = iterationCorner(straight);
    ASSERT_FALSE(s.isOk());
    EXPECT_NE(s.status().message().find("without a turn"), std::string::npos)
        << s.status().message();
    // ||x|| flat within 1%: no noise branch at all.
    std::vector<LCurvePoint> flat;
    for (int i = 0; i < 40; ++i)
        flat.push_back({double(i + 1), std::pow(10.0, 3 - 0.05 * i), 1.0 + 0.0002 * i, {}});
    auto f = iterationCorner(flat);
    ASSERT_FALSE(f.isOk());
    EXPECT_NE(f.status().message().find("rose by at most"), std::string::npos)
        << f.status().message();
    EXPECT_FALSE(iterationCorner(std::span(flat).first(5)).isOk());  // too few iterations
}

TEST(LCurve, RejectsDegenerateInput) {
    std::vector<LCurvePoint> two = {{1, 1, 1, {}}, {2, 0.5, 2, {}}};
    EXPECT_EQ(lcurveCorner(two).status().code(), ErrorCode::InvalidArgument);
    std::vector<LCurvePoint> zero = {{1, 1, 1, {}}, {2, 0, 2, {}}, {3, 0.1, 3, {}}};
    EXPECT_EQ(lcurveCorner(zero).status().code(), ErrorCode::InvalidArgument);
}

TEST(LCurve, FromHistoryAndExports) {
    std::vector<IterationInfo> history(3);
    for (int i = 0; i < 3; ++i) {
        history[std::size_t(i)].iteration = i + 1;
        history[std::size_t(i)].residualNorm = 10.0 / (i + 1);
        history[std::size_t(i)].solutionNorm = 1.0 + i;
    }
    history[1].error = 0.25;
    const auto pts = lcurveFromHistory(history);
    ASSERT_EQ(pts.size(), 3u);
    EXPECT_EQ(pts[2].parameter, 3.0);
    EXPECT_EQ(pts[1].residualNorm, 5.0);
    EXPECT_EQ(pts[1].error, 0.25);

    const auto dir = std::filesystem::temp_directory_path() / "tomo_lcurve_test";
    std::filesystem::create_directories(dir);
    const std::string csv = (dir / "l.csv").string(), json = (dir / "l.json").string();
    ASSERT_TRUE(writeLCurveCsv(csv, pts, 1).isOk());
    std::ifstream in(csv);
    std::string header, line;
    std::getline(in, header);
    EXPECT_EQ(header, "parameter,residual_norm,solution_norm,error,corner");
    std::vector<std::string> lines;
    while (std::getline(in, line))
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "1,10,1,,0");
    EXPECT_EQ(lines[1], "2,5,2,0.25,1");

    ASSERT_TRUE(writeLCurveJson(json, pts, 1).isOk());
    std::ifstream jin(json);
    std::stringstream ss;
    ss << jin.rdbuf();
    auto doc = JsonValue::parse(ss.str());
    ASSERT_TRUE(doc.isOk());
    EXPECT_EQ(doc->numberAt("corner", -1), 1.0);
    EXPECT_EQ(doc->numberAt("corner_parameter", -1), 2.0);
    ASSERT_EQ(doc->find("points")->items().size(), 3u);
    EXPECT_EQ(doc->find("points")->items()[2].numberAt("residual_norm"), 10.0 / 3.0);
    EXPECT_TRUE(doc->find("points")->items()[0].find("error")->isNull());
    std::filesystem::remove_all(dir);
}

TEST(VectorOps, AgreeWithDoubleReferences) {
    std::vector<float> a(100003), b(a.size());
    double ref = 0, refNorm = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = float(std::sin(0.001 * double(i)));
        b[i] = float(std::cos(0.003 * double(i)));
        ref += double(a[i]) * b[i];
        refNorm += double(a[i]) * a[i];
    }
    EXPECT_NEAR(dot(a, b, {1, {}, nullptr}), ref, 1e-9 * std::abs(ref) + 1e-9);
    EXPECT_EQ(dot(a, b, {1, {}, nullptr}), dot(a, b, {2, {}, nullptr}));  // thread-independent
    EXPECT_NEAR(norm(a), std::sqrt(refNorm), 1e-9 * std::sqrt(refNorm));
    std::vector<float> y = b;
    axpby(2.0, a, -0.5, y);
    for (std::size_t i = 0; i < a.size(); i += 997)
        EXPECT_FLOAT_EQ(y[i], 2.f * a[i] - 0.5f * b[i]);
    std::vector<float> w = {0.f, 2.f, -1.f, 4.f}, inv(4);
    invertWeights(w, inv);
    EXPECT_EQ(inv, (std::vector<float>{0.f, 0.5f, 0.f, 0.25f}));
    clampNonNegative(w);
    EXPECT_EQ(w, (std::vector<float>{0.f, 2.f, 0.f, 4.f}));
    fill(w, 3.f);
    EXPECT_EQ(w, (std::vector<float>(4, 3.f)));
    EXPECT_NEAR(rmsDifference(std::vector<float>{1, 2}, std::vector<float>{1, 4}), std::sqrt(2.0),
                1e-12);
}

}  // namespace
}  // namespace tomo
