#include "ui/main/ConeOpenDialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace tomo::ui {

namespace {

std::filesystem::path pathOf(const QLineEdit* edit) {
    return std::filesystem::path(edit->text().trimmed().toStdString());
}

QDoubleSpinBox* pitchBox(QWidget* parent, const QString& name, const QString& prefix) {
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(name);
    box->setRange(1e-4, 1e4);
    box->setDecimals(4);
    box->setValue(1.0);
    box->setPrefix(prefix);
    box->setSuffix(QStringLiteral(" mm"));
    return box;
}

/// "AxBxC" as a shape; nothing when it does not parse.
std::optional<std::array<std::size_t, 3>> parseShape(const QString& text) {
    const QStringList parts = text.split(QLatin1Char('x'));
    if (parts.size() != 3) return std::nullopt;
    std::array<std::size_t, 3> shape{};
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        shape[static_cast<std::size_t>(i)] = parts[i].trimmed().toULongLong(&ok);
        if (!ok || shape[static_cast<std::size_t>(i)] == 0) return std::nullopt;
    }
    return shape;
}

bool isRaw(const QString& path) {
    for (const char* ext : {".raw", ".bin", ".f32"})
        if (path.trimmed().endsWith(QLatin1String(ext), Qt::CaseInsensitive)) return true;
    return false;
}

}  // namespace

ConeOpenDialog::ConeOpenDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Open cone-beam dataset"));
    setObjectName(QStringLiteral("coneOpenDialog"));
    auto* form = new QFormLayout(this);
    auto* intro = new QLabel(tr("Projections [view][row][column] and their circular cone-beam "
                                "geometry (RTK's frame: the rotation axis is y)."),
                             this);
    intro->setWordWrap(true);
    form->addRow(intro);
    m_projections = pathRow(tr("Projections"), QStringLiteral("coneProjections"),
                            tr("Projection stacks (*.mha *.mhd *.nrrd *.nhdr *.tif *.tiff *.h5 "
                               "*.hdf5 *.raw);;All files (*)"),
                            tr("MetaImage / NRRD (their spacing and origin give the detector "
                               "pitch and position, as RTK writes them), TIFF, HDF5, raw"));
    form->addRow(tr("Projections"), m_projections->parentWidget());
    m_geometry = pathRow(tr("Geometry"), QStringLiteral("coneGeometry"),
                         tr("Cone-beam geometry (*.xml *.json);;All files (*)"),
                         tr("RTK's ThreeDCircularProjectionGeometry XML or a TomoStation JSON "
                            "geometry"));
    form->addRow(tr("Geometry"), m_geometry->parentWidget());
    m_rawShape = new QLineEdit(this);
    m_rawShape->setObjectName(QStringLiteral("coneRawShape"));
    m_rawShape->setPlaceholderText(tr("raw files only: VIEWSxROWSxCOLUMNS (float32)"));
    form->addRow(tr("Raw shape"), m_rawShape);
    m_pitchU = pitchBox(this, QStringLiteral("conePitchU"), tr("u "));
    m_pitchV = pitchBox(this, QStringLiteral("conePitchV"), tr("v "));
    m_pitchSource = new QLabel(this);
    m_pitchSource->setObjectName(QStringLiteral("conePitchSource"));
    m_pitchSource->setWordWrap(true);
    auto* pitchRow = new QHBoxLayout;
    pitchRow->addWidget(m_pitchU);
    pitchRow->addWidget(m_pitchV);
    pitchRow->addWidget(m_pitchSource, 1);
    form->addRow(tr("Detector pitch"), pitchRow);
    m_truth = pathRow(tr("Ground truth"), QStringLiteral("coneTruth"),
                      tr("Volumes (*.mha *.mhd *.nrrd *.tif *.tiff *.h5 *.raw);;All files (*)"),
                      tr("Optional: the true volume [z][y][x], for the difference view and "
                         "error metrics; it sets the volume grid (its shape, and its spacing "
                         "and origin where the file has them)"));
    form->addRow(tr("Ground truth (optional)"), m_truth->parentWidget());
    m_check = new QLabel(this);
    m_check->setObjectName(QStringLiteral("coneCheck"));
    m_check->setWordWrap(true);
    m_check->setMinimumWidth(460);
    form->addRow(m_check);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(m_buttons);
    for (QLineEdit* e : {m_projections, m_geometry, m_truth, m_rawShape})
        connect(e, &QLineEdit::editingFinished, this, &ConeOpenDialog::recheck);
    recheck();
}

