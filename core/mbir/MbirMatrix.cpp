#include "core/mbir/MbirMatrix.h"

#include "core/base/CacheFiles.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "core/base/Parallel.h"

namespace tomo {
namespace {

/// Integral from -infinity to t of the trapezoid centred at 0 with half-widths h1 (plateau)
/// <= h2 (base) and height H.
double trapezoidCumulative(double t, double h1, double h2, double H) {
    if (t <= -h2) return 0.0;
    const double total = H * (h1 + h2);
    if (t >= h2) return total;
    const double ramp = h2 - h1;
    if (t < -h1) return H * (t + h2) * (t + h2) / (2 * ramp);
    if (t <= h1) return 0.5 * H * ramp + H * (t + h1);
    return total - H * (h2 - t) * (h2 - t) / (2 * ramp);
}

constexpr char kMagic[8] = {'T', 'O', 'M', 'B', 'I', 'R', 'A', '1'};

}  // namespace

#if defined(__x86_64__) || defined(__i386__)
namespace {
/// MbirSliceGeometry::firstChannel over views [v0, v1), 4 at a time: floor(lo + (t cos + u sin)
/// / pitch + 0.5) with the scalar version's operations in its order (AVX2 without FMA: no
/// contraction changes a rounding).
__attribute__((target("avx2"))) void firstChannelsAvx2(const double* lo, const double* cs,
                                                       const double* sn, double invPitch, double t,
                                                       double u, int v0, int v1,
                                                       std::int32_t* out) {
    const __m256d vt = _mm256_set1_pd(t), vu = _mm256_set1_pd(u);
    const __m256d vp = _mm256_set1_pd(invPitch), half = _mm256_set1_pd(0.5);
    int v = v0;
    for (; v + 4 <= v1; v += 4) {
        const __m256d along = _mm256_add_pd(_mm256_mul_pd(vt, _mm256_loadu_pd(cs + v)),
                                            _mm256_mul_pd(vu, _mm256_loadu_pd(sn + v)));
        const __m256d at =
            _mm256_add_pd(_mm256_add_pd(_mm256_loadu_pd(lo + v), _mm256_mul_pd(along, vp)), half);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (v - v0)),
                         _mm256_cvttpd_epi32(_mm256_floor_pd(at)));
    }
    for (; v < v1; ++v)
        out[v - v0] = std::int32_t(std::floor(lo[v] + (t * cs[v] + u * sn[v]) * invPitch + 0.5));
}
}  // namespace
#endif

MbirSliceGeometry::MbirSliceGeometry(const ParallelGeometry& geom, const VolumeGeometry& vol)
    : m_channels(geom.detectorCount()),
      m_nx(vol.nx),
      m_ny(vol.ny),
      m_d(vol.voxelSize),
      m_x0(vol.x(0)),
      m_y0(vol.y(0)),
      m_pitch(geom.detectorPitch()),
      m_invPitch(1.0 / geom.detectorPitch()) {
#if defined(__x86_64__) || defined(__i386__)
    m_avx2 = __builtin_cpu_supports("avx2");
#endif
    const int views = geom.angleCount();
    m_offset.assign(std::size_t(views) + 1, 0);
    double lowest = 0, highest = 0;
    for (int v = 0; v < views; ++v) {
        const double c = std::cos(geom.angle(v)), s = std::sin(geom.angle(v));
        const double ac = std::fabs(c), as = std::fabs(s);
        m_cos.push_back(c);
        m_sin.push_back(s);
        m_center.push_back(geom.center(v));
        m_halfWidth.push_back(0.5 * m_d * (ac + as));
        m_plateau.push_back(0.5 * m_d * std::fabs(ac - as));
        m_height.push_back(m_d / std::max(ac, as));
        m_lo.push_back(geom.center(v) - m_halfWidth.back() * m_invPitch);
        const int count = int(std::ceil(2 * m_halfWidth.back() * m_invPitch)) + 1;
        m_count.push_back(count);
        m_offset32.push_back(std::int32_t(m_offset[std::size_t(v)]));
        m_offset[std::size_t(v) + 1] = m_offset[std::size_t(v)] + std::size_t(count);
        for (int corner = 0; corner < 4; ++corner) {
            const int ix = corner & 1 ? m_nx - 1 : 0, iy = corner & 2 ? m_ny - 1 : 0;
            const int first = firstChannel(v, ix, iy);
            lowest = std::min(lowest, double(first));
            highest = std::max(highest, double(first + count));
        }
    }
    m_padding = int(std::max(-lowest, highest - m_channels)) + 2;
    m_maxCount = m_count.empty() ? 0 : *std::max_element(m_count.begin(), m_count.end());
}

