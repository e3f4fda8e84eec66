#include "ui/teaching/TeachingPlots.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QValueAxis>

namespace tomo::ui {

namespace {

QValueAxis* axis(const QString& title, const char* format) {
    auto* a = new QValueAxis;
    a->setTitleText(title);
    a->setLabelFormat(QString::fromLatin1(format));
    a->setTickCount(5);
    return a;
}

QChartView* chartView(QChart* chart) {
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(240, 220);
    return view;
}

}  // namespace

TeachingPlots::TeachingPlots(QWidget* parent) : QWidget(parent) {
    auto* projection = new QChart;
    projection->setTitle(tr("Projection at the current angle"));
    projection->legend()->hide();
    m_projection = new QLineSeries;
    projection->addSeries(m_projection);
    m_projectionX = axis(tr("detector (px)"), "%.0f");
    m_projectionY = axis(tr("integral"), "%.3g");
    projection->addAxis(m_projectionX, Qt::AlignBottom);
    projection->addAxis(m_projectionY, Qt::AlignLeft);
    m_projection->attachAxis(m_projectionX);
    m_projection->attachAxis(m_projectionY);
    m_projectionView = chartView(projection);

    auto* response = new QChart;
    response->setTitle(tr("Filter response"));
    response->legend()->hide();
    m_ramp = new QLineSeries;
    m_ramp->setName(tr("ramp |f|"));
    m_ramp->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    m_response = new QLineSeries;
    m_response->setName(tr("filter"));
    auto* f = axis(tr("frequency (cycles/px)"), "%.2f");
    auto* h = axis(tr("gain"), "%.2f");
    f->setRange(0.0, 0.5);
    h->setRange(0.0, 0.55);
    response->addAxis(f, Qt::AlignBottom);
    response->addAxis(h, Qt::AlignLeft);
    for (QLineSeries* s : {m_ramp, m_response}) {
        response->addSeries(s);
        s->attachAxis(f);
        s->attachAxis(h);
    }
    m_responseView = chartView(response);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_projectionView, 1);
    layout->addWidget(m_responseView, 1);
}

void TeachingPlots::showProjection(const app::SliceImage& sinogram, int angle, double degrees) {
    m_projection->clear();
    if (sinogram.empty() || angle < 0 || static_cast<std::size_t>(angle) >= sinogram.rows) return;
    QList<QPointF> points;
    double lo = 0, hi = 0;
    const float* row = sinogram.values.data() + static_cast<std::size_t>(angle) * sinogram.cols;
    for (std::size_t d = 0; d < sinogram.cols; ++d) {
        points.append({static_cast<double>(d), row[d]});
        lo = std::min(lo, static_cast<double>(row[d]));
        hi = std::max(hi, static_cast<double>(row[d]));
    }
    m_projection->replace(points);
    m_projectionX->setRange(0, static_cast<double>(sinogram.cols - 1));
    m_projectionY->setRange(lo, hi > lo ? hi * 1.05 : lo + 1.0);
    m_projectionView->chart()->setTitle(
        tr("Projection at %1\u00b0 (angle %2)").arg(degrees, 0, 'f', 1).arg(angle + 1));
}

void TeachingPlots::showFilter(const FilterOptions& options, const QString& name) {
    QList<QPointF> ramp, response;
    for (int i = 0; i < kResponseSamples; ++i) {
        const double f = 0.5 * i / (kResponseSamples - 1);
        ramp.append({f, f});
        response.append({f, f * filterWindowValue(options, f)});
    }
    m_ramp->replace(ramp);
    m_response->replace(response);
    m_response->setName(tr("%1 filter").arg(name));
    m_responseView->chart()->setTitle(tr("%1 filter (dashed: ramp |f|)").arg(name));
}

}  // namespace tomo::ui
