#pragma once
// The small FBP problem of the pipeline tests: a random sinogram stack of 11 slices, 60 angles,
// 45 detectors, on a 40^2 grid (rows of 40 floats in a pitch of 48), and the CPU variants.
#include <memory>
#include <random>
#include <string>

#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo::test {

inline ParallelGeometry fbpTestGeometry(int slices, int angles, int detectors) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, angles);
    p.detectorCount = detectors;
    p.rows = slices;
    return ParallelGeometry::create(p).value();
}

struct FbpProblem {
    int slices = 11, angles = 60, detectors = 45, size = 40;
    ParallelGeometry geom = fbpTestGeometry(slices, angles, detectors);
    VolumeGeometry vol;
    Sinograms sino;
    FbpProblem() {
        vol = VolumeGeometry::forDetector(geom, size);
        vol.nz = slices;
        sino = Sinograms::create(slices, angles, detectors).value();
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (std::size_t r = 0; r < sino.dim(0) * sino.dim(1); ++r)
            for (float& v : sino.rows().row(r))
                v = u(rng);
    }
};

/// A CPU variant by id (the registry's).
inline std::unique_ptr<BackProjector> cpuBackProjector(const std::string& id) {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    return registry.make(id).value();
}

}  // namespace tomo::test
