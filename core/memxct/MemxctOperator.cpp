#include "core/memxct/MemxctOperator.h"

#include <algorithm>
#include <new>
#include <string>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

constexpr std::size_t kPermuteChunk = 16384;

/// dst[i] = src[index[i]] over chunks.
Status gather(std::span<const float> src, const std::vector<std::uint32_t>& index,
              std::span<float> dst, const ExecContext& ctx) {
    const std::size_t n = index.size(), chunks = (n + kPermuteChunk - 1) / kPermuteChunk;
    return parallelFor(chunks, ctx.threads, ctx.stop, [&](std::size_t c, int) {
        const std::size_t i1 = std::min(n, (c + 1) * kPermuteChunk);
        for (std::size_t i = c * kPermuteChunk; i < i1; ++i)
            dst[i] = src[index[i]];
    });
}

/// dst[index[i]] = src[i] over chunks (index is a permutation onto a subset of dst).
Status scatter(std::span<const float> src, const std::vector<std::uint32_t>& index,
               std::span<float> dst, const ExecContext& ctx) {
    const std::size_t n = index.size(), chunks = (n + kPermuteChunk - 1) / kPermuteChunk;
    return parallelFor(chunks, ctx.threads, ctx.stop, [&](std::size_t c, int) {
        const std::size_t i1 = std::min(n, (c + 1) * kPermuteChunk);
        for (std::size_t i = c * kPermuteChunk; i < i1; ++i)
            dst[index[i]] = src[i];
    });
}

}  // namespace

Result<std::unique_ptr<MemxctOperator>> MemxctOperator::create(const ParallelGeometry& geom,
                                                               const VolumeGeometry& vol,
                                                               const MemxctOptions& options,
                                                               const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (vol.nz != geom.rows())
        return invalidArgument("MemXCT: the grid has " + std::to_string(vol.nz) +
                               " slices but the geometry " + std::to_string(geom.rows()) +
                               " detector rows");
    TOMO_ASSIGN_OR_RETURN(MemxctSystem system, MemxctSystem::build(geom, vol, options, ctx));
    std::unique_ptr<MemxctOperator> op(new (std::nothrow) MemxctOperator(std::move(system)));
    if (!op) return outOfMemory("MemXCT: cannot allocate the operator");
    op->m_kernel = options.kernel;
    op->m_pixels = static_cast<std::size_t>(vol.nx) * static_cast<std::size_t>(vol.ny);
    op->m_samples = static_cast<std::size_t>(geom.angleCount()) *
                    static_cast<std::size_t>(geom.detectorCount());
    op->m_slices = static_cast<std::size_t>(vol.nz);
    try {
        op->m_curveImage.resize(op->m_system.imageOrdering().size());
        op->m_curveSino.resize(op->m_system.sinogramOrdering().size());
    } catch (const std::bad_alloc&) {
        return outOfMemory("MemXCT: cannot allocate the per-slice scratch vectors");
    }
    return op;
}

std::string MemxctOperator::name() const {
    return std::string("memxct.") + memxctKernelName(m_kernel);
}

Status MemxctOperator::forward(std::span<const float> x, std::span<float> y,
                               const ExecContext& ctx) {
    if (x.size() != domainSize() || y.size() != rangeSize())
        return invalidArgument("MemXCT forward: x has " + std::to_string(x.size()) + " (expected " +
                               std::to_string(domainSize()) + ") and y " +
                               std::to_string(y.size()) + " (expected " +
                               std::to_string(rangeSize()) + ") elements");
    const auto& imagePixels = m_system.imageOrdering().pixels();
    const auto& sinoPixels = m_system.sinogramOrdering().pixels();
    for (std::size_t s = 0; s < m_slices; ++s) {
        TOMO_RETURN_IF_ERROR(
            gather(x.subspan(s * m_pixels, m_pixels), imagePixels, m_curveImage, ctx));
        TOMO_RETURN_IF_ERROR(m_system.forward(m_kernel, m_curveImage, m_curveSino, ctx));
        TOMO_RETURN_IF_ERROR(
            scatter(m_curveSino, sinoPixels, y.subspan(s * m_samples, m_samples), ctx));
    }
    return Status::ok();
}

Status MemxctOperator::adjoint(std::span<const float> y, std::span<float> x,
                               const ExecContext& ctx) {
    if (x.size() != domainSize() || y.size() != rangeSize())
        return invalidArgument("MemXCT adjoint: y has " + std::to_string(y.size()) + " (expected " +
                               std::to_string(rangeSize()) + ") and x " + std::to_string(x.size()) +
                               " (expected " + std::to_string(domainSize()) + ") elements");
    const auto& imagePixels = m_system.imageOrdering().pixels();
    const auto& sinoPixels = m_system.sinogramOrdering().pixels();
    const bool masked = imagePixels.size() != m_pixels;
    for (std::size_t s = 0; s < m_slices; ++s) {
        std::span<float> out = x.subspan(s * m_pixels, m_pixels);
        TOMO_RETURN_IF_ERROR(
            gather(y.subspan(s * m_samples, m_samples), sinoPixels, m_curveSino, ctx));
        TOMO_RETURN_IF_ERROR(m_system.adjoint(m_kernel, m_curveSino, m_curveImage, ctx));
        if (masked) std::fill(out.begin(), out.end(), 0.0f);
        TOMO_RETURN_IF_ERROR(scatter(m_curveImage, imagePixels, out, ctx));
    }
    return Status::ok();
}

}  // namespace tomo
