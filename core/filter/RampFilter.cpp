#include "core/filter/RampFilter.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/data/AlignedBuffer.h"
#include "core/filter/Radix2Fft.h"
#include "core/filter/SpectralRowFilter.h"

namespace tomo {

namespace {

/// Real input per block: 128 KiB (with its spectrum, ~256 KiB per thread, well inside L2) and
/// at most 64 rows; 1024-wide rows (padded 2048) give blocks of 16 rows.
constexpr std::size_t kBlockBytes = std::size_t{128} << 10;
constexpr std::size_t kMaxBlockRows = 64;
constexpr int kMaxWidth = 1 << 29;  ///< keeps the padded length (<= 2^30) in an int

std::size_t paddedLengthFor(std::size_t width) {
    std::size_t n = 1;
    while (n < 2 * width)
        n <<= 1;
    return n;
}

/// response[k] = pitch * DFT(h)[k] / n * window(k / n), k = 0..n/2, with h the Ram-Lak kernel
/// laid out circularly: lag m at index m, lag -m at index n - m, for |m| < n/2.
Status buildResponse(std::size_t n, double pitch, const FilterOptions& options,
                     AlignedBuffer<float>& response) {
    using std::numbers::pi;
    TOMO_ASSIGN_OR_RETURN(auto fft, Radix2Fft<double>::create(n));
    AlignedBuffer<std::complex<double>> kernel;
    if (!kernel.tryAllocate(n) || !response.tryAllocate(n / 2 + 1))
        return outOfMemory("cannot allocate the ramp filter kernel of length " + std::to_string(n));
    kernel[0] = 1.0 / (4.0 * pitch * pitch);
    for (std::size_t m = 1; m < n / 2; m += 2) {
        const double md = static_cast<double>(m);
        const double h = -1.0 / (md * md * pi * pi * pitch * pitch);
        kernel[m] = h;
        kernel[n - m] = h;
    }
    fft.forward(kernel.data());
    const double scale = pitch / static_cast<double>(n);  // q = pitch * (h conv p); 1/N of IDFT
    for (std::size_t k = 0; k <= n / 2; ++k) {
        const double f = static_cast<double>(k) / static_cast<double>(n);
        response[k] = static_cast<float>(scale * kernel[k].real() * filterWindowValue(options, f));
    }
    return Status::ok();
}

}  // namespace

struct RampFilter::Impl {
    int width = 0;
    std::size_t padded = 0;
    AlignedBuffer<float> response;
    SpectralRowFilter rowFilter;
};

RampFilter::RampFilter(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
RampFilter::RampFilter(RampFilter&&) noexcept = default;
RampFilter& RampFilter::operator=(RampFilter&&) noexcept = default;
RampFilter::~RampFilter() = default;

Result<RampFilter> RampFilter::create(int width, double detectorPitch, FilterOptions options) {
    if (width < 1 || width > kMaxWidth)
        return invalidArgument("ramp filter width " + std::to_string(width) + " is outside [1, " +
                               std::to_string(kMaxWidth) + "] pixels");
    if (!(std::isfinite(detectorPitch) && detectorPitch > 0.0))
        return invalidArgument("detector pitch " + std::to_string(detectorPitch) +
                               " is not a positive finite length");
    TOMO_RETURN_IF_ERROR(options.validate());

    const std::size_t padded = paddedLengthFor(static_cast<std::size_t>(width));
    AlignedBuffer<float> response;
    TOMO_RETURN_IF_ERROR(buildResponse(padded, detectorPitch, options, response));
    const std::size_t blockRows =
        std::clamp<std::size_t>(kBlockBytes / (padded * sizeof(float)), 1, kMaxBlockRows);
    TOMO_ASSIGN_OR_RETURN(SpectralRowFilter rowFilter,
                          SpectralRowFilter::create(padded, blockRows));
    return RampFilter(
        std::make_unique<Impl>(Impl{width, padded, std::move(response), std::move(rowFilter)}));
}

int RampFilter::width() const {
    return m_impl->width;
}
int RampFilter::paddedWidth() const {
    return static_cast<int>(m_impl->padded);
}
std::span<const float> RampFilter::response() const {
    return m_impl->response.span();
}
const char* RampFilter::fftBackendName() {
    return SpectralRowFilter::backendName();
}

Status RampFilter::apply(View2<float> rows, const ExecContext& ctx) const {
    const Impl& im = *m_impl;
    const auto width = static_cast<std::size_t>(im.width);
    if (rows.cols() != width)
        return invalidArgument("ramp filter made for rows of " + std::to_string(width) +
                               " pixels got rows of " + std::to_string(rows.cols()));
    if (ctx.progress) ctx.progress->setTotal(rows.rows());
    TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
    if (rows.rows() == 0) {
        if (ctx.progress) ctx.progress->done();
        return Status::ok();
    }

    const std::size_t blockRows = im.rowFilter.blockRows();
    const std::size_t blocks = (rows.rows() + blockRows - 1) / blockRows;
    const int workers = static_cast<int>(
        std::min<std::size_t>(static_cast<std::size_t>(resolveThreads(ctx.threads)), blocks));
    std::vector<SpectralRowFilter::Scratch> scratch;
    scratch.reserve(static_cast<std::size_t>(workers));
    for (int w = 0; w < workers; ++w) {
        TOMO_ASSIGN_OR_RETURN(auto s, im.rowFilter.makeScratch());
        scratch.push_back(std::move(s));
    }

    const std::span<const float> response = im.response.span();
    return parallelFor(blocks, workers, ctx.stop, [&](std::size_t block, int worker) {
        SpectralRowFilter::Scratch& s = scratch[static_cast<std::size_t>(worker)];
        const std::size_t first = block * blockRows;
        const std::size_t count = std::min(blockRows, rows.rows() - first);
        for (std::size_t r = 0; r < count; ++r) {
            auto in = rows.row(first + r);
            float* buf = s.row(r);
            std::copy(in.begin(), in.end(), buf);
            std::fill(buf + width, buf + im.padded, 0.f);
        }
        im.rowFilter.filter(s, count, response);
        for (std::size_t r = 0; r < count; ++r) {
            const float* buf = s.row(r);
            std::copy(buf, buf + width, rows.row(first + r).begin());
        }
        if (ctx.progress) ctx.progress->advance(count);
    });
}

}  // namespace tomo
