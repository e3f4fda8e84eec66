#pragma once
/// @file ChartSvgExport.h
/// @brief Renders a widget (a chart) into an SVG file with QSvgGenerator (Qt Svg). Built from
/// ChartSvgExport.cpp when Qt6::Svg is found, else from ChartSvgUnsupported.cpp, which answers
/// Unsupported naming the missing package (libqt6svg6-dev); no preprocessor switch.

#include <filesystem>

#include "core/base/Status.h"

class QWidget;

namespace tomo::ui {

/// Writes @p widget, drawn with QWidget::render at its current size, as SVG to @p file.
Status exportWidgetSvg(QWidget& widget, const std::filesystem::path& file);

}  // namespace tomo::ui
