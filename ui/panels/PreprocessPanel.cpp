#include "ui/panels/PreprocessPanel.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "app/data/AcquisitionLoader.h"
#include "app/data/DataFormats.h"
#include "core/preprocess/StripeRemoval.h"
#include "ui/main/Session.h"
#include "ui/panels/RingPreviewWindow.h"
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

/// What the open data is, for the steps that apply to it.
enum class Source { None, Acquisition, StackFile, Folder };

Source sourceOf(const Session& session) {
    if (!session.dataset()) return Source::None;
    if (session.dataFile())
        return acquisitionOpen(session) ? Source::Acquisition : Source::StackFile;
    return session.state().source.folder.empty() ? Source::None : Source::Folder;
}

}  // namespace

PreprocessPanel::PreprocessPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    m_applied = new QLabel(this);
    m_applied->setWordWrap(true);
    m_applied->setObjectName(QStringLiteral("preprocessingApplied"));
    m_zingers = new QCheckBox(tr("remove zingers"), this);
    m_zingers->setObjectName(QStringLiteral("removeZingers"));
    m_zingerThreshold = new QDoubleSpinBox(this);
    m_zingerThreshold->setObjectName(QStringLiteral("zingerThreshold"));
    m_zingerThreshold->setRange(0.01, 10.0);
    m_zingerThreshold->setValue(0.2);
    m_zingerThreshold->setToolTip(
        tr("A pixel further than this fraction from its 3x3 median "
           "is replaced by the median"));
    m_bin = new QComboBox(this);
    m_bin->setObjectName(QStringLiteral("binning"));
    for (int b : {1, 2, 4})
        m_bin->addItem(b == 1 ? tr("none") : tr("%1 x %1").arg(b), b);
    m_angleStep = new QSpinBox(this);
    m_angleStep->setObjectName(QStringLiteral("angleStep"));
    m_angleStep->setRange(1, 64);
    m_angleStep->setPrefix(tr("every "));
    m_angleStep->setToolTip(
        tr("Angles (load): read every N-th projection of the file when it is loaded again by "
           "Apply and reload (less memory; saved with the preprocessing). Parameters > Region "
           "and sampling > Angles (this reconstruction) then takes every M-th of these: "
           "together every N x M-th projection of the file."));
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
    auto* zingers = new QHBoxLayout;
    zingers->addWidget(m_zingers);
    zingers->addWidget(m_zingerThreshold);
    m_compareButton = new QPushButton(tr("Compare before/after..."), this);
    m_compareButton->setObjectName(QStringLiteral("ringCompare"));
    m_compareButton->setToolTip(
        tr("A window with the sinogram before and after the ring filter, their difference, and "
           "the slice reconstructed from each: zoom in to see stripes of a few percent"));
    connect(m_compareButton, &QPushButton::clicked, this, &PreprocessPanel::openComparison);
    auto* panes = new QHBoxLayout;
    panes->addWidget(m_before);
    panes->addWidget(m_after);
    auto* preview = new QVBoxLayout;
    preview->addLayout(panes);
    preview->addWidget(m_compareButton);
    auto* form = new QFormLayout(this);
    form->addRow(m_applied);
    form->addRow(tr("Flat/dark"), buildFlatRow());
    form->addRow(tr("Rings"), buildRingRow());
    form->addRow(tr("Before / after"), preview);
    form->addRow(tr("Zingers"), zingers);
    form->addRow(tr("Paganin"), buildPaganinRow());
    form->addRow(tr("Binning"), m_bin);
    form->addRow(tr("Angles (load)"), m_angleStep);
    form->addRow(tr("Rows"),
                 buildCropRow(m_rowFirst, m_rowLast, tr("detector row"), QStringLiteral("row")));
    form->addRow(tr("Columns"), buildCropRow(m_cropFirst, m_cropLast, tr("detector column"),
                                             QStringLiteral("column")));
    form->addRow(m_apply);

    connect(m_rings, &QComboBox::currentIndexChanged, this, &PreprocessPanel::updatePreview);
    connect(m_ringWindow, &QSpinBox::valueChanged, this, &PreprocessPanel::updatePreview);
    connect(&m_session, &Session::datasetChanged, this, &PreprocessPanel::syncFromDataset);
    syncFromDataset();
}

