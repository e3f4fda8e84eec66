#include "ui/widgets/ConeVolumeBox.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace tomo::ui {

namespace {
QSpinBox* voxelsBox(QWidget* parent, const QString& name, const QString& prefix) {
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(1, 16384);
    box->setPrefix(prefix);
    box->setKeyboardTracking(false);
    return box;
}
}  // namespace

ConeVolumeBox::ConeVolumeBox(QWidget* parent) : QGroupBox(tr("Volume (cone beam)"), parent) {
    setObjectName(QStringLiteral("coneVolumeBox"));
    m_nx = voxelsBox(this, QStringLiteral("coneNx"), tr("x "));
    m_ny = voxelsBox(this, QStringLiteral("coneNy"), tr("y "));
    m_nz = voxelsBox(this, QStringLiteral("coneNz"), tr("z "));
    m_ny->setToolTip(tr("Voxels along the rotation axis: the number of axial planes"));
    m_spacing = new QDoubleSpinBox(this);
    m_spacing->setObjectName(QStringLiteral("coneVoxelSize"));
    m_spacing->setRange(1e-4, 1e4);
    m_spacing->setDecimals(4);
    m_spacing->setSuffix(tr(" mm"));
    m_spacing->setKeyboardTracking(false);
    m_reset = new QPushButton(tr("Default"), this);
    m_reset->setToolTip(
        tr("The geometry file's volume, else the detector's pixels at the isocentre"));
    m_info = new QLabel(tr("Centred on the isocentre; y is the rotation axis, the slices are "
                           "the axial planes (constant y)."),
                        this);
    m_info->setWordWrap(true);
    auto* sizes = new QHBoxLayout;
    for (QSpinBox* b : {m_nx, m_ny, m_nz})
        sizes->addWidget(b);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Voxels"), sizes);
    form->addRow(tr("Voxel size"), m_spacing);
    form->addRow(m_reset);
    form->addRow(m_info);
    for (QSpinBox* b : {m_nx, m_ny, m_nz})
        connect(b, &QSpinBox::valueChanged, this, [this] {
            if (!m_silent) emit gridChanged();
        });
    connect(m_spacing, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_silent) emit gridChanged();
    });
    connect(m_reset, &QPushButton::clicked, this, [this] {
        if (showsDefault()) return;
        showGrid(m_default);
        emit gridChanged();
    });
}

void ConeVolumeBox::showGrid(const ConeVolumeGrid& g) {
    m_silent = true;
    m_nx->setValue(g.nx);
    m_ny->setValue(g.ny);
    m_nz->setValue(g.nz);
    m_spacing->setValue(g.spacingX);
    m_silent = false;
}

void ConeVolumeBox::setDefaultGrid(const ConeVolumeGrid& grid) {
    m_default = grid;
    showGrid(grid);
    m_shownSpacing = m_spacing->value();
}

bool ConeVolumeBox::showsDefault() const {
    return m_nx->value() == m_default.nx && m_ny->value() == m_default.ny &&
           m_nz->value() == m_default.nz && m_spacing->value() == m_shownSpacing;
}

ConeVolumeGrid ConeVolumeBox::grid() const {
    if (showsDefault()) return m_default;
    return ConeVolumeGrid::centred(m_nx->value(), m_ny->value(), m_nz->value(), m_spacing->value());
}

void ConeVolumeBox::setGrid(int nx, int ny, int nz, double spacing) {
    showGrid(ConeVolumeGrid::centred(nx, ny, nz, spacing));
    emit gridChanged();
}

}  // namespace tomo::ui
