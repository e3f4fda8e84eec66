#include "ui/teaching/ConeTeachingPanel.h"

#include <algorithm>

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/teaching/LessonJob.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/FramePlayer.h"
#include "ui/widgets/WrappedLabel.h"

namespace tomo::ui {
namespace {

const char* const kTitles[] = {"Cosine pre-weight (view 0)", "Projection, as measured",
                               "Projection, weighted",       "Projection, ramp-filtered",
                               "Plane, back-projection",     "Plane, truth"};

QString degrees(double value) {
    return QString::number(value, 'f', 1) + QChar(0x00b0);
}

}  // namespace

ConeTeachingPanel::ConeTeachingPanel(const app::Engine& engine, QWidget* parent)
    : QWidget(parent), m_engine(engine), m_jobs(200) {
    createControls();
    auto* pictures = new QGridLayout;
    for (int i = 0; i < kPictures; ++i) {
        auto* box = new QWidget(this);
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(2, 2, 2, 2);
        auto* title = new QLabel(tr(kTitles[i]), box);
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        m_views[i] = new ImageView(box);
        // The pictures share what the tab has (their 320 px size hint would make the lesson
        // taller than the window: the scroll area asks the layout's height for its width).
        m_views[i]->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
        m_views[i]->setMinimumSize(200, 150);
        m_captions[i] = new WrappedLabel(QString(), box);
        layout->addWidget(title);
        layout->addWidget(m_views[i], 1);
        layout->addWidget(m_captions[i]);
        pictures->addWidget(box, i / 3, i % 3);
    }
    auto* controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("Data"), this), 0, 0);
    controls->addWidget(m_source, 0, 1);
    controls->addWidget(new QLabel(tr("Filter"), this), 0, 2);
    controls->addWidget(m_filter, 0, 3);
    controls->addWidget(new QLabel(tr("Plane (y index)"), this), 0, 4);
    controls->addWidget(m_plane, 0, 5);
    controls->addWidget(m_player, 1, 0, 1, 6);
    controls->addWidget(m_readout, 2, 0, 1, 6);
    controls->setColumnStretch(1, 1);
    controls->setColumnStretch(3, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(pictures, 1);
    layout->addWidget(m_status);
}

void ConeTeachingPanel::createControls() {
    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("coneTeachingData"));
    const app::ConeTeachingSpec defaults;
    m_source->addItem(tr("Built-in 3-D Shepp-Logan (%1 x %1 x %1 voxels, %2 views)")
                          .arg(defaults.size)
                          .arg(defaults.views));
    m_filter = new QComboBox(this);
    for (const char* f : {"ramp", "shepp-logan", "cosine", "hamming", "hann"})
        m_filter->addItem(QString::fromLatin1(f));
    m_plane = new QSpinBox(this);
    m_plane->setObjectName(QStringLiteral("coneTeachingPlane"));
    m_plane->setRange(-1, defaults.size - 1);
    m_plane->setSpecialValueText(tr("central"));
    m_plane->setValue(-1);
    m_plane->setToolTip(
        tr("The axial plane (constant y, perpendicular to the rotation axis) "
           "built up; 'central' is the plane of the source orbit"));
    m_player = new FramePlayer(120, this);
    m_player->slider()->setObjectName(QStringLiteral("coneTeachingFrame"));
    m_player->bindSpace(this);
    connect(m_player, &FramePlayer::frameChanged, this, &ConeTeachingPanel::showFrame);
    m_readout = new QLabel(this);
    m_status = new QLabel(this);
    // Neither the readout, the status nor the dataset's name may widen the lesson past the
    // window (1280 px windows): the readout has a row of its own, the status line is cut at
    // the window's edge (whole in its tooltip), the combo box elides. (Wrapped, they would
    // take height the layout's minimum does not count, from the pictures.)
    m_status->setMinimumWidth(1);
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_source->setMinimumContentsLength(24);
    m_status->setWordWrap(true);

    auto changed = [this] { compute(false); };
    connect(m_source, &QComboBox::currentIndexChanged, this, [this, changed] {
        updatePlaneRange();  // the planes of the data chosen, the central one first
        changed();
    });
    connect(m_filter, &QComboBox::currentIndexChanged, this, changed);
    connect(m_plane, &QSpinBox::valueChanged, this, changed);
}

void ConeTeachingPanel::setDataset(std::shared_ptr<const app::ConeDataset> data,
                                   const QString& name) {
    if (data == m_dataset) return;  // datasetChanged without new cone-beam data
    m_dataset = std::move(data);
    {
        QSignalBlocker block(m_source);
        while (m_source->count() > 1)
            m_source->removeItem(1);
        if (m_dataset) {
            m_source->addItem(tr("Open dataset: %1").arg(name));
            m_source->setCurrentIndex(1);
        }
    }
    updatePlaneRange();
    if (m_result || m_jobs.isBusy()) compute(false);
}

void ConeTeachingPanel::updatePlaneRange() {
    const int ny = usesDataset() ? m_dataset->grid.ny : app::ConeTeachingSpec{}.size;
    QSignalBlocker block(m_plane);
    m_plane->setRange(-1, ny - 1);
    m_plane->setValue(-1);
}

bool ConeTeachingPanel::usesDataset() const {
    return m_dataset && m_source->currentIndex() == 1;
}

app::ConeTeachingSpec ConeTeachingPanel::spec() const {
    app::ConeTeachingSpec s;
    s.filter = m_filter->currentText().toStdString();
    s.plane = m_plane->value();
    return s;
}

void ConeTeachingPanel::setFilter(const QString& name) {
    m_filter->setCurrentText(name);
}

