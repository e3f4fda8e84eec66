// The Preprocessing panel's widgets and the PreprocessOptions they stand for, both ways:
// options() reads what the widgets ask for, showOptions() sets them to what is applied.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include "ui/panels/PreprocessPanel.h"

namespace tomo::ui {

namespace {

IndexRange cropRange(const QSpinBox* first, const QSpinBox* last) {
    const auto a = static_cast<std::size_t>(first->value());
    const auto b = static_cast<std::size_t>(last->value());
    if (a == 0 && b == 0) return IndexRange::all();
    return {a, b > a ? b - a : IndexRange::kAll};
}

}  // namespace

PreprocessOptions PreprocessPanel::options() const {
    PreprocessOptions o;
    if (m_flats->currentIndex() == 1)
        o.flatsBefore = static_cast<std::size_t>(m_flatsBefore->value());
    o.rings = static_cast<RingMethod>(m_rings->currentData().toInt());
    o.sorting.size = m_ringWindow->value() == 1 ? 0 : m_ringWindow->value() | 1;  // odd
    if (m_zingers->isChecked()) {
        ZingerOptions z;
        z.threshold = m_zingerThreshold->value();
        o.zingers = z;
    }
    if (m_paganin->isChecked()) {
        PaganinOptions p;
        p.energyKeV = m_energy->value();
        p.distanceMm = m_distance->value();
        p.pixelSizeUm = m_pixel->value();
        p.deltaOverBeta = m_deltaBeta->value();
        o.paganin = p;
    }
    o.binRows = 1;
    o.binColumns = m_bin->currentData().toInt();
    o.angleStep = static_cast<std::size_t>(m_angleStep->value());
    o.cropRows = cropRange(m_rowFirst, m_rowLast);
    o.cropColumns = cropRange(m_cropFirst, m_cropLast);
    return o;
}

bool PreprocessPanel::minusLog() const {
    return m_minusLog->isChecked();
}

void PreprocessPanel::setPaganin(const std::optional<PaganinOptions>& paganin) {
    m_paganin->setChecked(paganin.has_value());
    if (!paganin) return;
    m_energy->setValue(paganin->energyKeV);
    m_distance->setValue(paganin->distanceMm);
    m_pixel->setValue(paganin->pixelSizeUm);
    m_deltaBeta->setValue(paganin->deltaOverBeta);
}

void PreprocessPanel::setFlatsBefore(std::optional<int> count) {
    m_flats->setCurrentIndex(count ? 1 : 0);
    if (count) m_flatsBefore->setValue(*count);
}

void PreprocessPanel::setRings(RingMethod method, int window) {
    m_ringWindow->setValue(window);
    m_rings->setCurrentIndex(m_rings->findData(static_cast<int>(method)));
}

void PreprocessPanel::showOptions(const PreprocessOptions& o, bool minusLog) {
    setFlatsBefore(o.flatsBefore ? std::optional<int>(static_cast<int>(*o.flatsBefore))
                                 : std::nullopt);
    m_minusLog->setChecked(minusLog);
    setRings(o.rings, o.sorting.size > 0 ? o.sorting.size : 1);
    m_zingers->setChecked(o.zingers.has_value());
    if (o.zingers) m_zingerThreshold->setValue(o.zingers->threshold);
    setPaganin(o.paganin);
    if (const int bin = m_bin->findData(o.binColumns); bin >= 0) m_bin->setCurrentIndex(bin);
    m_angleStep->setValue(static_cast<int>(o.angleStep));
    auto showRange = [](const IndexRange& r, QSpinBox* first, QSpinBox* last) {
        first->setValue(static_cast<int>(r.first));
        last->setValue(r.count == IndexRange::kAll ? 0 : static_cast<int>(r.end()));
    };
    showRange(o.cropRows, m_rowFirst, m_rowLast);
    showRange(o.cropColumns, m_cropFirst, m_cropLast);
}

}  // namespace tomo::ui
