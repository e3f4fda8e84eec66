#include "app/jobs/DatasetSampling.h"

#include <algorithm>

namespace tomo::app {

Result<Dataset> sampledDataset(const Dataset& loaded, const Sampling& sampling) {
    const std::size_t angles = loaded.sinograms.dim(1);
    if (sampling.angleStep < 1)
        return invalidArgument("the angle step must be at least 1 (got " +
                               std::to_string(sampling.angleStep) + ")");
    const auto step = static_cast<std::size_t>(sampling.angleStep);
    const std::size_t kept = (angles + step - 1) / step;
    if (kept < 8)
        return invalidArgument("every " + std::to_string(step) + "th of " +
                               std::to_string(angles) + " projections leaves " +
                               std::to_string(kept) + "; at least 8 are needed");
    ParallelGeometry::Params params = loaded.geometry.params();
    const std::vector<double>& all = loaded.geometry.angles();
    params.angles.clear();
    for (std::size_t a = 0; a < angles; a += step)
        params.angles.push_back(all[a]);
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    const std::size_t slices = loaded.sinograms.dim(0), detectors = loaded.sinograms.dim(2);
    TOMO_ASSIGN_OR_RETURN(Sinograms sino, Sinograms::create(slices, kept, detectors));
    for (std::size_t z = 0; z < slices; ++z)
        for (std::size_t k = 0; k < kept; ++k)
            std::copy_n(loaded.sinograms.row(z, k * step).data(), detectors,
                        sino.row(z, k).data());
    GridChoice choice = sampling.grid;  // 0 keeps the loaded grid's size and pixel
    if (choice.size == 0) choice.size = loaded.grid.nx;
    if (choice.pixelSize == 0) choice.pixelSize = loaded.grid.voxelSize;
    TOMO_ASSIGN_OR_RETURN(VolumeGeometry grid, gridFor(geometry, static_cast<int>(slices), choice));
    const VolumeGeometry& was = loaded.grid;
    const bool sameGrid = grid.nx == was.nx && grid.ny == was.ny &&
                          grid.voxelSize == was.voxelSize && grid.offsetX == was.offsetX &&
                          grid.offsetY == was.offsetY;
    Dataset out{std::move(geometry), grid, std::move(sino),
                sameGrid ? loaded.truth.clone() : Volume(), loaded.warnings};
    out.preprocessing = loaded.preprocessing;
    if (!sampling.isDefault()) {
        out.sampling = std::to_string(kept) + " of " + std::to_string(angles) + " angles (step " +
                       std::to_string(step) + "); grid " + describe(grid);
    }
    return out;
}

}  // namespace tomo::app
