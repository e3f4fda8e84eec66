#pragma once
/// @file LogAxis.h
/// @brief The log axes of the convergence charts (ConvergenceDock, CostChart): a base-10 axis
/// with a title, and fitting one to the positive values of a series so that it always carries
/// several labels.
///
/// Threading: GUI thread only.

#include <vector>

#include <QString>

class QLogValueAxis;

namespace tomo::ui {

/// A new base-10 log axis titled @p title (owned by the chart it is added to).
QLogValueAxis* makeLogAxis(const QString& title);

/// Fits @p axis to the positive finite values of @p values (unchanged when there are none). A
/// log axis labels the powers of its base only, so a range narrower than two decades would show
/// one label or none (the norms of a converging run often span less than one): the base is
/// then chosen so that about four labelled ticks fall inside the range (labels stay values,
/// e.g. 0.81, 0.95, 1.1).
void fitLogAxis(QLogValueAxis* axis, const std::vector<double>& values);

}  // namespace tomo::ui
