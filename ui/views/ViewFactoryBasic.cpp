// ViewFactory.h without VTK (TOMO_WITH_VTK off): QPainter slices, no volume rendering.
#include "ui/views/ImageView.h"
#include "ui/views/UnavailableVolumeView.h"
#include "ui/views/ViewFactory.h"

namespace tomo::ui {

bool vtkViewsAvailable(QString* reason) {
    if (reason) *reason = QStringLiteral("TomoStation was built without VTK (libvtk9-dev)");
    return false;
}

SliceView* createSliceView(SliceBackend, QWidget* parent) {
    return new ImageView(parent);
}

VolumeView* createVolumeView(QWidget* parent) {
    QString reason;
    vtkViewsAvailable(&reason);
    return new UnavailableVolumeView(QStringLiteral("Volume rendering needs VTK: ") + reason,
                                     parent);
}

}  // namespace tomo::ui
