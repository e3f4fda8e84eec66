// The registry of Fourier-domain implementations and the CPU's (FourierMethod.h).
#include "core/fourier/FourierMethod.h"

#include <algorithm>

#include "core/filter/ComplexRowFft.h"

namespace tomo {
namespace {

class CpuGridrec final : public FourierReconstructor {
  public:
    const FourierMethodInfo& info() const override { return m_info; }
    Status reconstruct(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, const GridrecOptions& options, Volume& out,
                       const ExecContext& ctx, GridrecReport& report) override {
        // Precision half is a GPU storage format: the CPU computes in float32 either way.
        return reconstructGridrec(sino, geom, vol, options, out, ctx, &report.timings,
                                  &report.plan);
    }

  private:
    FourierMethodInfo m_info = cpuGridrecInfo();
};

}  // namespace

void FourierRegistry::add(FourierMethodInfo info, Factory factory) {
    auto it = std::find_if(m_methods.begin(), m_methods.end(),
                           [&](const auto& m) { return m.first.backend == info.backend; });
    if (it != m_methods.end())
        *it = {std::move(info), std::move(factory)};
    else
        m_methods.emplace_back(std::move(info), std::move(factory));
}

std::vector<FourierMethodInfo> FourierRegistry::list() const {
    std::vector<FourierMethodInfo> out;
    for (const auto& m : m_methods)
        out.push_back(m.first);
    return out;
}

const FourierMethodInfo* FourierRegistry::find(const std::string& key) const {
    for (const auto& m : m_methods)
        if (m.first.backend == key || m.first.id == key) return &m.first;
    return nullptr;
}

Result<std::unique_ptr<FourierReconstructor>> FourierRegistry::make(const std::string& key) const {
    for (const auto& m : m_methods)
        if (m.first.backend == key || m.first.id == key) return m.second();
    std::string known;
    for (const auto& m : m_methods)
        known += (known.empty() ? "" : ", ") + m.first.id;
    return notFound("no Fourier-domain implementation '" + key + "' (this build has: " + known +
                    ")");
}

FourierMethodInfo cpuGridrecInfo() {
    FourierMethodInfo info;
    info.id = "cpu.gridrec";
    info.backend = "cpu";
    info.description =
        "gridrec on the CPU: Kaiser-Bessel gridding, two slices per complex transform, " +
        std::string(ComplexRowFft::backendName()) + ", threads and SIMD";
    info.sizes = cpuFftSizeRule();
    info.cost = cpuFourierCost();
    info.parts.assign(kCpuGridrecParts.begin(), kCpuGridrecParts.end());
    return info;
}

void registerCpuFourier(FourierRegistry& registry) {
    registry.add(cpuGridrecInfo(), [] { return std::make_unique<CpuGridrec>(); });
}

}  // namespace tomo
