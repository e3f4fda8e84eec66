#include "core/preprocess/SinogramPreprocess.h"

#include <utility>

#include "core/dataset/ProjectionData.h"

namespace tomo {

namespace {

bool isAll(const IndexRange& r) {
    return r.first == 0 && r.count == IndexRange::kAll;
}

}  // namespace

ZingerOptions sinogramZingers(double threshold, int size) {
    ZingerOptions z;
    z.threshold = threshold;
    z.size = size;
    z.mode = ThresholdMode::LineIntegral;
    z.sign = OutlierSign::Dark;
    return z;
}

PreprocessOptions forSinograms(PreprocessOptions options) {
    if (options.zingers)
        options.zingers = sinogramZingers(options.zingers->threshold, options.zingers->size);
    return options;
}

Status checkSinogramSteps(const PreprocessOptions& o) {
    const char* why =
        ": a sinogram stack holds line integrals, normalised and logged when it was made; this "
        "step applies to acquisitions (projections with flats and darks: HDF5 / NXtomo / "
        "DXchange)";
    if (o.flatDark || o.flatsBefore) return invalidArgument(std::string("flat/dark") + why);
    if (o.paganin) return invalidArgument(std::string("Paganin phase retrieval") + why);
    if (o.minusLog) return invalidArgument(std::string("minus-log") + why);
    return Status::ok();
}

bool selectsAngles(const PreprocessOptions& o) {
    return !isAll(o.angleRange) || o.angleStep != 1;
}

bool keepsShape(const PreprocessOptions& o) {
    return !selectsAngles(o) && isAll(o.cropRows) && isAll(o.cropColumns) && o.binRows == 1 &&
           o.binColumns == 1;
}

Status preprocessSinograms(Sinograms& stack, std::vector<double>& angles,
                           const PreprocessOptions& options, const ExecContext& ctx,
                           PreprocessSummary* summary) {
    TOMO_RETURN_IF_ERROR(checkSinogramSteps(options));
    if (stack.empty()) return invalidArgument("preprocess: no sinograms");
    if (!angles.empty() && angles.size() != stack.dim(1))
        return invalidArgument("preprocess: " + std::to_string(angles.size()) + " angles for " +
                               std::to_string(stack.dim(1)) + " projections of the sinograms");
    // [slice][angle][detector] -> [angle][slice][detector]: the projections of the same data.
    ProjectionData data;
    TOMO_ASSIGN_OR_RETURN(data.projections, toSinograms(stack));
    data.angles = angles;
    TOMO_RETURN_IF_ERROR(preprocess(data, options, ctx, summary));
    TOMO_ASSIGN_OR_RETURN(stack, toSinograms(data.projections));
    angles = std::move(data.angles);
    return Status::ok();
}

}  // namespace tomo
