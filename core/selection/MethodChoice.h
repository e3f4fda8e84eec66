#pragma once
/// @file MethodChoice.h
/// @brief Direct or Fourier-domain FBP for a job: the predicted time of each and the choice
/// (`tomo recon --algo fbp --param method=auto`; docs/selection.md, "Direct or Fourier").
///
/// Direct FBP costs nx ny views slices pixel updates at the back-projector's rate (paper 002's
/// model, or `tomo tune`'s measurement when there is one), O(N^3) per slice. The Fourier method
/// (core/fourier/FourierMethod.h) costs what its FourierPlan predicts with its backend's cost
/// model, O(N^2 log N + views N W^2) per slice; on a GPU both add the bytes of sinograms and
/// images over the bus; the gridding adds an error the plan predicts (GriddingKernel.h). The
/// Fourier method is chosen when that error meets the tolerance asked for and its predicted
/// time is shorter; otherwise direct FBP (no gridding error). The reason names both numbers.
/// Threading: pure functions.

#include <string>

#include "core/fourier/FourierMethod.h"

namespace tomo {

/// What is reconstructed.
struct MethodJob {
    int nx = 0, ny = 0, views = 0, detectors = 0, slices = 1;
};

struct MethodEstimate {
    std::string id;      ///< the back-projector variant or the Fourier implementation
    double seconds = 0;  ///< predicted
    double error = 0;    ///< predicted gridding error (0 for direct FBP)
};

struct MethodChoice {
    bool fourier = false;
    MethodEstimate direct, fourierEstimate;
    std::string reason;  ///< one line for the report's notes
};

/// Direct FBP at @p directGups (GU/s of variant @p directId on the job's device; 0: unknown, the
/// Fourier method is then chosen only when it meets the tolerance) against @p plan run by
/// @p method, for an error of at most @p tolerance.
MethodChoice chooseMethod(const MethodJob& job, const std::string& directId, double directGups,
                          const FourierPlan& plan, const FourierMethodInfo& method,
                          double tolerance);

}  // namespace tomo
