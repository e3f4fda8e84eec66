#include "ui/panels/PreprocessPanel.h"

#include <algorithm>
#include <vector>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "app/data/AcquisitionLoader.h"
#include "app/data/DataFormats.h"
#include "core/preprocess/StripeRemoval.h"
#include "ui/main/Session.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {

namespace {

/// True when the session's data came from an acquisition file (preprocessing applies).
bool acquisitionOpen(const Session& session) {
    if (!session.dataFile()) return false;
    auto registry = app::makeFormatRegistry();
    if (!registry) return false;
    auto format = registry->forPath(session.dataFile()->path);
    return format && app::isAcquisitionFormat(**format);
}

}  // namespace

PreprocessPanel::PreprocessPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    m_applied = new QLabel(this);
    m_applied->setWordWrap(true);
    m_applied->setObjectName(QStringLiteral("preprocessingApplied"));
    m_rings = new QComboBox(this);
    m_rings->addItem(tr("none"), static_cast<int>(RingMethod::None));
    m_rings->addItem(tr("sorting (Vo)"), static_cast<int>(RingMethod::Sorting));
    m_rings->addItem(tr("Fourier-wavelet (Muench)"), static_cast<int>(RingMethod::FourierWavelet));
    m_rings->setToolTip(
        tr("Ring (stripe) removal on every sinogram. The preview below shows "
           "the shown sinogram before and after."));
    m_ringWindow = new QSpinBox(this);
    m_ringWindow->setRange(3, 101);
    m_ringWindow->setSingleStep(2);
    m_ringWindow->setValue(5);
    m_ringWindow->setSuffix(tr(" px"));
    m_ringWindow->setToolTip(
        tr("Median window of the sorting filter along the detector: small "
           "windows remove narrow rings without streaks"));
    m_zingers = new QCheckBox(tr("remove zingers"), this);
    m_zingerThreshold = new QDoubleSpinBox(this);
    m_zingerThreshold->setRange(0.01, 10.0);
    m_zingerThreshold->setValue(0.2);
    m_zingerThreshold->setToolTip(
        tr("A pixel further than this fraction from its 3x3 median "
           "is replaced by the median"));
    m_bin = new QComboBox(this);
    for (int b : {1, 2, 4})
        m_bin->addItem(b == 1 ? tr("none") : tr("%1 x %1").arg(b), b);
    m_angleStep = new QSpinBox(this);
    m_angleStep->setRange(1, 64);
    m_angleStep->setPrefix(tr("every "));
    m_angleStep->setToolTip(tr("Keep every N-th projection (fewer angles: faster, more streaks)"));
    m_cropFirst = new QSpinBox(this);
    m_cropLast = new QSpinBox(this);
    m_cropFirst->setToolTip(tr("First detector column kept"));
    m_cropLast->setToolTip(tr("Columns kept up to (exclusive); 0 = to the end"));
    m_apply = new QPushButton(tr("Apply and reload"), this);
    m_apply->setObjectName(QStringLiteral("applyPreprocessing"));
    connect(m_apply, &QPushButton::clicked, this, &PreprocessPanel::applyRequested);

    m_before = new ImageView(this);
    m_after = new ImageView(this);
    for (SliceView* v : {m_before, m_after}) {
        v->setMinimumSize(120, 120);
        v->setMaximumHeight(170);
    }
    m_before->setTitle(tr("Before"));
    m_after->setTitle(tr("After"));

    auto* rings = new QHBoxLayout;
    rings->addWidget(m_rings, 1);
    rings->addWidget(m_ringWindow);
    auto* zingers = new QHBoxLayout;
    zingers->addWidget(m_zingers);
    zingers->addWidget(m_zingerThreshold);
    auto* crop = new QHBoxLayout;
    crop->addWidget(m_cropFirst);
    crop->addWidget(new QLabel(tr("to"), this));
    crop->addWidget(m_cropLast);
    auto* preview = new QHBoxLayout;
    preview->addWidget(m_before);
    preview->addWidget(m_after);
    auto* form = new QFormLayout(this);
    form->addRow(m_applied);
    form->addRow(tr("Rings"), rings);
    form->addRow(tr("Before / after"), preview);
    form->addRow(tr("Zingers"), zingers);
    form->addRow(tr("Binning"), m_bin);
    form->addRow(tr("Angles"), m_angleStep);
    form->addRow(tr("Columns"), crop);
    form->addRow(m_apply);

    connect(m_rings, &QComboBox::currentIndexChanged, this, &PreprocessPanel::updatePreview);
    connect(m_ringWindow, &QSpinBox::valueChanged, this, &PreprocessPanel::updatePreview);
    connect(&m_session, &Session::datasetChanged, this, &PreprocessPanel::syncFromDataset);
    syncFromDataset();
}