QLayout* PreprocessPanel::buildFlatRow() {
    m_flats = new QComboBox(this);
    m_flats->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_flats->setMinimumContentsLength(10);
    m_flats->addItem(tr("all flats averaged"));
    m_flats->addItem(tr("flats before and after"));
    m_flats->setToolTip(
        tr("Flats taken before and after the scan: the two groups are averaged "
           "separately and interpolated over the projections, which follows a "
           "beam that drifts during the scan"));
    m_flatsBefore = new QSpinBox(this);
    m_flatsBefore->setRange(0, 100000);
    m_flatsBefore->setPrefix(tr("first "));
    m_flatsBefore->setSuffix(tr(" before"));
    m_flatsBefore->setValue(1);
    m_flatsBefore->setEnabled(false);
    m_flatsBefore->setToolTip(tr("How many of the file's flat frames were taken before the scan"));
    connect(m_flats, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_flatsBefore->setEnabled(index == 1); });
    m_minusLog = new QCheckBox(tr("-log"), this);
    m_minusLog->setChecked(true);
    m_minusLog->setObjectName(QStringLiteral("minusLog"));
    m_minusLog->setToolTip(
        tr("Take -ln of the normalised transmission (Beer-Lambert): off only "
           "for data that are to stay transmissions"));
    auto* row = new QHBoxLayout;
    row->addWidget(m_flats, 1);
    row->addWidget(m_flatsBefore);
    row->addWidget(m_minusLog);
    return row;
}

QLayout* PreprocessPanel::buildRingRow() {
    m_rings = new QComboBox(this);
    m_rings->setObjectName(QStringLiteral("ringMethod"));
    m_rings->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rings->setMinimumContentsLength(10);
    m_rings->addItem(tr("none"), static_cast<int>(RingMethod::None));
    m_rings->addItem(tr("sorting (Vo)"), static_cast<int>(RingMethod::Sorting));
    m_rings->addItem(tr("Fourier-wavelet (Muench)"), static_cast<int>(RingMethod::FourierWavelet));
    m_rings->setToolTip(
        tr("Ring (stripe) removal on every sinogram. The preview below shows "
           "the shown sinogram before and after."));
    m_ringWindow = new QSpinBox(this);
    m_ringWindow->setObjectName(QStringLiteral("ringWindow"));
    m_ringWindow->setRange(1, 101);  // 1 stands for "auto"
    m_ringWindow->setSingleStep(2);
    m_ringWindow->setSpecialValueText(tr("auto"));
    m_ringWindow->setValue(1);
    m_ringWindow->setSuffix(tr(" px"));
    m_ringWindow->setToolTip(
        tr("Median window of the sorting filter along the detector. auto: 1 % of "
           "the width, at least 5 px. Small windows remove narrow rings without streaks."));
    auto* row = new QHBoxLayout;
    row->addWidget(m_rings, 1);
    row->addWidget(m_ringWindow);
    return row;
}

QLayout* PreprocessPanel::buildPaganinRow() {
    m_paganin = new QCheckBox(tr("on"), this);
    m_paganin->setToolTip(
        tr("Paganin single-distance phase retrieval for propagation-based phase "
           "contrast (a homogeneous object): low-pass filters each normalised "
           "projection before -log"));
    auto spin = [this](double lo, double hi, double value, int decimals, const QString& suffix,
                       const QString& tip) {
        auto* box = new QDoubleSpinBox(this);
        box->setRange(lo, hi);
        box->setDecimals(decimals);
        box->setValue(value);
        box->setSuffix(suffix);
        box->setToolTip(tip);
        box->setEnabled(false);
        connect(m_paganin, &QCheckBox::toggled, box, &QWidget::setEnabled);
        return box;
    };
    m_energy = spin(1, 200, 20, 1, tr(" keV"), tr("Photon energy"));
    m_distance = spin(0, 100000, 100, 1, tr(" mm"), tr("Sample-to-detector distance"));
    m_pixel = spin(0.01, 1000, 1, 2, tr(" um"), tr("Effective detector pixel size"));
    m_deltaBeta = spin(0, 1e5, 100, 0, QString(), tr("delta / beta of the material"));
    m_deltaBeta->setPrefix(tr("d/b "));
    auto* grid = new QGridLayout;
    grid->addWidget(m_paganin, 0, 0);
    grid->addWidget(m_energy, 0, 1);
    grid->addWidget(m_distance, 0, 2);
    grid->addWidget(m_pixel, 1, 1);
    grid->addWidget(m_deltaBeta, 1, 2);
    return grid;
}

