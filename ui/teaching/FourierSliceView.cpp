#include "ui/teaching/FourierSliceView.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/geometry/ParallelGeometry.h"
#include "ui/views/ColorMap.h"

namespace tomo::ui {

namespace {

/// Magnitudes below this fraction of the peak sit on the plot's floor (4 decades shown).
constexpr double kDecades = 4.0;

/// A word-wrapped label that asks for its wrapped height at its current width, without
/// height-for-width: the panel sits in a scroll area, which would otherwise size the whole
/// panel by its children's preferred heights rather than by the window.
class CaptionLabel : public QLabel {
  public:
    CaptionLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {
        setWordWrap(true);
        QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        policy.setHeightForWidth(false);
        setSizePolicy(policy);
    }
    QSize sizeHint() const override {
        return {QLabel::sizeHint().width(), heightForWidth(std::max(width(), 200))};
    }
    QSize minimumSizeHint() const override {
        return {QLabel::minimumSizeHint().width(), sizeHint().height()};
    }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        if (event->oldSize().width() != width()) updateGeometry();
    }
};

}  // namespace

FourierSpectrumView::FourierSpectrumView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(140, 140);
}

void FourierSpectrumView::setSpectrum(const app::SliceImage& logMagnitude) {
    // From 5 decades under the peak to the peak: DC is the brightest point, the phantom's edges
    // make the rings and streaks around it.
    const std::array<float, 2> range = finiteRange(logMagnitude.values);
    const WindowLevel window{5.0, range[1] - 2.5};
    m_image = renderImage(logMagnitude.view(), window, ColorMap::Inferno);
    update();
}

void FourierSpectrumView::setAngle(double radians) {
    m_angle = radians;
    update();
}

QRectF FourierSpectrumView::target() const {
    const double side = std::max(0, std::min(width(), height()) - 4);
    return {0.5 * (width() - side), 0.5 * (height() - side), side, side};
}

QLineF FourierSpectrumView::markedLine() const {
    if (m_image.isNull()) return {};
    const QRectF t = target();
    // v is up on screen: the direction (cos, sin) in (u, v) is (cos, -sin) in pixels.
    const QPointF centre = t.center();
    const double r = 0.5 * t.width();
    return {centre, centre + QPointF(r * std::cos(m_angle), -r * std::sin(m_angle))};
}

void FourierSpectrumView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (m_image.isNull()) return;
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.setRenderHint(QPainter::Antialiasing);
    p.drawImage(target(), m_image);
    const QLineF line = markedLine();
    p.setPen(QPen(QColor(255, 90, 90, 200), 1.5, Qt::DashLine));
    p.drawLine(line.p1(), line.p1() - (line.p2() - line.p1()));
    p.setPen(QPen(QColor(255, 40, 40), 2.5));
    p.drawLine(line);
    p.setBrush(Qt::white);
    p.setPen(Qt::NoPen);
    p.drawEllipse(line.p1(), 2.5, 2.5);
}

FourierSliceView::FourierSliceView(QWidget* parent) : QWidget(parent) {
    m_picture = new FourierSpectrumView(this);
    m_picture->setObjectName(QStringLiteral("fourierSpectrum"));
    m_pictureTitle = new QLabel(tr("2-D FT of the phantom, log |F|"), this);
    m_pictureTitle->setToolTip(
        tr("Centre: frequency 0; edges: 0.5 cycles/px; u to the right, v up"));

    auto* chart = new QChart;
    chart->setTitle(tr("Fourier slice"));
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->legend()->hide();  // the caption names the curves: a legend would be elided here
    m_image = new QLineSeries;
    m_image->setName(tr("2-D FT on the red line"));
    m_image->setPen(QPen(QColor(255, 140, 0, 150), 5));
    m_projection = new QLineSeries;
    m_projection->setName(tr("1-D FT of the projection"));
    m_projection->setPen(QPen(QColor(20, 60, 200), 1.5));
    auto* frequency = new QValueAxis;
    frequency->setTitleText(tr("frequency (cycles/px)"));
    frequency->setLabelFormat(QStringLiteral("%.1f"));
    frequency->setRange(0.0, 0.5);
    frequency->setTickCount(6);
    m_magnitude = new QLogValueAxis;
    m_magnitude->setTitleText(tr("|FT| (log)"));
    m_magnitude->setLabelFormat(QStringLiteral("%g"));
    m_magnitude->setBase(10.0);
    chart->addAxis(frequency, Qt::AlignBottom);
    chart->addAxis(m_magnitude, Qt::AlignLeft);
    for (QLineSeries* s : {m_image, m_projection}) {
        chart->addSeries(s);
        s->attachAxis(frequency);
        s->attachAxis(m_magnitude);
    }
    m_chartView = new QChartView(chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(280, 220);  // narrower elides the axis title

    m_caption = new CaptionLabel(
        tr("Fourier slice theorem: the 1-D Fourier transform of a projection (blue) equals the "
           "image's 2-D transform along the red line at that angle (orange)."),
        this);
    m_caption->setObjectName(QStringLiteral("fourierCaption"));

    auto* pictureBox = new QVBoxLayout;
    pictureBox->addWidget(m_pictureTitle);
    pictureBox->addWidget(m_picture, 1);
    auto* row = new QHBoxLayout;
    row->addLayout(pictureBox, 2);
    row->addWidget(m_chartView, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row, 1);
    layout->addWidget(m_caption);
}

void FourierSliceView::setSpectrum(const app::SliceImage& logMagnitude) {
    m_picture->setSpectrum(logMagnitude);
}

void FourierSliceView::showSlice(const app::FourierSlice& slice) {
    m_picture->setAngle(slice.angle);
    double peak = 0;
    for (std::size_t k = 0; k < slice.frequency.size(); ++k)
        peak = std::max({peak, std::abs(slice.image[k]), std::abs(slice.projection[k])});
    if (peak <= 0) peak = 1;
    const double top = std::pow(10.0, std::ceil(std::log10(peak)));
    const double floor = top * std::pow(10.0, -kDecades);
    QList<QPointF> image, projection;
    for (std::size_t k = 0; k < slice.frequency.size(); ++k) {
        image.append({slice.frequency[k], std::max(std::abs(slice.image[k]), floor)});
        projection.append({slice.frequency[k], std::max(std::abs(slice.projection[k]), floor)});
    }
    m_image->replace(image);
    m_projection->replace(projection);
    m_magnitude->setRange(floor, top);
    const double degrees = slice.angle * 180.0 / kPi;
    m_chartView->chart()->setTitle(tr("Fourier slice at %1\u00b0").arg(degrees, 0, 'f', 1));
}

}  // namespace tomo::ui
