#pragma once
/// @file VolumeRenderPanel.h
/// @brief The volume-rendering panel: a VolumeView (ViewFactory.h: VTK, or a message saying
/// what is missing), a transfer-function preset chooser and the TransferFunctionEditor, kept in
/// sync. Choosing a preset replaces the function over the volume's data range; edits apply
/// immediately.
///
/// Threading: GUI thread only.

#include <memory>

#include <QWidget>

#include "core/data/Array.h"
#include "ui/views/TransferFunction.h"

class QComboBox;

namespace tomo::ui {

class TransferFunctionEditor;
class VolumeView;

class VolumeRenderPanel : public QWidget {
    Q_OBJECT

  public:
    explicit VolumeRenderPanel(QWidget* parent = nullptr);

    void setVolume(std::shared_ptr<const Volume> volume);
    void setPreset(TransferPreset preset);

    VolumeView* view() const { return m_view; }
    TransferFunctionEditor* editor() const { return m_editor; }

  private:
    void syncEditor();

    VolumeView* m_view = nullptr;
    TransferFunctionEditor* m_editor = nullptr;
    QComboBox* m_presets = nullptr;
};

}  // namespace tomo::ui
