#include "ui/widgets/SamplingBox.h"

#include <initializer_list>

#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "ui/main/Session.h"

namespace tomo::ui {

SamplingBox::SamplingBox(Session& session, QWidget* parent)
    : QGroupBox(tr("Region and sampling"), parent), m_session(session) {
    setObjectName(QStringLiteral("samplingBox"));
    m_size = new QSpinBox(this);
    m_size->setObjectName(QStringLiteral("imageSize"));
    m_size->setRange(0, 16384);
    m_size->setSuffix(tr(" px"));
    m_size->setToolTip(tr("Image pixels per side"));
    m_pixel = new QDoubleSpinBox(this);
    m_pixel->setObjectName(QStringLiteral("pixelSize"));
    m_pixel->setRange(0, 1e6);
    m_pixel->setDecimals(4);
    m_pixel->setToolTip(
        tr("Image pixel size in the detector pitch's unit: smaller pixels zoom into the "
           "region (with the size, they set the field of the image)"));
    auto centre = [this](const QString& name, const QString& axis) {
        auto* box = new QDoubleSpinBox(this);
        box->setObjectName(name);
        box->setPrefix(axis);
        box->setRange(-1e6, 1e6);
        box->setDecimals(2);
        box->setToolTip(
            tr("Centre of the reconstructed region relative to the rotation axis, "
               "in detector pitch units (x right, y up)"));
        return box;
    };
    m_centerX = centre(QStringLiteral("regionCenterX"), tr("x "));
    m_centerY = centre(QStringLiteral("regionCenterY"), tr("y "));
    m_angleStep = new QSpinBox(this);
    m_angleStep->setObjectName(QStringLiteral("angleStep"));
    m_angleStep->setRange(1, 64);
    m_angleStep->setPrefix(tr("every "));
    m_angleStep->setToolTip(
        tr("Angles (this reconstruction): reconstruct from every N-th of the angles loaded "
           "(after Preprocessing > Angles (load), so the two multiply: every 2 there and every "
           "3 here is every 6th projection of the file). The data are not read again; fewer "
           "angles are faster, with streaks (angular undersampling)."));
    m_apply = new QPushButton(tr("Apply"), this);
    m_apply->setObjectName(QStringLiteral("applySampling"));
    m_reset = new QPushButton(tr("All data"), this);
    m_reset->setObjectName(QStringLiteral("resetSampling"));
    m_reset->setToolTip(tr("All projections on the grid the data came with"));
    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("samplingState"));
    m_state->setWordWrap(true);

    auto* centreRow = new QHBoxLayout;
    centreRow->addWidget(m_centerX);
    centreRow->addWidget(m_centerY);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_apply);
    buttons->addWidget(m_reset);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Image size"), m_size);
    form->addRow(tr("Pixel size"), m_pixel);
    form->addRow(tr("Region centre"), centreRow);
    form->addRow(tr("Angles (this reconstruction)"), m_angleStep);
    m_effective = new QLabel(this);
    m_effective->setObjectName(QStringLiteral("effectiveAngles"));
    m_effective->setWordWrap(true);
    form->addRow(m_effective);
    form->addRow(buttons);
    form->addRow(m_state);

    for (QWidget* field :
         std::initializer_list<QWidget*>{m_size, m_pixel, m_centerX, m_centerY, m_angleStep})
        field->installEventFilter(this);
    m_apply->setToolTip(tr("Reconstruct with these values (Return in a field does the same)"));
    connect(m_apply, &QPushButton::clicked, this, [this] { (void)apply(); });
    connect(m_reset, &QPushButton::clicked, this, [this] {
        setSampling({});
        (void)apply();
    });
    connect(&m_session, &Session::datasetChanged, this, &SamplingBox::syncFromSession);
    connect(&m_session, &Session::busyChanged, this, [this](bool busy) {
        m_apply->setEnabled(!busy);
        m_reset->setEnabled(!busy);
    });
    syncFromSession();
}

app::Sampling SamplingBox::sampling() const {
    app::Sampling s;
    s.grid.size = m_size->value();
    s.grid.pixelSize = m_pixel->value();
    s.grid.centerX = m_centerX->value();
    s.grid.centerY = m_centerY->value();
    s.angleStep = m_angleStep->value();
    return s;
}

void SamplingBox::setSampling(const app::Sampling& s) {
    m_size->setValue(s.grid.size);
    m_pixel->setValue(s.grid.pixelSize);
    m_centerX->setValue(s.grid.centerX);
    m_centerY->setValue(s.grid.centerY);
    m_angleStep->setValue(s.angleStep);
}

Status SamplingBox::apply() {
    Status status = m_session.setSampling(sampling());
    if (!status) {
        m_state->setText(tr("Not applied: %1").arg(QString::fromStdString(status.message())));
        return status;
    }
    emit applied();
    return status;
}

bool SamplingBox::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && m_apply->isEnabled()) {
            m_apply->click();
            return true;
        }
    }
    return QGroupBox::eventFilter(watched, event);
}

void SamplingBox::syncFromSession() {
    auto loaded = m_session.loadedDataset();
    auto data = m_session.dataset();
    setEnabled(data != nullptr);
    if (!data || !loaded) {
        m_state->setText(tr("No data."));
        m_effective->clear();
        return;
    }
    showEffectiveAngles(*loaded, *data);
    // 0 keeps the grid the data came with: say which.
    m_size->setSpecialValueText(tr("as loaded (%1)").arg(loaded->grid.nx));
    m_pixel->setSpecialValueText(tr("as loaded (%1)").arg(loaded->grid.voxelSize));
    setSampling(m_session.sampling());
    m_state->setText(
        data->sampling.empty()
            ? tr("All %1 angles on the grid of the data (%2 x %2 px).")
                  .arg(data->geometry.angleCount())
                  .arg(data->grid.nx)
            : tr("The reconstruction uses %1.").arg(QString::fromStdString(data->sampling)));
}

void SamplingBox::showEffectiveAngles(const app::Dataset& loaded, const app::Dataset& seen) {
    const int used = seen.geometry.angleCount();
    const int step = m_session.sampling().angleStep;
    QString text = tr("Reconstructs from %1 angles: every %2 of the %3 loaded")
                       .arg(used)
                       .arg(step)
                       .arg(loaded.geometry.angleCount());
    const auto& file = m_session.dataFile();
    const std::size_t loadStep = file ? file->preprocessing.angleStep : 1;
    if (loadStep > 1)
        text += tr(", which are every %1 of the file's (Preprocessing > Angles (load)): every "
                   "%2 of the file's projections")
                    .arg(loadStep)
                    .arg(loadStep * static_cast<std::size_t>(step));
    m_effective->setText(text + QLatin1Char('.'));
}

}  // namespace tomo::ui
