#pragma once
/// @file GpuIcd.h
/// @brief GPU-ICD (paper 004, section 4 and Algorithm 3): the host half that every device
/// backend shares - the data layout, the schedule and the interface a device implements
/// (gpu/cuda/mbir, gpu/opencl/mbir run the three kernels).
///
/// Three levels of parallelism: a launch updates a batch of SVs of one checkerboard colour
/// (inter-SV), `blocksPerSv` consecutive work-groups per SV take its voxels one at a time from a
/// per-SV counter (intra-SV, dynamic scheduling, so that zero-skipped voxels do not unbalance
/// them), and the work-items of a group share one voxel's theta sums (intra-voxel, a tree
/// reduction); work-item 0 takes the step and all of them write the error back with atomics.
///
/// Layout (paper 004 section 4.1, figure 4): an SV's sinogram band (SVB) is stored transposed,
/// view-major, as `rows` rows (channel offsets from the SV's band start at each view) of `pitch`
/// views (the views rounded up to the chunk width of 32) and zero-padded to that rectangle.
/// Voxel j's footprint is cut into chunks of 32 views; chunk c covers the rows
/// [rowStart, rowStart + rowCount) its runs reach at views 32c..32c+31, and its 8-bit matrix
/// entries are stored as a zero-padded rowCount x 32 tile, so that the theta sums and the
/// write-back are row-wise, element-by-element products: coalesced reads of SVB rows, with
/// zeros cancelling the band's other elements. Work-items read two views at a time (8-byte
/// words, paper 004 section 4.3.2). The tiles are a rearrangement of the matrix's codes: the
/// host computes the small tables (chunks, SVs, orders), the device expands the codes it is
/// sent into the tiles (issue 27 item 4: 909 MiB at 512^2 x 720 views, built and read on the
/// host in 1.1-1.4 s before); GpuIcdLayout::hostTiles is that expansion on the host, the
/// device's reference in the tests.
///
/// Schedule: passes as PSV-ICD's (chooseSuperVoxels: every SV, then 25% alternately by last
/// update and at random), colour after colour in batches of `batch` SVs drawn at random from the
/// colour (spread over the image, not rows of SVs); in a partial pass a colour's leftover below
/// a launch / 4 SVs waits for a later pass (paper 004's launch threshold).
/// Each batch is three launches: gather the SVBs, update, and add the SVBs' change back to the
/// error sinogram (deferred, atomic).
///
/// Stacks (issue 27 item 4): a stack of slices is one problem on the device, with the q-GGMRF
/// prior of PSV-ICD (Qggmrf.h: 8 neighbours in the slice and the 2 across slices, with
/// neighbourWeights(slices)). Every slice's image and sinograms are resident ([slice][...]
/// planes) under one layout; an entry of a pass list is the SV `sv` of slice `z`, numbered
/// z * svCount + sv. The checkerboard becomes 3-D: 8 colours, the slice's parity on top of the 4
/// in-slice ones, so that no two SVs of a launch hold neighbouring voxels (the voxel update reads
/// the current values of the slices above and below). A launch takes `batch` SVs from each of up
/// to ceil(slices / 2) slices of its colour, the slices in turn (icdLaunchSize): SVs of
/// different slices never share an error sinogram, so they add parallelism without adding the
/// stale-error race of a larger batch in one slice.
///
/// Differences from PSV-ICD, by design: voxels of one SV run concurrently against a shared SVB
/// and neighbours may be read mid-update, theta sums are in float, and the order of a voxel's
/// visits depends on the device's scheduling - the result equals PSV-ICD's at convergence
/// within a tolerance (tests/gpu/GpuIcdTest.cpp), not bit for bit.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/mbir/MbirMatrix.h"
#include "core/mbir/Qggmrf.h"
#include "core/mbir/SuperVoxels.h"
#include "core/pipeline/Timeline.h"

namespace tomo {

inline constexpr int kIcdChunkViews = 32;  ///< chunk width in views (paper 004's best)
inline constexpr int kIcdLanes = 16;       ///< work-items per chunk (two views each)

struct GpuIcdOptions {
    int side = 33;           ///< SV side in voxels (paper 004: 33 on a Titan X)
    int batch = 0;           ///< SVs per slice per launch; 0: automaticBatch()
    int blocksPerSv = 40;    ///< work-groups per SV
    int groupSize = 256;     ///< work-items per work-group (a power of two, >= kIcdLanes)
    double fraction = 0.25;  ///< share of SVs in the partial passes (paper 004: 25%)
    std::uint64_t seed = 1;

