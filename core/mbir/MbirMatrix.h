#pragma once
/// @file MbirMatrix.h
/// @brief The MBIR system matrix A for one parallel-beam slice, stored per voxel (column-wise)
/// as paper 004 does (section 4.1), in 8 bits with a per-voxel maximum (section 4.3.1), or in
/// float for the ablation and the tests.
///
/// Model: a square pixel of side d projects at angle theta onto a trapezoid of total width
/// d (|cos| + |sin|), plateau width d ||cos| - |sin||, height d / max(|cos|, |sin|) (the chord)
/// and area d^2. A[i][j] is that profile integrated over detector channel i's aperture
/// [i - 1/2, i + 1/2] pitch, divided by the pitch: the mean line integral over the channel of a
/// unit-density pixel, in length units, so that A x is in the sinogram's units (line integrals,
/// like the analytic phantom's `Phantom::project` with many rays per bin).
///
/// Layout: for voxel j (row-major, j = iy nx + ix) and view v, the entries of channels
/// firstChannel(v, j) .. firstChannel(v, j) + count(v) - 1 are stored contiguously (zeros where
/// the footprint does not reach); count(v) depends on the view only, so voxel j's column is
/// the fixed-size block [j * columnSize(), (j + 1) * columnSize()) and no index is stored.
/// firstChannel may be negative or past the detector: MbirSinogram pads its channels.
/// 8-bit entries: c = (uint8)(A / max_j * 255 + 0.5), A ~= max_j / 255 * c, so that an entry
/// differs from its float value by at most max_j / 510.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/base/UninitializedVector.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

enum class MbirEntryType { Uint8, Float };

/// Bytes after the last 8-bit column, so that 4-byte gathers of its last entries stay inside.
inline constexpr std::size_t kCodePadding = 4;

/// The geometry of one slice as the matrix sees it, with the per-view constants.
class MbirSliceGeometry {
  public:
    MbirSliceGeometry(const ParallelGeometry& geom, const VolumeGeometry& vol);

    int views() const { return int(m_cos.size()); }
    int channels() const { return m_channels; }
    int nx() const { return m_nx; }
    int ny() const { return m_ny; }
    std::size_t voxels() const { return std::size_t(m_nx) * std::size_t(m_ny); }
    /// Entries per view (same for every voxel) and their offsets in a column.
    int count(int v) const { return m_count[std::size_t(v)]; }
    /// Every view's count and offset, for vector code (offsets fit in 32 bits).
    const int* counts() const { return m_count.data(); }
    const std::int32_t* offsets32() const { return m_offset32.data(); }
    int maxCount() const { return m_maxCount; }
    std::size_t offset(int v) const { return m_offset[std::size_t(v)]; }
    std::size_t columnSize() const { return m_offset.back(); }
    /// First channel of voxel (ix, iy)'s run at view v (one formula for building and using A).
    int firstChannel(int v, int ix, int iy) const {
        const std::size_t s = std::size_t(v);
        const double t = m_x0 + ix * m_d;
        const double u = m_y0 - iy * m_d;
        return int(std::floor(m_lo[s] + (t * m_cos[s] + u * m_sin[s]) * m_invPitch + 0.5));
    }
    /// firstChannel(v, ix, iy) for the views [v0, v1) into @p out[v - v0]: the same numbers,
    /// 4 views at a time with AVX2 where the CPU has it (the same double operations in the same
    /// order, no FMA, so every channel is the scalar one).
    void firstChannels(int ix, int iy, int v0, int v1, std::int32_t* out) const;
    /// The doubles firstChannel() computes with, for a device that computes it bit for bit
    /// (GPU-ICD's tile build): per view lo, cos, sin (3 x views), per column t (nx), per row u
    /// (ny), then 1 / pitch; firstChannel(v, ix, iy) = floor(lo[v] + (t[ix] cos[v] + u[iy]
    /// sin[v]) / pitch + 0.5), in that order, without fused multiply-adds.
    std::vector<double> firstChannelTerms() const;
    /// Mean over channel @p c of the footprint of pixel (ix, iy) at view v (length units).
    double entry(int v, int ix, int iy, int c) const;
    /// Channels a band must add on each side of the detector to hold every run.
    int padding() const { return m_padding; }
    /// A string identifying the geometry exactly (for the cache key).
    std::string key() const;

  private:
    int m_channels = 0, m_nx = 0, m_ny = 0, m_padding = 0;
    double m_d = 1, m_x0 = 0, m_y0 = 0, m_pitch = 1, m_invPitch = 1;
    std::vector<double> m_cos, m_sin, m_lo, m_center, m_halfWidth, m_plateau, m_height;
    std::vector<int> m_count;
    std::vector<std::int32_t> m_offset32;
    int m_maxCount = 0;
    std::vector<std::size_t> m_offset;
    bool m_avx2 = false;
};

/// The stored matrix.
class MbirMatrix {
  public:
    /// Bytes the matrix of @p g takes in @p type (checked against a budget before building).
    static std::size_t estimateBytes(const MbirSliceGeometry& g, MbirEntryType type);
    /// Builds A (parallel over voxels; Cancelled when ctx.stop fires; progress per row).
    static Result<MbirMatrix> build(const MbirSliceGeometry& g, MbirEntryType type,
                                    const ExecContext& ctx);

    MbirEntryType type() const { return m_type; }
    std::size_t columnSize() const { return m_columnSize; }
    std::size_t voxels() const { return m_scale.size(); }
    std::size_t bytes() const;
    /// Voxel j's entries: uint8 codes (type Uint8) or floats (type Float).
    const std::uint8_t* codes(std::size_t j) const { return m_codes.data() + j * m_columnSize; }
    const float* floats(std::size_t j) const { return m_floats.data() + j * m_columnSize; }
    /// The factor turning voxel j's stored entries into length units (max_j / 255, or 1).
    float scale(std::size_t j) const { return m_scale[j]; }

    /// Binary file (header with the geometry key and sizes, then the arrays); atomic write.
    Status save(const std::string& path, const std::string& key) const;
    /// NotFound when absent, InvalidData when the key, sizes or length do not match. The entries
    /// are read in blocks on @p threads threads (ExecContext::threads: 0 all, 1 the caller's).
    static Result<MbirMatrix> load(const std::string& path, const std::string& key,
                                   MbirEntryType type, int threads);

  private:
    MbirEntryType m_type = MbirEntryType::Uint8;
    std::size_t m_columnSize = 0;
    /// Uninitialised on resize: build() writes every column on its threads, load() reads them
    /// in blocks on several (issue 27 item 4); the padding is zeroed by both.
    UninitializedVector<std::uint8_t> m_codes;
    std::vector<float> m_floats;
    std::vector<float> m_scale;
};

}  // namespace tomo
