#include "ui/main/OpenDataDialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace tomo::ui {

namespace {
QSpinBox* sizeBox(QWidget* parent, int value) {
    auto* box = new QSpinBox(parent);
    box->setRange(1, 1 << 20);
    box->setValue(value);
    return box;
}

QDoubleSpinBox* angleBox(QWidget* parent, double value) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(-3600.0, 3600.0);
    box->setDecimals(3);
    box->setSuffix(QStringLiteral(" deg"));
    box->setValue(value);
    return box;
}
}  // namespace

OpenDataDialog::OpenDataDialog(const std::filesystem::path& file, bool needsShape, QWidget* parent)
    : QDialog(parent), m_file(file), m_needsShape(needsShape) {
    setWindowTitle(tr("Open %1").arg(QString::fromStdString(file.filename().string())));
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(tr("The file holds sinograms [slice][angle][detector] without "
                               "angles; state them:"),
                            this));
    if (needsShape) {
        m_slices = sizeBox(this, 1);
        m_angles = sizeBox(this, 180);
        m_detectors = sizeBox(this, 256);
        form->addRow(tr("Slices"), m_slices);
        form->addRow(tr("Angles"), m_angles);
        form->addRow(tr("Detectors"), m_detectors);
    }
    m_first = angleBox(this, 0.0);
    m_end = angleBox(this, 180.0);
    form->addRow(tr("First angle"), m_first);
    form->addRow(tr("End angle (exclusive)"), m_end);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

app::LoadRequest OpenDataDialog::request() const {
    app::LoadRequest request;
    request.path = m_file;
    if (m_needsShape)
        request.shape = std::array<std::size_t, 3>{static_cast<std::size_t>(m_slices->value()),
                                                   static_cast<std::size_t>(m_angles->value()),
                                                   static_cast<std::size_t>(m_detectors->value())};
    request.firstDegrees = m_first->value();
    request.endDegrees = m_end->value();
    return request;
}

std::optional<app::LoadRequest> OpenDataDialog::ask(QWidget* parent,
                                                    const std::filesystem::path& file,
                                                    bool needsShape) {
    OpenDataDialog dialog(file, needsShape, parent);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return dialog.request();
}

}  // namespace tomo::ui
