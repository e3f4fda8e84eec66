#include "core/preprocess/StripeRemoval.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <vector>

#include "core/base/Parallel.h"
#include "core/preprocess/AnyLengthFft.h"
#include "core/preprocess/DaubechiesWavelet.h"
#include "core/preprocess/PreprocessSupport.h"
#include "core/preprocess/StripeDetection.h"

namespace tomo {
namespace {

std::size_t roundUp(std::size_t n, std::size_t multiple) {
    return (n + multiple - 1) / multiple * multiple;
}

int autoLevels(std::size_t rows, std::size_t cols) {
    const auto m = static_cast<double>(std::min(rows, cols));
    return std::clamp(static_cast<int>(std::floor(std::log2(m))) - 4, 1, 8);
}

/// Runs @p fn on every detector row's sinogram of @p projections in parallel.
template <class F>
Status forEachSinogram(Array3<float>& projections, const ExecContext& ctx, F&& fn) {
    const std::size_t rows = projections.dim(1);
    std::vector<Status> errors(rows);
    if (ctx.progress) ctx.progress->setTotal(rows);
    TOMO_RETURN_IF_ERROR(parallelFor(rows, ctx.threads, ctx.stop, [&](std::size_t r, int) {
        errors[r] = fn(sinogramOfRow(projections, r));
        if (ctx.progress) ctx.progress->advance();
    }));
    for (std::size_t r = 0; r < rows; ++r)
        TOMO_RETURN_IF_ERROR(errors[r].withContext("detector row " + std::to_string(r)));
    return Status::ok();
}

Status validateSnr(double snr, const char* method) {
    if (!(snr >= 0) || !std::isfinite(snr))
        return invalidArgument(std::string(method) +
                               " stripe removal: the detection threshold (snr) must be >= 0, 0 for "
                               "every column (got " +
                               std::to_string(snr) + ")");
    return Status::ok();
}

/// The columns a method may change: all when @p snr is 0, else the detected stripes (against a
/// running median of @p window columns, so stripes up to half a window wide are seen).
std::vector<char> columnsToFilter(View2<const float> sino, double snr, int window) {
    if (snr == 0) return std::vector<char>(sino.cols(), 1);
    const auto halfWidth = static_cast<std::size_t>(window / 2);
    return stripeMask(detectStripes(sino, snr, halfWidth), sino.cols());
}

Status fourierWaveletFilter(View2<float> sino, const FourierWaveletOptions& options) {
    TOMO_ASSIGN_OR_RETURN(DaubechiesWavelet wavelet, DaubechiesWavelet::fromName(options.wavelet));
    const std::size_t na = sino.rows(), nd = sino.cols();
    const int levels = options.levels > 0 ? options.levels : autoLevels(na, nd);
    const std::size_t unit = std::size_t{1} << levels;
    const std::size_t rp = roundUp(na + 2 * ((na + 7) / 8), unit);
    const std::size_t cp = roundUp(nd + 2 * ((nd + 7) / 8), unit);
    const long offR = static_cast<long>((rp - na) / 2), offC = static_cast<long>((cp - nd) / 2);
    std::vector<double> buf(rp * cp);
    for (std::size_t r = 0; r < rp; ++r)
        for (std::size_t c = 0; c < cp; ++c)
            buf[r * cp + c] = sino(mirrorIndex(static_cast<long>(r) - offR, na),
                                   mirrorIndex(static_cast<long>(c) - offC, nd));
    std::vector<double> scratch;
    AnyLengthFft::Scratch fftScratch;
    std::vector<std::complex<double>> column;
    for (int l = 0; l < levels; ++l) {
        const std::size_t nr = rp >> l, nc = cp >> l;
        for (std::size_t r = 0; r < nr; ++r)
            wavelet.analyze(buf.data() + r * cp, nc, 1, scratch);
        for (std::size_t c = 0; c < nc; ++c)
            wavelet.analyze(buf.data() + c, nr, cp, scratch);
        // Vertical detail band: rows [0, nr/2) (low-pass along the angle), columns [nc/2, nc).
        const std::size_t m = nr / 2;
        TOMO_ASSIGN_OR_RETURN(AnyLengthFft fft, AnyLengthFft::create(m));
        std::vector<double> damp(m);
        for (std::size_t k = 0; k < m; ++k) {
            const auto f = static_cast<double>(signedFrequency(k, m));
            damp[k] = (1.0 - std::exp(-f * f / (2.0 * options.sigma * options.sigma))) /
                      static_cast<double>(m);
        }
        column.resize(m);
        for (std::size_t c = nc / 2; c < nc; ++c) {
            for (std::size_t r = 0; r < m; ++r)
                column[r] = buf[r * cp + c];
            fft.forward(column.data(), fftScratch);
            for (std::size_t k = 0; k < m; ++k)
                column[k] *= damp[k];
            fft.inverse(column.data(), fftScratch);
            for (std::size_t r = 0; r < m; ++r)
                buf[r * cp + c] = column[r].real();
        }
    }
    for (int l = levels - 1; l >= 0; --l) {
        const std::size_t nr = rp >> l, nc = cp >> l;
        for (std::size_t c = 0; c < nc; ++c)
            wavelet.synthesize(buf.data() + c, nr, cp, scratch);
        for (std::size_t r = 0; r < nr; ++r)
            wavelet.synthesize(buf.data() + r * cp, nc, 1, scratch);
    }
    for (std::size_t r = 0; r < na; ++r)
        for (std::size_t c = 0; c < nd; ++c)
            sino(r, c) = static_cast<float>(buf[(r + static_cast<std::size_t>(offR)) * cp + c +
                                                static_cast<std::size_t>(offC)]);
    return Status::ok();
}

}  // namespace

Status SortingStripeOptions::validate() const {
    if (size != 0 && (size < 3 || size % 2 == 0))
        return invalidArgument(
            "sorting stripe removal: the window must be odd and >= 3, or 0 for automatic (got " +
            std::to_string(size) + ")");
    return validateSnr(snr, "sorting");
}

int SortingStripeOptions::windowFor(std::size_t detectors) const {
    if (size != 0) return size;
    const int percent = static_cast<int>(detectors / 100);
    return std::max(5, percent | 1);
}

Status FourierWaveletOptions::validate() const {
    if (levels < 0 || levels > 12)
        return invalidArgument("Fourier-wavelet stripe removal: levels must be in [0, 12] (got " +
                               std::to_string(levels) + ")");
    if (!(sigma > 0) || !std::isfinite(sigma))
        return invalidArgument("Fourier-wavelet stripe removal: sigma must be positive (got " +
                               std::to_string(sigma) + ")");
    TOMO_RETURN_IF_ERROR(validateSnr(snr, "Fourier-wavelet"));
    return DaubechiesWavelet::fromName(wavelet).status();
}

View2<float> sinogramOfRow(Array3<float>& projections, std::size_t row) {
    return {projections.data() + row * projections.pitch(), projections.dim(0), projections.dim(2),
            projections.dim(1) * projections.pitch()};
}

Status removeStripesSorting(View2<float> sino, const SortingStripeOptions& options) {
    TOMO_RETURN_IF_ERROR(options.validate());
    const std::size_t na = sino.rows(), nd = sino.cols();
    if (na < 1 || nd < 2)
        return invalidArgument("sorting stripe removal needs at least 2 detector pixels (sinogram " +
                               shapeText(View2<const float>(sino)) + ")");
    TOMO_RETURN_IF_ERROR(checkAllFinite(View2<const float>(sino), "sinogram"));
    const std::vector<char> filter =
        columnsToFilter(View2<const float>(sino), options.snr, options.windowFor(nd));
    if (std::find(filter.begin(), filter.end(), 1) == filter.end()) return Status::ok();
    // sorted[j * na + k]: k-th smallest value of detector column j; order[...] its angle index.
    std::vector<float> sorted(na * nd);
    std::vector<std::size_t> order(na * nd);
    for (std::size_t j = 0; j < nd; ++j) {
        std::size_t* idx = order.data() + j * na;
        std::iota(idx, idx + na, std::size_t{0});
        std::stable_sort(idx, idx + na, [&](std::size_t a, std::size_t b) { return sino(a, j) < sino(b, j); });
        for (std::size_t k = 0; k < na; ++k)
            sorted[j * na + k] = sino(idx[k], j);
    }
    if (options.snr > 0) {
        // The detected columns, interpolated in the sorted domain from their neighbours: each
        // keeps its own order over the angles and takes the neighbours' distribution of values.
        for (std::size_t k = 0; k < na; ++k)
            bridgeMaskedColumns(sorted.data() + k, na, filter);
    } else {
        const int size = options.windowFor(nd);
        const long half = size / 2;
        std::vector<float> window(static_cast<std::size_t>(size)), column(nd);
        for (std::size_t k = 0; k < na; ++k) {
            for (std::size_t j = 0; j < nd; ++j) {
                std::size_t n = 0;
                for (long dj = -half; dj <= half; ++dj)
                    window[n++] = sorted[mirrorIndex(static_cast<long>(j) + dj, nd) * na + k];
                column[j] = medianInPlace(window);
            }
            for (std::size_t j = 0; j < nd; ++j)
                sorted[j * na + k] = column[j];
        }
    }
    for (std::size_t j = 0; j < nd; ++j)
        for (std::size_t k = 0; k < na && filter[j]; ++k)
            sino(order[j * na + k], j) = sorted[j * na + k];
    return Status::ok();
}

Status removeStripesFourierWavelet(View2<float> sino, const FourierWaveletOptions& options) {
    TOMO_RETURN_IF_ERROR(options.validate());
    const std::size_t na = sino.rows(), nd = sino.cols();
    if (na < 4 || nd < 4)
        return invalidArgument("Fourier-wavelet stripe removal needs a sinogram of at least 4x4 (got " +
                               shapeText(View2<const float>(sino)) + ")");
    TOMO_RETURN_IF_ERROR(checkAllFinite(View2<const float>(sino), "sinogram"));
    if (options.snr == 0) return fourierWaveletFilter(sino, options);
    const std::vector<char> filter = columnsToFilter(View2<const float>(sino), options.snr,
                                                     SortingStripeOptions{}.windowFor(nd));
    if (std::find(filter.begin(), filter.end(), 1) == filter.end()) return Status::ok();
    // Only the detected columns' difference from their interpolation between the neighbours
    // (the stripes, and the object's curvature there) is filtered: the object's profile, which
    // varies slowly with the angle near the axis and which the filter would damp into shading
    // and halos, stays out of it.
    std::vector<float> smooth(na * nd);
    for (std::size_t r = 0; r < na; ++r) {
        for (std::size_t c = 0; c < nd; ++c)
            smooth[r * nd + c] = sino(r, c);
        bridgeMaskedColumns(smooth.data() + r * nd, 1, filter);
    }
    std::vector<float> detail(na * nd);
    for (std::size_t r = 0; r < na; ++r)
        for (std::size_t c = 0; c < nd; ++c)
            detail[r * nd + c] = sino(r, c) - smooth[r * nd + c];
    TOMO_RETURN_IF_ERROR(fourierWaveletFilter(View2<float>(detail.data(), na, nd, nd), options));
    for (std::size_t r = 0; r < na; ++r)
        for (std::size_t c = 0; c < nd; ++c)
            if (filter[c]) sino(r, c) = smooth[r * nd + c] + detail[r * nd + c];
    return Status::ok();
}

Status removeStripesSorting(Array3<float>& projections, const SortingStripeOptions& options,
                            const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    return forEachSinogram(projections, ctx,
                           [&](View2<float> s) { return removeStripesSorting(s, options); });
}

Status removeStripesFourierWavelet(Array3<float>& projections, const FourierWaveletOptions& options,
                                   const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    return forEachSinogram(projections, ctx,
                           [&](View2<float> s) { return removeStripesFourierWavelet(s, options); });
}

}  // namespace tomo
