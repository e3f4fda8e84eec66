#include "ui/panels/ConeGeometryPanel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tomo::ui {

ConeGeometryPanel::ConeGeometryPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("coneGeometryPanel"));
    auto* intro =
        new QLabel(tr("Every change previews the central plane (the source orbit's, y = 0) in the "
                      "Reconstruction view; Reconstruct uses these values for the whole volume."),
                   this);
    intro->setWordWrap(true);
    m_sid = addBox(QStringLiteral("coneSid"), 1e-3, 1e6, 1.0, tr(" mm"),
                   tr("Source to isocentre (rotation axis) distance"));
    m_sdd = addBox(QStringLiteral("coneSdd"), 1e-3, 1e6, 1.0, tr(" mm"),
                   tr("Source to detector distance"));
    m_offsetU = addBox(QStringLiteral("coneOffsetU"), -1e5, 1e5, 0.1, tr(" mm"),
                       tr("Detector shift along u (RTK's ProjectionOffsetX): moves the rotation "
                          "axis's image on the detector"));
    m_offsetV = addBox(QStringLiteral("coneOffsetV"), -1e5, 1e5, 0.1, tr(" mm"),
                       tr("Detector shift along v (RTK's ProjectionOffsetY)"));
    m_tilt = addBox(QStringLiteral("coneTilt"), -45, 45, 0.1, tr(" deg"),
                    tr("In-plane detector tilt (RTK's InPlaneAngle)"));
    m_reset = new QPushButton(tr("Reset to file"), this);
    m_reset->setObjectName(QStringLiteral("coneReset"));
    m_reset->setToolTip(tr("The geometry file's values"));
    connect(m_reset, &QPushButton::clicked, this, [this] { setTuning(m_base); });
    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("conePreviewLabel"));
    m_preview->setWordWrap(true);
    m_notes = new QLabel(this);
    m_notes->setObjectName(QStringLiteral("coneNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("Source to isocentre"), m_sid);
    form->addRow(tr("Source to detector"), m_sdd);
    form->addRow(tr("Detector offset u"), m_offsetU);
    form->addRow(tr("Detector offset v"), m_offsetV);
    form->addRow(tr("In-plane tilt"), m_tilt);
    form->addRow(QString(), m_reset);
    auto* left = new QVBoxLayout;
    left->addLayout(form);
    left->addStretch(1);
    auto* side = new QVBoxLayout;
    side->addWidget(m_preview);
    side->addWidget(m_notes);
    side->addStretch(1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(left);
    columns->addSpacing(12);
    columns->addLayout(side, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(columns, 1);
    setFileTuning({}, false);
}

QDoubleSpinBox* ConeGeometryPanel::addBox(const QString& name, double lo, double hi, double step,
                                          const QString& suffix, const QString& tip) {
    auto* box = new QDoubleSpinBox(this);
    box->setObjectName(name);
    box->setRange(lo, hi);
    box->setDecimals(3);
    box->setSingleStep(step);
    box->setSuffix(suffix);
    box->setToolTip(tip);
    box->setKeyboardTracking(false);  // one preview per value typed, not per keystroke
    box->setMinimumWidth(120);
    connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_silent) emit tuningChanged();
    });
    return box;
}

void ConeGeometryPanel::setFileTuning(const app::ConeTuning& base, bool enabled) {
    m_base = base;
    m_silent = true;
    m_sid->setValue(base.sid);
    m_sdd->setValue(base.sdd);
    m_offsetU->setValue(base.offsetU);
    m_offsetV->setValue(base.offsetV);
    m_tilt->setValue(base.inPlaneDeg);
    m_shown = shown();
    m_silent = false;
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_sid, m_sdd, m_offsetU, m_offsetV, m_tilt, m_reset})
        w->setEnabled(enabled);
    m_preview->setText(enabled ? QString() : tr("Open a cone-beam dataset (File menu)."));
    if (!enabled) m_notes->clear();
}

app::ConeTuning ConeGeometryPanel::shown() const {
    return {m_sid->value(), m_sdd->value(), m_offsetU->value(), m_offsetV->value(),
            m_tilt->value()};
}

app::ConeTuning ConeGeometryPanel::tuning() const {
    // A box still showing the file's value (rounded to its decimals) stands for the exact one.
    const app::ConeTuning s = shown();
    auto pick = [](double value, double rounded, double exact) {
        return value == rounded ? exact : value;
    };
    return {pick(s.sid, m_shown.sid, m_base.sid), pick(s.sdd, m_shown.sdd, m_base.sdd),
            pick(s.offsetU, m_shown.offsetU, m_base.offsetU),
            pick(s.offsetV, m_shown.offsetV, m_base.offsetV),
            pick(s.inPlaneDeg, m_shown.inPlaneDeg, m_base.inPlaneDeg)};
}

void ConeGeometryPanel::setTuning(const app::ConeTuning& t) {
    const app::ConeTuning before = tuning();
    m_silent = true;
    m_sid->setValue(t.sid);
    m_sdd->setValue(t.sdd);
    m_offsetU->setValue(t.offsetU);
    m_offsetV->setValue(t.offsetV);
    m_tilt->setValue(t.inPlaneDeg);
    m_silent = false;
    if (tuning() != before) emit tuningChanged();
}

void ConeGeometryPanel::setPreviewText(const QString& text) {
    m_preview->setText(text);
}

QString ConeGeometryPanel::previewText() const {
    return m_preview->text();
}

void ConeGeometryPanel::setNotes(const std::vector<std::string>& notes,
                                 const std::vector<std::string>& warnings) {
    QStringList lines;
    for (const std::string& w : warnings)
        lines << tr("<b>Warning:</b> %1").arg(QString::fromStdString(w).toHtmlEscaped());
    for (const std::string& n : notes)
        lines << QString::fromStdString(n).toHtmlEscaped();
    m_notes->setText(lines.join(QStringLiteral("<br>")));
}

QString ConeGeometryPanel::notesText() const {
    return m_notes->text();
}

}  // namespace tomo::ui
