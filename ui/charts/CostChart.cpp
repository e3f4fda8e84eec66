#include "ui/charts/CostChart.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <QChart>
#include <QColor>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include "ui/charts/LogAxis.h"

namespace tomo::ui {

CostChart::CostChart(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart;
    chart->setTitle(tr("MBIR cost"));
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(2, 2, 2, 2));
    m_cost = new QLineSeries;
    m_cost->setName(tr("cost"));
    m_cost->setPointsVisible(true);
    m_hu = new QLineSeries;
    m_hu->setName(tr("RMSE (HU)"));
    m_hu->setPointsVisible(true);
    m_hu->setColor(QColor(200, 90, 0));
    m_target = new QLineSeries;
    m_target->setName(tr("%1 HU").arg(kTargetHu));
    QPen dashed(QColor(120, 120, 120));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidthF(1.5);
    m_target->setPen(dashed);
    m_x = new QValueAxis;
    m_x->setTitleText(tr("equits"));
    m_x->setLabelFormat(QStringLiteral("%.3g"));
    m_costAxis = makeLogAxis(tr("cost"));
    m_huAxis = makeLogAxis(tr("RMSE (HU)"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_costAxis, Qt::AlignLeft);
    chart->addAxis(m_huAxis, Qt::AlignRight);
    chart->addSeries(m_cost);
    m_cost->attachAxis(m_x);
    m_cost->attachAxis(m_costAxis);
    for (QLineSeries* s : {m_hu, m_target}) {
        chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_huAxis);
    }
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(380, 180);
    clear();
}

void CostChart::clear() {
    m_points.clear();
    m_byEquits = true;
    m_costScale = 1;
    m_costAxis->setTitleText(tr("cost"));
    for (QLineSeries* s : {m_cost, m_hu, m_target})
        s->clear();
    m_x->setRange(0, 1);
    resetLogAxis(m_costAxis);
    m_huAxis->setRange(1, 1e3);
    m_huAxis->setVisible(false);
    m_target->setVisible(false);
}

void CostChart::setMuWater(std::optional<double> muWater) {
    m_muWater = muWater && *muWater > 0 ? muWater : std::nullopt;
}

void CostChart::add(const IterationInfo& info) {
    if (!info.cost) return;
    if (m_byEquits && info.equits <= 0) {
        // A solver without equits: iterations on the x axis, for every point.
        m_byEquits = false;
        m_cost->clear();
        m_hu->clear();
        for (Point& q : m_points) {
            q.x = q.iteration;
            appendToSeries(q);
        }
    }
    Point p;
    p.iteration = info.iteration;
    p.x = m_byEquits ? info.equits : double(info.iteration);
    p.cost = *info.cost;
    if (info.error && m_muWater) p.hu = 1000.0 * *info.error / *m_muWater;
    m_points.push_back(p);
    appendToSeries(p);
    rescaleCost();
    updateAxes();
}

void CostChart::appendToSeries(const Point& p) {
    if (p.cost > 0) m_cost->append(p.x, p.cost / m_costScale);  // log axis: positive only
    if (p.hu && *p.hu > 0) m_hu->append(p.x, *p.hu);
}

void CostChart::rescaleCost() {
    // Costs are sums over the sinogram (1e5 and more): plotted in units of a power of ten so
    // that the labels stay short ("2.06", not "2.06e+05", which a low dock elides).
    double largest = 0;
    for (const Point& p : m_points)
        largest = std::max(largest, std::fabs(p.cost));
    const int exponent = largest > 0 ? static_cast<int>(std::floor(std::log10(largest))) : 0;
    const int shown = std::abs(exponent) >= 3 ? exponent : 0;
    if (std::pow(10.0, shown) == m_costScale) return;
    m_costScale = std::pow(10.0, shown);
    m_costAxis->setTitleText(shown == 0 ? tr("cost") : tr("cost / 1e%1").arg(shown));
    m_cost->clear();
    for (const Point& p : m_points)
        if (p.cost > 0) m_cost->append(p.x, p.cost / m_costScale);
}

void CostChart::updateAxes() {
    std::vector<double> costs, hus;
    double xMax = 0;
    for (const Point& p : m_points) {
        costs.push_back(p.cost / m_costScale);
        if (p.hu) hus.push_back(*p.hu);
        xMax = std::max(xMax, p.x);
    }
    m_x->setTitleText(m_byEquits ? tr("equits") : tr("iteration"));
    if (m_byEquits) {
        m_x->setTickType(QValueAxis::TicksFixed);
        m_x->setLabelFormat(QStringLiteral("%.3g"));
        m_x->setRange(0, std::max(1.0, xMax * 1.05));
        m_x->applyNiceNumbers();  // ticks at round equits
    } else {
        fitIterationAxis(m_x, xMax, 1);  // whole iterations only
    }
    fitLogAxis(m_costAxis, costs);
    const bool showHu = !hus.empty();
    m_huAxis->setVisible(showHu);
    m_target->setVisible(showHu);
    if (!showHu) return;
    hus.push_back(kTargetHu);  // the line stays inside the axis
    fitLogAxis(m_huAxis, hus);
    m_target->replace(QList<QPointF>{QPointF(0, kTargetHu), QPointF(m_x->max(), kTargetHu)});
}

}  // namespace tomo::ui
