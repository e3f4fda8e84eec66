#include "ui/charts/ChartSvgExport.h"

#include <QFile>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace tomo::ui {

Status exportWidgetSvg(QWidget& widget, const std::filesystem::path& file) {
    QSvgGenerator generator;
    generator.setFileName(QString::fromStdString(file.string()));
    generator.setSize(widget.size());
    generator.setViewBox(QRect(QPoint(0, 0), widget.size()));
    generator.setTitle(widget.windowTitle());
    QPainter painter;
    if (!painter.begin(&generator)) return ioError("cannot write SVG " + file.string());
    widget.render(&painter);
    painter.end();
    if (!QFile::exists(QString::fromStdString(file.string())))
        return ioError("SVG " + file.string() + " was not written");
    return Status::ok();
}

}  // namespace tomo::ui
