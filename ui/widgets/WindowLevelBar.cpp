#include "ui/widgets/WindowLevelBar.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QVBoxLayout>

#include "ui/views/SliceView.h"

namespace tomo::ui {

namespace {

struct Preset {
    const char* name;
    double lowPercent;
    double highPercent;
};
constexpr Preset kPresets[] = {{"Auto (0.5-99.5 %)", 0.5, 99.5},
                               {"1-99 %", 1.0, 99.0},
                               {"5-95 %", 5.0, 95.0},
                               {"Full range (min-max)", 0.0, 100.0}};

}  // namespace

/// The painted histogram with the window over it; mouse presses move the nearer edge.
class WindowLevelBar::Strip : public QWidget {
  public:
    explicit Strip(WindowLevelBar& bar) : QWidget(&bar), m_bar(bar) {
        setMinimumHeight(28);
        setToolTip(
            tr("Histogram of the shown slice. Click or drag to move the nearer window "
               "edge"));
    }
    QSize sizeHint() const override { return {240, 32}; }
    double valueAt(double x) const {
        double t = std::clamp(x / std::max(1, width()), 0.0, 1.0);
        return m_bar.m_rangeLow + t * (m_bar.m_rangeHigh - m_bar.m_rangeLow);
    }
    double xOf(double value) const {
        double span = m_bar.m_rangeHigh - m_bar.m_rangeLow;
        return span > 0 ? (value - m_bar.m_rangeLow) / span * width() : 0.0;
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), QColor(40, 40, 40));
        const auto& h = m_bar.m_histogram;
        const double top = std::log1p(static_cast<double>(*std::max_element(h.begin(), h.end())));
        const double binWidth = static_cast<double>(width()) / kBins;
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(150, 150, 150));
        for (int i = 0; i < kBins && top > 0; ++i) {
            double height = std::log1p(static_cast<double>(h[i])) / top * (this->height() - 2);
            p.drawRect(QRectF(i * binWidth, this->height() - height, binWidth, height));
        }
        if (!m_bar.m_view || !m_bar.m_view->hasImage()) return;
        const WindowLevel wl = m_bar.m_view->windowLevel();
        const double a = xOf(wl.low()), b = xOf(wl.high());
        p.setBrush(QColor(255, 200, 0, 50));
        p.drawRect(QRectF(QPointF(a, 0), QPointF(b, height())));
        p.setPen(QPen(QColor(255, 200, 0), 2));
        p.drawLine(QPointF(a, 0), QPointF(a, height()));
        p.drawLine(QPointF(b, 0), QPointF(b, height()));
    }
    void mousePressEvent(QMouseEvent* e) override {
        m_bar.moveNearerEdge(valueAt(e->position().x()), true);
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        if (e->buttons() & Qt::LeftButton) m_bar.moveNearerEdge(valueAt(e->position().x()), false);
    }

  private:
    WindowLevelBar& m_bar;
};

WindowLevelBar::WindowLevelBar(QWidget* parent) : QWidget(parent) {
    m_strip = new Strip(*this);
    auto makeSpin = [this](const QString& tip) {
        auto* spin = new QDoubleSpinBox(this);
        spin->setRange(-1e6, 1e6);
        spin->setDecimals(5);
        spin->setKeyboardTracking(false);
        spin->setToolTip(tip);
        connect(spin, &QDoubleSpinBox::valueChanged, this, &WindowLevelBar::onNumbersEdited);
        return spin;
    };
    m_low = makeSpin(tr("Value shown black (window low)"));
    m_high = makeSpin(tr("Value shown white (window high)"));
    m_low->setObjectName(QStringLiteral("windowLow"));
    m_high->setObjectName(QStringLiteral("windowHigh"));
    m_presets = new QComboBox(this);
    m_presets->addItem(tr("Preset..."));
    for (const Preset& preset : kPresets)
        m_presets->addItem(tr(preset.name));
    connect(m_presets, &QComboBox::activated, this, [this](int item) {
        if (item > 0) applyPreset(item - 1);
        m_presets->setCurrentIndex(0);
    });
    m_readout = new QLabel(this);
    m_readout->setObjectName(QStringLiteral("windowReadout"));
    // The readout may be cut rather than widen the window; its tooltip has the whole text.
    m_readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Black"), this));
    row->addWidget(m_low);
    row->addWidget(new QLabel(tr("White"), this));
    row->addWidget(m_high);
    row->addWidget(m_presets);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_strip);
    layout->addLayout(row);
    layout->addWidget(m_readout);
    attach(nullptr);
}

