// medianFilter2d through itk::MedianImageFilter (MedianFilter.h; chosen in CMakeLists.txt when
// ITK is compiled in). ITK types stay in this file.
#include <algorithm>
#include <exception>
#include <string>

#include <itkImage.h>
#include <itkMedianImageFilter.h>
#include <itkMultiThreaderBase.h>

#include "core/preprocess/MedianFilter.h"

namespace tomo {

Status medianFilter2d(View2<const float> in, View2<float> out, int size) {
    TOMO_RETURN_IF_ERROR(checkMedianFilterArgs(in, out, size));
    using Image = itk::Image<float, 2>;
    // ITK reports failures (e.g. allocation) as exceptions: turn them into a Status here.
    try {
        auto image = Image::New();
        Image::RegionType region;
        region.SetSize({{in.cols(), in.rows()}});  // ITK index 0 is x (columns), 1 is y (rows)
        image->SetRegions(region);
        image->Allocate();
        float* buffer = image->GetBufferPointer();
        for (std::size_t r = 0; r < in.rows(); ++r)
            std::copy_n(in.row(r).data(), in.cols(), buffer + r * in.cols());

        using Filter = itk::MedianImageFilter<Image, Image>;
        auto filter = Filter::New();
        Filter::InputSizeType radius;
        radius.Fill(static_cast<itk::SizeValueType>(size / 2));
        filter->SetRadius(radius);  // window (2 * radius + 1)^2; ZeroFluxNeumann boundary
        filter->SetInput(image);
        filter->SetNumberOfWorkUnits(1);  // callers run planes in parallel
        filter->GetMultiThreader()->SetMaximumNumberOfThreads(1);
        filter->Update();
        const float* result = filter->GetOutput()->GetBufferPointer();
        for (std::size_t r = 0; r < in.rows(); ++r)
            std::copy_n(result + r * in.cols(), in.cols(), out.row(r).data());
    } catch (const std::exception& e) {
        return internalError(std::string("median filter (ITK): ") + e.what());
    }
    return Status::ok();
}

const char* medianFilterBackendName() {
    return "itk";
}

}  // namespace tomo
