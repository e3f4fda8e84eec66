#pragma once
// Shared by the hdf5io tests: a temporary folder, acquisitions with one code per element, and
// raw HDF5 files built dataset by dataset (for layouts the writers never produce).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/dataset/ProjectionData.h"
#include "core/hdf5io/Hdf5Support.h"

namespace tomo::test {

namespace fs = std::filesystem;

/// Value of frame a, row r, column c: unique, integral and exact in float and uint16.
inline float code(std::size_t a, std::size_t r, std::size_t c) {
    return static_cast<float>(a * 1000 + r * 40 + c);
}

/// @p angles projections of rows x cols with codes, 3 flats (60000 + k) and 2 darks (7 + k);
/// angles 0, 0.05, 0.10, ... radians.
inline ProjectionData codedAcquisition(std::size_t angles, std::size_t rows, std::size_t cols) {
    ProjectionData d;
    d.projections = Array3<float>(angles, rows, cols);
    d.flats = Array3<float>(3, rows, cols);
    d.darks = Array3<float>(2, rows, cols);
    for (std::size_t a = 0; a < angles; ++a) {
        d.angles.push_back(0.05 * static_cast<double>(a));
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                d.projections(a, r, c) = code(a, r, c);
    }
    for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c) {
                d.flats(k, r, c) = 60000.f + static_cast<float>(k);
                if (k < 2) d.darks(k, r, c) = 7.f + static_cast<float>(k);
            }
    return d;
}

/// A fresh folder per test, removed afterwards.
class Hdf5Test : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = fs::temp_directory_path() /
              ("tomo-hdf5-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    std::string path(const std::string& name) const { return (dir / name).string(); }
    std::size_t fileCount() const {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
            ++n;
        return n;
    }
    fs::path dir;
};

/// Builds an HDF5 file by hand: `RawFile f(path); f.floats("/exchange/data", {2,3,4}, v);`.
class RawFile {
  public:
    explicit RawFile(const std::string& path)
        : m_file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose) {}
    hid_t id() const { return m_file.get(); }
    void floats(const std::string& path, const std::vector<std::size_t>& dims,
                std::vector<float> values = {}) {
        std::size_t n = 1;
        for (std::size_t d : dims)
            n *= d;
        if (values.empty()) values.assign(n, 1.f);
        ASSERT_TRUE(hdf5::writeDataset(id(), path, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, dims,
                                       values.data())
                        .isOk());
    }
    void doubles(const std::string& path, const std::vector<double>& values) {
        ASSERT_TRUE(hdf5::writeDataset(id(), path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                       {values.size()}, values.data())
                        .isOk());
    }
    void ints(const std::string& path, const std::vector<int>& values) {
        ASSERT_TRUE(hdf5::writeDataset(id(), path, H5T_STD_I32LE, H5T_NATIVE_INT,
                                       {values.size()}, values.data())
                        .isOk());
    }
    void attribute(const std::string& object, const std::string& name, const std::string& value) {
        hdf5::Handle o(H5Oopen(id(), object.c_str(), H5P_DEFAULT), H5Oclose);
        ASSERT_TRUE(hdf5::writeStringAttribute(o.get(), name, value).isOk());
    }
    void group(const std::string& path, const std::string& nxClass) {
        auto g = hdf5::createGroups(id(), path);
        ASSERT_TRUE(g.isOk());
        if (!nxClass.empty()) attribute(path, "NX_class", nxClass);
    }

  private:
    hdf5::Handle m_file;
};

}  // namespace tomo::test
