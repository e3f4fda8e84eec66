#include "core/mbir/MbirModel.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/base/Parallel.h"
#include "core/solvers/StoppingRule.h"

namespace tomo {

Result<MbirWeighting> parseMbirWeighting(const std::string& name) {
    if (name == "none") return MbirWeighting::None;
    if (name == "transmission") return MbirWeighting::Transmission;
    if (name == "counts") return MbirWeighting::Counts;
    return invalidArgument("weights: '" + name + "' (none | transmission | counts)");
}

Result<MbirSinograms> MbirSinograms::create(const Sinograms& y, const MbirSliceGeometry& g,
                                            const MbirModelOptions& options) {
    if (y.dim(1) != std::size_t(g.views()) || y.dim(2) != std::size_t(g.channels()))
        return invalidArgument("MBIR: sinograms of " + std::to_string(y.dim(1)) + " x " +
                               std::to_string(y.dim(2)) + " do not match " +
                               std::to_string(g.views()) + " views x " +
                               std::to_string(g.channels()) + " channels");
    if (options.weighting == MbirWeighting::Counts && !(options.incidentCount > 0))
        return invalidArgument("weights=counts needs the incident count (counts > 0)");
    MbirSinograms s;
    s.m_views = g.views();
    s.m_channels = g.channels();
    s.m_pad = g.padding();
    s.m_nz = int(y.dim(0));
    const std::size_t n = std::size_t(s.m_views) * s.rowLength();
    try {
        s.m_e.assign(n, 0.f);
        s.m_w.assign(n, 0.f);
        s.m_y.reserve(y.elementCount());
    } catch (const std::bad_alloc&) {
        return outOfMemory("MBIR: the error and weight sinograms do not fit in memory");
    }
    for (int z = 0; z < s.m_nz; ++z)
        for (int v = 0; v < s.m_views; ++v) {
            auto row = y.row(std::size_t(z), std::size_t(v));
            for (int c = 0; c < s.m_channels; ++c) {
                const float value = row[std::size_t(c)];
                if (!std::isfinite(value))
                    return invalidData("MBIR: sinogram value at slice " + std::to_string(z) +
                                       ", view " + std::to_string(v) + ", channel " +
                                       std::to_string(c) + " is not finite");
                float w = 1.f;
                if (options.weighting == MbirWeighting::Transmission) w = std::exp(-value);
                if (options.weighting == MbirWeighting::Counts)
                    w = float(options.incidentCount * std::exp(-double(value)));
                s.m_e[s.index(v, c, z)] = value;
                s.m_w[s.index(v, c, z)] = w;
                s.m_y.push_back(value);
            }
        }
    return s;
}

double MbirSinograms::raysPerPixel(const MbirSliceGeometry& g, double voxelSize,
                                   double pitch) const {
    // The views times the rays of one view that cross the image (its diagonal in detector
    // pitches), over the pixels.
    if (!(voxelSize > 0 && pitch > 0)) return 0.0;
    const double diagonal = std::hypot(double(g.nx()), double(g.ny())) * voxelSize / pitch;
    return double(m_views) * diagonal / (double(g.nx()) * double(g.ny()));
}

double MbirSinograms::noiseAdaptation(const MbirModelOptions& options, double sigmaY, double rays,
                                      const SinogramLayout& layout,
                                      std::ostringstream& note) const {
    if (!options.noiseAdapt || options.sigmaY > 0 || options.weighting != MbirWeighting::None)
        return 1.0;
    const double sigmaHat = estimateSinogramNoise(m_y, layout);
    const double rho = sigmaY > 0 ? sigmaHat / sigmaY : 0.0;
    if (!std::isfinite(rho) || !(sigmaY > 0) || rho == 1) return 1.0;
    if (rho > 1) {
        const double factor = std::pow(rho, -kNoiseAdaptExponent);
        note
            << " x " << factor << " (noise adaptation: the data's noise " << sigmaHat << " is "
            << rho
            << " x sigma_y, SNR below snr_db: a stronger prior; noise_adapt=off for svmbir's rule)";
        return factor;
    }
    // Cleaner data than snr_db assumes: sharper by -a log2 rho, at most kSharpenCap, in full
    // where a pixel meets at most one ray and not at all from sqrt(2) rays per pixel on (where
    // the data are redundant the view adaptation sets the prior).
    const double taper = std::clamp(1.0 - 2.0 * std::log2(std::max(rays, 1e-12)), 0.0, 1.0);
    const double sharpen =
        taper * (rho > 0 ? std::min(kSharpenCap, -kSharpenExponent * std::log2(rho)) : kSharpenCap);
    if (!(sharpen > 0)) return 1.0;
    const double factor = std::exp2(sharpen);
    note << " x " << factor << " (noise adaptation: the data's noise " << sigmaHat << " is " << rho
         << " x sigma_y, SNR above snr_db at " << rays << " rays per pixel: sharpness +" << sharpen
         << ", a weaker prior; noise_adapt=off for svmbir's rule)";
    return factor;
}

double MbirSinograms::viewAdaptation(const MbirModelOptions& options, double rays,
                                     std::ostringstream& note) const {
    // Where svmbir's rules stand unchanged otherwise: unweighted data, sigma_y automatic.
    if (!options.viewAdapt || options.sigmaY > 0 || options.weighting != MbirWeighting::None)
        return 1.0;
    if (!(rays > 1)) return 1.0;
    const double factor = std::pow(rays, -kViewAdaptExponent);
    note << " x " << factor << " (view adaptation: " << m_views << " views, " << rays
         << " rays per pixel: a stronger prior; view_adapt=off for svmbir's rule)";
    return factor;
}

MbirSigmas MbirSinograms::sigmas(const MbirModelOptions& options, const MbirSliceGeometry& g,
                                 double voxelSize, double pitch,
                                 const SinogramLayout& layout) const {
    // The support: y > 0.05 mean |y| (empty space left out of the averages).
    double meanAbs = 0;
    for (float v : m_y)
        meanAbs += std::fabs(v);
    meanAbs /= double(std::max<std::size_t>(1, m_y.size()));
    double sumY = 0, sumWy2 = 0;
    std::size_t support = 0;
    for (int z = 0; z < m_nz; ++z)
        for (int v = 0; v < m_views; ++v)
            for (int c = 0; c < m_channels; ++c) {
                const std::size_t i = index(v, c, z);
                const double y = m_y[(std::size_t(z) * m_views + v) * m_channels + c];
                if (!(y > 0.05 * meanAbs)) continue;
                ++support;
                sumY += y;
                sumWy2 += m_w[i] * y * y;
            }
    MbirSigmas out;
    std::ostringstream ny, nx;
    if (options.sigmaY > 0) {
        out.sigmaY = options.sigmaY;
        ny << "sigma_y = " << out.sigmaY << " (given)";
    } else if (options.weighting == MbirWeighting::Counts) {
        out.sigmaY = 1.0;
        ny << "sigma_y = 1 (weights are inverse variances from the incident count)";
    } else {
        const double rms = support ? std::sqrt(sumWy2 / double(support)) : 0.0;
        const double rel = std::pow(10.0, -options.snrDb / 20.0);
        out.sigmaY = rel * rms * std::sqrt(voxelSize / pitch);
        if (!(out.sigmaY > 0)) out.sigmaY = 1.0;
        ny << "sigma_y = " << out.sigmaY << " = 10^(-" << options.snrDb << "/20) x rms(sqrt(w) y) "
           << rms << " x sqrt(voxel/pitch " << voxelSize / pitch << ") (snr_db " << options.snrDb
           << ")";
    }
    if (options.prior.sigmaX > 0) {
        out.sigmaX = options.prior.sigmaX;
        nx << "sigma_x = " << out.sigmaX << " (given)";
    } else {
        const double typical =
            support ? sumY / double(support) / (double(g.channels()) * pitch) : 0.0;
        const double rays = raysPerPixel(g, voxelSize, pitch);
        const double adapt = noiseAdaptation(options, out.sigmaY, rays, layout, nx) *
                             viewAdaptation(options, rays, nx);
        out.sigmaX = 0.2 * std::pow(2.0, options.sharpness) * typical * adapt;
        if (!(out.sigmaX > 0)) out.sigmaX = 1.0;
        std::ostringstream head;
        head << "sigma_x = " << out.sigmaX << " = 0.2 x 2^sharpness (" << options.sharpness
             << ") x typical attenuation " << typical << " (mean line integral / detector width)";
        nx.str(head.str() + nx.str());
    }
    out.sigmaYNote = ny.str();
    out.sigmaXNote = nx.str();
    return out;
}

void MbirSinograms::misfit(double& weighted, double& plain) const {
    weighted = plain = 0;
    for (int v = 0; v < m_views; ++v)
        for (int c = 0; c < m_channels; ++c)
            for (int z = 0; z < m_nz; ++z) {
                const std::size_t i = index(v, c, z);
                const double e = m_e[i];
                weighted += m_w[i] * e * e;
                plain += e * e;
            }
}

double mbirPriorCost(const std::vector<float>& x, int nx, int ny, int nz, const Qggmrf& prior,
                     const ExecContext& ctx) {
    const NeighbourWeights b = neighbourWeights(nz);
    auto at = [&](int ix, int iy, int z) {
        return double(x[(std::size_t(iy) * nx + ix) * nz + z]);
    };
    // Per image row, summed in row order afterwards: the same bits for any thread count.
    std::vector<double> rows(std::size_t(ny), 0.0);
    Status status = parallelFor(std::size_t(ny), ctx.threads, {}, [&](std::size_t row, int) {
        const int iy = int(row);
        double sum = 0;
        for (int ix = 0; ix < nx; ++ix)
            for (int z = 0; z < nz; ++z) {
                const double v = at(ix, iy, z);
                // Each pair once: right, down, down-right, down-left, next slice.
                if (ix + 1 < nx) sum += b.nearest * prior.potential(v - at(ix + 1, iy, z));
                if (iy + 1 < ny) sum += b.nearest * prior.potential(v - at(ix, iy + 1, z));
                if (iy + 1 < ny && ix + 1 < nx)
                    sum += b.diagonal * prior.potential(v - at(ix + 1, iy + 1, z));
                if (iy + 1 < ny && ix > 0)
                    sum += b.diagonal * prior.potential(v - at(ix - 1, iy + 1, z));
                if (z + 1 < nz) sum += b.across * prior.potential(v - at(ix, iy, z + 1));
            }
        rows[row] = sum;
    });
    (void)status;  // no stop token: always OK
    double total = 0;
    for (double r : rows)
        total += r;
    return total;
}

Status mbirSubtractProjection(const MbirSliceGeometry& g, const MbirMatrix& a,
                              const std::vector<float>& x, MbirSinograms& s,
                              const ExecContext& ctx) {
    // Blocks of views, each written by one worker, walking the matrix column by column (the
    // block's part of a column is contiguous), so that the matrix is read once per block.
    const int nz = s.slices();
    constexpr int kBlocks = 16;
    const int perBlock = (g.views() + kBlocks - 1) / kBlocks;
    std::vector<float>& e = s.error();
    return parallelFor(std::size_t(kBlocks), ctx.threads, ctx.stop, [&](std::size_t block, int) {
        const int v0 = int(block) * perBlock, v1 = std::min(g.views(), v0 + perBlock);
        if (nz == 1 && a.type() == MbirEntryType::Uint8) {
            // One slice of 8-bit entries (the common case): the voxel's scale folded into its
            // value once, no per-entry branch.
            const std::size_t n = std::size_t(std::max(0, v1 - v0));
            constexpr std::size_t kAhead = 8;
            const std::size_t blockBytes =
                v1 > v0 ? g.offset(v1 - 1) + std::size_t(g.count(v1 - 1)) - g.offset(v0) : 0;
            std::vector<std::int32_t> first(n);
            std::vector<float*> rows(n);  // channel 0 of each view's row
            for (int v = v0; v < v1; ++v)
                rows[std::size_t(v - v0)] = e.data() + s.index(v, 0, 0);
            for (int iy = 0; iy < g.ny(); ++iy)
                for (int ix = 0; ix < g.nx(); ++ix) {
                    const std::size_t j = std::size_t(iy) * g.nx() + ix;
                    // The block's part of a column is a few cache lines a column apart from the
                    // next voxel's: fetch them ahead (the walk is latency-bound without).
                    if (j + kAhead < g.voxels()) {
                        const std::uint8_t* next = a.codes(j + kAhead) + g.offset(v0);
                        for (std::size_t b = 0; b < blockBytes; b += 64)
                            __builtin_prefetch(next + b);
                    }
                    if (x[j] == 0.f) continue;
                    const float value = x[j] * a.scale(j);
                    const std::uint8_t* c = a.codes(j) + g.offset(v0);
                    g.firstChannels(ix, iy, v0, v1, first.data());
                    for (std::size_t v = 0; v < n; ++v) {
                        float* row = rows[v] + first[v];
                        const int count = g.counts()[v0 + int(v)];
                        for (int k = 0; k < count; ++k)
                            row[k] -= value * float(c[k]);
                        c += count;  // a column's runs are stored view after view
                    }
                }
            return;
        }
        for (int iy = 0; iy < g.ny(); ++iy)
            for (int ix = 0; ix < g.nx(); ++ix) {
                const std::size_t j = std::size_t(iy) * g.nx() + ix;
                const float* line = x.data() + j * nz;
                bool any = false;
                for (int z = 0; z < nz; ++z)
                    any = any || line[z] != 0.f;
                if (!any) continue;
                for (int v = v0; v < v1; ++v) {
                    float* row = e.data() + s.index(v, g.firstChannel(v, ix, iy), 0);
                    for (int k = 0; k < g.count(v); ++k, row += nz) {
                        const std::size_t at = g.offset(v) + std::size_t(k);
                        const float entry = a.type() == MbirEntryType::Uint8
                                                ? a.scale(j) * float(a.codes(j)[at])
                                                : a.floats(j)[at];
                        for (int z = 0; z < nz; ++z)
                            row[z] -= entry * line[z];
                    }
                }
            }
    });
}

}  // namespace tomo
