#pragma once
/// @file ResultNames.h
/// @brief Names that tell results apart. A result's request is read back from its provenance
/// (ReconOutcome::provenance, what a writer stores: algorithm, parameters, back-projector or
/// backend, geometry with the centre and grid, preprocessing, sampling) as an ordered list of
/// items, and a result is named by its algorithm and the items that differ from the result it
/// follows: the newest earlier result of the same algorithm, or, for the first of its
/// algorithm, the algorithm's defaults (AlgorithmSchema.h) and the previous result's data
/// items. So two FBPs that differ only in the centre read "FBP: centre 130.99 px" and
/// "FBP: centre 127.5 px", and an MBIR after another reads "MBIR: sharpness 1.5" however many
/// parameters come before it alphabetically. The whole request, one item a line, is the tooltip.
///
/// Plain C++ (no Qt); pure functions of their inputs.

#include <map>
#include <string>
#include <vector>

namespace tomo::app {

using Provenance = std::map<std::string, std::string>;

/// One item of a request: its key ("centre", "filter", "sharpness") and its text as shown
/// ("centre 130.99 px", "filter hann").
struct RequestItem {
    std::string key;
    std::string text;
    bool parameter = false;  ///< an algorithm parameter (compared with the algorithm's defaults)
};

/// The request of a result as items, in a fixed order: parameters, back-projector or backend,
/// centre, grid, angles, region, preprocessing, sampling.
std::vector<RequestItem> requestItems(const Provenance& provenance);

/// The algorithm's label ("FBP", "SIRT", "MBIR"), upper case of the id when the schema does not
/// know it; empty when the provenance names none.
std::string algorithmLabel(const Provenance& provenance);

/// The name of @p result given the earlier results @p earlier (newest first): "SIRT: centre
/// 130.99 px; iterations 50", "FBP: filter hann, cutoff 0.5", "SIRT: as the previous SIRT".
/// @p maxItems differences at most, then "+N more".
std::string resultName(const Provenance& result, const std::vector<const Provenance*>& earlier,
                       std::size_t maxItems = 3);

/// The whole request, one line per item, headed by the algorithm: for a tooltip.
std::string requestDescription(const Provenance& provenance);

}  // namespace tomo::app
