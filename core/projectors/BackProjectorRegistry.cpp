#include <algorithm>
#include <cmath>

#include "core/projectors/BackProjector.h"

namespace tomo {

Result<Interpolation> parseInterpolation(std::string_view name) {
    if (name == "linear" || name == "lin") return Interpolation::Linear;
    if (name == "nearest" || name == "nn") return Interpolation::Nearest;
    return invalidArgument("unknown interpolation '" + std::string(name) +
                           "' (expected linear or nearest)");
}

const char* interpolationName(Interpolation i) {
    return i == Interpolation::Linear ? "linear" : "nearest";
}

Status prepareBackProjection(const Sinograms& sino, const ParallelGeometry& geom,
                             const VolumeGeometry& vol, std::span<const float> weights,
                             Volume& out) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (sino.dim(0) != static_cast<std::size_t>(vol.nz) ||
        sino.dim(1) != static_cast<std::size_t>(geom.angleCount()) ||
        sino.dim(2) != static_cast<std::size_t>(geom.detectorCount()))
        return invalidArgument(
            "back-projection: sinogram stack " + std::to_string(sino.dim(0)) + "x" +
            std::to_string(sino.dim(1)) + "x" + std::to_string(sino.dim(2)) + " does not match " +
            std::to_string(vol.nz) + " slices x " + std::to_string(geom.angleCount()) +
            " angles x " + std::to_string(geom.detectorCount()) + " detectors");
    if (weights.size() != static_cast<std::size_t>(geom.angleCount()))
        return invalidArgument("back-projection: " + std::to_string(weights.size()) +
                               " weights for " + std::to_string(geom.angleCount()) + " angles");
    for (std::size_t p = 0; p < weights.size(); ++p)
        if (!std::isfinite(weights[p]))
            return invalidArgument("back-projection: weight of projection " + std::to_string(p) +
                                   " is not finite");
    const std::size_t nz = static_cast<std::size_t>(vol.nz), ny = static_cast<std::size_t>(vol.ny),
                      nx = static_cast<std::size_t>(vol.nx);
    if (out.dim(0) != nz || out.dim(1) != ny || out.dim(2) != nx) {
        TOMO_ASSIGN_OR_RETURN(out, Volume::create(nz, ny, nx));
    }
    return Status::ok();
}

void BackProjectorRegistry::add(BackProjectorInfo info, Factory factory) {
    auto it = std::find_if(m_entries.begin(), m_entries.end(),
                           [&](const Entry& e) { return e.info.id == info.id; });
    if (it != m_entries.end()) {
        *it = {std::move(info), std::move(factory)};
    } else {
        m_entries.push_back({std::move(info), std::move(factory)});
    }
}

std::vector<BackProjectorInfo> BackProjectorRegistry::list() const {
    std::vector<BackProjectorInfo> out;
    for (const Entry& e : m_entries)
        out.push_back(e.info);
    return out;
}

std::vector<BackProjectorInfo> BackProjectorRegistry::list(const std::string& backend) const {
    std::vector<BackProjectorInfo> out;
    for (const Entry& e : m_entries)
        if (e.info.backend == backend) out.push_back(e.info);
    return out;
}

bool BackProjectorRegistry::contains(const std::string& id) const {
    return std::any_of(m_entries.begin(), m_entries.end(),
                       [&](const Entry& e) { return e.info.id == id; });
}

Result<std::unique_ptr<BackProjector>> BackProjectorRegistry::make(const std::string& id) const {
    for (const Entry& e : m_entries)
        if (e.info.id == id) return e.factory();
    std::string known;
    for (const Entry& e : m_entries)
        known += (known.empty() ? "" : ", ") + e.info.id;
    return notFound("unknown back-projector variant '" + id + "' (known: " + known + ")");
}

}  // namespace tomo
