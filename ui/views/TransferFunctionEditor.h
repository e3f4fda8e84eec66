#pragma once
/// @file TransferFunctionEditor.h
/// @brief A small editor for a TransferFunction's opacity curve over a data range, with the
/// colour map shown as a gradient bar underneath.
///
/// The horizontal axis is the data value over [low, high] (setRange), the vertical axis the
/// opacity in [0, 1]. Left click on empty space adds an opacity point (its colour stays the
/// interpolated one); left drag moves a point (the end points keep their value and move only
/// in opacity); right click removes an interior point. Every change emits
/// transferFunctionChanged() with the edited function.
///
/// Threading: GUI thread only.

#include <QWidget>

#include "ui/views/TransferFunction.h"

namespace tomo::ui {

class TransferFunctionEditor : public QWidget {
    Q_OBJECT

  public:
    explicit TransferFunctionEditor(QWidget* parent = nullptr);

    void setRange(double low, double high);
    void setTransferFunction(const TransferFunction& tf);
    const TransferFunction& transferFunction() const { return m_tf; }

    /// Widget position of an opacity point / the point under a widget position.
    QPointF toWidget(const OpacityPoint& p) const;
    OpacityPoint fromWidget(QPointF position) const;

    QSize sizeHint() const override { return {320, 120}; }
    QSize minimumSizeHint() const override { return {120, 60}; }

  signals:
    void transferFunctionChanged(const tomo::ui::TransferFunction& tf);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

  private:
    QRectF plotRect() const;
    int pointNear(QPointF position) const;  ///< index within 6 pixels, or -1

    TransferFunction m_tf;
    double m_low = 0.0;
    double m_high = 1.0;
    int m_dragged = -1;
};

}  // namespace tomo::ui
