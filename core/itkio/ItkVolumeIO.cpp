// MetaImage, NRRD and NIfTI volumes of ItkVolumeIO.h through ITK. This file is the ITK boundary:
// every ITK call runs inside guarded(), which turns itk::ExceptionObject (and std::exception,
// e.g. std::bad_alloc) into a Status naming the file.
#include <itkImage.h>
#include <itkImageFileReader.h>
#include <itkImageFileWriter.h>
#include <itkMetaImageIO.h>
#include <itkNiftiImageIO.h>
#include <itkNrrdImageIO.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <vector>

#include "core/itkio/HeaderChecks.h"
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {
namespace {

using ImageType = itk::Image<float, 3>;
using Component = itk::IOComponentEnum;

/// Runs @p fn, turning exceptions into a Status that names @p what.
template <class Fn>
auto guarded(const std::string& what, ErrorCode code, Fn&& fn) -> decltype(fn()) {
    try {
        return fn();
    } catch (const itk::ExceptionObject& e) {
        return Status(code, what + ": " + e.GetDescription());
    } catch (const std::bad_alloc&) {
        return outOfMemory(what + ": out of memory");
    } catch (const std::exception& e) {
        return Status(code, what + ": " + e.what());
    }
}

itk::ImageIOBase::Pointer makeIo(VolumeFileFormat format) {
    switch (format) {
        case VolumeFileFormat::MetaImage:
            return itk::MetaImageIO::New().GetPointer();
        case VolumeFileFormat::Nrrd:
            return itk::NrrdImageIO::New().GetPointer();
        case VolumeFileFormat::Nifti:
            return itk::NiftiImageIO::New().GetPointer();
        case VolumeFileFormat::None:
            break;
    }
    return nullptr;
}

bool convertible(Component c) {
    switch (c) {
        case Component::UCHAR:
        case Component::CHAR:
        case Component::USHORT:
        case Component::SHORT:
        case Component::UINT:
        case Component::INT:
        case Component::ULONG:
        case Component::LONG:
        case Component::LONGLONG:
        case Component::ULONGLONG:
        case Component::FLOAT:
        case Component::DOUBLE:
            return true;
        default:
            return false;
    }
}

bool isCompressedName(const std::filesystem::path& path) {
    const std::string n = path.filename().string();
    return n.ends_with(".gz") || n.ends_with(".GZ");
}

struct Opened {
    itk::ImageIOBase::Pointer io;
    VolumeFileInfo info;
};

/// Opens the header and checks everything that can be known before decoding.
Result<Opened> openHeader(const std::filesystem::path& path) {
    const std::string name = path.string();
    const VolumeFileFormat format = volumeFileFormat(path);
    if (format == VolumeFileFormat::None)
        return invalidArgument(name +
                               ": not a MetaImage, NRRD or NIfTI file name (.mha, .mhd, "
                               ".nrrd, .nhdr, .nii, .nii.gz)");
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return notFound(name + ": no such file");
    if (!std::filesystem::is_regular_file(path, ec))
        return invalidArgument(name + ": not a regular file");
    return guarded(name, ErrorCode::InvalidData, [&]() -> Result<Opened> {
        Opened o;
        o.io = makeIo(format);
        o.info.format = format;
        const char* fmt = volumeFileFormatName(format);
        if (!o.io->CanReadFile(name.c_str()))
            return invalidData(name + ": not a readable " + std::string(fmt) + " file");
        // Header against file before ITK allocates (HeaderChecks.h).
        TOMO_RETURN_IF_ERROR(checkVolumeHeader(path, format));
        o.io->SetFileName(name);
        o.io->ReadImageInformation();
        const unsigned dims = o.io->GetNumberOfDimensions();
        if (dims < 2 || dims > 3)
            return invalidData(name + ": " + std::to_string(dims) +
                               "-D image; only 2-D images and 3-D volumes are read");
        if (o.io->GetPixelType() != itk::IOPixelEnum::SCALAR || o.io->GetNumberOfComponents() != 1)
            return unsupported(name + ": pixel type '" +
                               itk::ImageIOBase::GetPixelTypeAsString(o.io->GetPixelType()) +
                               "' with " + std::to_string(o.io->GetNumberOfComponents()) +
                               " components; only scalar volumes are read");
        if (!convertible(o.io->GetComponentType()))
            return unsupported(
                name + ": component type '" +
                itk::ImageIOBase::GetComponentTypeAsString(o.io->GetComponentType()) +
                "' cannot be converted to float");
        o.info.pixelType = itk::ImageIOBase::GetComponentTypeAsString(o.io->GetComponentType());
        o.info.nx = o.io->GetDimensions(0);
        o.info.ny = o.io->GetDimensions(1);
        o.info.nz = dims == 3 ? o.io->GetDimensions(2) : 1;
        if (o.info.nx == 0 || o.info.ny == 0 || o.info.nz == 0)
            return invalidData(name + ": zero image size");
        o.info.streamable = o.io->CanStreamRead();
        if (auto* meta = dynamic_cast<itk::MetaImageIO*>(o.io.GetPointer()))
            // MetaIO streams neither compressed data (MET_UncompressStream corrupts the heap)
            // nor text data (M_ReadElementsROI writes past the region's buffer; both found by
            // fuzz_mha): such files are decoded whole and cropped.
            o.info.streamable = !meta->GetMetaImagePointer()->CompressedData() &&
                                meta->GetMetaImagePointer()->BinaryData();
        for (unsigned a = 0; a < 3; ++a) {
            const bool present = a < dims;
            o.info.metadata.spacing[a] = present ? o.io->GetSpacing(a) : 1.0;
            o.info.metadata.origin[a] = present ? o.io->GetOrigin(a) : 0.0;
            for (unsigned b = 0; b < 3; ++b) {
                double v = a == b ? 1.0 : 0.0;
                if (present && b < dims) v = o.io->GetDirection(b)[a];  // column b = axis b
                o.info.metadata.direction[a * 3 + b] = v;
            }
        }
        return o;
    });
}

/// Moves every file of @p tempDir into @p targetDir; @p header (the name the caller asked for)
/// goes last so a visible header never points at missing data.
Status publish(const std::filesystem::path& tempDir, const std::filesystem::path& target) {
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(tempDir, ec))
        if (e.path().filename() != target.filename()) files.push_back(e.path());
    files.push_back(tempDir / target.filename());
    for (const auto& f : files) {
        const auto dest = target.parent_path() / f.filename();
        std::filesystem::rename(f, dest.empty() ? f.filename() : dest, ec);
        if (ec)
            return ioError(target.string() + ": cannot move " + f.filename().string() +
                           " into place: " + ec.message());
    }
    return Status::ok();
}

/// A fresh hidden folder next to the target, removed with its content on destruction.
class TempDir {
  public:
    static Result<TempDir> create(const std::filesystem::path& target) {
        const auto parent = target.has_parent_path() ? target.parent_path() : ".";
        for (int n = 0; n < 1000; ++n) {
            auto p = parent / (".tomo-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(n));
            std::error_code ec;
            if (std::filesystem::create_directory(p, ec)) return TempDir(p);
            if (ec)
                return ioError(target.string() + ": cannot create a temporary folder in " +
                               parent.string() + ": " + ec.message());
        }
        return ioError(target.string() + ": no free temporary folder name");
    }
    TempDir(TempDir&& o) noexcept : m_path(std::move(o.m_path)) { o.m_path.clear(); }
    TempDir& operator=(TempDir&&) = delete;
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ec;
        if (!m_path.empty()) std::filesystem::remove_all(m_path, ec);
    }
    const std::filesystem::path& path() const { return m_path; }

  private:
    explicit TempDir(std::filesystem::path p) : m_path(std::move(p)) {}
    std::filesystem::path m_path;
};

}  // namespace

