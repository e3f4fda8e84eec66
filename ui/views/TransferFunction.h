#pragma once
/// @file TransferFunction.h
/// @brief Volume-rendering transfer functions: piecewise-linear opacity and colour over the
/// data values, with presets. Plain data; VtkVolumeRenderView turns it into a
/// vtkPiecewiseFunction and a vtkColorTransferFunction.
///
/// Values are in the volume's own unit (e.g. attenuation per mm). Opacity is the scalar
/// opacity per unit length of VTK's ray caster (its unit distance is one voxel here); values
/// outside the control points take the nearest end point's opacity and colour.
///
/// Presets are defined on fractions of a data range [low, high] (reconstructions are in
/// attenuation units, not Hounsfield units, so fixed HU thresholds would not apply):
///  - GreyRamp:   opacity 0 at low rising linearly to 0.8 at high; black to white.
///  - Bone:       transparent below 45 % of the range, opaque from 75 %; ivory colours.
///  - SoftTissue: a tent of opacity 0.35 around 30 % of the range (15-50 %) plus a faint
///    plateau above it; reddish colours.
///
/// Threading: plain values, no shared state.

#include <QColor>
#include <QString>
#include <vector>

namespace tomo::ui {

enum class TransferPreset { GreyRamp, Bone, SoftTissue };

/// "grey ramp" / "bone" / "soft tissue".
QString transferPresetName(TransferPreset preset);

struct OpacityPoint {
    double value = 0;    ///< data value
    double opacity = 0;  ///< in [0, 1]
};

struct ColorPoint {
    double value = 0;  ///< data value
    QColor color;
};

struct TransferFunction {
    std::vector<OpacityPoint> opacity;  ///< sorted by value
    std::vector<ColorPoint> colors;     ///< sorted by value

    /// Preset @p preset over the data range [@p low, @p high].
    static TransferFunction preset(TransferPreset preset, double low, double high);

    /// Piecewise-linear opacity at @p value (0 without points).
    double opacityAt(double value) const;
    /// Piecewise-linear colour at @p value (black without points).
    QColor colorAt(double value) const;
    /// Sorts both point lists by value (after edits).
    void sort();
};

}  // namespace tomo::ui
