#pragma once
/// @file ParameterForm.h
/// @brief The one generic form builder of STYLE.md #19: given an AlgorithmSpec's parameter
/// schema (core/iterative/AlgorithmSchema.h) it makes one editor per parameter and reads and
/// writes the values as text keyed by parameter name, the form sessions and presets store.
///
/// Editors by ParameterType: Integer -> QSpinBox, Real -> QDoubleSpinBox (logScale parameters
/// get a QLineEdit with a double validator, since their range spans decades), Boolean ->
/// QCheckBox, Choice -> QComboBox. Ranges come from [minimum, maximum]; units are shown as a
/// suffix; the description is the tooltip. Every editor's objectName is the parameter name, so
/// tests and screenshots find it.
///
/// Values are written as text the schema parses back exactly: integers in decimal, reals with
/// 17 significant digits (%.17g trimmed by QString::number(v, 'g', 17)), booleans as
/// "true"/"false", choices as their names.
///
/// Threading: GUI thread only.

#include <map>
#include <string>
#include <vector>

#include <QWidget>

#include "core/iterative/AlgorithmSchema.h"

class QFormLayout;

namespace tomo::ui {

class ParameterForm : public QWidget {
    Q_OBJECT

  public:
    explicit ParameterForm(QWidget* parent = nullptr);

    /// Rebuilds the form for @p spec with its defaults.
    void setSpec(const AlgorithmSpec& spec);
    const AlgorithmSpec& spec() const { return m_spec; }

    /// The current values, one per parameter.
    std::map<std::string, std::string> values() const;
    /// Sets the editors named in @p values (others keep their value). Returns the names that
    /// are unknown or whose value does not fit the editor (out of range, unknown choice).
    std::vector<std::string> setValues(const std::map<std::string, std::string>& values);
    /// Back to the schema's defaults.
    void resetToDefaults();

  signals:
    void valuesChanged();

  private:
    QWidget* makeEditor(const ParameterSpec& p);
    bool setValue(const ParameterSpec& p, QWidget* editor, const std::string& value);

    AlgorithmSpec m_spec;
    QFormLayout* m_layout = nullptr;
    std::vector<QWidget*> m_editors;  ///< parallel to m_spec.parameters
};

}  // namespace tomo::ui
