#include "core/projectors/CpuBackProjectors.h"

#include <string>

#include "core/projectors/BackProjectionKernels.h"
#include "core/projectors/SingleSliceKernels.h"

namespace tomo {

bool cpuIsaSupported(CpuIsa isa) {
    switch (isa) {
        case CpuIsa::Generic:
            return true;
        case CpuIsa::Avx2:
            return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        case CpuIsa::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
                   __builtin_cpu_supports("fma");
    }
    return false;
}

CpuIsa bestCpuIsa() {
    if (cpuIsaSupported(CpuIsa::Avx512)) return CpuIsa::Avx512;
    if (cpuIsaSupported(CpuIsa::Avx2)) return CpuIsa::Avx2;
    return CpuIsa::Generic;
}

const char* cpuIsaName(CpuIsa isa) {
    switch (isa) {
        case CpuIsa::Generic:
            return "generic";
        case CpuIsa::Avx2:
            return "avx2";
        case CpuIsa::Avx512:
            return "avx512";
    }
    return "unknown";
}

int cpuIsaSlices(CpuIsa isa) {
    return isa == CpuIsa::Avx512 ? 16 : 8;
}

Status CpuSimdOptions::validate() const {
    if (tileSize < 1 || tileSize > 1024)
        return invalidArgument("SIMD back-projector: tile size " + std::to_string(tileSize) +
                               " is outside [1, 1024]");
    if (angleBlock < 1 || angleBlock > 4096)
        return invalidArgument("SIMD back-projector: angle block " + std::to_string(angleBlock) +
                               " is outside [1, 4096]");
    if (chunkBytes == 0)
        return invalidArgument("SIMD back-projector: chunk budget must be positive");
    if (singleSliceBelow < 0 || singleSliceBelow > 4096)
        return invalidArgument("SIMD back-projector: single-slice threshold " +
                               std::to_string(singleSliceBelow) + " is outside [0, 4096]");
    return Status::ok();
}

void registerCpuBackProjectors(BackProjectorRegistry& registry) {
    const Interpolation modes[] = {Interpolation::Linear, Interpolation::Nearest};
    for (Interpolation mode : modes) {
        auto probe = makeCpuReferenceBackProjector(mode);
        registry.add(probe->info(), [mode] { return makeCpuReferenceBackProjector(mode); });
    }
    for (Interpolation mode : modes) {
        auto probe = makeCpuScalarBackProjector(mode);
        registry.add(probe->info(), [mode] { return makeCpuScalarBackProjector(mode); });
    }
    // cpu.simd.lin / cpu.simd.nn: the best instruction set of this CPU.
    const CpuIsa best = bestCpuIsa();
    const CpuSimdOptions defaults;
    for (Interpolation mode : modes) {
        CpuSimdOptions automatic;
        automatic.singleSliceBelow = detail::singleSliceCrossover(best, mode);
        BackProjectorInfo info = detail::simdBackProjectorInfo(best, mode, automatic);
        info.id = mode == Interpolation::Linear ? "cpu.simd.lin" : "cpu.simd.nn";
        info.description += " (best instruction set of this CPU)";
        registry.add(info, [info, best, mode, automatic] {
            return detail::makeSimdBackProjector(info, best, mode, automatic);
        });
    }
    // cpu.simd.<isa>.*: one instruction set each. The same kernels as the alias, so the same
    // single-slice switch: a one-slice job never runs a 16-slice pass with one lane used.
    for (CpuIsa isa : {CpuIsa::Generic, CpuIsa::Avx2, CpuIsa::Avx512}) {
        if (!cpuIsaSupported(isa)) continue;
        for (Interpolation mode : modes) {
            CpuSimdOptions pinned;
            pinned.singleSliceBelow = detail::singleSliceCrossover(isa, mode);
            BackProjectorInfo info = detail::simdBackProjectorInfo(isa, mode, pinned);
            registry.add(info, [info, isa, mode, pinned] {
                return detail::makeSimdBackProjector(info, isa, mode, pinned);
            });
        }
    }
    // cpu.simd1.<isa>.*: the single-slice kernel, one instruction set each.
    for (CpuIsa isa : {CpuIsa::Avx2, CpuIsa::Avx512}) {
        if (!cpuIsaSupported(isa)) continue;
        for (Interpolation mode : modes) {
            BackProjectorInfo info = detail::singleSliceBackProjectorInfo(isa, mode);
            registry.add(info, [info, isa, mode, defaults] {
                return detail::makeSingleSliceBackProjector(info, isa, mode, defaults);
            });
        }
    }
}

}  // namespace tomo
