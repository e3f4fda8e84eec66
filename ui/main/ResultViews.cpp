#include "ui/main/ResultViews.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/main/CompareTab.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/OrthoSliceView.h"
#include "ui/views/SliceView.h"
#include "ui/views/VolumeRenderPanel.h"

namespace tomo::ui {

ResultViews::ResultViews(SliceView* sliceView, QObject* parent)
    : QObject(parent), m_slice(sliceView) {
    m_compare = new CompareTab;
    m_compareTab = m_compare;

    m_ortho = new OrthoSliceView;
    m_volume = new VolumeRenderPanel;
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_ortho);
    splitter->addWidget(m_volume);
    m_volumeTab = splitter;

    m_profile = new LineProfileView;
    m_profile->attach(m_slice);
}

void ResultViews::onDatasetChanged(std::shared_ptr<const app::Dataset> data, bool sameScan) {
    if (!sameScan) m_current.reset();  // the same scan's result stays in the volume views
    m_compare->setDataset(std::move(data), sameScan);
}

void ResultViews::onReconstruction(std::shared_ptr<const app::ReconOutcome> recon) {
    if (!recon || recon->image.empty() || recon == m_current) return;
    m_current = recon;
    std::shared_ptr<const Volume> volume(recon, &recon->image);
    m_ortho->setVolume(volume);
    m_volume->setVolume(volume);
    m_compare->addResult(std::move(recon));
}

}  // namespace tomo::ui
