#include "core/locality/LocalityOperator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/base/Parallel.h"
#include "core/locality/LocalityKernels.h"

namespace tomo {
namespace {

using detail::kRayLanes;
using detail::RayGroup;

/// Ray groups per block angle (the block's detectors in groups of kRayLanes).
constexpr int kGroupsPerAngle = (kBlockDetectors + kRayLanes - 1) / kRayLanes;

/// The group of rays of projection @p r for detectors [first, first + count) of @p detectors
/// on the padded image @p image (lines of @p pitch floats).
RayGroup makeGroup(const RayAngle& r, const float* image, std::size_t pitch,
                   const std::vector<int>& detectors, std::size_t first, std::size_t count) {
    RayGroup g;
    g.image = image;
    g.linePitch = pitch;
    g.lineLength = r.lineLength;
    g.d = static_cast<float>(r.d);
    for (std::size_t l = 0; l < count; ++l) {
        const double pos0 = r.a + r.b * detectors[first + l];
        const auto [lo, hi] = activeLines(pos0, r.d, r.lineLength, r.lines);
        g.pos0[l] = static_cast<float>(pos0);
        g.first[l] = lo;
        g.last[l] = hi;
    }
    return g;
}

}  // namespace

Result<std::unique_ptr<LocalityOperator>> LocalityOperator::create(const ParallelGeometry& geom,
                                                                   const VolumeGeometry& vol,
                                                                   RayOrdering ordering) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (vol.nz != geom.rows())
        return invalidArgument("projector: the grid has " + std::to_string(vol.nz) +
                               " slices but the geometry " + std::to_string(geom.rows()) +
                               " detector rows");
    // The adjoint runs the registry's cpu.simd.lin (best instruction set, single-slice kernel
    // for few slices): the same voxel-driven linear interpolation, vectorised.
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<BackProjector> backProjector,
                          registry.make("cpu.simd.lin"));
    return std::unique_ptr<LocalityOperator>(
        new LocalityOperator(geom, vol, ordering, std::move(backProjector)));
}

LocalityOperator::LocalityOperator(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                   RayOrdering ordering,
                                   std::unique_ptr<BackProjector> backProjector)
    : LocalityPair(geom, vol, ordering),
      m_geom(geom),
      m_vol(vol),
      m_pitch(geom.detectorPitch()),
      m_isa(bestCpuIsa()),
      m_backProjector(std::move(backProjector)) {}

std::string LocalityOperator::name() const {
    return std::string("locality.") + rayOrderingName(m_ordering);
}

Status LocalityOperator::forwardSubset(std::span<const float> x, std::span<float> y, int subset,
                                       int subsets, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
    TOMO_RETURN_IF_ERROR(m_padded.fill(x, m_vol, ctx));
    const std::size_t nz = static_cast<std::size_t>(m_vol.nz);

    const std::vector<RayBlock> blocks = planRayBlocks(
        m_ordering, m_rays, m_angles, subsetAngles(subset, subsets, angleCount()), m_detectors);
    const std::size_t angles = m_rays.size(), det = static_cast<std::size_t>(m_detectors);
    const bool segmented = m_ordering == RayOrdering::StripSegments;
    return parallelFor(nz * blocks.size(), ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const std::size_t z = item / blocks.size();
        const RayBlock& block = blocks[item % blocks.size()];
        float* out = y.data() + z * angles * det;
        const std::size_t nA = block.angles.size(), nD = block.detectors.size();
        // The block's rays in groups of kRayLanes detectors of one angle.
        RayGroup groups[kBlockAngles * kGroupsPerAngle];
        std::size_t groupCount = 0;
        for (std::size_t a = 0; a < nA; ++a) {
            const RayAngle& r = m_rays[std::size_t(block.angles[a])];
            const float* image = m_padded.lines(z, r.alongRows);
            const std::size_t pitch = m_padded.linePitch(r.alongRows);
            for (std::size_t l0 = 0; l0 < nD; l0 += kRayLanes)
                groups[groupCount++] = makeGroup(r, image, pitch, block.detectors, l0,
                                                 std::min<std::size_t>(kRayLanes, nD - l0));
        }
        const std::size_t perAngle = groupCount / std::max<std::size_t>(nA, 1);
        float acc[kBlockAngles * kGroupsPerAngle][kRayLanes] = {};
        const int lines = m_rays[std::size_t(block.angles[0])].lines;
        // (a)-(c): each ray over all its lines; (d): all rays slab by slab of lines, adding the
        // partial sums (each starts from 0.f, so (d) differs only in summation order).
        const int segment = segmented ? (lines + kRaySegments - 1) / kRaySegments : lines;
        float part[kRayLanes];
        for (int s0 = 0; s0 < lines; s0 += segment)
            for (std::size_t g = 0; g < groupCount; ++g) {
                detail::sumRayGroup(m_isa, groups[g], s0, s0 + segment, part);
                for (int l = 0; l < kRayLanes; ++l)
                    acc[g][l] = s0 == 0 ? part[l] : acc[g][l] + part[l];
            }
        for (std::size_t a = 0; a < nA; ++a) {
            const std::size_t p = std::size_t(block.angles[a]);
            const float step = float(m_rays[p].step);
            for (std::size_t l = 0; l < nD; ++l)
                out[p * det + std::size_t(block.detectors[l])] =
                    acc[a * perAngle + l / kRayLanes][l % kRayLanes] * step;
        }
    });
}

Status LocalityOperator::adjointSubset(std::span<const float> y, std::span<float> x, int subset,
                                       int subsets, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
    const std::size_t nx = std::size_t(m_vol.nx), ny = std::size_t(m_vol.ny);
    const std::size_t nz = std::size_t(m_vol.nz);
    const std::size_t angles = m_rays.size(), det = std::size_t(m_detectors);
    // The subset's projections as a geometry of their own (angles and axis corrections).
    const std::vector<int> list = subsetAngles(subset, subsets, angleCount());
    ParallelGeometry::Params params = m_geom.params();
    params.angles.clear();
    params.centerCorrection.clear();
    for (int p : list) {
        params.angles.push_back(m_geom.angle(p));
        if (!m_geom.params().centerCorrection.empty())
            params.centerCorrection.push_back(m_geom.params().centerCorrection[std::size_t(p)]);
    }
    TOMO_ASSIGN_OR_RETURN(const ParallelGeometry geom, ParallelGeometry::create(params));
    if (m_sino.dim(0) != nz || m_sino.dim(1) != list.size() || m_sino.dim(2) != det) {
        TOMO_ASSIGN_OR_RETURN(m_sino, Sinograms::create(nz, list.size(), det));
    }
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t q = 0; q < list.size(); ++q)
            std::memcpy(m_sino.row(z, q).data(),
                        y.data() + (z * angles + std::size_t(list[q])) * det, det * sizeof(float));
    // w = voxelSize^2 / pitch: the column sum of the Joseph weights (see the header).
    const std::vector<float> weights(
        list.size(), static_cast<float>(m_vol.voxelSize * m_vol.voxelSize / m_pitch));
    const ExecContext inner{ctx.threads, ctx.stop, nullptr};
    TOMO_RETURN_IF_ERROR(
        m_backProjector->backProject(m_sino, geom, m_vol, weights, m_volume, inner));
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t iy = 0; iy < ny; ++iy)
            std::memcpy(x.data() + (z * ny + iy) * nx, m_volume.row(z, iy).data(),
                        nx * sizeof(float));
    return Status::ok();
}

}  // namespace tomo
