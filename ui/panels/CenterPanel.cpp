#include "ui/panels/CenterPanel.h"

#include <cmath>

#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include "ui/main/Session.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {

namespace {
constexpr double kSliderStep = 0.1;  ///< pixels per slider tick
}

CenterPanel::CenterPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session), m_jobs(120, session.runner().threads()) {
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("centerSlider"));
    m_spin = new QDoubleSpinBox(this);
    m_spin->setObjectName(QStringLiteral("centerSpin"));
    m_spin->setDecimals(2);
    m_spin->setSingleStep(kSliderStep);
    m_spin->setSuffix(tr(" px"));
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        double c = v * kSliderStep;
        if (std::fabs(m_spin->value() - c) >= 0.5 * kSliderStep) m_spin->setValue(c);
    });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, &CenterPanel::onValueChanged);

    auto* autoButton = new QPushButton(tr("Estimate"), this);
    autoButton->setObjectName(QStringLiteral("estimateCenter"));
    autoButton->setToolTip(tr("Vo's Fourier metric (Opt. Express 22, 19078, 2014)"));
    connect(autoButton, &QPushButton::clicked, this, &CenterPanel::estimate);
    auto* applyButton = new QPushButton(tr("Apply to dataset"), this);
    applyButton->setObjectName(QStringLiteral("applyCenter"));
    applyButton->setToolTip(
        tr("Make this the dataset's centre of rotation (kept through preprocessing and "
           "sampling) and reconstruct again"));
    connect(applyButton, &QPushButton::clicked, this, &CenterPanel::apply);
    m_preview = new ImageView(this);
    m_preview->setTitle(tr("Centre preview"));
    m_preview->setMinimumSize(120, 120);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("centerStatus"));
    m_status->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Centre"), this));
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_spin);
    controls->addWidget(autoButton);
    controls->addWidget(applyButton);

    m_count = new QSpinBox(this);
    m_count->setRange(2, 41);
    m_count->setValue(7);
    m_radius = new QDoubleSpinBox(this);
    m_radius->setRange(0.5, 200);
    m_radius->setValue(6);
    m_radius->setSuffix(tr(" px"));
    auto* sweepButton = new QPushButton(tr("Sweep"), this);
    sweepButton->setObjectName(QStringLiteral("sweepCenter"));
    connect(sweepButton, &QPushButton::clicked, this, &CenterPanel::runSweep);
    auto* sweepControls = new QHBoxLayout;
    sweepControls->addWidget(new QLabel(tr("Sweep: trials"), this));
    sweepControls->addWidget(m_count);
    sweepControls->addWidget(new QLabel(tr("around the centre +-"), this));
    sweepControls->addWidget(m_radius);
    sweepControls->addWidget(sweepButton);
    sweepControls->addStretch(1);

    auto* stripHost = new QWidget;
    m_strip = new QHBoxLayout(stripHost);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(stripHost);
    scroll->setWidgetResizable(true);
    scroll->setMinimumHeight(130);

    createChart();

    // Two columns: the live preview on the left, the sweep (strip beside curve) on the right.
    auto* left = new QVBoxLayout;
    left->addLayout(controls);
    left->addWidget(m_preview, 1);
    left->addWidget(m_status);
    // The strip and the curve side by side: the dock stays low, the images keep the height.
    auto* sweepRow = new QHBoxLayout;
    sweepRow->addWidget(scroll, 3);
    sweepRow->addWidget(m_chart, 2);
    auto* right = new QVBoxLayout;
    right->addLayout(sweepControls);
    right->addLayout(sweepRow, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addLayout(left, 1);
    layout->addLayout(right, 1);

    connect(&m_session, &Session::datasetChanged, this, &CenterPanel::syncFromDataset);
    syncFromDataset();
}

void CenterPanel::createChart() {
    auto* chart = new QChart;
    chart->setTitle(tr("Sharpness (entropy, lower = sharper)"));
    chart->legend()->hide();
    m_curve = new QLineSeries;
    m_best = new QScatterSeries;
    m_best->setColor(Qt::red);
    m_best->setMarkerSize(10);
    chart->addSeries(m_curve);
    chart->addSeries(m_best);
    chart->createDefaultAxes();
    if (auto x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0))) {
        x->setTitleText(tr("centre (px)"));
        x->setLabelFormat(QStringLiteral("%.1f"));
        x->setTickCount(5);
    }
    if (auto y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0))) {
        y->setTitleText(tr("sharpness"));
        y->setLabelFormat(QStringLiteral("%.3g"));
        y->setTickCount(4);
    }
    chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart = new QChartView(chart, this);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumSize(280, 165);  // room for the axis labels and titles
}

