// The one place where the file formats of this build are registered.
#include "app/cli/DataFormats.h"

#include "app/cli/ArgParser.h"
#include "core/itkio/ItkFormats.h"
#include "tomo/config.h"
#if TOMO_WITH_HDF5
#include "core/hdf5io/Hdf5Formats.h"
#endif

namespace tomo::cli {

Result<FormatRegistry> makeFormatRegistry() {
    FormatRegistry registry;
    TOMO_RETURN_IF_ERROR(registerBuiltinFormats(registry));
#if TOMO_WITH_HDF5
    TOMO_RETURN_IF_ERROR(registerHdf5Formats(registry));
#endif
    TOMO_RETURN_IF_ERROR(registerItkFormats(registry));  // Unsupported stubs without ITK
    return registry;
}

Result<ReadOptions> readOptionsFromArgs(const ArgParser& args) {
    ReadOptions options;
    if (auto shape = args.get("shape")) {
        TOMO_ASSIGN_OR_RETURN(auto dims, parseShape(*shape));
        options.shape = std::array<std::size_t, 3>{dims.size() == 3 ? dims[2] : 1, dims[0], dims[1]};
    }
    if (auto unit = args.get("angle-unit")) {
        TOMO_ASSIGN_OR_RETURN(options.angleUnit, parseAngleUnit(*unit));
    }
    if (auto dataset = args.get("dataset")) options.dataset = *dataset;
    return options;
}

}  // namespace tomo::cli
