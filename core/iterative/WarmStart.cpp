#include "core/iterative/WarmStart.h"

#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo {

Result<Volume> fbpStart(const Sinograms& sino, const ParallelGeometry& geom,
                        const VolumeGeometry& vol, const ExecContext& ctx) {
    auto simd = makeCpuSimdBackProjector(Interpolation::Linear, bestCpuIsa());
    std::unique_ptr<BackProjector> bp =
        simd ? std::move(simd).value() : makeCpuScalarBackProjector(Interpolation::Linear);
    ExecContext quiet = ctx;
    quiet.progress = nullptr;
    Volume out;
    TOMO_RETURN_IF_ERROR(reconstructFbp(sino, geom, vol, *bp, {}, out, quiet));
    return out;
}

}  // namespace tomo
