#include "ui/charts/ChartSvgExport.h"

namespace tomo::ui {

Status exportWidgetSvg(QWidget&, const std::filesystem::path& file) {
    return unsupported("cannot write " + file.string() +
                       ": this build has no Qt Svg module (install libqt6svg6-dev and rebuild)");
}

}  // namespace tomo::ui
