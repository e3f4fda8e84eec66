#include "ui/teaching/TeachingPanel.h"

#include <algorithm>
#include <array>
#include <span>

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "app/jobs/FourierSlice.h"
#include "ui/teaching/FourierSliceView.h"
#include "ui/teaching/LessonJob.h"
#include "ui/teaching/MarkedSinogramView.h"
#include "ui/teaching/TeachingPlots.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/FramePlayer.h"
#include "ui/widgets/WrappedLabel.h"

namespace tomo::ui {

namespace {

/// Incident photons per ray by noise level (0 = noiseless).
constexpr std::array<double, 6> kIncident{0, 1e6, 1e5, 3e4, 1e4, 3e3};

QWidget* titled(const QString& title, QWidget* view, WrappedLabel** label = nullptr) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* l = new WrappedLabel(title, box);  // "stopped at 23 of 100 (noise level)" wraps
    layout->addWidget(l);
    layout->addWidget(view, 1);
    if (label) *label = l;
    return box;
}

}  // namespace

TeachingPanel::TeachingPanel(const app::Engine& engine, QWidget* parent)
    : QWidget(parent), m_engine(engine), m_jobs(200) {
    m_angles = new QSlider(Qt::Horizontal, this);
    m_angles->setObjectName(QStringLiteral("teachingAngles"));
    m_angles->setRange(4, 360);
    m_angles->setValue(90);
    m_noise = new QSlider(Qt::Horizontal, this);
    m_noise->setObjectName(QStringLiteral("teachingNoise"));
    m_noise->setRange(0, static_cast<int>(kIncident.size()) - 1);
    m_filter = new QComboBox(this);
    for (const char* f : {"ramp", "shepp-logan", "cosine", "hamming", "hann"})
        m_filter->addItem(QString::fromLatin1(f));
    m_player = new FramePlayer(80, this);
    m_player->slider()->setObjectName(QStringLiteral("teachingFrame"));
    m_player->bindSpace(this);
    m_settings = new QLabel(this);
    m_status = new QLabel(this);
    createLessonControls();
    auto changed = [this] {
        FilterOptions options;
        if (auto window = parseFilterWindow(m_filter->currentText().toStdString()))
            options.window = *window;
        m_plots->showFilter(options, m_filter->currentText());
        m_settings->setText(
            tr("%1 angles, noise: %2, filter: %3")
                .arg(m_angles->value())
                .arg(
                    kIncident[static_cast<std::size_t>(m_noise->value())] > 0
                        ? tr("%1 photons/ray")
                              .arg(kIncident[static_cast<std::size_t>(m_noise->value())], 0, 'g', 2)
                        : tr("none"))
                .arg(m_filter->currentText()));
        if (m_computeOnChange) compute(false);
    };
    connect(m_angles, &QSlider::valueChanged, this, changed);
    connect(m_noise, &QSlider::valueChanged, this, changed);
    connect(m_filter, &QComboBox::currentIndexChanged, this, changed);
    connect(m_sirtIterations, &QSpinBox::valueChanged, this, changed);
    connect(m_cglsIterations, &QSpinBox::valueChanged, this, changed);
    connect(m_relaxation, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_tvLambda, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_stopAtNoise, &QCheckBox::toggled, this, changed);
    connect(m_player, &FramePlayer::frameChanged, this, &TeachingPanel::showFrame);

    auto* controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("Angles"), this), 0, 0);
    controls->addWidget(m_angles, 0, 1);
    controls->addWidget(new QLabel(tr("Noise"), this), 0, 2);
    controls->addWidget(m_noise, 0, 3);
    controls->addWidget(new QLabel(tr("Filter"), this), 0, 4);
    controls->addWidget(m_filter, 0, 5);
    controls->addWidget(m_player, 1, 0, 1, 4);
    controls->addWidget(m_settings, 1, 4, 1, 2);
    controls->addWidget(new QLabel(tr("SIRT iterations"), this), 2, 0);
    controls->addWidget(m_sirtIterations, 2, 1);
    controls->addWidget(new QLabel(tr("CGLS iterations"), this), 2, 2);
    controls->addWidget(m_cglsIterations, 2, 3);
    controls->addWidget(m_stopAtNoise, 2, 4, 1, 2);
    controls->addWidget(new QLabel(tr("SIRT relaxation"), this), 3, 0);
    controls->addWidget(m_relaxation, 3, 1);
    controls->addWidget(new QLabel(tr("TV lambda"), this), 3, 2);
    controls->addWidget(m_tvLambda, 3, 3);
    controls->addWidget(m_angleLabel, 3, 4, 1, 2);

    QGridLayout* grid = createViews();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(grid, 1);
    m_plotsRow = new QBoxLayout(QBoxLayout::LeftToRight);
    m_plotsRow->addWidget(m_plots, 1);
    m_plotsRow->addWidget(m_fourier, 1);
    // Below their natural widths the two stack (resizeEvent) instead of widening the lesson.
    for (QWidget* w : {static_cast<QWidget*>(m_plots), static_cast<QWidget*>(m_fourier)})
        w->setMinimumWidth(std::min(w->minimumSizeHint().width(), 320));
    layout->addLayout(m_plotsRow);
    layout->addWidget(m_status);
    changed();  // computed on first show or on request, not at construction
    m_computeOnChange = true;
}