    Status validate() const;
};

/// Bytes of matrix codes the device takes at a time to build its tiles (the kIcdCodes slab).
inline constexpr std::size_t kIcdCodeSlabBytes = std::size_t(64) << 20;

/// The layout of one slice geometry's matrix for the device (built once per geometry): the
/// tables; the tiles themselves are built on the device from the matrix (the file comment).
struct GpuIcdLayout {
    int views = 0, channels = 0, padding = 0, nx = 0, ny = 0;
    int pitch = 0;   ///< SVB row length: views rounded up to kIcdChunkViews
    int rows = 0;    ///< SVB rows: the widest band of any SV at any view
    int chunks = 0;  ///< chunks per voxel (pitch / kIcdChunkViews)
    int side = 0;
    std::vector<int> colour;                    ///< per SV, (sx mod 2) + 2 (sy mod 2)
    std::vector<std::int32_t> svBase;           ///< per SV and view: first channel of its band
    std::vector<std::int32_t> svFirst, svSize;  ///< per SV: its voxels in `order`
    std::vector<std::int32_t> order;            ///< voxel indices (iy nx + ix), SV after SV
    /// Per voxel and chunk, two words: the tile's first row (in rows of 32 bytes), and
    /// rowStart | rowCount << 16. Tiles follow each other, voxel after voxel, chunk after chunk.
    std::vector<std::uint32_t> chunkMeta;
    std::size_t tileRows = 0;  ///< rows of 32 bytes in all the tiles
    std::vector<float> scale;  ///< per voxel: the 8-bit entries' scale
    /// The geometry's tables for the device's tile build (sizesOf): firstChannel's doubles
    /// (MbirSliceGeometry::firstChannelTerms) and per view the offset of its run in a voxel's
    /// column, then its length (views each).
    std::vector<double> channelTerms;
    std::vector<std::int32_t> viewRuns;
    std::size_t columnSize = 0;  ///< codes per voxel in the matrix
    /// Bytes of codes the device takes at a time (the kIcdCodes slab; tests make it smaller).
    std::size_t codeSlabBytes = kIcdCodeSlabBytes;
    /// This build's identity, unique in the process (build() numbers them from 1): devices that
    /// keep a layout's buffers between solves compare it (IcdResidentLayout).
    std::uint64_t id = 0;

    std::size_t svCount() const { return svSize.size(); }
    std::size_t voxels() const { return std::size_t(nx) * std::size_t(ny); }
    std::size_t tileBytes() const { return tileRows * std::size_t(kIcdChunkViews); }
    /// Voxels whose codes fit in codeSlabBytes (at least 1).
    std::size_t slabVoxels() const;
    /// Device bytes: the layout, @p slices images and sinograms, and the SVB slots of launches
    /// of `batch` SVs per slice (icdBuffers()).
    std::size_t deviceBytes(int batch, int slices = 1) const;

