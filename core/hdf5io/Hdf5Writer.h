#pragma once
/// @file Hdf5Writer.h
/// @brief HDF5 writers: reconstructions with provenance, and acquisitions as DXchange or NXtomo
/// (the latter used by tests and `tomo convert` to build files from simulated data).
///
/// Every writer is atomic: the file is created under a temporary name in the target's directory
/// (core/io/AtomicFile.h), closed, fsync'ed and renamed over the target only when complete, so a
/// failure leaves neither a partial file nor a changed target.
///
/// Reconstruction layout (read back by readHdf5Volume, shown by `tomo info`):
///  - /reconstruction/data   float32 [z][y][x], row 0 the top of the image (largest y), chunked
///    one slice per chunk;
///  - attributes of /reconstruction: "tomostation_version" (tomo/config.h), "voxel_size"
///    (double, the job's length unit), "axes" = "z,y,x", and one string attribute per
///    provenance entry. Recommended keys: "geometry" (angles, detector, centre), "preprocessing",
///    "algorithm", "parameters", "variant" (back-projector id), "device", "input";
///  - the root group carries "tomostation_version" as well.
///
/// Threading: see Hdf5Support.h (calls into HDF5 are serialised by the library).

#include <filesystem>
#include <map>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dataset/FormatRegistry.h"
#include "core/dataset/ProjectionData.h"

namespace tomo {

/// Path of the reconstruction dataset written by writeHdf5Volume.
inline constexpr const char* kReconstructionDataset = "/reconstruction/data";

/// Writes @p volume ([z][y][x]) with the provenance of @p options (layout above). InvalidArgument
/// for an empty volume; IoError naming the path and HDF5's reason when writing fails.
Status writeHdf5Volume(const std::filesystem::path& path, const Array3<float>& volume,
                       const WriteOptions& options);

/// Reads a float stack from dataset @p dataset (empty: /reconstruction/data, else
/// /exchange/data) of rank 3 ([plane][row][column]) or 2 (one plane). NotFound naming the
/// dataset when missing, InvalidData for another rank or NaN/Inf.
Result<Array3<float>> readHdf5Volume(const std::filesystem::path& path,
                                     const std::string& dataset = "");

/// The string and numeric attributes of the group holding @p dataset (default
/// /reconstruction/data), as text: the provenance written by writeHdf5Volume.
Result<std::map<std::string, std::string>> readHdf5Provenance(const std::filesystem::path& path,
                                                              const std::string& dataset = "");

/// @brief How an acquisition is stored by writeDxchange / writeNxtomo.
struct AcquisitionWriteOptions {
    /// Element type of projections, flats and darks: UInt8/16/32 (values rounded to nearest and
    /// clamped to the type's range by HDF5) or Float32/Float64.
    SampleType dataType = SampleType::Float32;
    /// Unit in which angles are stored.
    AngleUnit angleUnit = AngleUnit::Degrees;
    /// Write the "units" attribute on the angles ("degrees" or "radians").
    bool writeAngleUnits = true;
    /// NXtomo: write half the flats before and half after the projections (as scans with flats
    /// taken before and after do) instead of all before.
    bool splitFlats = false;
    /// NXtomo: append this many frames flagged invalid (image_key 3, zero values).
    std::size_t invalidFrames = 0;
};

/// Writes /exchange/data, data_white, data_dark (only when non-empty) and theta (when angles
/// are given) of @p data. InvalidArgument when data.validate() fails or for an unsupported type.
Status writeDxchange(const std::filesystem::path& path, const ProjectionData& data,
                     const AcquisitionWriteOptions& options = {});

/// Writes an NXtomo file: /entry (NX_class NXentry, definition "NXtomo") with
/// /entry/instrument/detector/{data, image_key}, /entry/sample/rotation_angle and the NXdata
/// group /entry/data linking data, image_key and rotation_angle (hard links). Frames are stored
/// darks, flats, projections (flats split around the projections with splitFlats), then invalid
/// frames; flats and darks get the first projection angle. Needs angles.
Status writeNxtomo(const std::filesystem::path& path, const ProjectionData& data,
                   const AcquisitionWriteOptions& options = {});

}  // namespace tomo
