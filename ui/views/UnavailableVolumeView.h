#pragma once
/// @file UnavailableVolumeView.h
/// @brief The VolumeView used when volume rendering is unavailable (built without VTK, or no X
/// display for VTK): it keeps the volume and transfer function and shows why nothing is
/// rendered. Threading: GUI thread only.

#include <QString>

#include "ui/views/VolumeView.h"

namespace tomo::ui {

class UnavailableVolumeView : public VolumeView {
    Q_OBJECT

  public:
    explicit UnavailableVolumeView(const QString& reason, QWidget* parent = nullptr);

    const QString& reason() const { return m_reason; }

    bool canRender() const override { return false; }
    void setVolume(std::shared_ptr<const Volume> volume,
                   bool keepTransferFunction = false) override;
    void setTransferFunction(const TransferFunction& tf) override { m_transfer = tf; }
    /// The message on a dark background.
    QImage renderToImage(QSize size) override;
    void resetCamera() override {}

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QString m_reason;
};

}  // namespace tomo::ui
