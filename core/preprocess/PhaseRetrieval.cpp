#include "core/preprocess/PhaseRetrieval.h"

#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/filter/Radix2Fft.h"
#include "core/preprocess/AnyLengthFft.h"
#include "core/preprocess/PreprocessSupport.h"

namespace tomo {
namespace {

std::size_t paddedLength(std::size_t n) {
    std::size_t m = 1;
    while (m < 2 * n)
        m <<= 1;
    return m;
}

/// Transforms the columns of a rows x cols complex buffer (row-major) in place.
void transformColumns(std::vector<std::complex<float>>& buf, std::size_t rows, std::size_t cols,
                      const Radix2Fft<float>& fft, std::vector<std::complex<float>>& col, bool inverse) {
    col.resize(rows);
    for (std::size_t c = 0; c < cols; ++c) {
        for (std::size_t r = 0; r < rows; ++r)
            col[r] = buf[r * cols + c];
        inverse ? fft.inverse(col.data()) : fft.forward(col.data());
        for (std::size_t r = 0; r < rows; ++r)
            buf[r * cols + c] = col[r];
    }
}

}  // namespace

double wavelengthMeters(double energyKeV) {
    return 1.2398419843320026e-9 / energyKeV;
}

Status PaganinOptions::validate() const {
    if (!(energyKeV > 0) || !std::isfinite(energyKeV))
        return invalidArgument("Paganin: the energy must be positive (got " +
                               std::to_string(energyKeV) + " keV)");
    if (!(distanceMm >= 0) || !std::isfinite(distanceMm))
        return invalidArgument("Paganin: the propagation distance must be >= 0 (got " +
                               std::to_string(distanceMm) + " mm)");
    if (!(pixelSizeUm > 0) || !std::isfinite(pixelSizeUm))
        return invalidArgument("Paganin: the pixel size must be positive (got " +
                               std::to_string(pixelSizeUm) + " um)");
    if (!(deltaOverBeta >= 0) || !std::isfinite(deltaOverBeta))
        return invalidArgument("Paganin: delta/beta must be >= 0 (got " +
                               std::to_string(deltaOverBeta) + ")");
    return Status::ok();
}

double PaganinOptions::filterConstant() const {
    const double lambda = wavelengthMeters(energyKeV);
    const double z = distanceMm * 1e-3, p = pixelSizeUm * 1e-6;
    return std::numbers::pi * lambda * z * deltaOverBeta / (p * p);
}

double PaganinOptions::response(double u, double v) const {
    return 1.0 / (1.0 + filterConstant() * (u * u + v * v));
}

Status retrievePhasePaganin(Array3<float>& frames, const PaganinOptions& options,
                            const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    if (frames.empty()) return invalidArgument("Paganin: no frames (" + shapeText(frames) + ")");
    TOMO_RETURN_IF_ERROR(checkAllFinite(frames, "Paganin input"));
    const std::size_t n = frames.dim(0), rows = frames.dim(1), cols = frames.dim(2);
    const std::size_t pr = paddedLength(rows), pc = paddedLength(cols);
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<float> fftR, Radix2Fft<float>::create(pr));
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<float> fftC, Radix2Fft<float>::create(pc));
    // Separable filter table: 1 / (1 + a (u^2 + v^2)) / (pr pc), the inverse FFT's scale folded in.
    const double a = options.filterConstant();
    std::vector<double> u2(pc), v2(pr);
    for (std::size_t k = 0; k < pc; ++k) {
        const double f = static_cast<double>(signedFrequency(k, pc)) / static_cast<double>(pc);
        u2[k] = f * f;
    }
    for (std::size_t k = 0; k < pr; ++k) {
        const double f = static_cast<double>(signedFrequency(k, pr)) / static_cast<double>(pr);
        v2[k] = f * f;
    }
    const double norm = 1.0 / (static_cast<double>(pr) * static_cast<double>(pc));
    const long offR = static_cast<long>((pr - rows) / 2), offC = static_cast<long>((pc - cols) / 2);
    const int workers = std::max(1, std::min(resolveThreads(ctx.threads), static_cast<int>(n)));
    std::vector<std::vector<std::complex<float>>> bufs(static_cast<std::size_t>(workers)),
        colScratch(static_cast<std::size_t>(workers));
    try {
        for (auto& b : bufs)
            b.resize(pr * pc);
    } catch (const std::bad_alloc&) {
        return outOfMemory("Paganin: cannot allocate " + std::to_string(workers) + " padded " +
                           std::to_string(pr) + "x" + std::to_string(pc) + " complex buffers");
    }
    if (ctx.progress) ctx.progress->setTotal(n);
    return parallelFor(n, workers, ctx.stop, [&](std::size_t i, int w) {
        auto& buf = bufs[static_cast<std::size_t>(w)];
        auto& col = colScratch[static_cast<std::size_t>(w)];
        View2<float> frame = frames.plane(i);
        for (std::size_t r = 0; r < pr; ++r) {
            const std::size_t sr = mirrorIndex(static_cast<long>(r) - offR, rows);
            for (std::size_t c = 0; c < pc; ++c)
                buf[r * pc + c] = {frame(sr, mirrorIndex(static_cast<long>(c) - offC, cols)), 0.f};
            fftC.forward(buf.data() + r * pc);
        }
        transformColumns(buf, pr, pc, fftR, col, false);
        for (std::size_t r = 0; r < pr; ++r)
            for (std::size_t c = 0; c < pc; ++c)
                buf[r * pc + c] *= static_cast<float>(norm / (1.0 + a * (u2[c] + v2[r])));
        transformColumns(buf, pr, pc, fftR, col, true);
        for (std::size_t r = 0; r < rows; ++r) {
            std::complex<float>* line = buf.data() + (r + static_cast<std::size_t>(offR)) * pc;
            fftC.inverse(line);
            for (std::size_t c = 0; c < cols; ++c)
                frame(r, c) = line[c + static_cast<std::size_t>(offC)].real();
        }
        if (ctx.progress) ctx.progress->advance();
    });
}

}  // namespace tomo
