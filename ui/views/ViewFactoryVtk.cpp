// ViewFactory.h with VTK (TOMO_WITH_VTK on): VTK views when an X display is reachable.
#include <QByteArray>

#include "ui/views/ImageView.h"
#include "ui/views/UnavailableVolumeView.h"
#include "ui/views/ViewFactory.h"
#include "ui/views/vtk/VtkImageView.h"
#include "ui/views/vtk/VtkVolumeRenderView.h"
#include "ui/views/vtk/XDisplayProbe.h"

namespace tomo::ui {

bool vtkViewsAvailable(QString* reason) {
    QByteArray display = qgetenv("DISPLAY");
    if (display.isEmpty()) {
        if (reason) *reason = QStringLiteral("no X display (DISPLAY is unset) for VTK rendering");
        return false;
    }
    if (!canOpenXDisplay(display.constData())) {
        if (reason)
            *reason = QStringLiteral("cannot open X display %1 for VTK rendering")
                          .arg(QString::fromLocal8Bit(display));
        return false;
    }
    return true;
}

SliceView* createSliceView(SliceBackend backend, QWidget* parent) {
    if (backend != SliceBackend::Painter && vtkViewsAvailable()) return new VtkImageView(parent);
    return new ImageView(parent);
}

VolumeView* createVolumeView(QWidget* parent) {
    QString reason;
    if (vtkViewsAvailable(&reason)) return new VtkVolumeRenderView(parent);
    return new UnavailableVolumeView(QStringLiteral("Volume rendering is unavailable: ") + reason,
                                     parent);
}

}  // namespace tomo::ui
