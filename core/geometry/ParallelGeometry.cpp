#include "core/geometry/ParallelGeometry.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <sstream>

namespace tomo {
namespace {

bool parseDouble(const std::string& s, double& out) {
    if (s.empty()) return false;
    std::size_t used = 0;
    try {
        out = std::stod(s, &used);
    } catch (...) {
        return false;
    }
    return used == s.size() && std::isfinite(out);
}

}  // namespace

Result<std::vector<double>> parseAngleSpec(const std::string& spec) {
    std::vector<std::string> parts;
    std::stringstream ss(spec);
    for (std::string item; std::getline(ss, item, ':');)
        parts.push_back(item);
    if (parts.size() != 3)
        return invalidArgument("angle spec '" + spec + "' is not START:STOP:COUNT (degrees)");
    double start = 0, stop = 0, countD = 0;
    if (!parseDouble(parts[0], start) || !parseDouble(parts[1], stop) ||
        !parseDouble(parts[2], countD))
        return invalidArgument("angle spec '" + spec + "' has a non-numeric field");
    if (countD < 1 || countD != std::floor(countD) || countD > 1e7)
        return invalidArgument("angle spec '" + spec + "': COUNT must be a positive integer");
    if (stop == start) return invalidArgument("angle spec '" + spec + "': START equals STOP");
    return uniformAngles(start * kPi / 180.0, stop * kPi / 180.0, static_cast<int>(countD));
}

std::vector<double> uniformAngles(double startRad, double stopRad, int count) {
    std::vector<double> a(static_cast<std::size_t>(std::max(count, 0)));
    for (int i = 0; i < count; ++i)
        a[static_cast<std::size_t>(i)] = startRad + (stopRad - startRad) * i / count;
    return a;
}

Result<ParallelGeometry> ParallelGeometry::create(Params p) {
    if (p.angles.empty()) return invalidArgument("geometry: no projection angles");
    for (double a : p.angles)
        if (!std::isfinite(a)) return invalidArgument("geometry: non-finite projection angle");
    if (p.detectorCount < 1) return invalidArgument("geometry: detector count must be positive");
    if (p.rows < 1) return invalidArgument("geometry: detector row count must be positive");
    if (!(p.detectorPitch > 0) || !std::isfinite(p.detectorPitch))
        return invalidArgument("geometry: detector pitch must be positive and finite");
    if (std::isnan(p.centerOfRotation)) p.centerOfRotation = 0.5 * (p.detectorCount - 1);
    if (!std::isfinite(p.centerOfRotation))
        return invalidArgument("geometry: centre of rotation must be finite");
    if (!p.centerCorrection.empty()) {
        if (p.centerCorrection.size() != p.angles.size())
            return invalidArgument("geometry: " + std::to_string(p.centerCorrection.size()) +
                                   " centre corrections for " + std::to_string(p.angles.size()) +
                                   " angles");
        for (double c : p.centerCorrection)
            if (!std::isfinite(c)) return invalidArgument("geometry: non-finite centre correction");
    }
    return ParallelGeometry(std::move(p));
}

std::vector<double> ParallelGeometry::angularWeights() const {
    const std::size_t n = m_params.angles.size();
    std::vector<double> w(n, kPi);
    if (n == 1) return w;
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return m_params.angles[a] < m_params.angles[b];
    });
    auto at = [&](std::size_t k) { return m_params.angles[order[k]]; };
    double coverage = 0;
    for (std::size_t k = 0; k < n; ++k) {
        double prev = k > 0 ? at(k) - at(k - 1) : at(1) - at(0);
        double next = k + 1 < n ? at(k + 1) - at(k) : at(n - 1) - at(n - 2);
        w[order[k]] = 0.5 * (prev + next);
        coverage += w[order[k]];
    }
    if (coverage > kPi * (1.0 + 1e-9))
        for (double& v : w)
            v *= kPi / coverage;
    return w;
}

ParallelGeometry ParallelGeometry::withCenter(double centerOfRotation) const {
    Params p = m_params;
    p.centerOfRotation = centerOfRotation;
    return ParallelGeometry(std::move(p));
}

Status VolumeGeometry::validate() const {
    if (nx < 1 || ny < 1 || nz < 1)
        return invalidArgument("volume: sizes must be positive (got " + std::to_string(nx) + "x" +
                               std::to_string(ny) + "x" + std::to_string(nz) + ")");
    if (!(voxelSize > 0) || !std::isfinite(voxelSize))
        return invalidArgument("volume: voxel size must be positive and finite");
    if (!std::isfinite(offsetX) || !std::isfinite(offsetY))
        return invalidArgument("volume: offsets must be finite");
    return Status::ok();
}

VolumeGeometry VolumeGeometry::forDetector(const ParallelGeometry& g, int n) {
    VolumeGeometry v;
    v.nx = v.ny = n > 0 ? n : g.detectorCount();
    v.nz = g.rows();
    v.voxelSize = g.detectorPitch();
    return v;
}

}  // namespace tomo
