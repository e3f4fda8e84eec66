// tomostation: the TomoStation GUI. Everything beyond choosing between the window and the
// headless demo lives in ui/main/GuiApp.h.
#include "app/gui/HeadlessDemo.h"
#include "ui/main/GuiApp.h"

int main(int argc, char** argv) {
    if (!tomo::gui::hasDisplay()) return tomo::gui::runHeadlessDemo(argc, argv);
    return tomo::ui::runGui(argc, argv);
}
