#pragma once
/// @file ConeSteps.h
/// @brief The steps of a cone-beam FDK run through the service, shared by the one-process run
/// (ConeRecon.cpp) and the distributed one (ConeDistributed.cpp). Internal to app/recon.

#include <memory>
#include <string>

#include "app/recon/ReconService.h"
#include "app/recon/ReconSteps.h"

namespace tomo::app::detail {

/// @p text to the report's notes and to callbacks.onNote.
void coneNote(ReconReport& report, const ReconCallbacks& callbacks, std::string text);

/// Checks @p request (projections of the geometry's shape, a valid grid), resolves its
/// variant against the engine's cone registry (notes for fallbacks) and creates the
/// back-projector; fills report.algorithm, variant, backend and shape.
Result<std::unique_ptr<ConeBackProjector>> prepareCone(const Engine& engine,
                                                       const ConeReconRequest& request,
                                                       ReconReport& report,
                                                       const ReconCallbacks& callbacks);

/// The output of @p request as prepared in @p report (its variant and shape).
SlabOutput::Spec coneOutputSpec(const ConeReconRequest& request, const ReconReport& report);

/// Reads views from the request's source and copies them into the caller's memory on @p threads.
ConeViewReader coneViewReader(const ConeReconRequest& request, int threads);

/// The FDK run's notes, warnings (as notes), slabs and timings into @p report.
void takeFdkReport(ReconReport& report, FdkReport fdk, const ReconCallbacks& callbacks);

}  // namespace tomo::app::detail
