// Paper 002's ALU operation counts, the texture estimate, and predict() against hand-computed
// limits.
#include <gtest/gtest.h>

#include "core/selection/VariantCost.h"

namespace tomo {
namespace {

TEST(VariantCost, AluCountsReproducePaperSection65) {
    // 1 slice, ACM, 256 threads, 32x32 tile (4 px/thread), 16 threads per row, unrolled.
    // Hand count per update with 1024 updates per block and projection:
    //  const  = 16*16/1024 + 8/4                         = 2.25     (paper: 2.3 B)
    //  shared = 16*4/1024 + 48*8/1024 + 1/4 + 8          = 8.6875   (paper: 8.7 B)
    //  FP     = (4*16 + 4*16)/1024 + 2/4 + 2 + 2         = 4.625    (paper: 4.6)
    //  TC     = (16 + 16)/1024 + 2                       = 2.03125  (paper: 2.0)
    //  BS     = (32 + 32)/1024 + 1/4 + 1                 = 1.3125   (paper: 1.3)
    //  instr  = FP + TC + BS + const loads (16/1024+1/4) = 8.234375 (paper: 8.2)
    const VariantCost c = aluCost(AluShape{});
    EXPECT_DOUBLE_EQ(c.constantBytes, 2.25);
    EXPECT_DOUBLE_EQ(c.sharedBytes, 8.6875);
    EXPECT_DOUBLE_EQ(c.fp, 4.625);
    EXPECT_DOUBLE_EQ(c.conversion, 2.03125);
    EXPECT_DOUBLE_EQ(c.integer, 1.3125);
    EXPECT_DOUBLE_EQ(c.instructions, 8.234375);
    EXPECT_DOUBLE_EQ(c.textureFetches, 48.0 / 1024);
}

TEST(VariantCost, AluVariantsMoveTheRightCounts) {
    AluShape nn;
    nn.linear = false;
    const VariantCost n = aluCost(nn);
    EXPECT_DOUBLE_EQ(n.fp, 4.625 - 1 - 1);                          // no weight, no lerp FMA
    EXPECT_DOUBLE_EQ(n.conversion, 2.03125 - 1);                    // only the float->int
    EXPECT_DOUBLE_EQ(n.sharedBytes, 8.6875 - 48.0 * 4 / 1024 - 4);  // 4 B values, 4 B read
    AluShape fpr;
    fpr.fpRounding = true;  // 2 conversions -> 3 FP operations
    const VariantCost f = aluCost(fpr);
    EXPECT_DOUBLE_EQ(f.conversion, 2.03125 - 2);
    EXPECT_DOUBLE_EQ(f.fp, 4.625 + 3);
    AluShape big;  // 64x64, 16 px/thread, 2 slices: stages 3-4 amortised over more updates
    big.tile = 64;
    big.pixelsPerThread = 16;
    big.slices = 2;
    big.threadsPerRow = 32;
    const VariantCost b = aluCost(big);
    // FP = (4*32 + 4*32)/(256*16*2) + 2/32 + 2/2 + 2
    EXPECT_DOUBLE_EQ(b.fp, 256.0 / 8192 + 2.0 / 32 + 1 + 2);
    EXPECT_DOUBLE_EQ(b.constantBytes, 16.0 * 32 / 8192 + 8.0 / 32);
    EXPECT_EQ(b.texelBytes, 8);
}

// Sect. 6.6, fully SFU-free rounding: relative to the plain kernel the 3 SFU operations of
// stage 4 (floor and F2I = 2 TC, the index shift = 1 BS, per pixel and projection, 1 slice)
// become 5 FP operations; relative to the balanced one (3 FP for the 2 TC) 2 FP more and the
// shift gone. Linear and nearest, with and without ACM.
TEST(VariantCost, FullFpRoundingReplacesThreeSfuOpsByFiveFp) {
    for (const bool linear : {true, false}) {
        AluShape plain;
        plain.linear = linear;
        plain.acm = linear;
        AluShape balanced = plain;
        balanced.fpRounding = true;
        AluShape full = balanced;
        full.fpOffset = true;
        const VariantCost p = aluCost(plain), b = aluCost(balanced), f = aluCost(full);
        const double tc4 = linear ? 2 : 1;  // nearest: only the F2I (plus the shift)
        EXPECT_DOUBLE_EQ(f.fp, p.fp + 5) << linear;
        EXPECT_DOUBLE_EQ(f.conversion, p.conversion - tc4) << linear;
        EXPECT_DOUBLE_EQ(f.integer, p.integer - 1) << linear;
        EXPECT_DOUBLE_EQ(f.fp, b.fp + 2) << linear;
        EXPECT_DOUBLE_EQ(f.conversion, b.conversion) << linear;
        EXPECT_DOUBLE_EQ(f.integer, b.integer - 1) << linear;
        // Nothing else moves; issued instructions: +5 FP - 3 SFU.
        EXPECT_DOUBLE_EQ(f.sharedBytes, p.sharedBytes) << linear;
        EXPECT_DOUBLE_EQ(f.constantBytes, p.constantBytes) << linear;
        EXPECT_DOUBLE_EQ(f.instructions, p.instructions + 5 - tc4 - 1) << linear;
    }
    // Hand count, linear ACM 1 slice 32x32: FP 4.625 + 5, TC 2.03125 - 2, BS 1.3125 - 1.
    AluShape full;
    full.fpRounding = full.fpOffset = true;
    const VariantCost f = aluCost(full);
    EXPECT_DOUBLE_EQ(f.fp, 9.625);
    EXPECT_DOUBLE_EQ(f.conversion, 0.03125);
    EXPECT_DOUBLE_EQ(f.integer, 0.3125);
    // Two slices: stage 4 is amortised over n_v = 2 updates, so 2.5 FP for 1.5 SFU ops.
    AluShape two = full;
    two.slices = 2;
    AluShape twoPlain;
    twoPlain.slices = 2;
    EXPECT_DOUBLE_EQ(aluCost(two).fp - aluCost(twoPlain).fp, 2.5);
    EXPECT_DOUBLE_EQ(aluCost(twoPlain).integer - aluCost(two).integer, 0.5);
}

TEST(VariantCost, TextureCostIsOneFetchPerTexelOfSlices) {
    TextureShape two;
    two.slices = 2;
    two.zorder = true;
    const VariantCost c = textureCost(two);
    EXPECT_DOUBLE_EQ(c.textureFetches, 0.5);
    EXPECT_EQ(c.texelBytes, 8);
    EXPECT_DOUBLE_EQ(c.textureEfficiency, 0.85);
    two.zorder = false;  // linear thread layout: half the 64-bit filter rate (Sect. 3.4)
    EXPECT_DOUBLE_EQ(textureCost(two).textureEfficiency, 0.425);
    TextureShape half4;
    half4.slices = 4;
    half4.half = true;
    half4.linear = false;
    EXPECT_EQ(textureCost(half4).texelBytes, 8);
}

DeviceTraits syntheticTraits() {
    DeviceTraits t;
    t.fp32.value = 1000;
    t.conversion.value = 250;
    t.integer.value = 500;
    t.issue.value = 1000;
    t.shared.value = 4000;
    t.constant.value = 4000;
    t.texture32.value = 100;
    t.texture64.value = 100;
    t.texture128.value = 50;
    return t;
}

TEST(Predict, MinimumOverUnitsNamesTheBottleneck) {
    const DeviceTraits t = syntheticTraits();
    const VariantCost c = aluCost(AluShape{});
    const Prediction p = predict(t, c);
    // Limits: fp 1000/4.625 = 216.2, TC 250/2.03125 = 123.08, BS 500/1.3125 = 380.95,
    // issue 1000/8.234375 = 121.44, shared 4000/8.6875 = 460.4, const 4000/2.25 = 1777.8,
    // texture 100/(48/1024) = 2133.3 -> issue.
    EXPECT_NEAR(p.gups, 1000 / 8.234375, 1e-9);
    EXPECT_EQ(p.bottleneck, "issue");
    EXPECT_EQ(p.limits.size(), 7u);
}

TEST(Predict, TextureEstimateIsFilterRateTimesSlicesTimesEfficiency) {
    DeviceTraits t = syntheticTraits();
    t.fp32.value = t.issue.value = t.conversion.value = 1e6;  // only the texture unit limits
    TextureShape two;
    two.slices = 2;
    two.zorder = true;
    const Prediction p = predict(t, textureCost(two));
    EXPECT_NEAR(p.gups, 100 * 2 * 0.85, 1e-9);
    EXPECT_EQ(p.bottleneck, "texture64");
    // A workload of 3 slices runs 2 passes of 2: 3/4 of the lanes busy.
    EXPECT_NEAR(predict(t, textureCost(two), 3).gups, 170 * 0.75, 1e-9);
}

TEST(Predict, NoOverlapSumsAluWorkAndScalarCodeGetsOneLane) {
    DeviceTraits t = syntheticTraits();
    t.conversionOverlapsFp = false;  // GCN: FP, TC and BS share the ALUs
    t.issue.value = 1e6;
    const VariantCost c = aluCost(AluShape{});
    const Prediction p = predict(t, c);
    EXPECT_NEAR(p.gups, 1000 / (4.625 + 2.03125 + 1.3125), 1e-9);
    EXPECT_EQ(p.bottleneck, "alu");

    DeviceTraits cpu = syntheticTraits();
    cpu.simdLanes = 16;
    VariantCost scalar;
    scalar.fp = 8;
    scalar.vectorLanes = 1;
    EXPECT_NEAR(predict(cpu, scalar).gups, 1000.0 / 16 / 8, 1e-9);
    scalar.vectorLanes = 4;
    EXPECT_NEAR(predict(cpu, scalar).gups, 1000.0 * 4 / 16 / 8, 1e-9);
}

TEST(Predict, AbsentUnitGivesZero) {
    DeviceTraits cpu = syntheticTraits();
    cpu.texture32.value = cpu.texture64.value = cpu.texture128.value = 0;
    const Prediction p = predict(cpu, textureCost(TextureShape{}));
    EXPECT_EQ(p.gups, 0);
    EXPECT_NE(p.bottleneck.find("absent"), std::string::npos);
}

TEST(CostFor, ReadsFamilyAndParameters) {
    BackProjectorInfo info;
    info.id = "opencl.alu.lin.1s.32x32";
    info.backend = "opencl";
    info.family = "alu";
    info.parameters = {{"tile", "32x32"}, {"pixelsPerThread", "4"}, {"acm", "1"}};
    auto c = costFor(info);
    ASSERT_TRUE(c.isOk());
    EXPECT_DOUBLE_EQ(c->fp, aluCost(AluShape{}).fp);

    // The rounding parameter of the registered ALU variants: "fp-full" is the SFU-free count.
    BackProjectorInfo full = info;
    full.id = "opencl.alu.fpround.full.lin.1s.32x32";
    full.parameters = {{"tile", "32x32"}, {"acm", "0"}, {"rounding", "fp-full"}};
    AluShape fullShape;
    fullShape.acm = false;
    fullShape.fpRounding = fullShape.fpOffset = true;
    auto fc = costFor(full);
    ASSERT_TRUE(fc.isOk());
    EXPECT_DOUBLE_EQ(fc->fp, aluCost(fullShape).fp);
    EXPECT_DOUBLE_EQ(fc->integer, aluCost(fullShape).integer);
    full.parameters["rounding"] = "fp-balanced";
    fullShape.fpOffset = false;
    EXPECT_DOUBLE_EQ(costFor(full)->fp, aluCost(fullShape).fp);
    full.parameters["rounding"] = "sfu";
    fullShape.fpRounding = false;
    EXPECT_DOUBLE_EQ(costFor(full)->conversion, aluCost(fullShape).conversion);
    EXPECT_DOUBLE_EQ(costFor(full)->fp, aluCost(fullShape).fp);

    info.family = "hybrid";
    info.parameters["ratio"] = "1:1";
    auto h = costFor(info);
    ASSERT_TRUE(h.isOk());
    TextureShape tex;
    tex.zorder = true;
    tex.pixelsPerThread = 4;
    EXPECT_DOUBLE_EQ(h->fp, 0.5 * aluCost(AluShape{}).fp + 0.5 * textureCost(tex).fp);

    info.family = "reference";
    EXPECT_EQ(costFor(info).status().code(), ErrorCode::Unsupported);
    info.family = "mystery";
    EXPECT_EQ(costFor(info).status().code(), ErrorCode::Unsupported);
}

TEST(CostFor, CpuScalarIsScalarAndMultiSliceUsesAllLanes) {
    BackProjectorInfo scalar;
    scalar.id = "cpu.scalar.lin";
    scalar.backend = scalar.family = "cpu";
    auto s = costFor(scalar);
    ASSERT_TRUE(s.isOk());
    EXPECT_EQ(s->vectorLanes, 1);
    BackProjectorInfo simd = scalar;
    simd.id = "cpu.simd.avx512.lin";
    simd.slicesPerPass = 16;
    simd.parameters = {{"isa", "avx512"}, {"pixelGroup", "16"}};
    auto m = costFor(simd);
    ASSERT_TRUE(m.isOk());
    EXPECT_EQ(m->vectorLanes, 0);
    EXPECT_EQ(m->slicesPerPass, 16);
    EXPECT_DOUBLE_EQ(m->fp, 3 + 6.0 / 16);
}

}  // namespace
}  // namespace tomo
