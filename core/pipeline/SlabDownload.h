#pragma once
/// @file SlabDownload.h
/// @brief A volume that a device keeps as dense rows (FDK's slab, ConeBackProjector::finish()
/// on a GPU) downloaded into host memory written once (issue 27): each chunk of rows leaves the
/// device into pinned staging on the Download queue, and several host threads store its rows
/// from there into the pitched host volume, zeroing each row's padding, while the next chunk
/// downloads. The host volume may be uninitialised (Volume::createUninitialised): every stored
/// float, padding included, is written exactly once, and its pages are first touched by the
/// storing threads instead of by a serial zero fill and a second, driver-side pass.
///
/// Event order, per chunk k in ring slot s = k mod 2 (the simulated device of
/// tests/core/pipeline checks it):
///   prepare(k)  on the Compute queue (a transpose into the device staging of slot s, or
///               nothing), after download(k - 2), which read that staging (the host has
///               waited for it already; the queue waits too);
///   download(k) on the Download queue after prepare(k), into pinned slot s, which the host
///               finished storing (chunk k - 2) before download(k) is issued;
///   the host stores chunk k after download(k) completed, while download(k + 1) runs.
/// Errors: the first error is returned after the queues are drained; the volume's content is
/// then unspecified (the caller discards it).

#include <cstddef>
#include <functional>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/pipeline/DeviceQueues.h"

namespace tomo {

/// Dense rows of nx floats on the device: @p buffer from float @p offset.
struct DeviceRows {
    DeviceBufferRef buffer;
    std::size_t offset = 0;
};

/// What a device leaves for the download of a volume of out.dim(0) x out.dim(1) rows.
struct SlabDownloadPlan {
    std::size_t chunkRows = 0;  ///< rows per chunk (a whole number of planes where prepare needs)
    /// Enqueues on the Compute queue whatever makes rows [first, first + count) readable as
    /// dense rows (in ring slot @p slot's device staging where it uses one), and says where.
    std::function<Result<DeviceRows>(std::size_t first, std::size_t count, int slot)> prepare;
};

/// The plan of rows that lie dense on the device as they are ([rows][nx] floats in @p buffer):
/// chunks of about @p chunkFloats floats (at least a row), no prepare step.
SlabDownloadPlan rowsAsTheyLie(DeviceBufferRef buffer, std::size_t nx, std::size_t chunkFloats);

/// Floats of device staging a variant that must rearrange its slab before the download (the
/// symmetric FDK kernels' column-major accumulator) gives its ring of two chunks: 16 Mi.
inline constexpr std::size_t kStagingRingFloats = std::size_t(1) << 24;

/// The ring of device stagings in which such a variant prepares whole planes for the download:
/// chunks of @p chunkPlanes planes (as many as half of kStagingRingFloats holds, at least one,
/// at most @p maxChunkPlanes and the slab's planes), in @p slots buffers (two, or one where one
/// chunk takes the slab). One count for download(), which allocates it, and bytesFor(), which
/// the slab planner sizes slabs by: a plane above kStagingRingFloats / 2 floats (8 Mi, 2897^2
/// and up) takes two whole planes, more than kStagingRingFloats.
struct StagingRing {
    std::size_t chunkPlanes = 0, slots = 0;
    std::size_t floats(std::size_t plane) const { return slots * chunkPlanes * plane; }
};
StagingRing stagingRing(std::size_t plane, std::size_t planes, std::size_t maxChunkPlanes);

/// Device seconds of the prepare steps and of the downloads, host seconds of the storing.
struct SlabDownloadTimes {
    double prepare = 0, download = 0, store = 0;
};

/// Downloads every row of @p out (dims [planes][ny][nx], any content) as @p plan says and
/// stores it, padding zeroed, on @p threads host threads (0 = all).
Result<SlabDownloadTimes> downloadSlab(DeviceQueues& queues, const SlabDownloadPlan& plan,
                                       Volume& out, int threads);

/// Stores @p count rows of out.dim(2) floats, row r from @p src + r * @p srcPitch (zeros where
/// @p src is null), as rows [first, first + count) of @p out, each row's padding set to zero, on
/// @p threads host threads (0 = all; a thread per 4 MiB at most): the one write, and the
/// parallel first touch, of memory from Volume::createUninitialised.
void storeRows(const float* src, std::size_t srcPitch, std::size_t first, std::size_t count,
               Volume& out, int threads);

}  // namespace tomo
