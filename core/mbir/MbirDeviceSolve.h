#pragma once
/// @file MbirDeviceSolve.h
/// @brief solveMbir's GPU-ICD start (Mbir.cpp; internal to core/mbir): the device, its layout
/// (read from the cache on a thread beside the solve's other setup, or built), the upload, and
/// the state the iterations read back.

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/mbir/Mbir.h"

namespace tomo {

/// @p in as a matrix of @p cols columns, transposed into @p out. For nz slices, cols = nz turns
/// the image's lines [y][x][slice] into planes [slice][y][x] (and the sinograms'
/// [view][channel][slice] into [slice][view][channel]); cols = elements per slice turns them back.
void mbirTranspose(const std::vector<float>& in, std::size_t cols, std::vector<float>& out);

/// GPU-ICD's state for a solve: the layout, the device holding every slice's image and error
/// sinogram (slice-major planes), the schedule.
struct MbirDeviceSolve {
    std::shared_ptr<const GpuIcdLayout> layout;  ///< the cache's, or built for this solve
    std::unique_ptr<IcdDevice> device;
    std::unique_ptr<GpuIcdPlan> plan;
    std::size_t slices = 1;
    std::vector<float> xPlanes, ePlanes;  ///< a stack's read-back before it is interleaved

    /// The device's images and error sinograms into @p x ([y][x][slice]) and @p sino.
    Status read(std::vector<float>& x, MbirSinograms& sino) {
        if (slices == 1) return device->read(x, sino.error());
        TOMO_RETURN_IF_ERROR(device->read(xPlanes, ePlanes));
        mbirTranspose(xPlanes, xPlanes.size() / slices, x);
        mbirTranspose(ePlanes, ePlanes.size() / slices, sino.error());
        return Status::ok();
    }
};

/// A layout the cache held (memory or disk), read on a thread of its own beside the matrix,
/// the sinograms and the start's projection (issue 27 item 4): when and where from.
struct MbirFoundLayout {
    std::shared_ptr<const GpuIcdLayout> layout;  ///< null: neither held it (startMbirDevice builds)
    MbirMatrixSource source = MbirMatrixSource::Built;
    std::string note;
    double begin = 0, end = 0;
};

/// The cache's layout read on a thread of its own beside the caller's work; an empty future
/// without a device or a cache, with @p threads 1 (ExecContext::threads: nothing beside), or
/// when no thread can be started (startMbirDevice then reads or builds it in turn).
std::future<MbirFoundLayout> findMbirLayoutAside(const MbirSliceGeometry& g,
                                                 const MbirOptions& options, MbirMatrixCache* cache,
                                                 Timeline& timeline, int threads);

/// The device, its layout (@p aside's, waited for as the host step "layout wait", when it
/// holds one; else from @p cache or built from @p matrix), the images and sinograms of @p x and @p
/// sino uploaded, the schedule; its note in report.notes, its host steps on @p timeline.
Result<std::unique_ptr<MbirDeviceSolve>> startMbirDevice(
    const MbirSliceGeometry& g, const MbirMatrix& matrix, const MbirOptions& options,
    const IcdSettings& settings, const std::vector<float>& x, const MbirSinograms& sino,
    MbirMatrixCache* cache, std::future<MbirFoundLayout>& aside, MbirReport& report,
    Timeline& timeline, const ExecContext& ctx);

}  // namespace tomo
