#include "core/cone/ConeKernelSupport.h"

#include <algorithm>

#include "core/base/Parallel.h"

namespace tomo::cone {

std::vector<float> batchMatrices(const ConeGeometry& g, const ConeVolumeGrid& grid, int first,
                                 int count) {
    std::vector<float> out;
    out.reserve(static_cast<std::size_t>(count) * 12);
    for (int k = first; k < first + count; ++k) {
        const Matrix34 m = g.indexMatrix(k, grid);
        for (const auto& row : m)
            for (double x : row)
                out.push_back(static_cast<float>(x));
    }
    return out;
}

void packViews(const Array3<float>& views, bool transposed, PaddedViews& out) {
    const int n = static_cast<int>(views.dim(0));
    const int nv = static_cast<int>(views.dim(1)), nu = static_cast<int>(views.dim(2));
    out.views = n;
    out.slow = transposed ? nu : nv;
    out.fast = transposed ? nv : nu;
    const std::size_t stride = out.stride(), image = out.imageSize();
    out.data.assign(image * static_cast<std::size_t>(n), 0.0f);
    for (int p = 0; p < n; ++p) {
        float* base = out.data.data() + image * static_cast<std::size_t>(p);
        for (int iv = 0; iv < nv; ++iv) {
            auto row = views.row(static_cast<std::size_t>(p), static_cast<std::size_t>(iv));
            if (!transposed) {
                std::copy(row.begin(), row.end(), base + (iv + kPadBefore) * stride + kPadBefore);
                continue;
            }
            for (int iu = 0; iu < nu; ++iu)
                base[(iu + kPadBefore) * stride + iv + kPadBefore] =
                    row[static_cast<std::size_t>(iu)];
        }
    }
}

Result<ConeSymmetry> checkBegin(const ConeBackProjectorInfo& info, const ConeGeometry& geometry,
                                const ConeVolumeGrid& grid, int firstPlane, int planes) {
    TOMO_RETURN_IF_ERROR(grid.validate());
    if (firstPlane < 0 || planes < 1 || firstPlane + planes > grid.nz)
        return invalidArgument("cone slab outside the volume");
    const ConeSymmetry has = geometry.symmetry(grid);
    if (!handles(info.needs, has))
        return invalidArgument(info.id + " needs a geometry without tilts (" +
                               coneSymmetryName(has) + " given); use " + info.backend +
                               ".fdk.standard");
    return has;
}

Status slabTooLarge(const ConeBackProjectorInfo& info, int planes, std::size_t need,
                    std::size_t budget, const std::string& device) {
    return outOfMemory(info.id + ": a slab of " + std::to_string(planes) + " planes needs " +
                       std::to_string((need + (1u << 20) - 1) >> 20) + " MiB on " + device +
                       ", its budget is " + std::to_string(budget >> 20) + " MiB");
}

Status checkFinishInto(const ConeBackProjectorInfo& info, const Volume& out, int planes,
                       const ConeVolumeGrid& grid) {
    if (out.dim(0) == std::size_t(planes) && out.dim(1) == std::size_t(grid.ny) &&
        out.dim(2) == std::size_t(grid.nx))
        return Status::ok();
    return invalidArgument(info.id + ": the slab is " + std::to_string(planes) + " x " +
                           std::to_string(grid.ny) + " x " + std::to_string(grid.nx) +
                           ", the volume to finish into " + std::to_string(out.dim(0)) + " x " +
                           std::to_string(out.dim(1)) + " x " + std::to_string(out.dim(2)));
}

Result<Volume> finishIntoNew(ConeBackProjector& bp, int planes, const ConeVolumeGrid& grid,
                             const ExecContext& ctx) {
    Result<Volume> out = Volume::createUninitialised(std::size_t(planes), std::size_t(grid.ny),
                                                     std::size_t(grid.nx));
    if (!out.isOk()) {
        Volume none;
        (void)bp.finishInto(none, ctx);  // drops the slab, as finish() does on every outcome
        return out.status();
    }
    TOMO_RETURN_IF_ERROR(bp.finishInto(*out, ctx));
    return out;
}

Status ZeroSlab::allocate(std::size_t count, const ExecContext& ctx) {
    m_data.reset(static_cast<float*>(std::malloc(count * sizeof(float))));
    m_size = m_data ? count : 0;
    if (!m_data && count > 0)
        return outOfMemory("cone volume slab of " + std::to_string(count * sizeof(float) >> 20) +
                           " MiB");
    constexpr std::size_t kBlock = std::size_t{1} << 18;  // floats: 1 MiB
    float* data = m_data.get();
    Status cleared =
        parallelFor((count + kBlock - 1) / kBlock, ctx.threads, ctx.stop, [&](std::size_t b, int) {
            const std::size_t first = b * kBlock;
            std::fill_n(data + first, std::min(kBlock, count - first), 0.0f);
        });
    if (!cleared.isOk()) reset();  // never a slab of stale values
    return cleared;
}

void columnsToVolume(const float* columns, int nx, int ny, int nz, Volume& out) {
    constexpr int kBlock = 32;
    for (int k = 0; k < nz; ++k) {
        const float* plane = columns + static_cast<std::size_t>(k) * nx * ny;
        for (int j0 = 0; j0 < ny; j0 += kBlock)
            for (int i0 = 0; i0 < nx; i0 += kBlock)
                for (int j = j0; j < std::min(ny, j0 + kBlock); ++j) {
                    auto row = out.row(static_cast<std::size_t>(k), static_cast<std::size_t>(j));
                    for (int i = i0; i < std::min(nx, i0 + kBlock); ++i)
                        row[static_cast<std::size_t>(i)] =
                            plane[static_cast<std::size_t>(i) * ny + j];
                }
    }
}

}  // namespace tomo::cone
