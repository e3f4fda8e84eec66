#pragma once
/// @file FdkWeights.h
/// @brief The weights FDK applies to each projection before the ramp filter (Feldkamp, Davis &
/// Kress, JOSA A 1(6) 1984, doi:10.1364/JOSAA.1.000612; Kak & Slaney ch. 3.6):
///
///   p'(u, v) = c_k * cos_k(u, v) * r_k(u) * p(u, v),   then q = ramp * p' along u (RampFilter),
///   f(x) = sum_k q_k(u(x), v(x)) / w_k(x)^2            (w = 1 at the isocentre; ConeGeometry).
///
///  - cosine: cos_k = sdd / sqrt(sdd^2 + (u - u0)^2 + (v - v0)^2), (u0, v0) = (sx - px, sy - py)
///    the foot of the source's perpendicular on the detector (exact for any RTK parameters: the
///    rotated frame has the detector at distance sdd from the source);
///  - constant: c_k = dbeta_k * sdd * |S_k| / (2 sid^2) (RTK's [Rit and Clackdoyle 2014]
///    factor; = dbeta_k sdd / (2 sid) without source offsets), with dbeta_k half the angular
///    distance between view k's neighbours (non-uniform angles are weighted by their gaps; the
///    two ends of an open arc get their one neighbour's gap);
///  - redundancy r_k: 1 for a full scan (each line measured twice: the 1/2 in c_k). For a short
///    scan, 2 x Parker's weights (D. L. Parker, Med. Phys. 9(2) 1982, doi:10.1118/1.595078) over
///    the arc [0, pi + 2 delta], delta = (span - pi) / 2, with the fan angle gamma of column u,
///    so that the two measurements of every line add to 2. For a displaced (half-fan) detector
///    on a full scan, 2 x Wang's weights (G. Wang, Med. Phys. 29(8) 2002,
///    doi:10.1118/1.1489043): sin^2(pi/4 (t + D) / D) over the overlap |t| <= D around the
///    principal point (t towards the long side), 2 beyond it.
///
/// The scan angle is beta = -(RTK's source angle), i.e. the gantry angle without source
/// offsets, along which the conjugate of ray (beta, gamma) is (beta + pi + 2 gamma, -gamma)
/// with gamma = -atan((u - u0) / sdd) (docs/cone-beam.md derives the sign).
///
/// Short scans are detected automatically: the views' coverage (360 degrees minus the largest
/// gap between consecutive angles, plus the median gap) below 360 degrees minus the tolerance.
/// A warning is given when the data are insufficient: a short scan spanning less than
/// 180 degrees plus the fan angle, or a displaced detector on a short scan (not handled).

#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/cone/ConeGeometry.h"
#include "core/data/Array.h"

namespace tomo {

enum class ShortScanMode { Auto, On, Off };
enum class DisplacedDetectorMode { Auto, Off };

struct FdkWeightOptions {
    ShortScanMode shortScan = ShortScanMode::Auto;
    double shortScanToleranceDeg = 1.0;  ///< coverage this close to 360 degrees is a full scan
    DisplacedDetectorMode displaced = DisplacedDetectorMode::Auto;
    Status validate() const;
};

/// "auto", "on", "off"; InvalidArgument otherwise.
Result<ShortScanMode> parseShortScanMode(const std::string& text);

/// The weights as FDK's device kernels read them (FdkWeightFormula.h; issue 27 item 3): per
/// view TOMO_FDK_VIEW_PARAMS floats (c_k, beta_k, u0_k, v0_k, sdd_k) and the scan's constants.
/// Uploaded once per run; the kernels evaluate the shared formulas in float.
struct FdkWeightTable {
    std::vector<float> views;  ///< [view][TOMO_FDK_VIEW_PARAMS]
    int mode = 0;              ///< TOMO_FDK_FULL_SCAN, TOMO_FDK_SHORT_SCAN or TOMO_FDK_HALF_FAN
    float delta = 0, halfWidth = 0, longSide = 1;
    float originU = 0, pitchU = 1, originV = 0, pitchV = 1;  ///< detector (mm)
    int nu = 0, nv = 0;
};

class FdkWeights {
  public:
    static Result<FdkWeights> create(const ConeGeometry& geometry, const FdkWeightOptions& options);

    /// The full weight of pixel (iu, iv) of view k: c_k cos_k r_k.
    double weight(int k, int iu, int iv) const;
    /// The cosine pre-weight cos_k of pixel (iu, iv) of view k alone (1 at the principal point).
    double cosine(int k, int iu, int iv) const;
    /// Multiplies projection k ([nv][nu]) by its weights (computed in double, stored in float).
    void apply(int k, View2<float> projection) const;

    const ConeGeometry& geometry() const { return m_geometry; }
    bool shortScan() const { return m_shortScan; }
    bool displaced() const { return m_displacedHalfWidth > 0; }
    double coverageDeg() const { return m_coverageDeg; }
    /// Constant factor c_k.
    double factor(int k) const { return m_factor[static_cast<std::size_t>(k)]; }
    /// Redundancy weight r_k at detector coordinate u (mm).
    double redundancy(int k, double u) const;
    /// The parameters of every view for the device kernels.
    FdkWeightTable deviceTable() const;
    /// Human-readable notes (the scan kind) and warnings (insufficient data).
    const std::vector<std::string>& notes() const { return m_notes; }
    const std::vector<std::string>& warnings() const { return m_warnings; }

  private:
    FdkWeights(const ConeGeometry& g) : m_geometry(g) {}
    int mode() const;  ///< the redundancy of FdkWeightFormula.h
    Status prepareAngles(const FdkWeightOptions& options);
    void prepareDisplaced(const FdkWeightOptions& options);

    ConeGeometry m_geometry;
    std::vector<double> m_factor;  ///< c_k
    std::vector<double> m_beta;    ///< scan angle from the start of the arc (short scan)
    bool m_shortScan = false;
    double m_delta = 0;  ///< Parker's overscan half-angle
    double m_coverageDeg = 360;
    double m_displacedHalfWidth = 0;  ///< overlap half-width D (mm); 0: not displaced
    double m_longSide = 1;            ///< +1: the long side is at larger u
    std::vector<std::string> m_notes, m_warnings;
};

}  // namespace tomo
