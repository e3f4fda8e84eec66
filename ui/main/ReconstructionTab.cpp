#include "ui/main/ReconstructionTab.h"

#include <algorithm>
#include <vector>

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include "app/jobs/ConePlane.h"
#include "app/jobs/FieldOfView.h"
#include "ui/views/SliceView.h"
#include "ui/views/ViewFactory.h"
#include "ui/widgets/WindowLevelBar.h"

namespace tomo::ui {

namespace {

QGroupBox* framed(const QString& title, QWidget* content, SliceView* view) {
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(content);
    view->setTitle(title);
    return box;
}

}  // namespace

ReconstructionTab::ReconstructionTab(QWidget* parent) : QWidget(parent) {
    m_sinogram = createSliceView();
    m_recon = createSliceView();
    m_truth = createSliceView();
    m_difference = createSliceView();
    m_sinogram->setObjectName(QStringLiteral("sinogramView"));
    m_recon->setObjectName(QStringLiteral("sliceView"));
    m_window = new WindowLevelBar;
    m_window->attach(m_recon);
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName(QStringLiteral("sliceSlider"));
    m_slider->setPageStep(1);  // PageUp/PageDown step one slice here too, as on the views
    m_slider->setToolTip(tr("Slice (detector row). PageUp/PageDown or Ctrl+wheel on a view"));
    m_sliceLabel = new QLabel;
    m_sliceLabel->setObjectName(QStringLiteral("sliceLabel"));
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { setSlice(v - 1); });

    auto* reconPane = new QWidget;
    auto* reconLayout = new QVBoxLayout(reconPane);
    reconLayout->setContentsMargins(0, 0, 0, 0);
    reconLayout->addWidget(m_recon, 1);
    auto* sliceRow = new QHBoxLayout;
    sliceRow->addWidget(m_sliceLabel);
    sliceRow->addWidget(m_slider, 1);
    reconLayout->addLayout(sliceRow);
    reconLayout->addWidget(m_window);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(framed(tr("Sinogram"), m_sinogram, m_sinogram), 0, 0);
    grid->addWidget(framed(tr("Reconstruction"), reconPane, m_recon), 0, 1);
    m_truthBox = framed(tr("Ground truth"), m_truth, m_truth);
    m_differenceBox = framed(tr("Difference (reconstruction - truth)"), m_difference, m_difference);
    grid->addWidget(m_truthBox, 1, 0);
    grid->addWidget(m_differenceBox, 1, 1);
    for (SliceView* v : {m_sinogram, m_recon, m_truth, m_difference}) {
        connect(v, &SliceView::pixelHovered, this, &ReconstructionTab::hovered);
        connect(v, &SliceView::sliceStepRequested, this, &ReconstructionTab::stepSlice);
    }
    showDataset(nullptr);
}

int ReconstructionTab::sliceCount() const {
    if (m_cone) return m_result ? static_cast<int>(m_result->image.dim(0)) : m_coneGrid.ny;
    return m_data ? static_cast<int>(m_data->sinograms.dim(0)) : 0;
}

void ReconstructionTab::showDataset(std::shared_ptr<const app::Dataset> data) {
    m_data = std::move(data);
    m_cone.reset();
    // The disc the data determine, drawn on the images of its grid (FieldOfView.h).
    for (SliceView* v : {m_recon, m_truth, m_difference}) {
        if (!m_data) {
            v->clearFieldOfView();
            continue;
        }
        const app::FieldOfView fov = app::fieldOfView(m_data->geometry, m_data->grid);
        if (fov.coversImage())
            v->clearFieldOfView();
        else
            v->setFieldOfView(fov.centerX, fov.centerY, fov.radius, fov.rows, fov.cols);
    }
    resetPanes(m_data && !m_data->truth.empty());
    if (!m_data) {
        m_sinogram->clear(tr("no dataset"));
        m_truth->clear(tr("no dataset"));
    }
    setSlice(0);
}

void ReconstructionTab::showConeDataset(std::shared_ptr<const app::ConeDataset> cone,
                                        const ConeVolumeGrid& grid, int plane) {
    m_data.reset();
    m_cone = std::move(cone);
    for (SliceView* v : {m_recon, m_truth, m_difference})
        v->clearFieldOfView();
    m_coneGrid = grid;
    resetPanes(m_cone && !m_cone->truth.empty());
    setSlice(plane);
}

void ReconstructionTab::setConeGrid(const ConeVolumeGrid& grid) {
    m_coneGrid = grid;
    if (m_result) return;  // the result's planes stay until the next one
    const QSignalBlocker block(m_slider);
    m_slider->setRange(1, std::max(1, sliceCount()));
    setSlice(m_slice);
}

void ReconstructionTab::resetPanes(bool truth) {
    m_result.reset();
    m_resultNote.clear();
    m_freshWindow = true;
    m_iterateWindow.reset();
    m_slice = 0;
    m_truthBox->setVisible(truth);
    m_differenceBox->setVisible(truth);
    for (SliceView* v : {m_sinogram, m_recon, m_truth, m_difference}) {
        v->clearProfileLine();
        v->setCrosshair(std::nullopt);
        v->fitToWindow();
    }
    const QSignalBlocker block(m_slider);
    m_slider->setRange(1, std::max(1, sliceCount()));
    m_slider->setValue(1);
    m_slider->setEnabled(sliceCount() > 1);
}

