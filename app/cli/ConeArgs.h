#pragma once
/// @file ConeArgs.h
/// @brief `tomo recon`'s cone-beam options turned into a ConeReconRequest, and `tomo phantom
/// --cone`. A run is cone beam when --geometry or --sid is given.
///
///   tomo recon PROJECTIONS --geometry FILE.xml|FILE.json [--size N | --volume NXxNYxNZ]
///              [--voxel-size S] [--short-scan auto|on|off] -o VOLUME
///   tomo recon PROJECTIONS --sid MM --sdd MM --angles 0:360:N [--detector-pitch DU[,DV]]
///              [--detector-offset PX,PY] ... -o VOLUME
///
/// The detector grid comes from, in order: --detector-pitch, the JSON file's "detector", the
/// projection file's spacing and origin (MetaImage/NRRD, as RTK writes them), else a pitch of 1
/// centred. The volume: --volume / --size, else the JSON file's "volume", else the detector's
/// columns x rows x columns at the detector pitch scaled to the isocentre; --voxel-size sets
/// the spacing. The volume is centred on the isocentre (RTK's default grid).

#include <string>
#include <vector>

#include "app/recon/ReconService.h"
#include "core/cone/ConeGeometryIo.h"

namespace tomo::cli {

class ArgParser;

/// Declares the cone-beam options of `tomo recon`.
void addConeReconOptions(ArgParser& args);
/// True when @p args asks for a cone-beam reconstruction.
bool isConeRequest(const ArgParser& args);
/// The request of @p args (the projections opened by views).
Result<app::ConeReconRequest> coneRequestFromArgs(const ArgParser& args,
                                                  std::vector<std::string>& notes);
/// The same for projections and a geometry the caller has (the Python module: an array in
/// memory and a ConeGeometry object); --geometry/--sid/--sdd/--angles are not read.
Result<app::ConeReconRequest> coneRequestFromArgs(const ArgParser& args,
                                                  std::unique_ptr<app::ProjectionSource> source,
                                                  ConeGeometryFile file,
                                                  std::vector<std::string>& notes);
/// `tomo phantom --cone`: exact cone-beam projections of a 3-D phantom, the geometry file and
/// optionally the truth.
Status conePhantom(const ArgParser& args);
/// Declares the options `tomo phantom --cone` adds.
void addConePhantomOptions(ArgParser& args);

}  // namespace tomo::cli
