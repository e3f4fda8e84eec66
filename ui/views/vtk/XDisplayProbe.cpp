#include "ui/views/vtk/XDisplayProbe.h"

#include <X11/Xlib.h>

namespace tomo::ui {

bool canOpenXDisplay(const char* displayName) {
    Display* connection = XOpenDisplay(displayName);
    if (connection == nullptr) return false;
    XCloseDisplay(connection);
    return true;
}

}  // namespace tomo::ui
