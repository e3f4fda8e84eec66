// tomo preprocess: flat/dark normalisation, zingers, Paganin, minus-log, rings, binning and
// cropping of an acquisition, written as a float stack [angle][row][column].
#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/PreprocessArgs.h"
#include "app/cli/ReadOptionsArgs.h"
#include "app/data/AcquisitionLoader.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/preprocess/SinogramPreprocess.h"

namespace tomo::cli {
namespace {

/// "A:B" (half-open, either side may be empty) into an IndexRange.
Result<IndexRange> range(const std::string& text, const std::string& option) {
    const auto p = split(text, ':');
    if (p.size() != 2) return invalidArgument(option + ": expected FIRST:END, got '" + text + "'");
    IndexRange r;
    if (!p[0].empty()) {
        TOMO_ASSIGN_OR_RETURN(double a, number(p[0], option));
        if (a < 0) return invalidArgument(option + ": negative index in '" + text + "'");
        r.first = static_cast<std::size_t>(a);
    }
    if (!p[1].empty()) {
        TOMO_ASSIGN_OR_RETURN(double b, number(p[1], option));
        if (b <= static_cast<double>(r.first))
            return invalidArgument(option + ": empty range '" + text + "'");
        r.count = static_cast<std::size_t>(b) - r.first;
    }
    return r;
}

}  // namespace

void addPreprocessOptions(ArgParser& args) {
    args.flag("flat-dark", "normalise by the flats and darks of the input, then take -log");
    args.option("flats-before", "N",
                "the first N flats were taken before the scan, the rest after: interpolate");
    args.flag("no-log", "with --flat-dark: keep transmissions (no -log)");
    args.option("zinger", "T",
                "remove zingers differing from the 3x3 median by more than T (a fraction of "
                "the median; on sinograms, line integrals above the median by more than T)");
    args.option("zinger-size", "K", "median window of --zinger (odd)", "3");
    args.option("rings", "METHOD", "ring removal: vo (sorting-based) or fw (Fourier-wavelet)");
    args.option("ring-size", "K",
                "median window of --rings vo (odd, pixels; 0 = 1% of the width, at least 5)", "0");
    args.option("ring-levels", "L", "wavelet levels of --rings fw (0 = automatic)", "0");
    args.option("ring-sigma", "S", "damping width of --rings fw", "2");
    args.option("ring-snr", "T",
                "--rings changes only the columns detected as stripes at T robust standard "
                "deviations (0 = every column, as published)",
                "3");
    args.option("paganin", "E,Z,PIX,DB",
                "Paganin phase retrieval: energy keV, distance mm, pixel um, delta/beta");
    args.option("bin", "N|RxC", "bin detector rows x columns (N = NxN)");
    args.option("crop", "R0:R1,C0:C1", "keep detector rows [R0,R1) and columns [C0,C1)");
    args.option("angle-range", "FIRST:END[:STEP]", "keep projections FIRST..END-1, every STEP-th");
}

Result<PreprocessOptions> preprocessOptionsFromArgs(const ArgParser& args, std::size_t flatCount) {
    PreprocessOptions o;
    o.flatDark = args.has("flat-dark");
    o.minusLog = o.flatDark && !args.has("no-log");
    if (args.get("flats-before")) {
        TOMO_ASSIGN_OR_RETURN(int n, args.getInt("flats-before", 0, 0, 1 << 30));
        if (static_cast<std::size_t>(n) > flatCount)
            return invalidArgument("--flats-before " + std::to_string(n) + " exceeds the " +
                                   std::to_string(flatCount) + " flats of the input");
        o.flatsBefore = static_cast<std::size_t>(n);
    }
    if (args.has("zinger")) {
        ZingerOptions z;
        TOMO_ASSIGN_OR_RETURN(z.threshold, args.getDouble("zinger", 0.2, 1e-12, 1e12));
        TOMO_ASSIGN_OR_RETURN(z.size, args.getInt("zinger-size", 3, 3, 31));
        o.zingers = z;
    }
    if (auto rings = args.get("rings")) {
        TOMO_ASSIGN_OR_RETURN(o.rings, parseRingMethod(*rings));
        TOMO_ASSIGN_OR_RETURN(o.sorting.size, args.getInt("ring-size", 0, 0, 1001));
        TOMO_ASSIGN_OR_RETURN(o.fourierWavelet.levels, args.getInt("ring-levels", 0, 0, 12));
        TOMO_ASSIGN_OR_RETURN(o.fourierWavelet.sigma, args.getDouble("ring-sigma", 2, 1e-6, 1e6));
        TOMO_ASSIGN_OR_RETURN(o.sorting.snr, args.getDouble("ring-snr", kDefaultStripeSnr, 0, 1e6));
        o.fourierWavelet.snr = o.sorting.snr;
    }
    if (auto pg = args.get("paganin")) {
        const auto p = split(*pg, ',');
        if (p.size() != 4)
            return invalidArgument(
                "--paganin: expected E,Z,PIX,DB (keV, mm, um, delta/beta), got '" + *pg + "'");
        PaganinOptions pag;
        TOMO_ASSIGN_OR_RETURN(pag.energyKeV, number(p[0], "--paganin"));
        TOMO_ASSIGN_OR_RETURN(pag.distanceMm, number(p[1], "--paganin"));
        TOMO_ASSIGN_OR_RETURN(pag.pixelSizeUm, number(p[2], "--paganin"));
        TOMO_ASSIGN_OR_RETURN(pag.deltaOverBeta, number(p[3], "--paganin"));
        TOMO_RETURN_IF_ERROR(pag.validate().withContext("--paganin"));
        o.paganin = pag;
    }
    if (auto bin = args.get("bin")) {
        const auto p = split(*bin, 'x');
        if (p.empty() || p.size() > 2)
            return invalidArgument("--bin: expected N or RxC, got '" + *bin + "'");
        TOMO_ASSIGN_OR_RETURN(double r, number(p[0], "--bin"));
        double c = r;
        if (p.size() == 2) {
            TOMO_ASSIGN_OR_RETURN(c, number(p[1], "--bin"));
        }
        if (r < 1 || c < 1 || r != std::floor(r) || c != std::floor(c) || r > 1024 || c > 1024)
            return invalidArgument("--bin: factors must be integers in [1, 1024], got '" + *bin +
                                   "'");
        o.binRows = static_cast<int>(r);
        o.binColumns = static_cast<int>(c);
    }
    if (auto crop = args.get("crop")) {
        const auto p = split(*crop, ',');
        if (p.size() != 2)
            return invalidArgument("--crop: expected R0:R1,C0:C1, got '" + *crop + "'");
        TOMO_ASSIGN_OR_RETURN(o.cropRows, range(p[0], "--crop rows"));
        TOMO_ASSIGN_OR_RETURN(o.cropColumns, range(p[1], "--crop columns"));
    }
    if (auto ar = args.get("angle-range")) {
        auto p = split(*ar, ':');
        if (p.size() == 3) {
            TOMO_ASSIGN_OR_RETURN(double step, number(p[2], "--angle-range"));
            if (step < 1 || step != std::floor(step))
                return invalidArgument("--angle-range: the step must be a positive integer");
            o.angleStep = static_cast<std::size_t>(step);
            p.pop_back();
        }
        if (p.size() != 2)
            return invalidArgument("--angle-range: expected FIRST:END[:STEP], got '" + *ar + "'");
        TOMO_ASSIGN_OR_RETURN(o.angleRange, range(p[0] + ":" + p[1], "--angle-range"));
    }
    TOMO_RETURN_IF_ERROR(o.validate());
    return o;
}

ArgParser preprocessParser() {
    ArgParser args("preprocess",
                   "Preprocesses an acquisition (projections [angle][row][column] with flats, "
                   "darks and angles) and writes the projections as a float stack.");
    args.positional("INPUT", "acquisition (.h5/.nxs DXchange or NXtomo, .tif stack, .raw)");
    args.option("output", "FILE", "output stack [angle][row][column] (.tif, .raw, .h5)",
                std::nullopt, "o");
    args.option("shape", "ANGLESxROWSxCOLUMNS", "shape of a raw input");
    args.option("angle-unit", "UNIT", "auto | deg | rad: unit of the input's angles", "auto");
    args.option("dataset", "PATH", "HDF5 dataset to read");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("quiet", "no progress bar");
    args.flag("sinograms",
              "INPUT is a sinogram stack [slice][angle][detector] of line integrals (as tomo "
              "recon reads it): angle range, crop, bin, zingers and rings apply, the output is "
              "a sinogram stack");
    addPreprocessOptions(args);
    args.epilog(
        "Steps run in this order: angle range, crop, bin, zingers, flat/dark, Paganin, "
        "-log, rings (docs/preprocessing.md).\nexample:\n  tomo preprocess scan.h5 -o "
        "proj.tif --flat-dark --zinger 0.3 --rings vo --bin 2\n  tomo preprocess sino.tif "
        "--sinograms -o clean.tif --rings vo --zinger 0.5");
    return args;
}

namespace {

/// `tomo preprocess --sinograms`: a sinogram stack in, a sinogram stack out (SinogramPreprocess.h).
Status preprocessSinogramFile(const ArgParser& args, const FormatRegistry& registry,
                              const ReadOptions& readOptions, const std::string& output,
                              int threads) {
    const std::string input = *args.get("INPUT");
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(input));
    if (app::isAcquisitionFormat(*format))
        return invalidArgument(input +
                               ": --sinograms reads a sinogram stack; this file is an "
                               "acquisition (drop --sinograms)");
    TOMO_ASSIGN_OR_RETURN(app::LoadedSinograms loaded,
                          app::readSinogramFile(registry, input, readOptions, ExecContext{}));
    TOMO_ASSIGN_OR_RETURN(PreprocessOptions options, preprocessOptionsFromArgs(args, 0));
    options = forSinograms(options);
    InterruptToStop interrupt;
    ProgressBar bar(args.has("quiet"));
    Progress progress(&bar);
    ExecContext ctx{threads, interrupt.token(), &progress};
    PreprocessSummary summary;
    TOMO_RETURN_IF_ERROR(
        preprocessSinograms(loaded.sinograms, loaded.angles, options, ctx, &summary));
    bar.finish();
    WriteOptions write;
    write.provenance["input"] = input;
    write.provenance["preprocessing"] = describe(options);
    TOMO_RETURN_IF_ERROR(registry.writeVolume(output, loaded.sinograms, write));
    std::printf("preprocessed %zu sinograms of %zux%zu -> %s\n  steps: %s\n",
                loaded.sinograms.dim(0), loaded.sinograms.dim(1), loaded.sinograms.dim(2),
                output.c_str(), describe(options).c_str());
    if (options.zingers) std::printf("  zingers replaced %zu\n", summary.zingers.replaced);
    return Status::ok();
}

}  // namespace