QLineEdit* ConeOpenDialog::pathRow(const QString& label, const QString& name, const QString& filter,
                                   const QString& tip) {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* edit = new QLineEdit(row);
    edit->setObjectName(name);
    edit->setToolTip(tip);
    edit->setMinimumWidth(320);
    auto* browse = new QPushButton(tr("Browse..."), row);
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this, edit, label, filter] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("%1 file").arg(label), edit->text(), filter);
        if (file.isEmpty()) return;
        edit->setText(file);
        recheck();
    });
    return edit;
}

void ConeOpenDialog::setRequest(const app::ConeOpenRequest& r) {
    m_projections->setText(QString::fromStdString(r.projections.string()));
    m_geometry->setText(QString::fromStdString(r.geometry.string()));
    m_truth->setText(QString::fromStdString(r.truth.string()));
    if (r.read.shape)
        m_rawShape->setText(QStringLiteral("%1x%2x%3")
                                .arg((*r.read.shape)[0])
                                .arg((*r.read.shape)[1])
                                .arg((*r.read.shape)[2]));
    if (r.pitch) {
        m_pitchU->setValue((*r.pitch)[0]);
        m_pitchV->setValue((*r.pitch)[1]);
    }
    recheck();
}

app::ConeOpenRequest ConeOpenDialog::request() const {
    app::ConeOpenRequest r;
    r.projections = pathOf(m_projections);
    r.geometry = pathOf(m_geometry);
    r.truth = pathOf(m_truth);
    if (isRaw(m_projections->text())) r.read.shape = parseShape(m_rawShape->text());
    if (asksPitch()) r.pitch = std::array<double, 2>{m_pitchU->value(), m_pitchV->value()};
    return r;
}

bool ConeOpenDialog::asksPitch() const {
    return m_pitchU->isEnabled();
}

QString ConeOpenDialog::checkText() const {
    return m_check->text();
}

void ConeOpenDialog::recheck() {
    m_valid = false;
    const bool raw = isRaw(m_projections->text());
    m_rawShape->setEnabled(raw);
    auto fail = [this](const QString& message) {
        m_check->setText(message);
        m_check->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
    };
    std::error_code ec;
    if (m_projections->text().trimmed().isEmpty() || m_geometry->text().trimmed().isEmpty())
        return fail(tr("Name the projections and the geometry file."));
    if (raw && !parseShape(m_rawShape->text()))
        return fail(tr("Raw projections: state their shape as VIEWSxROWSxCOLUMNS."));
    const std::filesystem::path truth = pathOf(m_truth);
    if (!truth.empty() && !std::filesystem::is_regular_file(truth, ec))
        return fail(tr("%1: no such file").arg(QString::fromStdString(truth.string())));
    Result<app::ConeProbe> probe = app::probeCone(request());
    if (!probe) return fail(QString::fromStdString(probe.status().message()));
    const bool known = !probe->pitchSource.empty();
    if (known) {
        m_pitchU->setValue(probe->pitch[0]);
        m_pitchV->setValue(probe->pitch[1]);
    }
    m_pitchU->setEnabled(!known);
    m_pitchV->setEnabled(!known);
    m_pitchSource->setText(
        known ? tr("from the %1 file")
                    .arg(probe->pitchSource == "geometry" ? tr("geometry") : tr("projection"))
              : tr("not in the files: state it"));
    m_check->setText(QString::fromStdString(app::describe(*probe)));
    m_check->setStyleSheet(QString());
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(true);
    m_valid = true;
}

std::optional<app::ConeOpenRequest> ConeOpenDialog::ask(QWidget* parent,
                                                        const app::ConeOpenRequest& initial) {
    ConeOpenDialog dialog(parent);
    dialog.setRequest(initial);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return dialog.request();
}

}  // namespace tomo::ui
