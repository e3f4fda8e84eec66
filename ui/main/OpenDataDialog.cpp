#include "ui/main/OpenDataDialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "app/jobs/RawShape.h"

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
        m_slices->setObjectName(QStringLiteral("rawSlices"));
        m_angles->setObjectName(QStringLiteral("rawAngles"));
        m_detectors->setObjectName(QStringLiteral("rawDetectors"));
        m_sizeCheck = new QLabel(this);
        m_sizeCheck->setObjectName(QStringLiteral("rawSizeCheck"));
        m_sizeCheck->setWordWrap(true);
        form->addRow(tr("Angles"), m_angles);
        form->addRow(tr("Detectors"), m_detectors);
        form->addRow(tr("Slices"), m_slices);
        form->addRow(m_sizeCheck);
        suggestShape();
    }
    m_first = angleBox(this, 0.0);
    m_end = angleBox(this, 180.0);
    form->addRow(tr("First angle"), m_first);
    form->addRow(tr("End angle (exclusive)"), m_end);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_open = buttons->button(QDialogButtonBox::Open);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    if (needsShape) {
        // The slices follow from the file's size and the angles and detectors typed.
        for (QSpinBox* box : {m_angles, m_detectors})
            connect(box, &QSpinBox::valueChanged, this, [this] {
                if (m_floats)
                    if (auto z = app::remainingDimension(*m_floats, std::size_t(m_angles->value()),
                                                         std::size_t(m_detectors->value())))
                        m_slices->setValue(static_cast<int>(*z));
                checkSize();
            });
        connect(m_slices, &QSpinBox::valueChanged, this, &OpenDataDialog::checkSize);
        checkSize();
    }
}

void OpenDataDialog::suggestShape() {
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(m_file, ec);
    m_floats = ec ? std::nullopt : app::rawFloats(bytes);
    if (!m_floats) return;
    const QSignalBlocker a(m_angles), d(m_detectors), z(m_slices);
    // The usual 180 x 256 when the file holds whole slices of it, else square slices.
    if (auto slices = app::remainingDimension(*m_floats, 180, 256)) {
        m_slices->setValue(static_cast<int>(*slices));
    } else if (auto shape = app::squareStackShape(*m_floats)) {
        m_slices->setValue(static_cast<int>((*shape)[0]));
        m_angles->setValue(static_cast<int>((*shape)[1]));
        m_detectors->setValue(static_cast<int>((*shape)[2]));
    }
}

void OpenDataDialog::checkSize() {
    const std::uintmax_t asked = std::uintmax_t(m_slices->value()) *
                                 std::uintmax_t(m_angles->value()) *
                                 std::uintmax_t(m_detectors->value());
    const bool fits = !m_floats || asked == *m_floats;
    if (!m_floats)
        m_sizeCheck->setText(tr("The file's size is not a whole number of float32 values."));
    else if (fits)
        m_sizeCheck->setText(tr("%1 float32 values: the whole file.").arg(*m_floats));
    else
        m_sizeCheck->setText(tr("The file holds %1 float32 values; %2 x %3 x %4 needs %5.")
                                 .arg(*m_floats)
                                 .arg(m_slices->value())
                                 .arg(m_angles->value())
                                 .arg(m_detectors->value())
                                 .arg(asked));
    if (m_open) m_open->setEnabled(fits && m_floats);
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