void ConeTeachingPanel::setPlane(int j) {
    m_plane->setValue(j);
}

int ConeTeachingPanel::frameCount() const {
    return m_result ? static_cast<int>(m_result->planes.size()) : 0;
}

int ConeTeachingPanel::frame() const {
    return m_player->frame();
}

QSlider* ConeTeachingPanel::frameSlider() const {
    return m_player->slider();
}

bool ConeTeachingPanel::isPlaying() const {
    return m_player->isPlaying();
}

void ConeTeachingPanel::setPlaying(bool on) {
    m_player->setPlaying(on);
}

QStringList ConeTeachingPanel::captions() const {
    QStringList out;
    for (const QLabel* l : m_captions)
        out << l->text();
    return out;
}

QString ConeTeachingPanel::readout() const {
    return m_readout->text();
}

void ConeTeachingPanel::recompute() {
    compute(true);
}

void ConeTeachingPanel::compute(bool now) {
    const app::ConeTeachingSpec s = spec();
    std::shared_ptr<const app::ConeDataset> data = usesDataset() ? m_dataset : m_phantom;
    runLessonJob<app::ConeTeachingResult>(
        m_jobs, now, m_status,
        [engine = &m_engine, s, data](const ExecContext& ctx) -> Result<app::ConeTeachingResult> {
            std::shared_ptr<const app::ConeDataset> use = data;
            if (!use) {
                TOMO_ASSIGN_OR_RETURN(app::ConeDataset made,
                                      app::makeTeachingConeData(s.size, s.views, ctx));
                use = std::make_shared<const app::ConeDataset>(std::move(made));
            }
            return app::runConeTeachingJob(*engine, use, s, ctx);
        },
        [this](std::shared_ptr<const app::ConeTeachingResult> result) {
            onComputed(std::move(result));
        });
}

void ConeTeachingPanel::onComputed(std::shared_ptr<const app::ConeTeachingResult> result) {
    m_result = std::move(result);
    if (m_result->data != m_dataset) m_phantom = m_result->data;
    cosineView()->setImage(m_result->cosine.view());
    if (m_result->truth.empty())
        truthView()->clear(tr("No truth with this dataset"));
    else
        truthView()->setImage(m_result->truth.view());
    showFixedCaptions();
    m_player->setFrames(frameCount(), frameCount() - 1);
    QString status = QString::fromStdString(m_result->geometry) + QStringLiteral("; ") +
                     tr("back-projector %1").arg(QString::fromStdString(m_result->variant));
    for (const std::string& w : m_result->warnings)
        status += QStringLiteral("; ") + QString::fromStdString(w);
    m_status->setText(status);
    m_status->setToolTip(status);
    fitCaptions();
    emit computed();
}

void ConeTeachingPanel::fitCaptions() {
    for (WrappedLabel* caption : m_captions)
        caption->fitHeight();
}

void ConeTeachingPanel::showFixedCaptions() {
    const app::ConeTeachingResult& r = *m_result;
    m_captions[0]->setText(
        tr("cos = D / \u221a(D\u00b2 + u\u00b2 + v\u00b2) with D = sdd = %1 mm and (u, v) from "
           "the principal point: 1 in the middle, %2 at the corners, it shortens the oblique "
           "rays to their length in the central plane.")
            .arg(r.sdd, 0, 'g', 4)
            .arg(r.cosineMin, 0, 'f', 3));
    m_captions[5]->setText(r.truth.empty()
                               ? tr("The dataset has no ground truth to compare with.")
                               : tr("The phantom's plane y = %1 mm, which the back-projection "
                                    "approaches as the views add up.")
                                     .arg(r.planeY, 0, 'f', 1));
}

void ConeTeachingPanel::showFrame(int frame) {
    if (frameCount() == 0) return;
    if (frame != m_player->frame() || frame < 0 || frame >= frameCount()) {
        m_player->showFrame(frame);  // clamps, and comes back here through frameChanged
        return;
    }
    const auto k = static_cast<std::size_t>(frame);
    const app::ConeTeachingResult& r = *m_result;
    const int done = r.frameEndView[k], total = static_cast<int>(r.gantryDeg.size());
    const double angle = r.gantryDeg[static_cast<std::size_t>(done - 1)];
    rawView()->setImage(r.raw[k].view());
    weightedView()->setImage(r.weighted[k].view());
    filteredView()->setImage(r.filtered[k].view());
    planeView()->setImage(r.planes[k].view());
    m_captions[1]->setText(tr("View %1 of %2 (gantry %3): the line integrals the detector "
                              "recorded.")
                               .arg(done)
                               .arg(total)
                               .arg(degrees(angle)));
    m_captions[2]->setText(
        tr("The same view times FDK's weights: the cosine, the angular step "
           "and, on a short scan, Parker's redundancy weight."));
    m_captions[3]->setText(tr("After the %1 filter along every detector row: edges sharpen and "
                              "negative side lobes appear around the object.")
                               .arg(QString::fromStdString(r.filter)));
    m_captions[4]->setText(tr("Plane y = %1 mm (j = %2, detector rows %3-%4) after "
                              "back-projecting %5 of %6 filtered views.")
                               .arg(r.planeY, 0, 'f', 1)
                               .arg(r.plane)
                               .arg(r.firstRow)
                               .arg(r.firstRow + r.rows - 1)
                               .arg(done)
                               .arg(total));
    m_readout->setText(tr("Views 1-%1 of %2 back-projected (gantry %3-%4)")
                           .arg(done)
                           .arg(total)
                           .arg(degrees(r.gantryDeg.front()))
                           .arg(degrees(angle)));
    fitCaptions();  // new text: its height at the same width
}

}  // namespace tomo::ui