QLayout* PreprocessPanel::buildCropRow(QSpinBox*& first, QSpinBox*& last, const QString& what,
                                       const QString& name) {
    first = new QSpinBox(this);
    last = new QSpinBox(this);
    first->setObjectName(name + QStringLiteral("First"));
    last->setObjectName(name + QStringLiteral("Last"));
    first->setRange(0, 1 << 20);
    last->setRange(0, 1 << 20);
    last->setSpecialValueText(tr("end"));
    first->setToolTip(tr("First %1 kept (of the file as stored)").arg(what));
    last->setToolTip(tr("Kept up to this %1 (exclusive); 0 = to the end").arg(what));
    auto* row = new QHBoxLayout;
    row->addWidget(first);
    row->addWidget(new QLabel(tr("to"), this));
    row->addWidget(last);
    return row;
}

void PreprocessPanel::setPreviewSlice(int slice) {
    m_slice = slice;
    updatePreview();
}

void PreprocessPanel::syncFromDataset() {
    auto data = m_session.dataset();
    const auto& file = m_session.state().source.file;
    const bool log = !file || file->minusLog;
    const PreprocessOptions steps = m_session.state().preprocessing();
    // Unapplied edits stay until other preprocessing is applied (reload, other data, session).
    if (const std::string shown = describe(steps) + (log ? "" : ", no -log"); shown != m_shown) {
        showOptions(steps, log);
        m_shown = shown;
    }
    const Source source = sourceOf(m_session);
    m_apply->setEnabled(source != Source::None && !m_session.isBusy());
    enableStepsFor(static_cast<int>(source));
    const QString applied =
        data ? tr("Applied: %1")
                   .arg(QString::fromStdString(data->preprocessing.empty() ? std::string("none")
                                                                           : data->preprocessing))
             : QString();
    if (!data)
        m_applied->setText(tr("No data."));
    else if (source == Source::None)
        m_applied->setText(
            tr("The generated demo is used as made; open the bundled demo or a "
               "data file to preprocess it."));
    else if (source == Source::Acquisition)
        m_applied->setText(applied);
    else
        m_applied->setText(
            tr("This data is a sinogram stack of line integrals: ring and zinger removal "
               "apply%1. Flat/dark, -log and Paganin apply to "
               "acquisitions (HDF5 / NXtomo / DXchange projections with flats).\n%2")
                .arg(source == Source::StackFile
                         ? tr(", and binning, cropping and angle selection (of the angles "
                              "stated when it was opened)")
                         : QString())
                .arg(applied));
    m_slice = 0;
    updatePreview();
}

void PreprocessPanel::enableStepsFor(int sourceKind) {
    const auto source = static_cast<Source>(sourceKind);
    const bool acquisition = source == Source::Acquisition;
    const bool reshapes = acquisition || source == Source::StackFile;
    if (!acquisition) {  // steps that do not apply are off, not only greyed
        m_flats->setCurrentIndex(0);
        m_paganin->setChecked(false);
    }
    for (QWidget* w : std::initializer_list<QWidget*>{m_flats, m_minusLog, m_paganin})
        w->setEnabled(acquisition);
    if (!reshapes) {
        m_angleStep->setValue(1);
        m_bin->setCurrentIndex(0);
        for (QSpinBox* s : {m_rowFirst, m_rowLast, m_cropFirst, m_cropLast})
            s->setValue(0);
    }
    for (QWidget* w : std::initializer_list<QWidget*>{m_angleStep, m_bin, m_rowFirst, m_rowLast,
                                                      m_cropFirst, m_cropLast})
        w->setEnabled(reshapes);
    m_zingerThreshold->setToolTip(
        acquisition ? tr("A pixel further than this fraction from its 3x3 median is replaced by "
                         "the median")
                    : tr("A zinger (a pixel this fraction brighter than its neighbours on the "
                         "detector) is a dark pixel of the line integrals: a pixel more than "
                         "ln(1 + this) below its 3x3 median, and more than 5 local noise "
                         "spreads, is replaced by the median"));
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
    if (m_compare && m_compare->isVisible()) m_compare->showPreview(m_slice, o);
}

void PreprocessPanel::openComparison() {
    if (!m_compare) m_compare = new RingPreviewWindow(m_session, this);
    m_compare->showPreview(m_slice, options());
    m_compare->show();
    m_compare->raise();
}

}  // namespace tomo::ui
