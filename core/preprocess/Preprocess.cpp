#include "core/preprocess/Preprocess.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <sstream>
#include <vector>

#include "core/preprocess/BinningCropping.h"

namespace tomo {
namespace {

bool isAll(const IndexRange& r) {
    return r.first == 0 && r.count == IndexRange::kAll;
}

std::string rangeText(const IndexRange& r) {
    std::string s = std::to_string(r.first) + ":";
    if (r.count != IndexRange::kAll) s += std::to_string(r.end());
    return s;
}

/// Applies @p fn to projections, flats and darks (skipping empty stacks).
Status forEachStack(ProjectionData& data,
                    const std::function<Result<Array3<float>>(const Array3<float>&)>& fn) {
    for (Array3<float>* a : {&data.projections, &data.flats, &data.darks}) {
        if (a->dim(0) == 0) continue;
        TOMO_ASSIGN_OR_RETURN(*a, fn(*a));
    }
    return Status::ok();
}

}  // namespace

Result<RingMethod> parseRingMethod(const std::string& name) {
    if (name == "none") return RingMethod::None;
    if (name == "vo" || name == "sorting") return RingMethod::Sorting;
    if (name == "fw" || name == "fourier-wavelet") return RingMethod::FourierWavelet;
    return invalidArgument("unknown ring removal method '" + name + "' (known: none, vo, fw)");
}

const char* ringMethodName(RingMethod m) {
    switch (m) {
        case RingMethod::Sorting:
            return "vo";
        case RingMethod::FourierWavelet:
            return "fw";
        case RingMethod::None:
            break;
    }
    return "none";
}

Status PreprocessOptions::validate() const {
    if (angleStep == 0) return invalidArgument("preprocess: the angle step must be >= 1");
    if (binRows < 1 || binColumns < 1)
        return invalidArgument("preprocess: binning factors must be >= 1 (got " +
                               std::to_string(binRows) + "x" + std::to_string(binColumns) + ")");
    if (zingers) TOMO_RETURN_IF_ERROR(zingers->validate());
    if (flatDark) TOMO_RETURN_IF_ERROR(flatField.validate());
    if (paganin) TOMO_RETURN_IF_ERROR(paganin->validate());
    if (!(logEpsilon > 0.f)) return invalidArgument("preprocess: the log epsilon must be positive");
    if (rings == RingMethod::Sorting) TOMO_RETURN_IF_ERROR(sorting.validate());
    if (rings == RingMethod::FourierWavelet) TOMO_RETURN_IF_ERROR(fourierWavelet.validate());
    return Status::ok();
}

bool PreprocessOptions::empty() const {
    return isAll(angleRange) && angleStep == 1 && isAll(cropRows) && isAll(cropColumns) &&
           binRows == 1 && binColumns == 1 && !zingers && !flatDark && !paganin && !minusLog &&
           rings == RingMethod::None;
}

double PreprocessOptions::centerAfter(double center) const {
    return binnedCenter(croppedCenter(center, cropColumns.first), binColumns);
}

std::string describe(const PreprocessOptions& o) {
    if (o.empty()) return "none";
    std::ostringstream s;
    const char* sep = "";
    auto item = [&](const std::string& text) {
        s << sep << text;
        sep = "; ";
    };
    if (!isAll(o.angleRange) || o.angleStep != 1)
        item("angles " + rangeText(o.angleRange) + " step " + std::to_string(o.angleStep));
    if (!isAll(o.cropRows) || !isAll(o.cropColumns))
        item("crop rows " + rangeText(o.cropRows) + " columns " + rangeText(o.cropColumns));
    if (o.binRows != 1 || o.binColumns != 1)
        item("bin " + std::to_string(o.binRows) + "x" + std::to_string(o.binColumns));
    if (o.zingers)
        item("zingers size " + std::to_string(o.zingers->size) + " threshold " +
             std::to_string(o.zingers->threshold) +
             (o.zingers->mode == ThresholdMode::Relative       ? " relative"
              : o.zingers->mode == ThresholdMode::LineIntegral ? " line-integral"
                                                               : " absolute") +
             ", " + outlierSignName(o.zingers->sign));
    if (o.flatDark) {
        std::string flats = " (averaged flats)";
        if (o.flatsBefore)
            flats = " (interpolated flats, " + std::to_string(*o.flatsBefore) + " before)";
        else if (!o.flatField.flatPositions.empty())
            flats = " (interpolated flats)";
        item("flat/dark" + flats);
    }
    if (o.paganin)
        item("paganin " + std::to_string(o.paganin->energyKeV) + " keV, " +
             std::to_string(o.paganin->distanceMm) + " mm, " +
             std::to_string(o.paganin->pixelSizeUm) + " um, delta/beta " +
             std::to_string(o.paganin->deltaOverBeta));
    if (o.minusLog) item("minus-log (epsilon " + std::to_string(o.logEpsilon) + ")");
    const auto columns = [](double snr) {
        std::ostringstream t;
        t << snr;
        return snr == 0 ? std::string(", every column") : ", stripes above snr " + t.str();
    };
    if (o.rings == RingMethod::Sorting)
        item("rings vo size " +
             (o.sorting.size == 0 ? std::string("auto") : std::to_string(o.sorting.size)) +
             columns(o.sorting.snr));
    if (o.rings == RingMethod::FourierWavelet)
        item("rings fw " + o.fourierWavelet.wavelet + " levels " +
             std::to_string(o.fourierWavelet.levels) + " sigma " +
             std::to_string(o.fourierWavelet.sigma) + columns(o.fourierWavelet.snr));
    return s.str();
}

Status preprocess(ProjectionData& data, const PreprocessOptions& options, const ExecContext& ctx,
                  PreprocessSummary* summary) {
    TOMO_RETURN_IF_ERROR(options.validate());
    if (data.projections.empty()) return invalidArgument("preprocess: no projections");
    PreprocessSummary local;
    const std::size_t steps = 1 + (options.zingers ? 1 : 0) + (options.flatDark ? 1 : 0) +
                              (options.paganin ? 1 : 0) + (options.minusLog ? 1 : 0) +
                              (options.rings != RingMethod::None ? 1 : 0);
    std::size_t step = 0;
    // Runs one step with its own progress scope.
    auto run = [&](const char* name, const std::function<Status(const ExecContext&)>& fn) {
        ExecContext sub = ctx;
        Progress child;
        if (ctx.progress) {
            child = ctx.progress->child(static_cast<double>(step) / steps,
                                        static_cast<double>(step + 1) / steps, name);
            sub.progress = &child;
        }
        ++step;
        return fn(sub).withContext(name);
    };

    // 1-3: geometry of the data.
    std::vector<double> positions = options.flatField.projectionPositions;
    double scanStart = 0, scanEnd = 0;  // positions of the first and last acquired projection
    auto geometryStep = [&](const ExecContext& c) -> Status {
        const std::size_t np = data.projections.dim(0);
        if (positions.empty()) {
            positions.resize(np);
            std::iota(positions.begin(), positions.end(), 0.0);
        } else if (positions.size() != np) {
            return invalidArgument(std::to_string(positions.size()) + " projection positions for " +
                                   std::to_string(np) + " projections");
        }
        scanStart = *std::min_element(positions.begin(), positions.end());
        scanEnd = *std::max_element(positions.begin(), positions.end());
        if (!isAll(options.angleRange) || options.angleStep != 1) {
            TOMO_ASSIGN_OR_RETURN(IndexRange r, options.angleRange.resolve(np, "angles"));
            std::vector<double> angles, pos;
            TOMO_ASSIGN_OR_RETURN(data.projections,
                                  selectFrames(data.projections, data.angles, r.first, r.count,
                                               options.angleStep, angles));
            for (std::size_t k = r.first; k < r.end(); k += options.angleStep)
                pos.push_back(positions[k]);
            data.angles = std::move(angles);
            positions = std::move(pos);
        }
        if (!isAll(options.cropRows) || !isAll(options.cropColumns)) {
            TOMO_ASSIGN_OR_RETURN(IndexRange rr,
                                  options.cropRows.resolve(data.projections.dim(1), "rows"));
            TOMO_ASSIGN_OR_RETURN(IndexRange cr,
                                  options.cropColumns.resolve(data.projections.dim(2), "columns"));
            TOMO_RETURN_IF_ERROR(forEachStack(data, [&](const Array3<float>& a) {
                return cropFrames(a, rr.first, rr.count, cr.first, cr.count, c);
            }));
        }
        if (options.binRows != 1 || options.binColumns != 1)
            TOMO_RETURN_IF_ERROR(forEachStack(data, [&](const Array3<float>& a) {
                return binFrames(a, options.binRows, options.binColumns, c);
            }));
        if (c.progress) c.progress->done();
        return Status::ok();
    };
    TOMO_RETURN_IF_ERROR(run("crop/bin", geometryStep));
    auto zingerStep = [&](const ExecContext& c) -> Status {
        if (options.zingers->mode != ThresholdMode::LineIntegral) {
            TOMO_ASSIGN_OR_RETURN(local.zingers,
                                  removeZingers(data.projections, *options.zingers, c));
            return Status::ok();
        }
        // Line integrals: windows in each row's sinogram (angle x detector), where a zinger is
        // isolated and a thin feature is a line across the angles (OutlierRemoval.h).
        TOMO_ASSIGN_OR_RETURN(Sinograms sinograms, toSinograms(data.projections));
        TOMO_ASSIGN_OR_RETURN(local.zingers, removeZingers(sinograms, *options.zingers, c));
        TOMO_ASSIGN_OR_RETURN(data.projections, toSinograms(sinograms));
        return Status::ok();
    };
    if (options.zingers) TOMO_RETURN_IF_ERROR(run("zingers", zingerStep));
    auto flatDarkStep = [&](const ExecContext& c) -> Status {
        FlatFieldOptions ff = options.flatField;
        ff.projectionPositions = positions;
        if (options.flatsBefore && ff.flatPositions.empty()) {
            const std::size_t flats = data.flats.dim(0);
            if (*options.flatsBefore > flats)
                return invalidArgument(std::to_string(*options.flatsBefore) +
                                       " flats before the scan, but the input has " +
                                       std::to_string(flats) + " flats");
            // Before: one step ahead of the scan's first projection; after: one step beyond its
            // last (of the whole acquisition, also when fewer angles are kept).
            for (std::size_t i = 0; i < flats; ++i)
                ff.flatPositions.push_back(i < *options.flatsBefore ? scanStart - 1 : scanEnd + 1);
        }
        TOMO_ASSIGN_OR_RETURN(local.flatField,
                              correctFlatField(data.projections, data.flats, data.darks, ff, c));
        return Status::ok();
    };
    if (options.flatDark) TOMO_RETURN_IF_ERROR(run("flat/dark", flatDarkStep));
    if (options.paganin)
        TOMO_RETURN_IF_ERROR(run("paganin", [&](const ExecContext& c) {
            return retrievePhasePaganin(data.projections, *options.paganin, c);
        }));
    auto logStep = [&](const ExecContext& c) -> Status {
        TOMO_ASSIGN_OR_RETURN(local.minusLog, minusLog(data.projections, options.logEpsilon, c));
        return Status::ok();
    };
    if (options.minusLog) TOMO_RETURN_IF_ERROR(run("minus-log", logStep));
    if (options.rings == RingMethod::Sorting)
        TOMO_RETURN_IF_ERROR(run("rings", [&](const ExecContext& c) {
            return removeStripesSorting(data.projections, options.sorting, c);
        }));
    if (options.rings == RingMethod::FourierWavelet)
        TOMO_RETURN_IF_ERROR(run("rings", [&](const ExecContext& c) {
            return removeStripesFourierWavelet(data.projections, options.fourierWavelet, c);
        }));
    data.metadata["preprocessing"] = describe(options);
    if (summary) *summary = local;
    return Status::ok();
}

}  // namespace tomo
