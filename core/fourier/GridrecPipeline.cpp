// What every gridrec backend shares around the pipeline driver (GridrecPipeline.h).
#include "core/fourier/GridrecPipeline.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/data/Half.h"

namespace tomo {
namespace {

/// Copies values [first, first + n) of a dense [rows][width] layout between the dense bytes
/// and the padded rows of an array: @p rowOf(r) is row r's data (width values).
template <class Dense, class Padded, class Convert>
void denseRange(std::size_t first, std::size_t n, std::size_t width, Dense* dense, Padded rowOf,
                Convert convert) {
    std::size_t e = first;
    const std::size_t end = first + n;
    while (e < end) {
        const std::size_t row = e / width, col = e % width;
        const std::size_t count = std::min(width - col, end - e);
        convert(rowOf(row) + col, dense + (e - first), count);
        e += count;
    }
}

/// Zeros the rows' padding (values [width, pitch)) of every row of a dense [rows][width]
/// layout whose last value lies in [first, first + n): the unpacking writes whole rows, padding
/// included, so the output can be allocated uninitialised (Array3::createUninitialised).
void zeroPadding(Volume& out, std::size_t first, std::size_t n) {
    const std::size_t width = out.dim(2), rows = out.dim(1), pad = out.pitch() - width;
    if (pad == 0) return;
    for (std::size_t r = first / width; r < (first + n) / width; ++r)
        std::fill_n(out.row(r / rows, r % rows).data() + width, pad, 0.f);
}

}  // namespace

PipelineIo gridrecDeviceIo(const Sinograms& sino, Volume& out, std::size_t chunkSlices, bool half) {
    PipelineIo io;
    const std::size_t value = half ? 2 : 4;
    const std::size_t views = sino.dim(1), det = sino.dim(2), ny = out.dim(1), nx = out.dim(2);
    io.items = sino.dim(0);
    io.chunkItems = std::max<std::size_t>(1, chunkSlices);
    io.inputBytesPerItem = views * det * value;
    io.outputBytesPerItem = ny * nx * value;
    io.pack = [&sino, views, det, value, half](const PipelineChunk& c, std::size_t offset,
                                               std::size_t bytes, std::byte* dst) {
        auto rowOf = [&](std::size_t r) { return sino.row(c.first + r / views, r % views).data(); };
        const std::size_t first = offset / value, n = bytes / value;
        if (!half) {
            denseRange(first, n, det, reinterpret_cast<float*>(dst), rowOf,
                       [](const float* src, float* d, std::size_t k) {
                           std::memcpy(d, src, k * sizeof(float));
                       });
            return;
        }
        denseRange(first, n, det, reinterpret_cast<std::uint16_t*>(dst), rowOf,
                   [](const float* src, std::uint16_t* d, std::size_t k) {
                       for (std::size_t j = 0; j < k; ++j)
                           d[j] = floatToHalf(src[j]);
                   });
    };
    io.unpack = [&out, ny, nx, value, half](const PipelineChunk& c, std::size_t offset,
                                            std::size_t bytes, const std::byte* src) {
        auto rowOf = [&](std::size_t r) { return out.row(c.first + r / ny, r % ny).data(); };
        const std::size_t first = offset / value, n = bytes / value;
        zeroPadding(out, c.first * ny * nx + first, n);
        if (!half) {
            denseRange(first, n, nx, reinterpret_cast<const float*>(src), rowOf,
                       [](float* d, const float* s, std::size_t k) {
                           std::memcpy(d, s, k * sizeof(float));
                       });
            return;
        }
        denseRange(first, n, nx, reinterpret_cast<const std::uint16_t*>(src), rowOf,
                   [](float* d, const std::uint16_t* s, std::size_t k) {
                       for (std::size_t j = 0; j < k; ++j)
                           d[j] = halfToFloat(s[j]);
                   });
    };
    return io;
}

GridrecTimings gridrecTimings(Timeline& timeline, double t0, double planEnd) {
    GridrecTimings t;
    t.plan = planEnd - t0;
    timeline.add(TimelineStage::Host, t0, planEnd);
    t.total = timelineNow() - t0;
    timeline.setWall(t.total);
    t.timeline = timeline.report();
    t.spectra = t.timeline.busyOf(TimelineStage::Filter);
    t.gridding = t.timeline.busyOf(TimelineStage::Kernels);
    return t;
}

}  // namespace tomo
