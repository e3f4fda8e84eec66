#pragma once
/// @file MarkedSinogramView.h
/// @brief A sinogram ([angle][detector], angle down the rows) drawn to fit the widget with the
/// rows of the angles back-projected so far tinted and the current angle marked by a red line:
/// the teaching mode's "which projection is being smeared back now".
///
/// Threading: GUI thread only.

#include <QImage>
#include <QWidget>

#include "app/jobs/SliceImage.h"

namespace tomo::ui {

class MarkedSinogramView : public QWidget {
    Q_OBJECT

  public:
    explicit MarkedSinogramView(QWidget* parent = nullptr);

    void setSinogram(const app::SliceImage& sinogram);
    /// Marks angles [0, endAngle) as done and angle endAngle - 1 as the current one.
    void setMarker(int endAngle);
    int marker() const { return m_marker; }

    QSize sizeHint() const override { return {240, 240}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QImage m_image;
    int m_rows = 0;
    int m_marker = 0;
};

}  // namespace tomo::ui
