#pragma once
/// @file ReconParamsPanel.h
/// @brief The FBP parameter form: filter window, cutoff, projector, interpolation and
/// back-projector variant (Reconstruct is the window's run bar, always in view).
///
/// The projector is FBP's `projector` parameter (AlgorithmSchema.h; `--param projector=joseph`
/// in tomo recon, `fbp(..., projector="joseph")` in Python): "pixel" (pixel-driven, the
/// variants below) or "joseph" (the exact transpose of Joseph's forward projector, cpu.joseph,
/// as ASTRA's CPU FBP computes it). With "joseph" the interpolation and variant boxes are
/// disabled: that back-projector is one fixed model on the CPU.
///
/// The variant list starts with "Automatic (<id>)", the engine's tuned or modelled choice
/// (app::defaultVariant; its tooltip says which), preselected; then the registry's variants
/// of the chosen interpolation (the interpolation box filters the list), each shown as
/// what it is in words and its id (VariantLabel.h: unique per entry), with its description in
/// the tooltip. Filter names are those of parseFilterWindow
/// ("ramp", "shepp-logan", "cosine", "hamming", "hann"); the cutoff is a fraction of Nyquist in
/// (0, 1] (see core/filter/RampFilter.h).
///
/// Threading: GUI thread only.

#include <map>
#include <string>

#include <QWidget>

#include "app/Selection.h"
#include "core/projectors/BackProjector.h"
#include "core/recon/Fbp.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;

namespace tomo::ui {

class ReconParamsPanel : public QWidget {
    Q_OBJECT

  public:
    /// @p registry must outlive the panel (it is the Session's).
    explicit ReconParamsPanel(const BackProjectorRegistry& registry, QWidget* parent = nullptr);

    /// The options as entered (always valid: the widgets only offer valid values).
    FbpOptions options() const;
    /// The selected variant id: "" for "Automatic" (the engine's choice for the job's shape,
    /// app::defaultVariant), when the registry has none for the interpolation, and with the
    /// Joseph projector (which has no variants).
    std::string variantId() const;
    /// FBP's projector parameter: "pixel" or "joseph".
    std::string projector() const;
    /// Selects the projector by name; false when the name is unknown.
    bool setProjector(const std::string& name);
    /// What the variant box shows ("Automatic (cpu.simd.lin)", "OpenCL Alu, 4 slice(s),
    /// half, approximate").
    QString variantText() const;

    /// Selects a filter by name ("hann"); false when the name is unknown.
    bool setFilter(const QString& name);
    void setCutoff(double cutoff);
    /// The selected filter name ("ramp", "hann", ...).
    QString filterName() const;
    /// Selects a variant by id, switching the interpolation to the variant's and the projector
    /// to "pixel"; kJosephTransposeId ("cpu.joseph") selects the Joseph projector. False when
    /// the registry has no such variant.
    bool setVariant(const std::string& id);
    /// Enables the form.
    void setReady(bool ready);
    /// Only the filter and cutoff shown (cone-beam data: FDK's back-projector is chosen for
    /// the geometry, not from this registry).
    void setFilterOnly(bool on);

  signals:
    /// The filter, cutoff, projector, interpolation or variant changed (the live preview
    /// follows).
    void optionsChanged();

  private:
    void refillVariants();
    /// Enables the interpolation and variant boxes unless the Joseph projector is chosen.
    void updateEnabled();
    /// Why the automatic choice is what it is (tuned on this device, or the model's).
    QString automaticReason(Interpolation interpolation) const;

    /// "model 9.2 GU/s, measured 8.1 GU/s" for @p id on its backend's device ("" unknown).
    QString speedText(const std::string& id) const;

    const BackProjectorRegistry& m_registry;
    /// Per variant id: its predicted and measured speed on its backend's device (Selection.h).
    std::map<std::string, app::VariantSpeed> m_speeds;
    QFormLayout* m_form = nullptr;
    QComboBox* m_filter = nullptr;
    QDoubleSpinBox* m_cutoff = nullptr;
    QComboBox* m_projector = nullptr;
    QComboBox* m_interpolation = nullptr;
    QComboBox* m_variant = nullptr;
    bool m_ready = false;
};

}  // namespace tomo::ui