QWidget* WindowLevelBar::histogramWidget() const {
    return m_strip;
}

void WindowLevelBar::attach(SliceView* view) {
    disconnect(m_imageConnection);
    disconnect(m_windowConnection);
    m_view = view;
    if (view) {
        m_imageConnection =
            connect(view, &SliceView::imageChanged, this, &WindowLevelBar::onImageChanged);
        m_windowConnection =
            connect(view, &SliceView::windowLevelChanged, this, &WindowLevelBar::onWindowChanged);
    }
    onImageChanged();
}

void WindowLevelBar::onImageChanged() {
    m_histogram.fill(0);
    const bool have = m_view && m_view->hasImage();
    setEnabled(have);
    // Without an image the boxes show no number (they kept the last data's window before).
    for (QDoubleSpinBox* box : {m_low, m_high})
        box->setSpecialValueText(have ? QString() : tr("none"));
    if (!have) {
        m_syncing = true;
        m_low->setValue(m_low->minimum());
        m_high->setValue(m_high->minimum());
        m_syncing = false;
        m_readout->setText(tr("no image"));
        m_strip->update();
        return;
    }
    View2<const float> image = m_view->image();
    std::vector<float> values(image.rows() * image.cols());
    copyDense(image, values.data());
    auto range = finiteRange(values);
    m_rangeLow = range[0];
    m_rangeHigh = range[1] > range[0] ? range[1] : range[0] + 1.0;
    const double scale = kBins / (m_rangeHigh - m_rangeLow);
    for (float v : values)
        if (std::isfinite(v))
            ++m_histogram[std::clamp(static_cast<int>((v - m_rangeLow) * scale), 0, kBins - 1)];
    const double step = (m_rangeHigh - m_rangeLow) / 100.0;
    m_low->setSingleStep(step);
    m_high->setSingleStep(step);
    onWindowChanged(m_view->windowLevel());
}

void WindowLevelBar::onWindowChanged(const WindowLevel& wl) {
    m_syncing = true;
    m_low->setValue(wl.low());
    m_high->setValue(wl.high());
    m_syncing = false;
    m_readout->setText(readout());
    m_readout->setToolTip(readout());
    m_strip->update();
}

QString WindowLevelBar::readout() const {
    if (!m_view || !m_view->hasImage()) return tr("no image");
    const WindowLevel wl = m_view->windowLevel();
    return tr("window %1, level %2; data %3 .. %4")
        .arg(wl.width, 0, 'g', 4)
        .arg(wl.level, 0, 'g', 4)
        .arg(m_rangeLow, 0, 'g', 4)
        .arg(m_rangeHigh, 0, 'g', 4);
}

void WindowLevelBar::onNumbersEdited() {
    if (m_syncing || !m_view || !m_view->hasImage()) return;
    double lo = m_low->value(), hi = m_high->value();
    if (!(hi > lo)) hi = lo + 1e-6 * (m_rangeHigh - m_rangeLow);
    m_view->setWindowLevel({hi - lo, 0.5 * (lo + hi)});
}

void WindowLevelBar::applyPreset(int index) {
    if (!m_view || !m_view->hasImage() || index < 0 ||
        index >= static_cast<int>(std::size(kPresets)))
        return;
    m_view->autoWindow(kPresets[index].lowPercent, kPresets[index].highPercent);
}

void WindowLevelBar::moveNearerEdge(double value, bool pressed) {
    if (!m_view || !m_view->hasImage()) return;
    WindowLevel wl = m_view->windowLevel();
    double lo = wl.low(), hi = wl.high();
    if (pressed) m_draggingHigh = std::fabs(value - hi) < std::fabs(value - lo);
    const double minWidth = 1e-6 * (m_rangeHigh - m_rangeLow);
    if (m_draggingHigh)
        hi = std::max(value, lo + minWidth);
    else
        lo = std::min(value, hi - minWidth);
    m_view->setWindowLevel({hi - lo, 0.5 * (lo + hi)});
}

}  // namespace tomo::ui
