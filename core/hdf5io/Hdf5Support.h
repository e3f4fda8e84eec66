#pragma once
/// @file Hdf5Support.h
/// @brief The thin layer between TomoStation and the HDF5 C library: RAII handles for every
/// `hid_t`, a guard that silences HDF5's error printing, and block reads and writes of float
/// arrays with hyperslabs. Used by the DXchange and NXtomo readers and the HDF5 writers; not
/// meant for code outside core/hdf5io.
///
/// Errors: every function returns a Status naming the file, the dataset and the cause; when the
/// library failed, its innermost error description is appended ("HDF5: ...").
///
/// Threading: the HDF5 library serialises calls internally when built thread-safe (Debian's
/// is); the error-printing switch is per thread in such builds and process-wide otherwise, so
/// the guard restores exactly what it found.

#include <hdf5.h>

#include <cstddef>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dataset/ProjectionData.h"

namespace tomo::hdf5 {

/// @brief Owns one HDF5 identifier (file, group, dataset, dataspace, type, attribute, property
/// list) and closes it with the matching H5?close function. Move-only.
class Handle {
  public:
    using CloseFn = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, CloseFn close) : m_id(id), m_close(close) {}
    Handle(Handle&& o) noexcept : m_id(o.m_id), m_close(o.m_close) { o.m_id = H5I_INVALID_HID; }
    Handle& operator=(Handle&& o) noexcept;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { reset(); }

    hid_t get() const { return m_id; }
    bool valid() const { return m_id >= 0; }
    /// Closes now; returns false when the library reported an error on close.
    bool reset();

  private:
    hid_t m_id = H5I_INVALID_HID;
    CloseFn m_close = nullptr;
};

/// @brief Turns HDF5's automatic error printing off for its lifetime (H5Eset_auto2 with a null
/// handler) and restores the previous handler when destroyed.
class ErrorSilencer {
  public:
    ErrorSilencer();
    ~ErrorSilencer();
    ErrorSilencer(const ErrorSilencer&) = delete;
    ErrorSilencer& operator=(const ErrorSilencer&) = delete;

  private:
    H5E_auto2_t m_func = nullptr;
    void* m_data = nullptr;
};

/// The innermost description on the current thread's HDF5 error stack, "" when empty.
std::string lastErrorText();
/// A Status of @p code with @p message and "(HDF5: <lastErrorText>)" when the stack has one.
Status libraryError(ErrorCode code, const std::string& message);

/// Opens an existing file read-only. NotFound when missing; InvalidData naming the file when
/// it is not HDF5 or cannot be opened (truncated, corrupt), with HDF5's reason.
Result<Handle> openFile(const std::string& path);

/// True when every component of the absolute @p path ("/exchange/data") exists as a link.
bool exists(hid_t file, const std::string& path);
/// The dataset a volume is read from (Hdf5Writer.cpp): @p dataset when given, else
/// /reconstruction/data, or /exchange/data when only that exists (a DXchange file as a stack).
std::string volumeDataset(hid_t file, const std::string& dataset);
/// Opens a dataset; NotFound naming @p file and @p path when absent.
Result<Handle> openDataset(hid_t file, const std::string& fileName, const std::string& path);

/// Shape and stored type of an open dataset.
struct DatasetShape {
    std::vector<std::size_t> dims;  ///< slowest first
    SampleType type = SampleType::Other;
};
/// Reads the shape and classifies the type (integers of 1/2/4 bytes, float 4/8); Other for
/// anything else (strings, compounds, 64-bit integers).
Result<DatasetShape> datasetShape(hid_t dataset, const std::string& where);

/// Reads frames [frames.first, end) x rows [rows.first, end) x all columns of a rank-3 dataset
/// into planes [outFirst, outFirst + frames.count) of @p out (dims [.][rows.count][columns]),
/// converting any numeric type to float32 (HDF5's conversions; 32-bit integers above 2^24 round).
/// Only that hyperslab is read. Then checks the block for NaN/Inf (InvalidData naming @p where
/// and the frame/row/column in file coordinates).
Status readFloatBlock(hid_t dataset, const std::string& where, IndexRange frames, IndexRange rows,
                      Array3<float>& out, std::size_t outFirst);

/// Reads a whole 1-D numeric dataset as double. InvalidData for another rank.
Result<std::vector<double>> readDoubles(hid_t dataset, const std::string& where);
/// Reads a whole 1-D integer dataset as int (image_key).
Result<std::vector<int>> readInts(hid_t dataset, const std::string& where);

/// The string value of attribute @p name of object @p obj, or "" when it has none (or it is
/// not a string). Fixed- and variable-length strings are accepted.
std::string stringAttribute(hid_t obj, const std::string& name);
/// Writes (or replaces) a variable-length UTF-8 string attribute.
Status writeStringAttribute(hid_t obj, const std::string& name, const std::string& value);
/// Writes (or replaces) a scalar double attribute.
Status writeDoubleAttribute(hid_t obj, const std::string& name, double value);

/// Creates the groups of an absolute path ("/exchange") as needed and returns the last.
Result<Handle> createGroups(hid_t file, const std::string& path);
/// Creates a dataset of @p fileType with @p dims (chunked per plane when rank 3) and writes
/// @p values (dense row-major, as @p memType). IoError naming @p where on failure.
Status writeDataset(hid_t file, const std::string& path, hid_t fileType, hid_t memType,
                    const std::vector<std::size_t>& dims, const void* values);
/// Writes an Array3<float> (logical elements only) as a dataset of @p fileType (float32 or an
/// integer type: values rounded and clamped to its range by HDF5's conversion).
Status writeArray(hid_t file, const std::string& path, hid_t fileType, const Array3<float>& data);

}  // namespace tomo::hdf5
