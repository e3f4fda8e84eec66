#pragma once
/// @file DatasetSampling.h
/// @brief What the reconstruction sees of a dataset: every N-th projection and the grid of a
/// GridChoice (image size, pixel size, region of interest). The GUI's Region and sampling box
/// applies it to the dataset as loaded; the session keeps the loaded one, so a choice can be
/// undone or changed without reading the file again.

#include "app/jobs/DemoJob.h"
#include "app/recon/ReconGrid.h"

namespace tomo::app {

struct Sampling {
    GridChoice grid;
    int angleStep = 1;  ///< keep projections 0, N, 2N, ...
    bool isDefault() const { return grid == GridChoice{} && angleStep == 1; }
    bool operator==(const Sampling&) const = default;
};

/// @p loaded seen through @p sampling: the kept projections (copied) with their angles, the grid
/// of gridFor() (a size or pixel size of 0 keeps the loaded grid's), the truth when the grid is unchanged (else none: it is of another grid), the
/// warnings and preprocessing, and Dataset::sampling describing the choice ("" when default).
/// InvalidArgument for an angle step below 1 or leaving fewer than 8 projections, or gridFor's
/// errors.
Result<Dataset> sampledDataset(const Dataset& loaded, const Sampling& sampling);

}  // namespace tomo::app