    /// The sizes of @p g's layout for SVs of options.side (views .. pitch, chunks, side,
    /// columnSize) and the geometry's tables (channelTerms, viewRuns); no SVs, chunks or rows.
    static GpuIcdLayout sizesOf(const MbirSliceGeometry& g, const GpuIcdOptions& options);
    /// The layout of @p a (8-bit entries only: InvalidArgument for float) for SVs of
    /// options.side. OutOfMemory naming both sizes when the tiles would exceed @p budget bytes
    /// (the device's: they are built there); Cancelled on ctx.stop.
    static Result<GpuIcdLayout> build(const MbirSliceGeometry& g, const MbirMatrix& a,
                                      const GpuIcdOptions& options, std::size_t budget,
                                      const ExecContext& ctx);
    /// The tiles of this layout of @p a, built on the host (tileBytes() bytes, row by row of the
    /// image on ctx's threads): what the device's build (IcdKernels::buildTiles) must give, bit
    /// for bit. InvalidArgument when @p a is not this layout's matrix; Cancelled on ctx.stop.
    Result<std::vector<std::uint8_t>> hostTiles(const MbirSliceGeometry& g, const MbirMatrix& a,
                                                const ExecContext& ctx) const;
};

/// A layout identity unique in the process (GpuIcdLayout::id; from 1): every build and every
/// layout read from a file takes a new one.
std::uint64_t newGpuIcdLayoutId();

/// The batch when none is given: an eighth of a colour's SVs (at least 1, at most paper 004's
/// 32). The SVs of a batch update against one stale error sinogram, so a ray crossing several
/// of them has its error corrected several times over; with an eighth, on paper 004's 512^2 case,
/// the first equits converge as PSV-ICD's (docs/mbir.md; 32 there, even spread at random, gave
/// 0.028 against the phantom after one equit where an eighth gives 0.020 and PSV-ICD 0.022).
int automaticBatch(const GpuIcdLayout& layout);

/// Most SVs in one launch of a stack (SVB slots on the device; enough work-groups to fill a GPU).
inline constexpr int kIcdMaxLaunch = 256;
/// SVs per launch on a stack of @p slices with @p batch SVs per slice: batch times
/// min(ceil(slices / 2), kIcdMaxLaunch / batch) slices (one colour holds every other slice).
int icdLaunchSize(int batch, int slices);

/// Colour of every pass-list entry z * svCount + sv of @p slices slices (the file comment).
std::vector<int> icdStackColours(const GpuIcdLayout& layout, int slices);

/// GPU-ICD's device buffers, the same for every backend (indices into icdBuffers()).
enum IcdBuffer : int {
    // State: the image, the error and the weight sinograms.
    kIcdImage,
    kIcdError,
    kIcdWeight,
    // Per voxel: the chunked matrix, its table and scales, and the SVs' voxel orders.
    kIcdTiles,
    kIcdChunkMeta,
    kIcdScale,
    kIcdOrder,
    // Per SV: band starts per view, first voxel in the orders, voxel count.
    kIcdSvBase,
    kIcdSvFirst,
    kIcdSvSize,
    // The geometry's tables of the tile build (GpuIcdLayout::channelTerms, viewRuns).
    kIcdChannelTerms,
    kIcdViewRuns,
    // A slab of the matrix's codes on its way into the tiles (kIcdCodeSlabBytes at most).
    kIcdCodes,
    // Per pass and batch slot: the pass's SVs, their updates, the voxel counters.
    kIcdPassList,
    kIcdMoved,
    kIcdUpdates,
    kIcdCounters,
    // The batch's SVBs: errors, their snapshot, weights.
    kIcdSvbError,
    kIcdSvbOld,
    kIcdSvbWeight,
    kIcdBufferCount
};
struct IcdBufferSpec {
    const void* init = nullptr;  ///< contents to upload; null: none (the tiles: built)
    std::size_t bytes = 0;       ///< at least 4
    const char* what = "";
};
/// Every device buffer for @p layout and @p slices slices with the SVB slots of launches of
/// @p batch SVs per slice (icdLaunchSize), with the images @p x and the error and weight
/// sinograms @p e, @p w as contents when given (null: sizes only).
std::array<IcdBufferSpec, kIcdBufferCount> icdBuffers(const GpuIcdLayout& layout, int batch,
                                                      int slices,
                                                      const std::vector<float>* x = nullptr,
                                                      const std::vector<float>* e = nullptr,
                                                      const std::vector<float>* w = nullptr);

/// Whether buffer @p b holds the layout alone (kIcdTiles .. kIcdViewRuns): the same for every
/// slice of a geometry, so a device may keep it between solves.
bool icdLayoutBuffer(int b);

/// Which layout a device's kept buffers hold (issue 27 item 4: device state across solves). A
/// backend keeps one per device (in its device context, which calls forget() when it frees its
/// buffers); the host loop (QueuedIcdDevice.h) uploads a layout buffer (builds the tiles) in
/// load() only when needsUpload() says so, then calls loaded().
class IcdResidentLayout {
  public:
    /// Buffer @p b, now at @p handle, for @p layout: state and scratch always; a layout buffer
    /// when it moved since loaded() (reallocated: a buffer grows only for another layout, and a
    /// freed one is forgotten, so the same handle means the same memory) or holds another layout.
    bool needsUpload(const GpuIcdLayout& layout, int b, const void* handle) const {
        return !icdLayoutBuffer(b) || layout.id == 0 || layout.id != m_id ||
               handle != m_handles[std::size_t(b)];
    }
    void loaded(const GpuIcdLayout& layout, const std::array<const void*, kIcdBufferCount>& at) {
        m_id = layout.id;
        m_handles = at;
    }
    void forget() { m_id = 0; }

