// tomo recon's source: whole sinograms, or an acquisition reconstructed a block of rows at a time.
#include "app/cli/ChunkedRecon.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <utility>

#include "app/cli/ArgParser.h"
#include "app/cli/DataFormats.h"
#include "core/data/AlignedBuffer.h"
#include "core/dataset/FormatRegistry.h"

namespace tomo::cli {
namespace {

constexpr int kDefaultBudgetMiB = 1024;

std::string sliceText(std::size_t first, std::size_t count) {
    return "slices " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

}  // namespace

void addChunkOptions(ArgParser& args) {
    args.option("chunk-rows", "N",
                "HDF5 acquisitions: read, preprocess and reconstruct N slices (detector rows "
                "after --crop/--bin) at a time, rounded up to whole FBP batches (--chunk) so "
                "that the result is bit-identical (default: as many as fit in --memory-budget; "
                "the output volume is still held in memory whole)");
    args.option("memory-budget", "MIB",
                "memory for one chunk's projections, flats, darks and sinograms, in MiB",
                std::to_string(kDefaultBudgetMiB));
}

Result<ReconSource> ReconSource::open(const ArgParser& args, ReconInputInfo* info) {
    TOMO_ASSIGN_OR_RETURN(int chunkArg, args.getInt("chunk-rows", 0, 1, 1 << 30));
    TOMO_ASSIGN_OR_RETURN(int budgetMiB,
                          args.getInt("memory-budget", kDefaultBudgetMiB, 1, 1 << 24));
    const bool chunkGiven = args.has("chunk-rows");
    auto readWhole = [&]() -> Result<ReconSource> {
        ReconSource source;
        TOMO_ASSIGN_OR_RETURN(source.m_whole, readReconInput(args, info));
        source.m_shape = source.m_whole.dims();
        source.m_chunkSlices = source.m_shape[0];
        return source;
    };

    const std::string input = *args.get("INPUT");
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
    auto format = registry.forPath(input);
    if (!format || (*format)->name != "hdf5") {
        if (chunkGiven)
            std::cerr << "tomo recon: note: --chunk-rows applies to HDF5 acquisitions; " << input
                      << " is read whole\n";
        return readWhole();
    }
    ReadOptions options;
    if (auto unit = args.get("angle-unit")) {
        TOMO_ASSIGN_OR_RETURN(options.angleUnit, parseAngleUnit(*unit));
    }
    TOMO_ASSIGN_OR_RETURN(auto reader, registry.openAcquisition(input, options));
    const AcquisitionInfo& acq = reader->info();
    TOMO_ASSIGN_OR_RETURN(PreprocessOptions pre, acquisitionPreprocessing(args, acq.flatCount));
    auto rows = pre.cropRows.resolve(acq.rows, "rows");
    // Invalid crops or binning: the whole-frame path reports them as it always has.
    if (!rows || pre.binRows < 1 || rows->count < static_cast<std::size_t>(pre.binRows) ||
        !pre.validate())
        return readWhole();
    const std::size_t bin = static_cast<std::size_t>(pre.binRows);
    const std::size_t slices = rows->count / bin;

    // One slice costs its detector rows of every frame, plus its sinogram and FBP's filtered
    // copy of it (upper bounds: before angle selection and column binning).
    const std::size_t frames = acq.angleCount + acq.flatCount + acq.darkCount;
    const std::size_t perSlice = sizeof(float) * acq.columns * (bin * frames + 2 * acq.angleCount);
    const std::size_t budget = static_cast<std::size_t>(budgetMiB) << 20;
    const std::size_t chunk = std::min(
        slices, chunkGiven ? static_cast<std::size_t>(chunkArg)
                           : std::max<std::size_t>(1, budget / std::max<std::size_t>(perSlice, 1)));
    if (!chunkGiven && chunk >= slices) return readWhole();
    if (pre.paganin) {
        std::cerr << "tomo recon: note: --paganin filters every frame across all its rows, so "
                     "whole frames are read (no chunking by rows)\n";
        return readWhole();
    }

    ReconSource source;
    source.m_reader = std::move(reader);
    source.m_chunkOptions = pre;
    source.m_chunkOptions.cropRows = IndexRange::all();
    source.m_firstRow = rows->first;
    source.m_binRows = bin;
    source.m_halo = pre.zingers ? static_cast<std::size_t>(pre.zingers->size / 2) : 0;
    source.m_chunkSlices = chunk;
    source.m_shape = {slices, 0, 0};
    // The angles and detector count after preprocessing, from the first slice.
    TOMO_ASSIGN_OR_RETURN(ProjectionData probe,
                          source.m_reader->read(IndexRange{source.m_firstRow, bin}));
    TOMO_RETURN_IF_ERROR(
        preprocess(probe, source.m_chunkOptions, ExecContext{}).withContext(input));
    source.m_shape[1] = probe.projections.dim(0);
    source.m_shape[2] = probe.projections.dim(2);
    *info = {};
    info->angles = probe.angles;
    info->preprocessing = pre;
    return source;
}

Result<Sinograms> ReconSource::readSlices(std::size_t first, std::size_t count,
                                          const ExecContext& ctx) const {
    const std::size_t from = first >= m_halo ? first - m_halo : 0;
    const std::size_t to = std::min(m_shape[0], first + count + m_halo);
    const IndexRange rows{m_firstRow + from * m_binRows, (to - from) * m_binRows};
    TOMO_ASSIGN_OR_RETURN(ProjectionData data, m_reader->read(rows));
    TOMO_RETURN_IF_ERROR(preprocess(data, m_chunkOptions, ctx).withContext(m_reader->info().file));
    if (data.projections.dim(0) != m_shape[1] || data.projections.dim(2) != m_shape[2])
        return internalError("chunked recon: " + sliceText(first, count) +
                             " preprocessed to a different frame shape");
    return toSinograms(data.projections, IndexRange{first - from, count});
}

Status ReconSource::reconstruct(const ParallelGeometry& geometry, const VolumeGeometry& grid,
                                BackProjector& backProjector, const FbpOptions& fbp, Volume& out,
                                const ExecContext& ctx, FbpTimings* timings) const {
    if (!m_reader)
        return reconstructFbp(m_whole, geometry, grid, backProjector, fbp, out, ctx, timings);
    const std::size_t slices = m_shape[0];
    if (static_cast<std::size_t>(grid.nz) != slices)
        return invalidArgument("chunked recon: the grid has " + std::to_string(grid.nz) +
                               " slices but the input " + std::to_string(slices));
    TOMO_ASSIGN_OR_RETURN(out, Volume::create(slices, static_cast<std::size_t>(grid.ny),
                                              static_cast<std::size_t>(grid.nx)));
    // Whole FBP batches per chunk, each batch given explicitly: the same batches as one call.
    FbpOptions batched = fbp;
    const std::size_t batch = fbpChunkSlices(fbp, backProjector, slices, m_shape[1], m_shape[2]);
    batched.chunkSlices = static_cast<int>(batch);
    const std::size_t chunkSlices = std::min(slices, (m_chunkSlices + batch - 1) / batch * batch);
    const std::size_t chunks = (slices + chunkSlices - 1) / chunkSlices;
    FbpTimings sum;
    for (std::size_t c = 0; c < chunks; ++c) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const std::size_t first = c * chunkSlices;
        const std::size_t count = std::min(chunkSlices, slices - first);
        const std::string label = sliceText(first, count);
        Progress scope, readScope, fbpScope;
        ExecContext readCtx = ctx, fbpCtx = ctx;
        if (ctx.progress) {
            scope = ctx.progress->child(double(c) / chunks, double(c + 1) / chunks, label);
            readScope = scope.child(0.0, 0.3, label + ": read/preprocess");
            fbpScope = scope.child(0.3, 1.0, label + ": fbp");
            readCtx.progress = &readScope;
            fbpCtx.progress = &fbpScope;
        }
        TOMO_ASSIGN_OR_RETURN(Sinograms sino, readSlices(first, count, readCtx));
        ParallelGeometry::Params params = geometry.params();
        params.rows = static_cast<int>(count);
        TOMO_ASSIGN_OR_RETURN(ParallelGeometry chunkGeometry, ParallelGeometry::create(params));
        VolumeGeometry chunkGrid = grid;
        chunkGrid.nz = static_cast<int>(count);
        Volume part;
        FbpTimings t;
        TOMO_RETURN_IF_ERROR(
            reconstructFbp(sino, chunkGeometry, chunkGrid, backProjector, batched, part, fbpCtx, &t)
                .withContext(label));
        for (std::size_t z = 0; z < count; ++z)
            for (std::size_t y = 0; y < part.dim(1); ++y)
                std::copy_n(part.row(z, y).data(), part.dim(2), out.row(first + z, y).data());
        sum.filtering += t.filtering;
        sum.backProjection += t.backProjection;
        sum.total += t.total;
    }
    if (timings) *timings = sum;
    return Status::ok();
}

}  // namespace tomo::cli
