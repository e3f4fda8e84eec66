// The memory of one reconstruction step (MemoryModel.h).
#include "app/recon/MemoryModel.h"

#include <algorithm>
#include <cstdio>

#include "core/data/Array.h"
#include "core/iterative/IterativeReconstruction.h"
#include "core/mbir/MbirMatrix.h"
#include "core/memxct/MemxctSystem.h"
#include "core/projectors/JosephTranspose.h"

namespace tomo::app::detail {
namespace {

constexpr std::size_t kFloat = sizeof(float);

/// Bytes of one padded plane of @p rows x @p cols floats (Array3's 64-byte aligned rows).
std::size_t plane(std::size_t rows, std::size_t cols) {
    return rows * alignedCount<float>(cols) * kFloat;
}

/// The vectors every iterative solve holds per slice, in floats of the data (m) and the image
/// (n): the data as a dense copy and as read, the iterate, the output and the preview copy
/// (IterationMonitor), the reference and the initial image when given, the stopping rule's
/// copies (StoppingRule.h: rel-change one image, corner three and the start's copy).
struct Vectors {
    std::size_t m = 0, n = 0;
};

Vectors commonVectors(const ReconRequest& request, const ParameterValues& params) {
    Vectors v{2, 3};                  // b dense + the slab read; x, the output, the preview
    if (request.reference) v.n += 2;  // dense + the slab's planes
    if (request.initial) v.n += 2;
    const std::string& rule = params.text("stop");
    if (rule == "rel-change") v.n += 1;
    if (rule == "corner") v.n += 4;  // previous, corner, discrepancy iterates, the start
    return v;
}

/// The solver's own vectors (core/solvers, core/mbir) and its operator's scratch.
Vectors solverVectors(const std::string& id, const ParameterValues& params, std::size_t angles) {
    const bool locality = usesLocalityPair(params);
    const Vectors op = locality ? Vectors{1, 1} : Vectors{0, 0};  // m_sino, m_volume
    if (id == "sirt") return {2 + op.m, 2 + op.n};                // R, r; C, update
    if (id == "os-sirt" || id == "sart") {
        // R, r, update, and the column weights of every subset when they fit 512 MiB
        // (Sirt.cpp kSubsetWeightBudget); counted per slice as S images at most.
        const std::size_t subsets =
            id == "sart" ? angles : std::size_t(std::max(1, params.integer("subsets")));
        return {2 + op.m, 1 + std::min<std::size_t>(subsets, 64) + op.n};
    }
    if (id == "cgls") return {2, 2};          // r, q; s, p
    if (id == "memxct") return {3, 3};        // + the Hilbert-ordered copies
    if (id == "tv") return {4 + 2, 6 + 1};    // sigma, p, Ax, Ax bar (+ FBP start)
    if (id == "mbir") return {3 + 2, 3 + 1};  // error, weight, data; x, flat, truth
    return {2, 2};
}

/// Bytes per solve that do not grow with its slices: MemXCT's and MBIR's system matrices (the
/// peak of MemXCT's build; GPU-ICD's host layout, its tables alone since the device builds the
/// tiles, is under a quarter of MBIR's 8-bit matrix: 8 bytes per voxel and 32 views, where the
/// matrix holds about 3 per voxel and view).
Result<std::size_t> matrixBytes(const ReconRequest& request, const Resolved& resolved) {
    const ParameterValues& params = resolved.params;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry one, slabGeometry(request.geometry, 1));
    VolumeGeometry grid = request.grid;
    grid.nz = 1;
    if (resolved.spec.id == "memxct") {
        MemxctOptions o;
        TOMO_ASSIGN_OR_RETURN(o.kernel, parseMemxctKernel(params.text("kernel")));
        o.tileSize = params.integer("tile");
        o.circleMask = params.boolean("circle-mask");
        TOMO_ASSIGN_OR_RETURN(MemxctMemoryEstimate e, estimateMemxctMemory(one, grid, o));
        return e.peakBytes;
    }
    if (resolved.spec.id == "mbir") {
        const MbirEntryType type =
            params.text("matrix") == "float" ? MbirEntryType::Float : MbirEntryType::Uint8;
        const std::size_t matrix = MbirMatrix::estimateBytes(MbirSliceGeometry(one, grid), type);
        return resolved.makeIcdDevice ? matrix + matrix / 4 : matrix;
    }
    return std::size_t(0);
}

}  // namespace

