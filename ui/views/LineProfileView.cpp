#include "ui/views/LineProfileView.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/metrics/Metrics.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {

Result<ProfileSamples> sampleProfile(View2<const float> image, const QLineF& pixelLine) {
    int samples = std::max(2, static_cast<int>(std::ceil(pixelLine.length())) + 1);
    auto values =
        lineProfile(image, pixelLine.x1(), pixelLine.y1(), pixelLine.x2(), pixelLine.y2(), samples);
    if (!values) return values.status();
    ProfileSamples out;
    out.value = std::move(*values);
    out.distance.resize(out.value.size());
    for (std::size_t i = 0; i < out.distance.size(); ++i)
        out.distance[i] = pixelLine.length() * static_cast<double>(i) / (samples - 1);
    return out;
}

LineProfileView::LineProfileView(QWidget* parent) : QWidget(parent) {
    auto* chart = new QChart;
    chart->legend()->hide();
    m_series = new QLineSeries;
    chart->addSeries(m_series);
    m_axisX = new QValueAxis;
    m_axisX->setTitleText(tr("distance (px)"));
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setTickCount(5);
    m_axisY = new QValueAxis;
    m_axisY->setTitleText(tr("value"));
    m_axisY->setLabelFormat(QStringLiteral("%.3g"));
    m_axisY->setTickCount(5);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_chartView = new QChartView(chart);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    // Room for both axes' labels and titles: a shorter chart elides them to "...".
    m_chartView->setMinimumSize(260, 190);
    m_status = new QLabel(tr("Draw a line on the slice (profile tool) to plot its values."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_chartView, 1);
    layout->addWidget(m_status);
}

void LineProfileView::attach(SliceView* view) {
    if (m_connection) disconnect(m_connection);
    m_view = view;
    if (!view) {
        showLine(QLineF());
        return;
    }
    m_connection = connect(view, &SliceView::profileLineChanged, this, &LineProfileView::showLine);
    showLine(view->profileLine().value_or(QLineF()));
}

void LineProfileView::showLine(const QLineF& pixelLine) {
    m_samples = {};
    m_series->clear();
    if (!m_view || !m_view->hasImage() || pixelLine.isNull()) {
        m_status->setText(tr("Draw a line on the slice (profile tool) to plot its values."));
        emit profileChanged();
        return;
    }
    auto samples = sampleProfile(m_view->image(), pixelLine);
    if (!samples) {
        m_status->setText(QString::fromStdString(samples.status().message()));
        emit profileChanged();
        return;
    }
    m_samples = std::move(*samples);
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(m_samples.value.size()));
    double lo = m_samples.value.front(), hi = lo;
    for (std::size_t i = 0; i < m_samples.value.size(); ++i) {
        points.append({m_samples.distance[i], m_samples.value[i]});
        lo = std::min(lo, m_samples.value[i]);
        hi = std::max(hi, m_samples.value[i]);
    }
    m_series->replace(points);
    double pad = hi > lo ? 0.05 * (hi - lo) : 0.5 * std::max(1e-12, std::abs(hi));
    m_axisX->setRange(0.0, std::max(m_samples.distance.back(), 1e-9));
    m_axisY->setRange(lo - pad, hi + pad);
    m_status->setText(tr("(%1, %2) to (%3, %4), %5 samples, min %6, max %7")
                          .arg(pixelLine.x1(), 0, 'f', 1)
                          .arg(pixelLine.y1(), 0, 'f', 1)
                          .arg(pixelLine.x2(), 0, 'f', 1)
                          .arg(pixelLine.y2(), 0, 'f', 1)
                          .arg(m_samples.value.size())
                          .arg(lo, 0, 'g', 5)
                          .arg(hi, 0, 'g', 5));
    emit profileChanged();
}

QImage LineProfileView::renderToImage(QSize size) {
    resize(size);
    return grab().toImage();
}

}  // namespace tomo::ui