double CenterPanel::center() const {
    return m_spin->value();
}
void CenterPanel::setCenter(double center) {
    m_spin->setValue(center);
}
void CenterPanel::setDebounceMs(int ms) {
    m_jobs.setDebounceMs(ms);
}
void CenterPanel::setSweepCount(int n) {
    m_count->setValue(n);
}
void CenterPanel::setSweepRadius(double pixels) {
    m_radius->setValue(pixels);
}

void CenterPanel::syncFromDataset() {
    auto data = m_session.dataset();
    setEnabled(data != nullptr);
    m_jobs.cancel();
    // Other data (not the same scan's centre or sampling): nothing of the old one stays.
    if (m_session.loadSerial() != m_shownSerial) {
        m_shownSerial = m_session.loadSerial();
        clearSweep();
        m_freshWindow = true;
        m_lastPreview.reset();
        m_preview->clear(data ? tr("previewing...") : tr("no dataset"));
    }
    if (!data) return;
    const int width = data->geometry.detectorCount();
    QSignalBlocker blockSlider(m_slider), blockSpin(m_spin);
    m_slider->setRange(0, static_cast<int>(std::lround((width - 1) / kSliderStep)));
    m_spin->setRange(0, width - 1);
    double c = data->geometry.centerOfRotation();
    m_spin->setValue(c);
    m_slider->setValue(static_cast<int>(std::lround(c / kSliderStep)));
    requestPreview();  // preview the dataset's centre
    m_status->setText(tr("Dataset centre %1 px (detector centre %2 px)")
                          .arg(c, 0, 'f', 2)
                          .arg((width - 1) / 2.0, 0, 'f', 2));
}

void CenterPanel::onValueChanged(double center) {
    QSignalBlocker block(m_slider);
    m_slider->setValue(static_cast<int>(std::lround(center / kSliderStep)));
    requestPreview();
}

void CenterPanel::showFailure(const QString& message) {
    if (!message.endsWith(QStringLiteral("cancelled"))) m_status->setText(message);
}

void CenterPanel::requestPreview() {
    auto data = m_session.dataset();
    if (!data) return;
    const double c = center();
    const app::Engine* engine = &m_session.engine();
    auto out = std::make_shared<app::JobOutput<app::SliceImage>>();
    const Method m = method();
    m_jobs.request(
        [engine, data, c, out, m](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::SliceImage s,
                                  app::reconstructSliceAtCenter(*engine, *data, 0, c, m.filter,
                                                                m.variant, ctx, m.method));
            out->set(std::move(s));
            return Status::ok();
        },
        [this, out, c](bool ok, const QString& message, double) {
            auto slice = out->take();
            if (!ok || !slice) return showFailure(message);
            m_lastPreview = slice;
            m_lastPreviewCenter = c;
            m_preview->setImage(slice->view(), std::exchange(m_freshWindow, false));
            emit previewUpdated(c);
        });
}

void CenterPanel::estimate() {
    auto data = m_session.dataset();
    if (!data) return;
    auto out = std::make_shared<app::JobOutput<CenterEstimate>>();
    m_jobs.runNow(
        [data, out](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(CenterEstimate e, app::estimateDatasetCenter(*data, 0, ctx));
            out->set(std::move(e));
            return Status::ok();
        },
        [this, out](bool ok, const QString& message, double) {
            auto e = out->take();
            if (!ok || !e) return showFailure(message);
            m_status->setText(tr("Estimated centre %1 px (%2, confidence %3)")
                                  .arg(e->center, 0, 'f', 2)
                                  .arg(QString::fromStdString(e->method))
                                  .arg(e->confidence, 0, 'f', 2));
            setCenter(e->center);
            emit estimated(e->center);
        });
    m_status->setText(tr("Estimating the centre..."));
}

void CenterPanel::runSweep() {
    auto data = m_session.dataset();
    if (!data) return;
    auto out = std::make_shared<app::JobOutput<app::CenterSweep>>();
    const double c = center(), r = m_radius->value();
    const int n = m_count->value();
    const double lo = std::max(0.0, c - r);
    const double hi = std::min<double>(data->geometry.detectorCount() - 1, c + r);
    const app::Engine* engine = &m_session.engine();
    const Method m = method();
    m_jobs.runNow(
        [engine, data, lo, hi, n, out, m](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::CenterSweep s,
                                  app::sweepDatasetCenter(*engine, *data, 0, lo, hi, n, m.filter,
                                                          m.variant, ctx, m.method));
            out->set(std::move(s));
            return Status::ok();
        },
        [this, out](bool ok, const QString& message, double) {
            auto s = out->take();
            if (!ok || !s) return showFailure(message);
            m_sweep = *s;
            showSweep();
            emit sweepFinished(static_cast<int>(m_sweep.slices.size()));
        });
    m_status->setText(tr("Sweeping %1 centres over [%2, %3] px...").arg(n).arg(lo).arg(hi));
}

