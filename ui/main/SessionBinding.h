#pragma once
/// @file SessionBinding.h
/// @brief Maps the main window's widgets and the Session to a SessionState and back: what
/// "Save session" writes and "Open session" restores (ui/session/SessionState.h).
///
/// The data include their preprocessing (a file's with its -log, a dataset folder's rings and
/// zingers): data read with other preprocessing are read again with the state's, through the
/// same load jobs as Preprocessing > Apply and reload (app::loadDataFile, loadDatasetFolder).
///
/// Restoring: the algorithm, every algorithm's parameters, the FBP filter, cutoff and variant,
/// the colour map, the reconstruction view's window/level and the panel in front are applied at
/// once. The data: when the state names other data than the active dataset, applySessionState
/// starts loading it through the jobs of File > Open (a data file with the stated shape, angles
/// and format by FileActions::openDataFile, a folder, a cone-beam dataset by
/// ConeActions::openCone, or the demo: progress, Cancel and errors as there) and the centre of
/// rotation and the Region and sampling (cone beam: the volume grid) are applied when it has
/// loaded
/// (FileActions::onDatasetLoaded); with the same data the centre is applied at once. A data
/// file or folder that is not there is reported (first in the returned list) without starting
/// a load; the active dataset stays and the rest of the state is still applied.
///
/// Threading: GUI thread only.

#include <string>
#include <vector>

#include "ui/session/SessionState.h"

namespace tomo::ui {

class MainWindow;

SessionState captureSessionState(const MainWindow& window);

/// Applies @p state; returns what could not be applied ("parameter sirt.foo", "variant X").
/// Sets @p loadingData when a load was started (the centre follows after it).
std::vector<std::string> applySessionState(MainWindow& window, const SessionState& state,
                                           bool* loadingData = nullptr);

/// Applies what depends on the loaded data: the centre of rotation of @p state (NaN: nothing)
/// and then its Region and sampling (image size, pixel size, region centre, angle step; a load
/// resets them, so this runs after it), or for cone-beam data the Volume box's grid (none: the
/// dataset's default grid stays).
std::vector<std::string> applySessionCenter(MainWindow& window, const SessionState& state);

}  // namespace tomo::ui
