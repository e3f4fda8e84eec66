#pragma once
/// @file SinogramSource.h
/// @brief What the reconstruction service (ReconService.h) reads from: sinograms
/// [slice][angle][detector] handed out a slab of slices at a time, so that an input larger than
/// memory is never read whole.
///
/// Sources:
///  - memorySource(): a stack already in memory (the GUI's dataset, the demo, `tomo bench`);
///  - openSinogramSource(): a file. Acquisitions (HDF5 DXchange/NXtomo) are read, preprocessed
///    and transposed a block of detector rows at a time (plus a halo of rows when the zinger
///    filter's window spans rows; Paganin filters whole frames, so with it the frames are read
///    whole); sinogram stacks are read by planes through the format's VolumeReader where it has
///    one (raw, TIFF, HDF5, MetaImage), otherwise whole. Every per-row step gives the same bits
///    on a block as on the whole frame, so a slab equals the same slices of a whole read.
///
/// Threading: one source is read by one thread at a time.

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/data/AcquisitionLoader.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dataset/FormatRegistry.h"
#include "core/preprocess/Preprocess.h"

namespace tomo::app {

/// @brief Sinograms read by slabs of slices.
class SinogramSource {
  public:
    virtual ~SinogramSource() = default;
    /// {slices, angles, detectors} as handed out (after preprocessing).
    virtual std::array<std::size_t, 3> shape() const = 0;
    /// The sinograms of slices [first, first + count). InvalidArgument past the end; the
    /// reader's errors name the file; Cancelled on ctx.stop.
    virtual Result<Sinograms> read(std::size_t first, std::size_t count,
                                   const ExecContext& ctx) const = 0;
    /// Bytes held while reading one slice besides its sinogram (raw frame rows, flats, darks);
    /// 0 for a stack in memory. Used to size slabs within a memory budget.
    virtual std::size_t readOverheadPerSlice() const { return 0; }
    /// The whole stack when it is held in memory (read() copies out of it), else null.
    virtual const Sinograms* whole() const { return nullptr; }
};

/// A stack held in memory (shared, never copied whole).
std::unique_ptr<SinogramSource> memorySource(std::shared_ptr<const Sinograms> sinograms);

/// What opening a file needs besides the registry.
struct SourceSpec {
    std::filesystem::path path;
    ReadOptions read;  ///< raw: shape = {slices, angles, detectors}; HDF5: angle unit
    /// The preprocessing of an acquisition given its flat count (AcquisitionLoader.h; empty:
    /// flat/dark and -log when it has flats). For a sinogram stack the result for 0 flats is
    /// applied by preprocessSinograms (forSinograms of it; the stack is then read whole):
    /// flat/dark, Paganin and -log are InvalidArgument saying why; angle selection needs
    /// statedAngles.
    PreprocessingFor preprocessing;
    /// A sinogram stack's angles as stated (radians, one per projection of the stack: `tomo
    /// recon --angles`); angle selection keeps their subset (OpenedSource::angles). Empty: none
    /// stated (angle selection on a stack is then InvalidArgument). Unused for acquisitions.
    std::vector<double> statedAngles;
    /// Read whole when every slice's input fits this many bytes (0: always by slabs).
    std::size_t wholeBelowBytes = 0;
};

/// A file opened for reading, with what was learnt on the way.
struct OpenedSource {
    std::unique_ptr<SinogramSource> source;
    std::vector<double> angles;       ///< from the file (radians), empty when it has none
    bool anglesSelected = false;      ///< angles: the subset of statedAngles a selection kept
    PreprocessOptions preprocessing;  ///< the steps applied (for provenance and the centre)
    std::string format;               ///< registry format name
    std::vector<std::string> notes;   ///< e.g. "Paganin filters whole frames: read whole"
};

/// Opens @p spec.path as described above. NotFound, InvalidArgument (unknown extension, raw
/// without a shape, bad preprocessing) and the readers' errors, naming the file.
Result<OpenedSource> openSinogramSource(const FormatRegistry& registry, const SourceSpec& spec);

}  // namespace tomo::app
