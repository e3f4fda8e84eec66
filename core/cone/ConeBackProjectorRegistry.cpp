#include "core/cone/ConeBackProjector.h"

#include <algorithm>

#include "core/pipeline/SlabDownload.h"

namespace tomo {

Status ConeBackProjector::finishInto(Volume& out, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(const Volume slab, finish(ctx));
    if (slab.dims() != out.dims())
        return invalidArgument(info().id + ": the volume to finish into has other dims");
    storeRows(slab.data(), slab.pitch(), 0, slab.dim(0) * slab.dim(1), out, ctx.threads);
    return Status::ok();
}

void ConeBackProjectorRegistry::add(ConeBackProjectorInfo info, Factory factory) {
    m_infos.push_back(std::move(info));
    m_factories.push_back(std::move(factory));
}

bool ConeBackProjectorRegistry::contains(const std::string& id) const {
    return std::any_of(m_infos.begin(), m_infos.end(),
                       [&](const ConeBackProjectorInfo& i) { return i.id == id; });
}

Result<std::unique_ptr<ConeBackProjector>> ConeBackProjectorRegistry::create(
    const std::string& id) const {
    for (std::size_t i = 0; i < m_infos.size(); ++i)
        if (m_infos[i].id == id) return m_factories[i]();
    std::string known;
    for (const ConeBackProjectorInfo& i : m_infos)
        known += (known.empty() ? "" : ", ") + i.id;
    return notFound("no cone-beam back-projector '" + id + "' in this build (" + known + ")");
}

Result<std::string> ConeBackProjectorRegistry::choose(ConeSymmetry symmetry,
                                                      const std::string& backend) const {
    const ConeBackProjectorInfo* best = nullptr;
    auto rank = [&](const ConeBackProjectorInfo& i) {
        // "auto" prefers a GPU backend, then the variant's own preference.
        const int gpu = backend == "auto" && i.backend != "cpu" ? 1000 : 0;
        return gpu + i.preference;
    };
    for (const ConeBackProjectorInfo& i : m_infos) {
        if (backend != "auto" && i.backend != backend) continue;
        if (!handles(i.needs, symmetry)) continue;
        if (!best || rank(i) > rank(*best)) best = &i;
    }
    if (!best)
        return notFound("no cone-beam back-projector for backend '" + backend + "' and a " +
                        coneSymmetryName(symmetry) + " geometry");
    return best->id;
}

}  // namespace tomo
