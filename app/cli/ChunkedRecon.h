#pragma once
/// @file ChunkedRecon.h
/// @brief What `tomo recon` reconstructs from: either a whole sinogram stack in memory, or an
/// acquisition (HDF5 DXchange/NXtomo) read, preprocessed and reconstructed a block of detector
/// rows at a time, so that projections larger than memory can be reconstructed (issue 7).
///
/// Chunking: a chunk is a block of output slices [s0, s1) (slices after --crop and --bin of the
/// rows). For it the reader reads only the detector rows those slices come from
/// (AcquisitionReader::read(IndexRange rows)), plus a halo of size/2 slices on each side when
/// zinger removal is on (its 2-D median window spans rows; at the frame's first and last row the
/// edge is replicated as on the whole frame). The row-local steps run on the block (angle
/// selection, cropping, binning, zingers, flat/dark, -log, ring removal per sinogram), the halo
/// is dropped, the rows are transposed to sinograms and reconstructed with reconstructFbp, and
/// the slices are copied into the output volume. Every step is per row (or per window of rows
/// that the halo covers), so the result is bit-identical to reading the whole acquisition.
/// Paganin phase retrieval filters each frame in 2-D across all rows: with --paganin the whole
/// frames are read (a note says so on stderr).
///
/// Chunk size: --chunk-rows N slices, or by default as many slices as keep one chunk's
/// projections, flats, darks and sinograms (plus FBP's filtered copy) under --memory-budget MiB
/// (default 1024), rounded up to a multiple of the slices reconstructFbp back-projects per batch
/// (its --chunk, or its automatic choice): the SIMD back-projectors switch kernels for small
/// batches, so only the same batches give the same bits. When every slice fits in one chunk and
/// --chunk-rows is not given, the acquisition is read whole as before. The output volume is
/// held in memory in either case.
///
/// Progress: one child scope of ctx.progress per chunk; ctx.stop is checked between chunks (and
/// within them by the steps), giving Cancelled.

#include <array>
#include <cstddef>
#include <memory>

#include "app/cli/ReconInputs.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dataset/ProjectionData.h"
#include "core/preprocess/Preprocess.h"
#include "core/recon/Fbp.h"

namespace tomo::cli {

class ArgParser;

/// Declares --chunk-rows and --memory-budget on @p args.
void addChunkOptions(ArgParser& args);

/// @brief The input of `tomo recon`: whole sinograms, or an acquisition read by row blocks.
class ReconSource {
  public:
    /// Opens INPUT of @p args. Sinogram stacks and acquisitions that fit in one chunk (or need
    /// Paganin) are read whole through readReconInput; larger acquisitions are only opened here.
    /// @p info receives the angles after angle selection and the preprocessing options.
    static Result<ReconSource> open(const ArgParser& args, ReconInputInfo* info);

    /// Shape of the sinograms after preprocessing: {slices, angles, detectors}.
    std::array<std::size_t, 3> shape() const { return m_shape; }
    /// Slices per chunk asked for (shape()[0] when read whole), before rounding to FBP batches.
    std::size_t chunkSlices() const { return m_chunkSlices; }

    /// Reconstructs every slice into @p out ([slice][y][x], allocated here) by FBP, chunk by
    /// chunk; @p geometry and @p grid describe all slices (their row counts are narrowed per
    /// chunk). @p timings, when given, receives the sum over the chunks.
    Status reconstruct(const ParallelGeometry& geometry, const VolumeGeometry& grid,
                       BackProjector& backProjector, const FbpOptions& fbp, Volume& out,
                       const ExecContext& ctx, FbpTimings* timings) const;

  private:
    /// Reads and preprocesses slices [first, first + count) as sinograms.
    Result<Sinograms> readSlices(std::size_t first, std::size_t count,
                                 const ExecContext& ctx) const;

    Sinograms m_whole;                            ///< the sinograms when read whole
    std::unique_ptr<AcquisitionReader> m_reader;  ///< set when read by chunks
    PreprocessOptions m_chunkOptions;             ///< the options with the row crop taken out
    std::size_t m_firstRow = 0;                   ///< first detector row of the row crop
    std::size_t m_binRows = 1;
    std::size_t m_halo = 0;  ///< slices of context each side (zinger window)
    std::array<std::size_t, 3> m_shape{};
    std::size_t m_chunkSlices = 0;
};

}  // namespace tomo::cli
