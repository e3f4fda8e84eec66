#pragma once
/// @file Hdf5AcquisitionReader.h
/// @brief Readers of HDF5 acquisitions: DXchange (APS; read by TomoPy and tomocupy) and NeXus
/// NXtomo (ESRF, Diamond, ISIS). Both read by blocks with hyperslabs: a call reads only the
/// projections and detector rows asked for, never the whole file.
///
/// DXchange layout (De Carlo et al., J. Synchrotron Rad. 21 (2014) 1224,
/// doi:10.1107/S160057751401604X):
///  - /exchange/data        [angle][row][column] projections (required)
///  - /exchange/data_white  [frame][row][column] flats (optional)
///  - /exchange/data_dark   [frame][row][column] darks (optional)
///  - /exchange/theta       [angle] rotation angles (optional: without it the caller states
///    them); unit from its "units" attribute when present, else detected (see AngleUnit).
///
/// NXtomo layout (NeXus application definition NXtomo, https://manual.nexusformat.org/classes/
/// applications/NXtomo.html): one group with NX_class = "NXentry" (or named "entry") holding an
/// NXdata group (NX_class = "NXdata", or a group named "data") with
///  - data            [frame][row][column] every frame of the scan,
///  - image_key       [frame] 0 = projection, 1 = flat, 2 = dark, 3 = invalid (skipped),
///  - rotation_angle  [frame] in the unit of its "units" attribute (NeXus: degrees by default).
/// When the NXdata group lacks image_key or rotation_angle they are looked up at the standard
/// places entry/instrument/detector/image_key and entry/sample/rotation_angle. Projections,
/// flats and darks may be interleaved in any order; the readers keep acquisition order.
///
/// Values: uint8/16/32, int8/16/32 and float32/64 datasets are converted to float32 by HDF5
/// (integers exact up to 2^24). Frames are checked for NaN/Inf as they are read.
///
/// Errors (Status, message naming the file, the dataset and the cause): NotFound for a missing
/// file or required dataset; InvalidData for a file that is not HDF5, truncated or corrupt,
/// wrong rank, non-numeric type, flats/darks whose rows x columns differ from the projections,
/// an angle count differing from the projection count, non-finite angles, unknown image_key
/// values, or NaN/Inf in a block read. HDF5's own error printing is switched off during calls.
///
/// Threading: see AcquisitionReader. The object keeps the file open until destroyed.

#include <memory>
#include <string>
#include <vector>

#include "core/dataset/ProjectionData.h"
#include "core/hdf5io/Hdf5Support.h"

namespace tomo {

/// @brief An open HDF5 acquisition (DXchange or NXtomo) read by blocks.
class Hdf5AcquisitionReader final : public AcquisitionReader {
  public:
    /// Frames of one role (projections, flats or darks): a dataset and which of its frames
    /// belong to the role, ascending.
    struct FrameSource {
        std::string path;
        hdf5::Handle dataset;
        std::vector<std::size_t> frames;
    };

    Hdf5AcquisitionReader(hdf5::Handle file, FrameSource projections, FrameSource flats,
                          FrameSource darks, AcquisitionInfo info);

    const AcquisitionInfo& info() const override { return m_info; }
    Result<Array3<float>> readProjections(IndexRange angles, IndexRange rows) const override;
    Result<Array3<float>> readFlats(IndexRange rows) const override;
    Result<Array3<float>> readDarks(IndexRange rows) const override;

  private:
    /// Reads entries [which.first, end) of @p source's frame list, rows @p rows.
    Result<Array3<float>> readFrames(const FrameSource& source, IndexRange which,
                                     IndexRange rows) const;

    hdf5::Handle m_file;
    FrameSource m_projections, m_flats, m_darks;
    AcquisitionInfo m_info;
};

/// Opens a DXchange file (layout above). @p unit states the unit of /exchange/theta (Auto:
/// attribute, else detected).
Result<std::unique_ptr<Hdf5AcquisitionReader>> openDxchange(const std::string& path,
                                                            AngleUnit unit = AngleUnit::Auto);
/// Opens an NXtomo file (layout above). @p unit overrides rotation_angle's unit (Auto: the
/// "units" attribute, else degrees as NeXus specifies).
Result<std::unique_ptr<Hdf5AcquisitionReader>> openNxtomo(const std::string& path,
                                                          AngleUnit unit = AngleUnit::Auto);
/// Opens either: DXchange when /exchange/data exists, else NXtomo when an NXentry is found,
/// else NotFound naming what was looked for.
Result<std::unique_ptr<Hdf5AcquisitionReader>> openHdf5Acquisition(
    const std::string& path, AngleUnit unit = AngleUnit::Auto);

/// Radians from stored @p values: @p requested when not Auto, else the unit named by
/// @p unitAttribute ("deg", "degree(s)", "rad", "radian(s)"; case-insensitive), else degrees
/// when any |value| > 2*pi + 1e-6, else @p fallback (Auto means radians). @p used receives the
/// unit applied. InvalidData naming @p where for an unrecognised attribute or a non-finite value.
Result<std::vector<double>> anglesToRadians(const std::vector<double>& values,
                                            const std::string& unitAttribute, AngleUnit requested,
                                            AngleUnit fallback, const std::string& where,
                                            AngleUnit* used);

}  // namespace tomo