void TeachingPanel::createLessonControls() {
    m_sirtIterations = new QSpinBox(this);
    m_sirtIterations->setRange(1, 500);
    m_sirtIterations->setValue(app::TeachingSpec{}.sirtIterations);
    m_sirtIterations->setToolTip(tr("SIRT iterations: few blur, many fit the noise"));
    m_cglsIterations = new QSpinBox(this);
    m_cglsIterations->setRange(1, 200);
    m_cglsIterations->setValue(app::TeachingSpec{}.cglsIterations);
    m_cglsIterations->setToolTip(tr("CGLS iterations: it converges fast, and fits noise early"));
    m_relaxation = new QDoubleSpinBox(this);
    m_relaxation->setRange(0.05, 1.95);
    m_relaxation->setSingleStep(0.1);
    m_relaxation->setValue(app::TeachingSpec{}.sirtRelaxation);
    m_relaxation->setToolTip(tr("SIRT's step lambda in (0, 2): small steps converge slowly"));
    m_tvLambda = new QDoubleSpinBox(this);
    m_tvLambda->setRange(0, 100);
    m_tvLambda->setValue(app::TeachingSpec{}.tvLambda);
    m_tvLambda->setToolTip(
        tr("Weight of TV's prior (piecewise-constant images): larger removes "
           "more noise and more fine detail"));
    m_stopAtNoise = new QCheckBox(tr("Stop at the noise level"), this);
    m_stopAtNoise->setChecked(app::TeachingSpec{}.stopAtNoise);
    m_stopAtNoise->setToolTip(
        tr("Discrepancy principle: SIRT and CGLS stop once the residual is as small "
           "as the noise (known here: the data are simulated). Iterating further fits "
           "the noise."));
    m_angleLabel = new QLabel(this);
    m_angleLabel->setObjectName(QStringLiteral("angleReadout"));
    m_plots = new TeachingPlots(this);
    m_fourier = new FourierSliceView(this);
}

void TeachingPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const QMargins m = layout()->contentsMargins();
    const int sideBySide = m_plots->minimumSizeHint().width() +
                           m_fourier->minimumSizeHint().width() + m_plotsRow->spacing() + m.left() +
                           m.right();
    m_plotsRow->setDirection(width() >= sideBySide ? QBoxLayout::LeftToRight
                                                   : QBoxLayout::TopToBottom);
}

QGridLayout* TeachingPanel::createViews() {
    m_sinogram = new MarkedSinogramView(this);
    m_unfiltered = new ImageView(this);
    m_filtered = new ImageView(this);
    m_fbp = new ImageView(this);
    m_sirt = new ImageView(this);
    m_cgls = new ImageView(this);
    m_tv = new ImageView(this);
    m_art = new ImageView(this);
    auto* grid = new QGridLayout;
    grid->addWidget(titled(tr("Sinogram (red: current angle)"), m_sinogram), 0, 0);
    grid->addWidget(titled(tr("Back-projection, unfiltered"), m_unfiltered), 0, 1);
    grid->addWidget(titled(tr("Back-projection, filtered"), m_filtered), 0, 2);
    grid->addWidget(titled(tr("FBP"), m_fbp, &m_fbpLabel), 1, 0);
    grid->addWidget(titled(tr("SIRT"), m_sirt, &m_sirtLabel), 1, 1);
    grid->addWidget(titled(tr("CGLS"), m_cgls, &m_cglsLabel), 1, 2);
    grid->addWidget(titled(tr("ART, one projection at a time"), m_art, &m_artLabel), 0, 3);
    grid->addWidget(titled(tr("TV"), m_tv, &m_tvLabel), 1, 3);

    return grid;
}

app::TeachingSpec TeachingPanel::spec() const {
    app::TeachingSpec s;
    s.angles = m_angles->value();
    s.incidentCount = kIncident[static_cast<std::size_t>(m_noise->value())];
    s.filter = m_filter->currentText().toStdString();
    s.sirtIterations = m_sirtIterations->value();
    s.cglsIterations = m_cglsIterations->value();
    s.sirtRelaxation = m_relaxation->value();
    s.tvLambda = m_tvLambda->value();
    s.stopAtNoise = m_stopAtNoise->isChecked();
    return s;
}

void TeachingPanel::setIterations(int sirt, int cgls) {
    m_sirtIterations->setValue(sirt);
    m_cglsIterations->setValue(cgls);
}

void TeachingPanel::setStopAtNoise(bool on) {
    m_stopAtNoise->setChecked(on);
}

QStringList TeachingPanel::resultCaptions() const {
    return {m_fbpLabel->text(), m_sirtLabel->text(), m_cglsLabel->text(), m_tvLabel->text()};
}