int runPreprocess(int argc, char** argv) {
    ArgParser args = preprocessParser();
    return runCommand(args, argc, argv, [&]() -> Status {
        const auto output = args.get("output");
        if (!output) return invalidArgument("missing -o/--output");
        TOMO_RETURN_IF_ERROR(checkWritableOutput(*output));
        TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
        TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
        TOMO_ASSIGN_OR_RETURN(ReadOptions readOptions, readOptionsFromArgs(args));
        if (args.has("sinograms"))
            return preprocessSinogramFile(args, registry, readOptions, *output, threads);
        TOMO_ASSIGN_OR_RETURN(auto reader,
                              registry.openAcquisition(*args.get("INPUT"), readOptions));
        TOMO_ASSIGN_OR_RETURN(ProjectionData data, reader->read());
        TOMO_ASSIGN_OR_RETURN(PreprocessOptions options,
                              preprocessOptionsFromArgs(args, data.flats.dim(0)));
        InterruptToStop interrupt;
        ProgressBar bar(args.has("quiet"));
        Progress progress(&bar);
        ExecContext ctx{threads, interrupt.token(), &progress};
        PreprocessSummary summary;
        TOMO_RETURN_IF_ERROR(preprocess(data, options, ctx, &summary));
        bar.finish();
        WriteOptions write;
        write.provenance["input"] = *args.get("INPUT");
        write.provenance["preprocessing"] = data.metadata["preprocessing"];
        TOMO_RETURN_IF_ERROR(registry.writeVolume(*output, data.projections, write));
        std::printf("preprocessed %zu projections of %zux%zu -> %s\n  steps: %s\n",
                    data.projections.dim(0), data.projections.dim(1), data.projections.dim(2),
                    output->c_str(), data.metadata["preprocessing"].c_str());
        if (options.flatDark)
            std::printf("  flat references %zu, clamped denominators %zu, clamped log values %zu\n",
                        summary.flatField.flatReferences, summary.flatField.clampedDenominators,
                        summary.minusLog.clampedValues);
        if (options.zingers) std::printf("  zingers replaced %zu\n", summary.zingers.replaced);
        if (options.cropColumns.first != 0 || options.binColumns != 1)
            std::printf("  centre of rotation: C_out = (C_in - %zu + 0.5) / %d - 0.5 pixels\n",
                        options.cropColumns.first, options.binColumns);
        return Status::ok();
    });
}

}  // namespace tomo::cli
