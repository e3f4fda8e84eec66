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
class QValueAxis;

namespace tomo::ui {

/// A new base-10 log axis titled @p title (owned by the chart it is added to).
QLogValueAxis* makeLogAxis(const QString& title);

/// Back to makeLogAxis's state over [1e-3, 1e3] (an empty chart): base 10 and its label format,
/// whatever the last fit chose (a base of 1.4 over six decades draws 40 elided labels).
void resetLogAxis(QLogValueAxis* axis);

/// Fits @p axis to the positive finite values of @p values (unchanged when there are none). A
/// log axis labels the powers of its base only, so a range narrower than two decades would show
/// one label or none (the norms of a converging run often span less than one): the base is
/// then chosen so that about four labelled ticks fall inside the range (labels stay values,
/// e.g. 0.81, 0.95, 1.1).
void fitLogAxis(QLogValueAxis* axis, const std::vector<double>& values);

/// An iteration axis over [0, @p last] (at least [0, @p least]): ticks on whole numbers only,
/// every 1, 2 or 5 x 10^k iterations so that at most 6 intervals show, the range rounded up to
/// a tick (a 4-iteration run reads 0 2 4 6 8 10, not 0 2 5 7 10 with "2" at 2.5).
void fitIterationAxis(QValueAxis* axis, double last, double least = 10);

}  // namespace tomo::ui