  private:
    std::uint64_t m_id = 0;
    std::array<const void*, kIcdBufferCount> m_handles{};
};

/// The constants of the voxel update the kernels need (the q-GGMRF of Qggmrf.h in float).
struct IcdKernelConstants {
    float invSigmaY2 = 1;
    float p = 2, q = 1.2f, invSigmaP = 1, invTs = 1, floor = 0;
    float nearest = 0, diagonal = 0, across = 0;  ///< neighbourWeights(slices)
    int positivity = 1, zeroSkip = 1;
};
IcdKernelConstants icdKernelConstants(const Qggmrf& prior, const NeighbourWeights& weights,
                                      double invSigmaY2, bool positivity, bool zeroSkip);

/// What a device backend supplies: resident image, error sinogram and layout, and the three
/// kernels per batch. Calls are synchronous where they return data.
class IcdDevice {
  public:
    virtual ~IcdDevice() = default;
    virtual std::string name() const = 0;
    /// Bytes a solve may keep on the device (core/pipeline/DeviceMemory.h: its free memory less
    /// a margin); the layout is planned against it and the host's budget.
    virtual std::size_t memoryBudget() const = 0;
    /// Uploads @p layout and builds its tiles from @p matrix (the layout's: 8-bit, as many
    /// voxels; InvalidArgument otherwise), uploads the images @p x of @p slices slices
    /// ([z][iy][ix]) and their error and weight sinograms ([z][view][channel], padded rows) and
    /// allocates the SVB slots of icdBuffers(). OutOfMemory naming the buffer when one does not
    /// fit.
    virtual Status load(const GpuIcdLayout& layout, const MbirMatrix& matrix,
                        const GpuIcdOptions& options, const IcdKernelConstants& constants,
                        int slices, const std::vector<float>& x, const std::vector<float>& e,
                        const std::vector<float>& w) = 0;
    /// The entries of one pass (z * svCount + sv, the file comment); zeroes the pass's
    /// statistics. @p rotation shifts
    /// where each SV's voxel order starts. @p skipZeros: the pass skips zero voxels with zero
    /// neighbours when the constants ask for it (never in the first iteration, which must be
    /// free to move the zeros of the start, as PSV-ICD's IcdSettings::zeroSkip).
    virtual Status beginPass(const std::vector<std::int32_t>& svs, std::uint32_t rotation,
                             bool skipZeros) = 0;
    /// Entries [first, first + count) of the pass's list: gather, update, write back.
    virtual Status runBatch(int first, int count) = 0;
    /// Per entry of the pass's list: sum |delta| and the voxel updates (zero-skipped ones not
    /// counted).
    virtual Status endPass(std::vector<float>& moved, std::vector<std::int32_t>& updates) = 0;
    /// The images and the error sinograms ([z]... as load()), back to the host.
    virtual Status read(std::vector<float>& x, std::vector<float>& e) = 0;
    /// The tiles load() built, back to the host (tests: GpuIcdLayout::hostTiles is their
    /// reference).
    virtual Status readTiles(std::vector<std::uint8_t>& tiles) = 0;
    /// From now on, the device's transfers and kernels go to @p timeline (issue 27 item 5:
    /// upload, kernels, download on the device's clock; null: nothing is recorded). Spans are
    /// added when the host next waits for the device (load, endPass, read).
    virtual void setTimeline(Timeline* timeline) = 0;
};

/// Makes a device for a solve (IterativeRequest::makeIcdDevice; empty: PSV-ICD on the CPU).
using IcdDeviceFactory = std::function<Result<std::unique_ptr<IcdDevice>>()>;

/// The schedule of GPU-ICD over a device that holds the state (see the file comment).
class GpuIcdPlan {
  public:
    /// @p slices: the stack the device holds (IcdDevice::load).
    GpuIcdPlan(const GpuIcdLayout& layout, const GpuIcdOptions& options, IcdDevice& device,
               int slices = 1);
    /// Pass @p iteration (1-based); @p skipZeros as IcdDevice::beginPass. Cancelled on
    /// ctx.stop, between batches.
    Status iterate(int iteration, const ExecContext& ctx, PsvIterationStats& stats, bool skipZeros);

  private:
    const GpuIcdLayout& m_layout;
    GpuIcdOptions m_options;
    IcdDevice& m_device;
    int m_slices = 1;
    std::vector<int> m_colour;  ///< per entry (icdStackColours)
    std::vector<double> m_lastMoved;
};

}  // namespace tomo
