#pragma once
/// @file RampFilter.h
/// @brief FBP ramp filtering of detector rows by FFT convolution with zero padding.
///
/// The filter is the band-limited ramp built from the spatial Ram-Lak kernel (Kak & Slaney,
/// "Principles of Computerized Tomographic Imaging", ch. 3, eq. 61):
///   h(0) = 1/(4 d^2), h(n odd) = -1/(n^2 pi^2 d^2), h(n even, n != 0) = 0,
/// with d the detector pitch. Its DFT over the padded length gives |w| with the correct (small,
/// positive) DC term instead of a zeroed DC; the apodisation windows multiply that response:
///   Ram-Lak 1, Shepp-Logan sinc(f/(2 fc)), cosine cos(pi f/(2 fc)),
///   Hamming 0.54 + 0.46 cos(pi f/fc), Hann 0.5 + 0.5 cos(pi f/fc),
/// with f in cycles per sample (Nyquist 0.5), fc = cutoff * 0.5, and zero above fc.
/// Filtered rows q satisfy q = d * (h conv p), so that FBP is sum_p w_p q_p(t): quantitative.
/// Rows are zero-padded to a power of two at least twice their width, so the circular FFT
/// convolution equals the linear one over the row.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

enum class FilterWindow { RamLak, SheppLogan, Cosine, Hamming, Hann };

/// "ramp" (or "ram-lak"), "shepp-logan", "cosine", "hamming", "hann".
Result<FilterWindow> parseFilterWindow(std::string_view name);
const char* filterWindowName(FilterWindow w);

struct FilterOptions {
    FilterWindow window = FilterWindow::RamLak;
    double cutoff = 1.0;  ///< fraction of Nyquist in (0, 1]; the response is zero above it
    Status validate() const;
};

/// Window value at frequency @p f in cycles/sample (0..0.5) for the given options (the formula
/// the tests check the response against).
double filterWindowValue(const FilterOptions& options, double f);

/// @brief Filters rows of a fixed width. Create once per (width, pitch, options) and reuse: the
/// FFT plans are made in create() and shared by every call. apply() is thread-safe.
class RampFilter {
public:
    static Result<RampFilter> create(int width, double detectorPitch, FilterOptions options = {});
    RampFilter(RampFilter&&) noexcept;
    RampFilter& operator=(RampFilter&&) noexcept;
    ~RampFilter();

    int width() const;
    int paddedWidth() const;
    /// The multiplier applied to DFT bin k = 0..paddedWidth/2 (real, includes all scaling).
    std::span<const float> response() const;
    /// Filters every row of @p rows in place (rows.cols() must equal width()), over
    /// ctx.threads workers; advances ctx.progress by one unit per row (after setTotal(rows)).
    Status apply(View2<float> rows, const ExecContext& ctx) const;
    /// Name of the FFT implementation in use ("fftw3f" or "builtin-radix2").
    static const char* fftBackendName();

private:
    struct Impl;
    explicit RampFilter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

}  // namespace tomo
