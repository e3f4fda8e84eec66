#pragma once
/// @file LocalityPair.h
/// @brief What the CPU pair (LocalityOperator.h) and the device pair (DeviceLocality.h) of
/// paper 001 share: the rays of every projection angle (RayGeometry.h), the angles, the
/// detector, the ray ordering, and the operator's sizes derived from them.

#include <cstddef>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/locality/RayGeometry.h"
#include "core/locality/RayOrdering.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo {

class LocalityPair : public SubsetOperator {
  public:
    std::size_t domainSize() const override { return m_domain; }
    std::size_t rangeSize() const override { return m_range; }
    bool matchedAdjoint() const override { return false; }
    int angleCount() const override { return static_cast<int>(m_rays.size()); }
    int detectorCount() const override { return m_detectors; }
    RayOrdering ordering() const { return m_ordering; }

  protected:
    LocalityPair(const ParallelGeometry& geom, const VolumeGeometry& vol, RayOrdering ordering)
        : m_rays(rayAngles(geom, vol)),
          m_angles(geom.angles()),
          m_detectors(geom.detectorCount()),
          m_ordering(ordering),
          m_domain(std::size_t(vol.nz) * std::size_t(vol.ny) * std::size_t(vol.nx)),
          m_range(std::size_t(vol.nz) * m_rays.size() * std::size_t(m_detectors)) {}

    std::vector<RayAngle> m_rays;
    std::vector<double> m_angles;
    int m_detectors = 0;
    RayOrdering m_ordering;
    std::size_t m_domain = 0, m_range = 0;
};

}  // namespace tomo