bool itkVolumeIoSupported() {
    return true;
}

Result<VolumeFileInfo> probeVolumeFile(const std::filesystem::path& path) {
    TOMO_ASSIGN_OR_RETURN(Opened o, openHeader(path));
    return o.info;
}

Result<VolumeFile> readVolumeFile(const std::filesystem::path& path, const ReadRange& range) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(Opened o, openHeader(path));
    TOMO_ASSIGN_OR_RETURN(ReadRange r, range.resolve(o.info.nz, o.info.ny, name));
    TOMO_ASSIGN_OR_RETURN(Array3<float> out,
                          Array3<float>::create(r.planeCount, r.rowCount, o.info.nx));
    Status s = guarded(name, ErrorCode::InvalidData, [&]() -> Status {
        auto reader = itk::ImageFileReader<ImageType>::New();
        reader->SetImageIO(o.io);
        // ITK 5.2's MetaIO corrupts the heap when it streams a region of compressed data
        // (MET_UncompressStream, found by fuzz_mha): such files are decoded whole and cropped.
        reader->SetUseStreaming(o.info.streamable);
        reader->SetFileName(name);
        reader->UpdateOutputInformation();
        ImageType::RegionType region;
        region.SetIndex({0, static_cast<itk::IndexValueType>(r.firstRow),
                         static_cast<itk::IndexValueType>(r.firstPlane)});
        region.SetSize({o.info.nx, r.rowCount, r.planeCount});
        ImageType* image = reader->GetOutput();
        image->SetRequestedRegion(region);
        image->Update();
        if (!image->GetBufferedRegion().IsInside(region))
            return internalError(name + ": ITK did not deliver the requested region");
        for (std::size_t k = 0; k < r.planeCount; ++k)
            for (std::size_t j = 0; j < r.rowCount; ++j) {
                const ImageType::IndexType start{
                    0, static_cast<itk::IndexValueType>(r.firstRow + j),
                    static_cast<itk::IndexValueType>(r.firstPlane + k)};
                const float* src = &image->GetPixel(start);
                float* dst = out.row(k, j).data();
                for (std::size_t i = 0; i < o.info.nx; ++i) {
                    if (!std::isfinite(src[i]))
                        return invalidData(name + ": value at (slice " +
                                           std::to_string(r.firstPlane + k) + ", row " +
                                           std::to_string(r.firstRow + j) + ", column " +
                                           std::to_string(i) + ") is NaN or infinite");
                    dst[i] = src[i];
                }
            }
        return Status::ok();
    });
    TOMO_RETURN_IF_ERROR(s);
    return VolumeFile{std::move(out), o.info.metadata};
}

