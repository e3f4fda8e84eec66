#include "ui/views/VolumeView.h"

#include <algorithm>
#include <cmath>

namespace tomo::ui {

void VolumeView::setPreset(TransferPreset preset) {
    setTransferFunction(TransferFunction::preset(preset, m_range[0], m_range[1]));
}

void VolumeView::storeVolume(std::shared_ptr<const Volume> volume) {
    m_volume = std::move(volume);
    m_range = {0.0, 1.0};
    if (!m_volume || m_volume->empty()) return;
    bool any = false;
    double lo = 0, hi = 0;
    for (std::size_t r = 0; r < m_volume->rows().rows(); ++r)
        for (float v : m_volume->rows().row(r)) {
            if (!std::isfinite(v)) continue;
            lo = any ? std::min(lo, static_cast<double>(v)) : v;
            hi = any ? std::max(hi, static_cast<double>(v)) : v;
            any = true;
        }
    if (any) m_range = {lo, hi > lo ? hi : lo + 1.0};
}

}  // namespace tomo::ui
