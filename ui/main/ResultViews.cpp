#include "ui/main/ResultViews.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/views/CompareView.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/OrthoSliceView.h"
#include "ui/views/SliceView.h"
#include "ui/views/VolumeRenderPanel.h"

namespace tomo::ui {

ResultViews::ResultViews(SliceView* sliceView, QObject* parent)
    : QObject(parent), m_slice(sliceView) {
    m_compare = new CompareView;
    m_compareTab = m_compare;
    m_compare->clear();

    m_ortho = new OrthoSliceView;
    m_volume = new VolumeRenderPanel;
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_ortho);
    splitter->addWidget(m_volume);
    m_volumeTab = splitter;

    m_profile = new LineProfileView;
    m_profile->attach(m_slice);
}

void ResultViews::onDatasetChanged() {
    m_current.reset();
    m_previous.reset();
    m_compare->clear();
}

void ResultViews::onReconstruction(std::shared_ptr<const app::ReconOutcome> recon) {
    if (!recon || recon->image.empty() || recon == m_current) return;
    m_previous = std::exchange(m_current, recon);
    std::shared_ptr<const Volume> volume(recon, &recon->image);
    m_ortho->setVolume(volume);
    m_volume->setVolume(volume);
    if (!m_previous) return;
    Status compared =
        m_compare->setImages(m_current->image.plane(0), m_previous->image.plane(0),
                             QString::fromStdString(m_current->variant) + tr(" (latest)"),
                             QString::fromStdString(m_previous->variant) + tr(" (before)"));
    // Different shapes are shown side by side but not compared; say why.
    m_compareTab->setToolTip(compared ? QString() : QString::fromStdString(compared.message()));
}

}  // namespace tomo::ui
