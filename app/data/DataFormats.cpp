// The one place where the file formats of this build are registered.
#include "app/data/DataFormats.h"

#include "core/itkio/ItkFormats.h"
#include "tomo/config.h"
#if TOMO_WITH_HDF5
#include "core/hdf5io/Hdf5Formats.h"
#endif

namespace tomo::app {

Result<FormatRegistry> makeFormatRegistry() {
    FormatRegistry registry;
    TOMO_RETURN_IF_ERROR(registerBuiltinFormats(registry));
#if TOMO_WITH_HDF5
    TOMO_RETURN_IF_ERROR(registerHdf5Formats(registry));
#endif
    TOMO_RETURN_IF_ERROR(registerItkFormats(registry));  // Unsupported stubs without ITK
    return registry;
}

}  // namespace tomo::app