Status writeVolumeFile(const std::filesystem::path& path, const Array3<float>& data,
                       const VolumeMetadata& metadata, bool compress) {
    const std::string name = path.string();
    const VolumeFileFormat format = volumeFileFormat(path);
    if (format == VolumeFileFormat::None)
        return invalidArgument(name +
                               ": unknown volume extension (expected .mha, .mhd, .nrrd, "
                               ".nhdr, .nii or .nii.gz)");
    if (data.empty()) return invalidArgument(name + ": cannot write an empty volume");
    TOMO_ASSIGN_OR_RETURN(TempDir temp, TempDir::create(path));
    Status s = guarded(name, ErrorCode::IoError, [&]() -> Status {
        auto image = ImageType::New();
        ImageType::RegionType region;
        region.SetSize({data.dim(2), data.dim(1), data.dim(0)});
        image->SetRegions(region);
        image->Allocate();
        ImageType::SpacingType spacing;
        ImageType::PointType origin;
        ImageType::DirectionType direction;
        for (unsigned a = 0; a < 3; ++a) {
            spacing[a] = metadata.spacing[a];
            origin[a] = metadata.origin[a];
            for (unsigned b = 0; b < 3; ++b)
                direction[a][b] = metadata.direction[a * 3 + b];
        }
        image->SetSpacing(spacing);
        image->SetOrigin(origin);
        image->SetDirection(direction);
        float* dst = image->GetBufferPointer();
        for (std::size_t k = 0; k < data.dim(0); ++k)
            for (std::size_t j = 0; j < data.dim(1); ++j, dst += data.dim(2))
                std::copy(data.row(k, j).begin(), data.row(k, j).end(), dst);
        auto writer = itk::ImageFileWriter<ImageType>::New();
        writer->SetImageIO(makeIo(format));
        writer->SetFileName((temp.path() / path.filename()).string());
        writer->SetInput(image);
        writer->SetUseCompression(compress || isCompressedName(path));
        writer->Update();
        return Status::ok();
    });
    TOMO_RETURN_IF_ERROR(s);
    return publish(temp.path(), path);
}

}  // namespace tomo