QString TeachingPanel::angleReadout() const {
    return m_angleLabel->text();
}

void TeachingPanel::setAngles(int angles) {
    m_angles->setValue(angles);
}
void TeachingPanel::setNoiseLevel(int level) {
    m_noise->setValue(level);
}
int TeachingPanel::frameCount() const {
    return m_result ? static_cast<int>(m_result->filtered.size()) : 0;
}
int TeachingPanel::frame() const {
    return m_player->frame();
}
bool TeachingPanel::isPlaying() const {
    return m_player->isPlaying();
}

void TeachingPanel::setPlaying(bool on) {
    m_player->setPlaying(on);
}

void TeachingPanel::recompute() {
    compute(true);
}

void TeachingPanel::compute(bool now) {
    const app::TeachingSpec s = spec();
    runLessonJob<app::TeachingResult>(
        m_jobs, now, m_status,
        [engine = &m_engine, s](const ExecContext& ctx) {
            return app::runTeachingJob(*engine, s, ctx);
        },
        [this](std::shared_ptr<const app::TeachingResult> result) {
            onComputed(std::move(result));
        });
}

void TeachingPanel::onComputed(std::shared_ptr<const app::TeachingResult> result) {
    m_result = std::move(result);
    m_sinogram->setSinogram(m_result->sinogram);
    m_fourier->setSpectrum(m_result->spectrum);
    m_fbp->setImage(m_result->fbp.view());
    m_fbpLabel->setText(tr("FBP: RMSE %1").arg(m_result->fbpRmse, 0, 'g', 3));
    if (!m_result->sirt.empty()) {
        const app::TeachingSpec asked = spec();
        auto stopped = [](int ran, int most) {
            return ran < most ? tr(", stopped at %1 of %2 (noise level)").arg(ran).arg(most)
                              : tr(", %1 iterations").arg(ran);
        };
        m_sirt->setImage(m_result->sirt.view());
        m_sirtLabel->setText(tr("SIRT: RMSE %1").arg(m_result->sirtRmse, 0, 'g', 3) +
                             stopped(m_result->sirtIterations, asked.sirtIterations));
        m_cgls->setImage(m_result->cgls.view());
        m_cglsLabel->setText(tr("CGLS: RMSE %1").arg(m_result->cglsRmse, 0, 'g', 3) +
                             stopped(m_result->cglsIterations, asked.cglsIterations));
        m_tv->setImage(m_result->tv.view());
        m_tvLabel->setText(tr("TV (lambda %1): RMSE %2")
                               .arg(asked.tvLambda, 0, 'g', 3)
                               .arg(m_result->tvRmse, 0, 'g', 3));
    }
    m_player->setFrames(frameCount(), frameCount() - 1);
    m_status->setText(tr("%1 frames; press Play to watch the image being built angle by angle.")
                          .arg(frameCount()));
    fitLabels();
    emit computed();
}

void TeachingPanel::fitLabels() {
    for (WrappedLabel* label : {m_tvLabel, m_artLabel, m_fbpLabel, m_sirtLabel, m_cglsLabel})
        label->fitHeight();
}

void TeachingPanel::showFrame(int frame) {
    if (frameCount() == 0) return;
    if (frame != m_player->frame() || frame < 0 || frame >= frameCount()) {
        m_player->showFrame(frame);  // clamps, and comes back here through frameChanged
        return;
    }
    const auto k = static_cast<std::size_t>(frame);
    m_unfiltered->setImage(m_result->unfiltered[k].view());
    m_filtered->setImage(m_result->filtered[k].view());
    if (k < m_result->art.size()) {
        m_art->setImage(m_result->art[k].view());
        m_artLabel->setText(
            tr("ART after %1 single-projection updates").arg(m_result->frameEndAngle[k]));
    }
    m_sinogram->setMarker(m_result->frameEndAngle[k]);
    // Angles are spread uniformly over [0, 180) degrees (TeachingSpec).
    const int total = static_cast<int>(m_result->sinogram.rows);
    const int done = m_result->frameEndAngle[k];
    const double step = 180.0 / std::max(1, total);
    m_angleLabel->setText(tr("Angles 0-%1\u00b0 back-projected: %2 of %3 projections")
                              .arg((done - 1) * step, 0, 'f', 1)
                              .arg(done)
                              .arg(total));
    m_plots->showProjection(m_result->sinogram, done - 1, (done - 1) * step);
    showFourierSlice(done - 1);
    m_artLabel->fitHeight();
}

void TeachingPanel::showFourierSlice(int angle) {
    const app::SliceImage& sino = m_result->sinogram;
    const auto row = static_cast<std::size_t>(angle);
    const std::span<const float> projection(sino.values.data() + row * sino.cols, sino.cols);
    Result<app::FourierSlice> slice = app::fourierSlice(m_result->truth.view(), projection,
                                                        m_result->center, m_result->angles[row]);
    if (slice) m_fourier->showSlice(*slice);
}

}  // namespace tomo::ui
