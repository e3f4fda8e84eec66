// tomostation: the TomoStation GUI. Everything beyond choosing between the window and the
// headless demo lives in ui/main/GuiApp.h.
#include <cstdio>

#include "app/gui/HeadlessDemo.h"
#include "ui/main/GuiApp.h"

int main(int argc, char** argv) {
    if (!tomo::gui::hasDisplay()) {
        std::fprintf(stderr,
                     "tomostation: no display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM are "
                     "unset); running the headless demo (`tomo demo`) instead\n");
        return tomo::gui::runHeadlessDemo(argc, argv);
    }
    return tomo::ui::runGui(argc, argv);
}