void CenterPanel::clearSweep() {
    while (QLayoutItem* item = m_strip->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_sweep = {};
    m_curve->clear();
    m_best->clear();
}

void CenterPanel::showSweep() {
    {
        const app::CenterSweep sweep = m_sweep;
        clearSweep();
        m_sweep = sweep;
    }
    // One window for the whole strip (from the middle trial), so the slices compare fairly.
    WindowLevel common;
    if (!m_sweep.slices.empty())
        common = percentileWindow(m_sweep.slices[m_sweep.slices.size() / 2].values);
    for (std::size_t i = 0; i < m_sweep.slices.size(); ++i) {
        const double trial = m_sweep.centers[i];
        auto* box = new QGroupBox(tr("%1 px").arg(trial, 0, 'f', 2));
        auto* view = new ImageView(box);
        view->setObjectName(QStringLiteral("sweepTrial%1").arg(i));
        // Square thumbnails as tall as the strip allows: the whole slice, never clipped.
        view->setMinimumSize(110, 110);
        view->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
        view->setImage(m_sweep.slices[i].view(), false);
        view->setWindowLevel(common);
        view->setToolTip(
            tr("Click: use %1 px as the centre (preview; Apply to keep it)").arg(trial, 0, 'f', 2));
        connect(view, &SliceView::pointClicked, this, [this, trial] { setCenter(trial); });
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(2, 2, 2, 2);
        layout->addWidget(view);
        m_strip->addWidget(box);
    }
    m_curve->clear();
    m_best->clear();
    const CenterEstimate& e = m_sweep.curve;
    double lo = 1e300, hi = -1e300;
    for (std::size_t i = 0; i < e.trialCenters.size() && i < e.metric.size(); ++i) {
        m_curve->append(e.trialCenters[i], e.metric[i]);
        lo = std::min(lo, e.metric[i]);
        hi = std::max(hi, e.metric[i]);
    }
    // The curve holds the coarse points followed by the refinement: sort for a line plot.
    QList<QPointF> points = m_curve->points();
    std::sort(points.begin(), points.end(),
              [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    m_curve->replace(points);
    if (!points.isEmpty()) {
        auto axesX = m_chart->chart()->axes(Qt::Horizontal);
        auto axesY = m_chart->chart()->axes(Qt::Vertical);
        if (!axesX.isEmpty()) axesX.front()->setRange(points.front().x(), points.back().x());
        if (!axesY.isEmpty()) axesY.front()->setRange(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo));
    }
    if (std::isfinite(e.center)) {
        for (const QPointF& p : points)
            if (std::fabs(p.x() - e.center) < 1e-9) m_best->append(p);
        if (m_best->count() == 0 && !points.isEmpty()) {
            // The parabolic estimate lies between points: mark it at the curve's minimum level.
            m_best->append(e.center, lo);
        }
    }
    // The trials follow the chosen projector; core's sharpness sweep takes a back-projector
    // variant, so with Joseph's projector or gridrec the curve is the variant's: say so.
    const app::AnalyticMethod chosen = method().method;
    const auto projector = chosen.parameters.find("projector");
    const bool other = chosen.algorithm != "fbp" ||
                       (projector != chosen.parameters.end() && projector->second != "pixel");
    m_status->setText(tr("Sweep: sharpest at %1 px (confidence %2); curve by %3%4")
                          .arg(e.center, 0, 'f', 2)
                          .arg(e.confidence, 0, 'f', 2)
                          .arg(QString::fromStdString(m_sweep.curveBackProjector))
                          .arg(other ? tr(" (the pixel-driven back-projector; the trial slices "
                                          "use the chosen method)")
                                     : QString()));
}

void CenterPanel::apply() {
    auto data = m_session.dataset();
    if (!data) return;
    const double now = data->geometry.centerOfRotation();
    if (std::fabs(center() - now) < 0.005) {
        m_status->setText(
            tr("%1 px is the dataset's centre already: nothing to apply.").arg(now, 0, 'f', 2));
        return;
    }
    emit applyRequested(center());
}

void CenterPanel::showApplied(const Status& status) {
    if (!status) m_status->setText(QString::fromStdString(status.message()));
}

}  // namespace tomo::ui
