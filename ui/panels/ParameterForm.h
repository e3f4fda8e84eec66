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
/// Layout hints (FormHints, chosen by the panel per algorithm, not part of the schema):
/// parameters named `advanced` go below an "Advanced" expander (collapsed at first), those named
/// in `sliders` (Real, not logScale) get a slider beside their spin box (objectName
/// NAME + "Slider", 0.1 or 1 per step), and those named in `live` stay editable while the form
/// is otherwise locked (setEditable(false): a running job that those parameters can restart).
///
/// Threading: GUI thread only.

#include <map>
#include <set>
#include <string>
#include <vector>

#include <QWidget>

#include "core/iterative/AlgorithmSchema.h"

class QFormLayout;
class QToolButton;

namespace tomo::ui {

/// How a form lays an algorithm's parameters out (see the file comment).
struct FormHints {
    std::set<std::string> advanced;  ///< below the "Advanced" expander
    std::set<std::string> sliders;   ///< a slider beside the spin box
    std::set<std::string> live;      ///< editable while the form is locked
};

class ParameterForm : public QWidget {
    Q_OBJECT

  public:
    explicit ParameterForm(QWidget* parent = nullptr);

    /// Rebuilds the form for @p spec with its defaults, laid out by @p hints.
    void setSpec(const AlgorithmSpec& spec, const FormHints& hints = {});
    const AlgorithmSpec& spec() const { return m_spec; }
    const FormHints& hints() const { return m_hints; }
    /// The "Advanced" expander (null when the form has no advanced parameters).
    QToolButton* advancedToggle() const { return m_advancedToggle; }
    /// Shows or hides the advanced parameters.
    void setAdvancedShown(bool shown);
    /// Locks every editor but the hints' `live` ones (false), or unlocks all (true).
    void setEditable(bool editable);

    /// The current values, one per parameter.
    std::map<std::string, std::string> values() const;
    /// Sets the editors named in @p values (others keep their value). Returns the names that
    /// are unknown or whose value does not fit the editor (out of range, unknown choice).
    std::vector<std::string> setValues(const std::map<std::string, std::string>& values);
    /// Back to the schema's defaults.
    void resetToDefaults();

  signals:
    void valuesChanged();
    /// The user changed parameter @p name (not setValues, resetToDefaults or setSpec).
    void valueEdited(const QString& name);

  private:
    QWidget* makeEditor(const ParameterSpec& p);
    /// @p editor with a slider beside it (a Real spin box), as one row widget.
    QWidget* withSlider(const ParameterSpec& p, QWidget* editor);
    bool setValue(const ParameterSpec& p, QWidget* editor, const std::string& value);

    AlgorithmSpec m_spec;
    FormHints m_hints;
    QFormLayout* m_layout = nullptr;
    QToolButton* m_advancedToggle = nullptr;
    QWidget* m_advanced = nullptr;
    std::vector<QWidget*> m_editors;  ///< parallel to m_spec.parameters
    std::vector<QWidget*> m_rows;     ///< the editor or its row widget (with a slider)
    bool m_programmatic = false;      ///< inside setValues/resetToDefaults: no valueEdited
};

}  // namespace tomo::ui
