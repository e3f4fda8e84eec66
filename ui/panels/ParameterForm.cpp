#include "ui/panels/ParameterForm.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>

namespace tomo::ui {

namespace {

QString unitSuffix(const ParameterSpec& p) {
    return p.units.empty() ? QString() : QStringLiteral(" ") + QString::fromStdString(p.units);
}

std::string realText(double v) {
    return QString::number(v, 'g', 17).toStdString();
}

/// Shows a value as the user would type it (1.9, 0) instead of six decimals of zeros
/// (1.900000, 0.000000); it still steps and rounds at decimals().
class CompactDoubleSpinBox : public QDoubleSpinBox {
  public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override {
        QString text = locale().toString(value, 'f', QLocale::FloatingPointShortest);
        if (!isGroupSeparatorShown()) text.remove(locale().groupSeparator());
        return text;
    }
};

}  // namespace

ParameterForm::ParameterForm(QWidget* parent) : QWidget(parent) {
    m_layout = new QFormLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
}

void ParameterForm::setSpec(const AlgorithmSpec& spec, const FormHints& hints) {
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_editors.clear();
    m_rows.clear();
    m_advancedToggle = nullptr;
    m_advanced = nullptr;
    m_spec = spec;
    m_hints = hints;
    QFormLayout* advancedLayout = nullptr;
    for (const ParameterSpec& p : m_spec.parameters)
        if (!advancedLayout && m_hints.advanced.count(p.name)) {
            m_advanced = new QWidget(this);
            m_advanced->setObjectName(QStringLiteral("advancedParameters"));
            advancedLayout = new QFormLayout(m_advanced);
            advancedLayout->setContentsMargins(12, 0, 0, 0);
        }
    for (const ParameterSpec& p : m_spec.parameters) {
        QWidget* editor = makeEditor(p);
        editor->setObjectName(QString::fromStdString(p.name));
        editor->setToolTip(QString::fromStdString(p.description));
        QWidget* row = m_hints.sliders.count(p.name) ? withSlider(p, editor) : editor;
        QFormLayout* target =
            advancedLayout && m_hints.advanced.count(p.name) ? advancedLayout : m_layout;
        target->addRow(QString::fromStdString(p.label.empty() ? p.name : p.label), row);
        // Choices are words ("locality", "segments") that mean nothing without their
        // explanation: it is shown under the box, not only as a tooltip.
        if (p.type == ParameterType::Choice && !p.description.empty()) {
            auto* help = new QLabel(QString::fromStdString(p.description), target->parentWidget());
            help->setWordWrap(true);
            help->setObjectName(QString::fromStdString(p.name) + QStringLiteral("Help"));
            help->setStyleSheet(QStringLiteral("color: palette(mid); font-size: small;"));
            target->addRow(help);
        }
        m_editors.push_back(editor);
        m_rows.push_back(row);
    }
    if (m_advanced) {
        m_advancedToggle = new QToolButton(this);
        m_advancedToggle->setObjectName(QStringLiteral("advancedToggle"));
        m_advancedToggle->setText(tr("Advanced"));
        m_advancedToggle->setCheckable(true);
        m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        m_advancedToggle->setAutoRaise(true);
        connect(m_advancedToggle, &QToolButton::toggled, this, &ParameterForm::setAdvancedShown);
        m_layout->addRow(m_advancedToggle);
        m_layout->addRow(m_advanced);
        setAdvancedShown(false);
    }
    resetToDefaults();
}

void ParameterForm::setAdvancedShown(bool shown) {
    if (!m_advanced) return;
    {
        const QSignalBlocker block(m_advancedToggle);
        m_advancedToggle->setChecked(shown);
    }
    m_advancedToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    m_advanced->setVisible(shown);
}

void ParameterForm::setEditable(bool editable) {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_rows[i]->setEnabled(editable || m_hints.live.count(m_spec.parameters[i].name) > 0);
}

QWidget* ParameterForm::withSlider(const ParameterSpec& p, QWidget* editor) {
    auto* box = qobject_cast<QDoubleSpinBox*>(editor);
    if (!box) return editor;
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* slider = new QSlider(Qt::Horizontal, row);
    slider->setObjectName(QString::fromStdString(p.name) + QStringLiteral("Slider"));
    slider->setToolTip(QString::fromStdString(p.description));
    const double step = p.maximum - p.minimum <= 40 ? 0.1 : 1.0;
    const double lo = p.minimum;
    slider->setRange(0, static_cast<int>(std::lround((p.maximum - p.minimum) / step)));
    box->setDecimals(step < 1 ? 2 : 1);
    box->setSingleStep(step);
    connect(slider, &QSlider::valueChanged, box,
            [box, lo, step](int v) { box->setValue(lo + step * v); });
    connect(box, &QDoubleSpinBox::valueChanged, slider, [slider, lo, step](double v) {
        const QSignalBlocker block(slider);
        slider->setValue(static_cast<int>(std::lround((v - lo) / step)));
    });
    {
        // Where the box is now: a default equal to its value sends no valueChanged.
        const QSignalBlocker block(slider);
        slider->setValue(static_cast<int>(std::lround((box->value() - lo) / step)));
    }
    layout->addWidget(slider, 1);
    layout->addWidget(box);
    return row;
}

QWidget* ParameterForm::makeEditor(const ParameterSpec& p) {
    const QString name = QString::fromStdString(p.name);
    auto changed = [this, name] {
        emit valuesChanged();
        if (!m_programmatic) emit valueEdited(name);
    };
    switch (p.type) {
        case ParameterType::Integer: {
            auto* box = new QSpinBox(this);
            auto clampInt = [](double v) { return static_cast<int>(std::clamp(v, -2.0e9, 2.0e9)); };
            box->setRange(clampInt(p.minimum), clampInt(p.maximum));
            box->setSuffix(unitSuffix(p));
            connect(box, &QSpinBox::valueChanged, this, changed);
            return box;
        }
        case ParameterType::Real: {
            if (p.logScale) {
                auto* edit = new QLineEdit(this);
                auto* validator = new QDoubleValidator(p.minimum, p.maximum, 17, edit);
                validator->setNotation(QDoubleValidator::ScientificNotation);
                edit->setValidator(validator);
                connect(edit, &QLineEdit::textChanged, this, changed);
                return edit;
            }
            auto* box = new CompactDoubleSpinBox(this);
            box->setDecimals(6);
            box->setRange(p.minimum, p.maximum);
            double span = p.maximum - p.minimum;
            box->setSingleStep(span > 0 && std::isfinite(span)
                                   ? std::pow(10.0, std::floor(std::log10(span)) - 1)
                                   : 0.1);
            box->setSuffix(unitSuffix(p));
            connect(box, &QDoubleSpinBox::valueChanged, this, changed);
            return box;
        }
        case ParameterType::Boolean: {
            auto* check = new QCheckBox(this);
            connect(check, &QCheckBox::toggled, this, changed);
            return check;
        }
        case ParameterType::Choice: {
            auto* combo = new QComboBox(this);
            for (const std::string& c : p.choices)
                combo->addItem(QString::fromStdString(c));
            connect(combo, &QComboBox::currentIndexChanged, this, changed);
            return combo;
        }
    }
    return new QWidget(this);
}

bool ParameterForm::setValue(const ParameterSpec& p, QWidget* editor, const std::string& value) {
    bool ok = false;
    QString text = QString::fromStdString(value);
    switch (p.type) {
        case ParameterType::Integer: {
            auto* box = static_cast<QSpinBox*>(editor);
            int v = text.toInt(&ok);
            if (!ok || v < box->minimum() || v > box->maximum()) return false;
            box->setValue(v);
            return true;
        }
        case ParameterType::Real: {
            double v = text.toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < p.minimum || v > p.maximum) return false;
            if (auto* edit = qobject_cast<QLineEdit*>(editor))
                edit->setText(QString::fromStdString(realText(v)));
            else
                static_cast<QDoubleSpinBox*>(editor)->setValue(v);
            return true;
        }
        case ParameterType::Boolean:
            if (value != "true" && value != "false") return false;
            static_cast<QCheckBox*>(editor)->setChecked(value == "true");
            return true;
        case ParameterType::Choice: {
            auto* combo = static_cast<QComboBox*>(editor);
            int index = combo->findText(text);
            if (index < 0) return false;
            combo->setCurrentIndex(index);
            return true;
        }
    }
    return false;
}