StepMemory fbpStepMemory(const ReconRequest& request, std::size_t batch) {
    const auto [slices, angles, detectors] = request.source->shape();
    (void)slices;
    const std::size_t sinogram = plane(angles, detectors);
    const std::size_t slice = plane(std::size_t(request.grid.ny), std::size_t(request.grid.nx));
    StepMemory s;
    s.what = "FBP batch";
    s.granule = std::max<std::size_t>(1, batch);
    // A slab holds its input and its output; reconstructFbp adds per batch a filtered copy,
    // the back-projector's packed copy and the batch's output.
    s.perSlice = sinogram + slice + request.source->readOverheadPerSlice();
    s.inputPerSlice = sinogram;
    s.fixed = s.granule * (2 * sinogram + slice);
    return s;
}

StepMemory analyticStepMemory(const ReconRequest& request, const Resolved& resolved) {
    StepMemory s = fbpStepMemory(request, fbpBatch(request, resolved));
    if (resolved.variant == kJosephTransposeId)  // its double accumulator of the batch's output
        s.fixed +=
            s.granule * 2 * plane(std::size_t(request.grid.ny), std::size_t(request.grid.nx));
    if (resolved.fourier) {
        s.fixed = resolved.gridrecWorkBytes;
        s.what = "gridrec's working memory";
    }
    return s;
}

Result<StepMemory> iterativeStepMemory(const ReconRequest& request, const Resolved& resolved) {
    const auto [slices, angles, detectors] = request.source->shape();
    (void)slices;
    const ParameterValues& params = resolved.params;
    const Vectors common = commonVectors(request, params);
    Vectors own = solverVectors(resolved.spec.id, params, angles);
    if (resolved.makeIcdDevice) {  // GPU-ICD's slice-major copies of a stack (core/mbir/Mbir.cpp)
        own.m += 2;
        own.n += 1;
    }
    const std::size_t m = angles * detectors * kFloat;
    const std::size_t n = std::size_t(request.grid.ny) * std::size_t(request.grid.nx) * kFloat;
    StepMemory s;
    s.what = resolved.spec.id + " solve";
    s.granule = 1;
    s.perSlice =
        (common.m + own.m) * m + (common.n + own.n) * n + request.source->readOverheadPerSlice();
    s.inputPerSlice = m;  // the slab read (commonVectors)
    TOMO_ASSIGN_OR_RETURN(s.fixed, matrixBytes(request, resolved));
    return s;
}

std::size_t heldInputBytes(const ReconRequest& request) {
    const Sinograms* whole = request.source->whole();
    return whole ? whole->dim(0) * plane(whole->dim(1), whole->dim(2)) : 0;
}

std::size_t stepPeakBytes(const StepMemory& step, std::size_t slabSlices, std::size_t slices,
                          std::size_t held) {
    const std::size_t own = step.bytes(slabSlices);
    if (held == 0 || slabSlices < slices) return held + own;
    return held + own - std::min(own, std::min(held, slabSlices * step.inputPerSlice));
}

SlabChoice chooseSlab(const StepMemory& step, std::size_t slices, std::size_t budget,
                      std::size_t held, std::size_t given) {
    const std::size_t g = std::max<std::size_t>(1, step.granule);
    SlabChoice c;
    if (given > 0) {
        c.slices = std::min(slices, (given + g - 1) / g * g);
        return c;
    }
    std::size_t slab = g;
    if (stepPeakBytes(step, g, slices, held) > budget) {
        // Even the minimum is over: the fixed part (a system matrix, a batch's scratch) is paid
        // once per step whatever its slices, so the budget bounds the part that grows with them.
        while (slab < slices && (slab + g) * step.perSlice <= budget)
            slab += g;
        c.slices = std::min(slices, slab);
        c.overBudget = true;
        return c;
    }
    while (slab < slices && stepPeakBytes(step, slab + g, slices, held) <= budget)
        slab += g;
    c.slices = std::min(slices, slab);
    return c;
}

SlabChoice planSolveSlices(const ReconRequest& request, const Resolved& resolved,
                           const StepMemory& step) {
    const std::size_t slices = request.source->shape()[0];
    const std::size_t budget = resolved.budget > 0 ? resolved.budget : request.memoryBudget;
    const std::size_t held = heldInputBytes(request);
    return chooseSlab(step, slices, budget, held, request.slabSlices);
}

std::string formatSize(double bytes) {
    char text[32];
    if (bytes >= double(1ull << 30))
        std::snprintf(text, sizeof text, "%.2f GiB", bytes / double(1ull << 30));
    else
        std::snprintf(text, sizeof text, "%.1f MiB", bytes / double(1ull << 20));
    return text;
}

}  // namespace tomo::app::detail
