#pragma once
/// @file ReconArgs.h
/// @brief `tomo recon`'s options turned into a request of the reconstruction service
/// (app/recon/ReconService.h). Parsing only: what is reconstructed, how and where is decided
/// by the service.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/ArgParser.h"
#include "app/recon/ReconGrid.h"
#include "app/recon/ReconService.h"
#include "core/base/Status.h"

namespace tomo::cli {

/// Declares every option of `tomo recon` on @p args.
void addReconOptions(ArgParser& args);
/// `tomo recon`'s parser: every parallel- and cone-beam option declared, with its help text.
/// The Python module parses its keywords with the same parser (python/src), so a keyword
/// means what the flag of the same name means and gives the same messages.
ArgParser reconParser();

/// Declares the grid and detector options `tomo recon` and `tomo project` share: --pixel-size,
/// --roi-center, --detector-pitch, --center.
void addGridOptions(ArgParser& args);
/// --roi-center X,Y into @p choice (left as it is when the option is absent); InvalidArgument
/// naming the option for anything but two numbers. `tomo recon` and `tomo project` read it.
Status roiCenterFromArgs(const ArgParser& args, app::GridChoice& choice);

/// Every `--param` value of argv (both `--param A=B` and `--param=A=B`; a value may also list
/// several pairs separated by commas), in order; InvalidArgument for a pair without '=' or a
/// missing value. The parser keeps only the last occurrence, hence this scan.
Result<std::map<std::string, std::string>> collectParams(int argc, char** argv);

/// The request of @p args: the input opened (by slabs where it can be), geometry, grid,
/// algorithm, parameters, backend or variant, memory budget, reference and output. Notes from
/// opening the input go to @p notes.
Result<app::ReconRequest> reconRequestFromArgs(const ArgParser& args, int argc, char** argv,
                                               std::vector<std::string>& notes, int ranks = 1);
/// The same for an input opened by the caller (the Python module's array in memory): its
/// angles (radians, @p input.angles) stand for --angles when that is not given, its
/// preprocessing goes to the provenance; INPUT is only named in the provenance.
Result<app::ReconRequest> reconRequestFromArgs(const ArgParser& args, int argc, char** argv,
                                               app::OpenedSource input,
                                               std::vector<std::string>& notes);

}  // namespace tomo::cli