std::map<std::string, std::string> ParameterForm::values() const {
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < m_editors.size(); ++i) {
        const ParameterSpec& p = m_spec.parameters[i];
        QWidget* e = m_editors[i];
        switch (p.type) {
            case ParameterType::Integer:
                out[p.name] = std::to_string(static_cast<QSpinBox*>(e)->value());
                break;
            case ParameterType::Real:
                if (auto* edit = qobject_cast<QLineEdit*>(e))
                    out[p.name] = realText(edit->text().toDouble());
                else
                    out[p.name] = realText(static_cast<QDoubleSpinBox*>(e)->value());
                break;
            case ParameterType::Boolean:
                out[p.name] = static_cast<QCheckBox*>(e)->isChecked() ? "true" : "false";
                break;
            case ParameterType::Choice:
                out[p.name] = static_cast<QComboBox*>(e)->currentText().toStdString();
                break;
        }
    }
    return out;
}

std::vector<std::string> ParameterForm::setValues(
    const std::map<std::string, std::string>& values) {
    const QScopedValueRollback<bool> programmatic(m_programmatic, true);
    std::vector<std::string> rejected;
    for (const auto& [name, value] : values) {
        bool found = false;
        for (std::size_t i = 0; i < m_editors.size(); ++i)
            if (m_spec.parameters[i].name == name) {
                found = true;
                if (!setValue(m_spec.parameters[i], m_editors[i], value)) rejected.push_back(name);
            }
        if (!found) rejected.push_back(name);
    }
    return rejected;
}

void ParameterForm::resetToDefaults() {
    const QScopedValueRollback<bool> programmatic(m_programmatic, true);
    for (std::size_t i = 0; i < m_editors.size(); ++i)
        setValue(m_spec.parameters[i], m_editors[i], m_spec.parameters[i].defaultValue);
}

}  // namespace tomo::ui