void ReconstructionTab::setSlice(int index) {
    const int count = sliceCount();
    m_slice = std::clamp(index, 0, std::max(0, count - 1));
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(m_slice + 1);
    }
    m_sliceLabel->setText(count > 0 ? tr("Slice %1 / %2").arg(m_slice + 1).arg(count)
                                    : tr("No slices"));
    if (m_cone && count == m_coneGrid.ny)
        m_sliceLabel->setText(
            tr("Plane %1 / %2 (y = %3 mm)")
                .arg(m_slice + 1)
                .arg(count)
                .arg(m_coneGrid.originY + m_slice * m_coneGrid.spacingY, 0, 'f', 2));
    if (m_cone) showConeInputs();
    if (m_data) {
        m_sinogram->setImage(m_data->sinograms.plane(static_cast<std::size_t>(m_slice)));
        m_sinogram->setCaption(m_sliceLabel->text());
        if (!m_data->truth.empty() && static_cast<std::size_t>(m_slice) < m_data->truth.dim(0))
            m_truth->setImage(m_data->truth.plane(static_cast<std::size_t>(m_slice)));
    }
    showReconstructionSlice();
    emit sliceChanged(m_slice);
}

void ReconstructionTab::showConeInputs() {
    const int row = app::detectorRowOf(m_cone->geometry, m_coneGrid, m_slice);
    const app::SliceImage sino = app::sinogramOfRow(*m_cone->projections, row);
    m_sinogram->setImage(sino.view());
    m_sinogram->setCaption(tr("Detector row %1 (views x columns)").arg(row + 1));
    const View2<const float> truth = currentTruth();
    if (truth.rows() > 0)
        m_truth->setImage(truth);
    else
        m_truth->clear(tr("the truth is on another grid"));
}

void ReconstructionTab::showReconstruction(std::shared_ptr<const app::ReconOutcome> recon,
                                           const QString& note) {
    m_result = recon && !recon->image.empty() ? std::move(recon) : nullptr;
    m_resultNote = note;
    if (m_iterateWindow && m_result) {
        const WindowLevel now = m_recon->windowLevel();
        m_freshWindow = m_freshWindow || (now.width == m_iterateWindow->width &&
                                          now.level == m_iterateWindow->level);
        m_iterateWindow.reset();
    }
    if (m_cone) {  // the planes of this result
        const QSignalBlocker block(m_slider);
        m_slider->setRange(1, std::max(1, sliceCount()));
        m_slider->setEnabled(sliceCount() > 1);
    }
    showReconstructionSlice();
}

void ReconstructionTab::showReconstructionSlice() {
    if (!m_result || static_cast<std::size_t>(m_slice) >= m_result->image.dim(0)) {
        m_recon->clear(m_data ? tr("not reconstructed yet") : tr("no dataset"));
        m_recon->setCaption(QString());
        m_difference->clear(tr("needs a reconstruction and a ground truth"));
        return;
    }
    showInRecon(m_result->image.plane(static_cast<std::size_t>(m_slice)));
    m_recon->setCaption(m_resultNote.isEmpty()
                            ? m_sliceLabel->text()
                            : m_sliceLabel->text() + QStringLiteral("\n") + m_resultNote);
    showDifference(m_result->image.plane(static_cast<std::size_t>(m_slice)));
}

void ReconstructionTab::showIterate(View2<const float> slice, const QString& caption) {
    const bool fresh = m_freshWindow;
    showInRecon(slice);
    if (fresh) m_iterateWindow = m_recon->windowLevel();
    m_recon->setCaption(caption);
    showDifference(slice);
}

View2<const float> ReconstructionTab::currentTruth() const {
    const auto plane = static_cast<std::size_t>(m_slice);
    if (m_cone) {  // only while the planes are the truth's
        const Volume& t = m_cone->truth;
        const bool same = !t.empty() && (m_result ? m_result->image.dims() == t.dims()
                                                  : t.dim(0) == std::size_t(m_coneGrid.ny) &&
                                                        t.dim(1) == std::size_t(m_coneGrid.nz) &&
                                                        t.dim(2) == std::size_t(m_coneGrid.nx));
        return same && plane < t.dim(0) ? t.plane(plane) : View2<const float>();
    }
    if (!m_data || m_data->truth.empty() || plane >= m_data->truth.dim(0)) return {};
    return m_data->truth.plane(plane);
}

void ReconstructionTab::showInRecon(View2<const float> image) {
    bool sameSize = m_recon->hasImage() &&
                    m_recon->imageWidth() == static_cast<int>(image.cols()) &&
                    m_recon->imageHeight() == static_cast<int>(image.rows());
    m_recon->setImage(image, m_freshWindow || !sameSize);
    m_freshWindow = false;
}

void ReconstructionTab::showDifference(View2<const float> image) {
    View2<const float> truth = currentTruth();
    std::vector<float> diff;
    if (truth.rows() > 0) diff = differenceImage(image, truth);
    if (diff.empty()) {
        m_difference->clear(tr("ground truth unknown"));
        return;
    }
    std::size_t cols = image.cols();
    m_difference->setImage(View2<const float>(diff.data(), diff.size() / cols, cols, cols), false);
    m_difference->setWindowLevel(symmetricWindow(diff, 99.0));
}

}  // namespace tomo::ui
