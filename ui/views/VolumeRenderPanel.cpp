#include "ui/views/VolumeRenderPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/views/TransferFunctionEditor.h"
#include "ui/views/ViewFactory.h"
#include "ui/views/VolumeView.h"

namespace tomo::ui {

VolumeRenderPanel::VolumeRenderPanel(QWidget* parent) : QWidget(parent) {
    m_view = createVolumeView(this);
    m_editor = new TransferFunctionEditor(this);
    m_presets = new QComboBox(this);
    for (TransferPreset p :
         {TransferPreset::GreyRamp, TransferPreset::Bone, TransferPreset::SoftTissue})
        m_presets->addItem(transferPresetName(p), static_cast<int>(p));
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Transfer function:"), this));
    row->addWidget(m_presets);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(row);
    layout->addWidget(m_editor);
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        setPreset(static_cast<TransferPreset>(m_presets->itemData(index).toInt()));
    });
    connect(m_editor, &TransferFunctionEditor::transferFunctionChanged, m_view,
            &VolumeView::setTransferFunction);
    m_editor->setEnabled(m_view->canRender());
}

void VolumeRenderPanel::setVolume(std::shared_ptr<const Volume> volume) {
    m_view->setVolume(std::move(volume));
    m_presets->setCurrentIndex(m_presets->findData(static_cast<int>(TransferPreset::GreyRamp)));
    syncEditor();
}

void VolumeRenderPanel::setPreset(TransferPreset preset) {
    m_view->setPreset(preset);
    m_presets->setCurrentIndex(m_presets->findData(static_cast<int>(preset)));
    syncEditor();
}

void VolumeRenderPanel::syncEditor() {
    auto range = m_view->dataRange();
    m_editor->setRange(range[0], range[1]);
    m_editor->setTransferFunction(m_view->transferFunction());
}

}  // namespace tomo::ui