PreprocessOptions PreprocessPanel::options() const {
    PreprocessOptions o;
    o.rings = static_cast<RingMethod>(m_rings->currentData().toInt());
    o.sorting.size = m_ringWindow->value() | 1;  // odd
    if (m_zingers->isChecked()) {
        ZingerOptions z;
        z.threshold = m_zingerThreshold->value();
        o.zingers = z;
    }
    o.binRows = 1;
    o.binColumns = m_bin->currentData().toInt();
    o.angleStep = static_cast<std::size_t>(m_angleStep->value());
    const auto first = static_cast<std::size_t>(m_cropFirst->value());
    const auto last = static_cast<std::size_t>(m_cropLast->value());
    if (first > 0 || last > 0)
        o.cropColumns = {first, last > first ? last - first : IndexRange::kAll};
    return o;
}

void PreprocessPanel::setRings(RingMethod method, int window) {
    m_ringWindow->setValue(window);
    m_rings->setCurrentIndex(m_rings->findData(static_cast<int>(method)));
}

void PreprocessPanel::setPreviewSlice(int slice) {
    m_slice = slice;
    updatePreview();
}

void PreprocessPanel::syncFromDataset() {
    auto data = m_session.dataset();
    const bool acquisition = acquisitionOpen(m_session);
    m_apply->setEnabled(acquisition && !m_session.isBusy());
    const int columns = data ? data->geometry.detectorCount() : 0;
    m_cropFirst->setRange(0, std::max(0, columns - 1));
    m_cropLast->setRange(0, columns);
    if (!data)
        m_applied->setText(tr("No data."));
    else if (!acquisition)
        m_applied->setText(
            tr("This data is a sinogram stack (or generated): it is used as "
               "stored. Preprocessing applies to acquisitions (HDF5 / NXtomo / "
               "DXchange projections with flats)."));
    else
        m_applied->setText(
            tr("Applied: %1")
                .arg(QString::fromStdString(data->preprocessing.empty() ? std::string("none")
                                                                        : data->preprocessing)));
    m_slice = 0;
    updatePreview();
}

void PreprocessPanel::updatePreview() {
    auto data = m_session.dataset();
    if (!data || static_cast<std::size_t>(m_slice) >= data->sinograms.dim(0)) {
        m_before->clear(tr("no data"));
        m_after->clear(tr("no data"));
        return;
    }
    View2<const float> sino = data->sinograms.plane(static_cast<std::size_t>(m_slice));
    m_before->setImage(sino);
    std::vector<float> after(sino.rows() * sino.cols());
    copyDense(sino, after.data());
    View2<float> out(after.data(), sino.rows(), sino.cols(), sino.cols());
    const PreprocessOptions o = options();
    Status filtered = Status::ok();
    if (o.rings == RingMethod::Sorting) filtered = removeStripesSorting(out, o.sorting);
    if (o.rings == RingMethod::FourierWavelet)
        filtered = removeStripesFourierWavelet(out, o.fourierWavelet);
    if (!filtered) {
        m_after->clear(QString::fromStdString(filtered.message()));
        return;
    }
    m_after->setImage(View2<const float>(after.data(), sino.rows(), sino.cols(), sino.cols()),
                      false);
    m_after->setWindowLevel(m_before->windowLevel());
}

}  // namespace tomo::ui