void MbirSliceGeometry::firstChannels(int ix, int iy, int v0, int v1, std::int32_t* out) const {
    const double t = m_x0 + ix * m_d, u = m_y0 - iy * m_d;
#if defined(__x86_64__) || defined(__i386__)
    if (m_avx2) {
        firstChannelsAvx2(m_lo.data(), m_cos.data(), m_sin.data(), m_invPitch, t, u, v0, v1, out);
        return;
    }
#endif
    for (int v = v0; v < v1; ++v)
        out[v - v0] = std::int32_t(firstChannel(v, ix, iy));
}

std::vector<double> MbirSliceGeometry::firstChannelTerms() const {
    std::vector<double> terms = m_lo;
    terms.insert(terms.end(), m_cos.begin(), m_cos.end());
    terms.insert(terms.end(), m_sin.begin(), m_sin.end());
    for (int ix = 0; ix < m_nx; ++ix)
        terms.push_back(m_x0 + ix * m_d);  // firstChannels' t and u
    for (int iy = 0; iy < m_ny; ++iy)
        terms.push_back(m_y0 - iy * m_d);
    terms.push_back(m_invPitch);
    return terms;
}

double MbirSliceGeometry::entry(int v, int ix, int iy, int c) const {
    const std::size_t s = std::size_t(v);
    const double t0 = (m_x0 + ix * m_d) * m_cos[s] + (m_y0 - iy * m_d) * m_sin[s];
    const double lo = (c - 0.5 - m_center[s]) * m_pitch - t0;
    const double hi = (c + 0.5 - m_center[s]) * m_pitch - t0;
    const double h1 = m_plateau[s], h2 = m_halfWidth[s], H = m_height[s];
    return (trapezoidCumulative(hi, h1, h2, H) - trapezoidCumulative(lo, h1, h2, H)) * m_invPitch;
}

std::string MbirSliceGeometry::key() const {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over every number of the geometry
    auto mix = [&h](double value) {
        const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
        for (int b = 0; b < 8; ++b) {
            h ^= (bits >> (8 * b)) & 0xffu;
            h *= 1099511628211ull;
        }
    };
    for (double value : {double(m_channels), double(m_nx), double(m_ny), m_d, m_x0, m_y0, m_pitch})
        mix(value);
    for (std::size_t v = 0; v < m_cos.size(); ++v) {
        mix(m_cos[v]);
        mix(m_sin[v]);
        mix(m_center[v]);
    }
    std::ostringstream out;
    out << m_nx << 'x' << m_ny << '-' << m_cos.size() << 'x' << m_channels << '-' << std::hex << h;
    return out.str();
}

std::size_t MbirMatrix::estimateBytes(const MbirSliceGeometry& g, MbirEntryType type) {
    const std::size_t entry = type == MbirEntryType::Uint8 ? 1 : sizeof(float);
    return g.voxels() * (g.columnSize() * entry + sizeof(float));
}

std::size_t MbirMatrix::bytes() const {
    return m_codes.size() - (m_codes.empty() ? 0 : kCodePadding) +
           (m_floats.size() + m_scale.size()) * sizeof(float);
}

