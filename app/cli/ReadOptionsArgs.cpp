// The read options shared by the CLI commands (the formats: app/data/DataFormats.cpp).
#include "app/cli/ReadOptionsArgs.h"

#include "app/cli/ArgParser.h"

namespace tomo::cli {

Result<ReadOptions> readOptionsFromArgs(const ArgParser& args) {
    ReadOptions options;
    if (auto shape = args.get("shape")) {
        TOMO_ASSIGN_OR_RETURN(auto dims, parseShape(*shape));
        options.shape =
            std::array<std::size_t, 3>{dims.size() == 3 ? dims[2] : 1, dims[0], dims[1]};
    }
    if (auto unit = args.get("angle-unit")) {
        TOMO_ASSIGN_OR_RETURN(options.angleUnit, parseAngleUnit(*unit));
    }
    if (auto dataset = args.get("dataset")) options.dataset = *dataset;
    return options;
}

}  // namespace tomo::cli
