#pragma once
/// @file RampFilter.h
/// @brief FBP ramp filtering of detector rows by FFT convolution with zero padding.
///
/// The filter is the band-limited ramp built from the spatial Ram-Lak kernel (Kak & Slaney,
/// "Principles of Computerized Tomographic Imaging", IEEE Press 1988, ch. 3, eq. 61,
/// doi:10.1137/1.9780898719277; Ramachandran & Lakshminarayanan 1971,
/// doi:10.1073/pnas.68.9.2236):
///   h(0) = 1/(4 d^2), h(n odd) = -1/(n^2 pi^2 d^2), h(n even, n != 0) = 0,
/// with d the detector pitch (same length unit as the geometry, e.g. mm). Its DFT over the padded
/// length gives |w| with the correct (small, positive) DC term instead of a zeroed DC; the
/// apodisation windows multiply that response:
///   Ram-Lak 1, Shepp-Logan sinc(f/(2 fc)) (sinc(x) = sin(pi x)/(pi x)), cosine cos(pi f/(2 fc)),
///   Hamming 0.54 + 0.46 cos(pi f/fc), Hann 0.5 + 0.5 cos(pi f/fc),
/// with f in cycles per sample (Nyquist 0.5), fc = cutoff * 0.5, and zero above fc
/// (Shepp & Logan 1974, doi:10.1109/TNS.1974.6499235).
///
/// Scaling: filtered rows q satisfy q = d * (h conv p) (sum over detector pixels), so that FBP is
/// sum_p w_p q_p(t) with w_p the angular weights (pi/P for P uniform angles over 180 degrees):
/// quantitative, in the units of p per unit length of d. response() holds, for DFT bin
/// k = 0..N/2 of the padded length N: d * DFT(h)[k] * window(k/N) / N, the 1/N of the inverse
/// FFT folded in. Its DC bin is (1/N) (1/(4d) - (2/(pi^2 d)) sum_{odd n < N/2} 1/n^2) > 0.
///
/// Padding: rows are zero-padded to N, the smallest power of two >= 2 * width. A row's linear
/// convolution needs kernel lags -(width-1)..(width-1); with N >= 2 * width they all fit in the
/// circular buffer once (lag m at index m, negative lag -m wrapped to index N - m, lags
/// |m| < N/2 kept), so the FFT's circular convolution equals the linear one over the row with no
/// wrap-around from the other edge. A power of two is also the fastest FFT length, and the one
/// the built-in radix-2 fallback needs. (Lag N/2 is left out: h(N/2) = 0 for N >= 4.)
///
/// FFT backends: FFTW3 single precision when the build has it (TOMO_WITH_FFTW), with batched
/// plans made once in create(); else a built-in radix-2 FFT. Both give the same results to
/// float rounding; fftBackendName() tells which one this build uses.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Apodisation window multiplying the ramp (formulas in the file comment). Ram-Lak keeps the
/// full resolution; the others trade resolution for lower noise, Hann the most.
enum class FilterWindow { RamLak, SheppLogan, Cosine, Hamming, Hann };

/// "ramp" (or "ram-lak"), "shepp-logan", "cosine", "hamming", "hann" (case-insensitive);
/// InvalidArgument naming the accepted names otherwise.
Result<FilterWindow> parseFilterWindow(std::string_view name);
/// Canonical name: "ramp" (the name shown everywhere), "shepp-logan", "cosine", "hamming", "hann".
const char* filterWindowName(FilterWindow w);

struct FilterOptions {
    FilterWindow window = FilterWindow::RamLak;
    double cutoff = 1.0;  ///< fraction of Nyquist in (0, 1]; the response is zero above it
    Status validate() const;
};

/// Window value at frequency @p f in cycles/sample (0..0.5; |f| is used) for the given options
/// (the formula the tests check the response against): 0 above fc = 0.5 * cutoff, and 0 for
/// options that fail validate().
double filterWindowValue(const FilterOptions& options, double f);

/// @brief Filters rows of a fixed width. Create once per (width, pitch, options) and reuse: the
/// response and the FFT plans are made in create() and shared by every call.
///
/// Threading: apply() is const and thread-safe; concurrent calls on the same object are fine
/// (each call allocates its own per-worker scratch). Results are bit-identical whatever
/// ctx.threads is: rows are processed in fixed blocks, independently of the worker.
class RampFilter {
  public:
    /// Errors (InvalidArgument): width outside [1, 2^29], pitch not positive and finite, cutoff
    /// outside (0, 1], unknown window. OutOfMemory or Internal if the FFT cannot be prepared.
    static Result<RampFilter> create(int width, double detectorPitch, FilterOptions options = {});
    RampFilter(RampFilter&&) noexcept;
    RampFilter& operator=(RampFilter&&) noexcept;
    ~RampFilter();

    /// Row width in detector pixels.
    int width() const;
    /// Padded FFT length N: the smallest power of two >= 2 * width().
    int paddedWidth() const;
    /// The multiplier applied to DFT bin k = 0..paddedWidth/2 (real, includes all scaling).
    std::span<const float> response() const;
    /// Filters every row of @p rows in place over ctx.threads workers. InvalidArgument when
    /// rows.cols() != width(); Cancelled when ctx.stop is triggered (checked before each block of
    /// up to 64 rows and about 128 KiB of padded input - a fraction of a millisecond for detector
    /// widths up to a few thousand; rows already done stay filtered, the rest unchanged).
    /// Progress: calls ctx.progress->setTotal(rows.rows()) itself (when ctx.progress is set) and
    /// advances it by the number of rows of each finished block.
    Status apply(View2<float> rows, const ExecContext& ctx) const;
    /// Name of the FFT implementation in use ("fftw3f" or "builtin-radix2").
    static const char* fftBackendName();

  private:
    struct Impl;
    explicit RampFilter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

}  // namespace tomo