Result<MbirMatrix> MbirMatrix::build(const MbirSliceGeometry& g, MbirEntryType type,
                                     const ExecContext& ctx) {
    MbirMatrix m;
    m.m_type = type;
    m.m_columnSize = g.columnSize();
    const std::size_t n = g.voxels() * g.columnSize();
    try {
        // Uninitialised: every column is written below, on its row's thread; the padding
        // (4-byte gathers at the end) is zeroed here.
        if (type == MbirEntryType::Uint8) {
            m.m_codes.resize(n + kCodePadding);
            std::fill_n(m.m_codes.data() + n, kCodePadding, std::uint8_t(0));
        } else
            m.m_floats.assign(n, 0.f);
        m.m_scale.assign(g.voxels(), 1.f);
    } catch (const std::bad_alloc&) {
        return outOfMemory("MBIR system matrix: " + std::to_string(estimateBytes(g, type) >> 20) +
                           " MiB do not fit");
    }
    if (ctx.progress) ctx.progress->setTotal(std::uint64_t(g.ny()));
    Status status =
        parallelFor(std::size_t(g.ny()), ctx.threads, ctx.stop, [&](std::size_t iy, int) {
            std::vector<double> column(g.columnSize());
            for (int ix = 0; ix < g.nx(); ++ix) {
                double peak = 0;
                for (int v = 0; v < g.views(); ++v) {
                    const int first = g.firstChannel(v, ix, int(iy));
                    double* out = column.data() + g.offset(v);
                    for (int k = 0; k < g.count(v); ++k) {
                        out[k] = g.entry(v, ix, int(iy), first + k);
                        peak = std::max(peak, out[k]);
                    }
                }
                const std::size_t j = iy * std::size_t(g.nx()) + std::size_t(ix);
                if (type == MbirEntryType::Float) {
                    for (std::size_t k = 0; k < column.size(); ++k)
                        m.m_floats[j * column.size() + k] = float(column[k]);
                    continue;
                }
                m.m_scale[j] = float(peak / 255.0);
                for (std::size_t k = 0; k < column.size(); ++k)
                    m.m_codes[j * column.size() + k] =
                        peak > 0 ? std::uint8_t(column[k] / peak * 255.0 + 0.5) : 0;
            }
            if (ctx.progress) ctx.progress->advance();
        });
    if (!status) return status;
    return m;
}

Status MbirMatrix::save(const std::string& path, const std::string& key) const {
    return writeFileAtomically(path, [&](std::ostream& out) {
        const std::uint64_t header[4] = {key.size(), std::uint64_t(m_type), m_columnSize,
                                         m_scale.size()};
        out.write(kMagic, sizeof kMagic);
        out.write(reinterpret_cast<const char*>(header), sizeof header);
        out.write(key.data(), std::streamsize(key.size()));
        out.write(reinterpret_cast<const char*>(m_scale.data()),
                  std::streamsize(m_scale.size() * sizeof(float)));
        if (m_type == MbirEntryType::Uint8)
            out.write(reinterpret_cast<const char*>(m_codes.data()),
                      std::streamsize(m_codes.size() - kCodePadding));
        else
            out.write(reinterpret_cast<const char*>(m_floats.data()),
                      std::streamsize(m_floats.size() * sizeof(float)));
        return bool(out);
    });
}

Result<MbirMatrix> MbirMatrix::load(const std::string& path, const std::string& key,
                                    MbirEntryType type, int threads) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return notFound("no cached MBIR matrix at " + path);
    char magic[sizeof kMagic];
    std::uint64_t header[4] = {};
    in.read(magic, sizeof magic);
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (!in || std::memcmp(magic, kMagic, sizeof kMagic) != 0 || header[0] != key.size())
        return invalidData(path + ": not an MBIR matrix of this geometry");
    std::string stored(key.size(), '\0');
    in.read(stored.data(), std::streamsize(stored.size()));
    if (stored != key || header[1] != std::uint64_t(type))
        return invalidData(path + ": not an MBIR matrix of this geometry and entry type");
    MbirMatrix m;
    m.m_type = type;
    m.m_columnSize = header[2];
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec || header[3] > size / sizeof(float))  // bounded before it is allocated
        return invalidData(path + ": truncated or too long");
    m.m_scale.resize(header[3]);
    in.read(reinterpret_cast<char*>(m.m_scale.data()),
            std::streamsize(m.m_scale.size() * sizeof(float)));
    const std::size_t n = m.m_columnSize * m.m_scale.size();
    const std::size_t entryBytes = type == MbirEntryType::Uint8 ? 1 : sizeof(float);
    const std::uint64_t at = in ? std::uint64_t(in.tellg()) : 0;
    if (!in || m.m_columnSize == 0 || n / m.m_columnSize != m.m_scale.size() ||
        n > size / entryBytes || at + n * entryBytes != size)
        return invalidData(path + ": truncated or too long");
    bool read = false;
    if (type == MbirEntryType::Uint8) {  // blocks on the caller's threads (CacheFiles.h)
        m.m_codes.resize(n + kCodePadding);
        std::fill_n(m.m_codes.data() + n, kCodePadding, std::uint8_t(0));
        read = readFileInBlocks(path, at, m.m_codes.data(), n, threads);
    } else {
        m.m_floats.resize(n);
        read = readFileInBlocks(path, at, m.m_floats.data(), n * sizeof(float), threads);
    }
    if (!read) return invalidData(path + ": truncated or too long");
    return m;
}

}  // namespace tomo
