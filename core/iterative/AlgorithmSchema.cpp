#include "core/iterative/AlgorithmSchema.h"

#include "core/iterative/MbirReconstruction.h"
#include "core/solvers/IterationCorner.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tomo {
namespace {

ParameterSpec integerParam(std::string name, std::string label, int def, int lo, int hi,
                           std::string units, std::string description) {
    ParameterSpec p;
    p.name = std::move(name);
    p.label = std::move(label);
    p.type = ParameterType::Integer;
    p.defaultValue = std::to_string(def);
    p.minimum = lo;
    p.maximum = hi;
    p.units = std::move(units);
    p.description = std::move(description);
    return p;
}

ParameterSpec realParam(std::string name, std::string label, std::string def, double lo, double hi,
                        bool logScale, std::string units, std::string description) {
    ParameterSpec p;
    p.name = std::move(name);
    p.label = std::move(label);
    p.type = ParameterType::Real;
    p.defaultValue = std::move(def);
    p.minimum = lo;
    p.maximum = hi;
    p.logScale = logScale;
    p.units = std::move(units);
    p.description = std::move(description);
    return p;
}

ParameterSpec boolParam(std::string name, std::string label, bool def, std::string description) {
    ParameterSpec p;
    p.name = std::move(name);
    p.label = std::move(label);
    p.type = ParameterType::Boolean;
    p.defaultValue = def ? "true" : "false";
    p.description = std::move(description);
    return p;
}

ParameterSpec choiceParam(std::string name, std::string label, std::vector<std::string> choices,
                          std::string description) {
    ParameterSpec p;
    p.name = std::move(name);
    p.label = std::move(label);
    p.type = ParameterType::Choice;
    p.defaultValue = choices.front();
    p.choices = std::move(choices);
    p.description = std::move(description);
    return p;
}

ParameterSpec iterationsParam(int def) {
    return integerParam("iterations", "Iterations", def, 1, 100000, "iterations",
                        "Number of iterations (the callback or the tolerance may stop earlier).");
}

ParameterSpec toleranceParam() {
    return realParam("tolerance", "Tolerance", "0", 0, 1, false, "",
                     "Stop when ||Ax - b|| / ||b|| falls to this value (0: never).");
}

ParameterSpec relaxationParam() {
    return realParam("relaxation", "Relaxation", "1", 1e-3, 1.999, false, "",
                     "Relaxation factor lambda of the update, in (0, 2).");
}

ParameterSpec nonNegativeParam(bool def) {
    return boolParam("nonnegative", "Non-negative", def,
                     "Project the image onto non-negative values after every update.");
}

ParameterSpec projectorParam() {
    return choiceParam("projector", "Projector", {"locality", "matched"},
                       "locality: a ray-driven forward and a tiled voxel-driven "
                       "back-projection ordered for the CPU's caches (fast; not exact "
                       "transposes of each other); matched: Joseph's projector and its exact "
                       "transpose.");
}

ParameterSpec orderingParam() {
    return choiceParam("ordering", "Ray ordering",
                       {"segments", "strips-consecutive", "strips", "unordered"},
                       "How the locality forward projector groups rays into blocks that "
                       "stay in cache: short segments of rays (fastest), strips at "
                       "consecutive angles, strips, or no ordering. Same result, other speed.");
}

/// The default stopping rule of an iterative algorithm and its tau (docs/accuracy.md,
/// "Defaults study": chosen on a grid of independent cases, the sinograms of other programs
/// among them). The semi-converging solvers stop by the discrepancy principle with the noise
/// estimated from the data; TV converges to the minimum of its cost and runs its count.
std::string defaultStopRule(const std::string& id) {
    return id == "tv" ? "none" : "discrepancy";
}

/// The discrepancy principle's tau of each method (docs/accuracy.md, "Defaults study", issue 29's
/// fourth round), chosen on the 12 undersampled or noisy cases of the study's grid (256^2 and
/// 512^2, 60-720 views, 1e3-2e4 counts, sinograms of other programs among them) from
/// 0.9-1.2 against each method's best iterate. Morozov's tau > 1 assumes the residual of the best
/// iterate is the noise norm; the methods that fit the data fastest per iteration pass their best
/// iterate with a residual below it. Worst default / best iterate on those cases:
/// - SIRT 0.95 with its relaxation 1 (1.036; 1.05: 1.29, discs at 720 views; with the former
///   relaxation 1.9, 1.05 was best, 1.099, on the 512^2 discs with 3% of their rays at zero
///   counts);
/// - OS-SIRT 0.95 (1.036; 1.05: 1.27, discs at 720 views and 1e4 counts: stopped at 10 of 21);
/// - SART 1.0 with its relaxation min(0.5, 10 / angles) (1.085; 1.05: 1.27, discs at 720 views;
///   with the former relaxation 20 / angles, 1.148 at any tau from 0.95 to 1.25: its best was
///   pass 2 on the 512^2 discs, the rule stopped at pass 3);
/// - MemXCT 1.0 (1.025; 1.05: 1.11);
/// - CGLS keeps 1.05 (the study of issue 29's second round).
std::string defaultStopTau(const std::string& id) {
    if (id == "sirt" || id == "os-sirt") return "0.95";
    if (id == "memxct" || id == "sart") return "1";
    return "1.05";
}

/// The warm start of CGLS and TV (@p first is the default): fbp, the FBP image (CPU), or zeros.
/// TV starts from FBP (it then never ends above FBP on the documented cases); CGLS from zeros,
/// where its semi-convergence, and so its stopping rules, are measured (docs/algorithms.md).
ParameterSpec initParam(const std::string& first) {
    const std::string second = first == "fbp" ? "zero" : "fbp";
    return choiceParam("init", "Initial image", {first, second},
                       "fbp: start from the FBP image (CPU); zero: from zeros. An initial image "
                       "given by the caller (the GUI's warm restart) takes precedence.");
}

/// The stopping-rule parameters every iterative algorithm takes (core/solvers/StoppingRule.h).
void addStoppingParams(AlgorithmSpec& s) {
    std::vector<std::string> rules{"none", "corner", "discrepancy", "rel-change"};
    if (!s.cornerWhyNot.empty()) rules.erase(rules.begin() + 1);
    ParameterSpec rule = choiceParam(
        "stop", "Stopping rule", std::move(rules),
        "none: run the iterations; corner: return the iterate at the L-curve corner (after "
        "running stop-patience iterations past it; without one, the discrepancy principle's); "
        "discrepancy: stop when ||Ax - b|| reaches stop-tau times the noise norm; rel-change: "
        "stop when ||x_k - x_k-1|| / ||x_k|| falls to stop-tol.");
    rule.defaultValue = defaultStopRule(s.id);
    s.parameters.push_back(std::move(rule));
    // tau of the default rule against the consistency estimate of the noise (SinogramNoise.h):
    // defaultStopTau, per method. Before, 1.05 for every method, chosen on 48 `tomo phantom`
    // cases at 128^2 (4 phantoms, 60-360 views, 1e4-1e6 counts; docs/accuracy.md).
    s.parameters.push_back(realParam("stop-tau", "Discrepancy tau", defaultStopTau(s.id), 0.5, 2,
                                     false, "",
                                     "discrepancy (and corner's fallback): stop at ||Ax - b|| <= "
                                     "tau sigma sqrt(m), sigma the noise of one value."));
    s.parameters.push_back(realParam("stop-tol", "Relative change", "0.001", 1e-9, 1, true, "",
                                     "rel-change: stop when ||x_k - x_k-1|| / ||x_k|| falls to "
                                     "this value."));
    s.parameters.push_back(realParam("noise-sigma", "Noise sigma", "0", 0, 1e6, false, "",
                                     "discrepancy: noise standard deviation of one sinogram "
                                     "value (0: estimated from the data)."));
    s.parameters.push_back(integerParam("stop-patience", "Corner patience", 5, 1, 1000,
                                        "iterations",
                                        "corner: iterations run past a stable L-curve corner "
                                        "before stopping; the corner's iterate is returned."));
}

/// FBP's filter window and cutoff (FBP's and gridrec's, the same filters).
void addFilterParams(AlgorithmSpec& s) {
    s.parameters.push_back(choiceParam("filter", "Filter",
                                       {"ramp", "shepp-logan", "cosine", "hamming", "hann"},
                                       "Apodisation window of the ramp filter."));
    s.parameters.push_back(realParam("cutoff", "Cutoff", "1", 0.01, 1, false, "",
                                     "Filter cutoff as a fraction of Nyquist."));
}

/// Gridrec, the Fourier-domain reconstruction (core/fourier): FBP's filters, the gridding's
/// accuracy and its explicit parameters for studies (docs/accuracy.md).
AlgorithmSpec gridrecSpec() {
    AlgorithmSpec s;
    s.id = "gridrec";
    s.label = "Gridrec (Fourier)";
    s.iterative = false;
    s.description =
        "FBP computed in Fourier space (TomoPy's default): O(N^2 log N) per slice instead of "
        "N^3, for large images and live previews; FBP's filters, quantitative like FBP.";
    s.reference =
        "B. A. Dowd et al., Proc. SPIE 3772, 1999, doi:10.1117/12.363725; F. Marone, "
        "M. Stampanoni, J. Synchrotron Rad. 19, 2012, doi:10.1107/S0909049512032864";
    addFilterParams(s);
    s.parameters.push_back(choiceParam(
        "interpolation", "Interpolation", {"linear", "nearest", "trigonometric"},
        "How the filtered rows are read between samples: linear and nearest as FBP's (their "
        "low-pass as a frequency response: FBP's image), trigonometric exactly (sharper, "
        "noisier with the ramp; TomoPy's gridrec)."));
    s.parameters.push_back(realParam("tolerance", "Tolerance", "0.001", 1e-7, 0.1, true, "",
                                     "Error the gridding may add, relative to the image's "
                                     "largest values; chooses the kernel and oversampling."));
    s.parameters.push_back(realParam("oversampling", "Oversampling (0: auto)", "0", 0, 4, false, "",
                                     "Fourier grid size over image size, 1.1 to 4 (0: chosen "
                                     "from the tolerance)."));
    s.parameters.push_back(integerParam("kernel-width", "Kernel width (0: auto)", 0, 0, 16,
                                        "points",
                                        "Kaiser-Bessel kernel width in grid points, 2 to 16 (0: "
                                        "chosen from the tolerance)."));
    s.parameters.push_back(choiceParam("precision", "GPU precision", {"float32", "half"},
                                       "half: sinograms and images stored as binary16 on a GPU "
                                       "(half the transfers; error in docs/accuracy.md); the "
                                       "CPU computes in float32."));
    return s;
}

const char* kPaper001 =
    "W. J. Palenstijn, K. J. Batenburg, J. Sijbers, J. Struct. Biol. 176(2), 2011, "
    "doi:10.1016/j.jsb.2011.07.017";

}  // namespace

std::vector<AlgorithmSpec> algorithmSpecs() {
    std::vector<AlgorithmSpec> specs;
    {
        AlgorithmSpec s;
        s.id = "fbp";
        s.label = "FBP";
        s.iterative = false;
        s.description =
            "Filtered back-projection: one pass, the fastest; best for complete, "
            "well-sampled, low-noise data.";
        s.reference =
            "A. C. Kak, M. Slaney, Principles of Computerized Tomographic Imaging, "
            "1988, doi:10.1137/1.9780898719277";
        addFilterParams(s);
        s.parameters.push_back(choiceParam(
            "method", "Method", {"direct", "auto"},
            "direct: back-projection in image space; auto: gridrec (FBP in Fourier space) "
            "instead when predicted faster for the job within the tolerance "
            "(docs/selection.md)."));
        s.parameters.push_back(realParam("tolerance", "Tolerance (auto)", "0.001", 1e-7, 0.1, true,
                                         "",
                                         "method auto: the error gridrec may add, relative to "
                                         "the image's largest values."));
        s.parameters.push_back(choiceParam(
            "projector", "Back-projector", {"pixel", "joseph"},
            "pixel: pixel-driven, each pixel reads the filtered rows by detector interpolation "
            "(every backend and variant, the fastest); joseph: the exact transpose of Joseph's "
            "forward projector (tomo project), as ASTRA's CPU FBP with its 'linear' projector "
            "(CPU, double accumulation, slower)."));
        specs.push_back(std::move(s));
    }
    specs.push_back(gridrecSpec());
    {
        AlgorithmSpec s;
        s.id = "sirt";
        s.label = "SIRT";
        s.description =
            "Simultaneous iterative reconstruction: smooth, robust convergence; "
            "stop early on noisy data (watch the L-curve).";
        s.reference = kPaper001;
        // lambda 1 (1.9 before issue 29's fourth round: about half the iterations to the same
        // best error on most cases, but components of the highest frequencies then flip sign each
        // step (1 - 1.9) and carry the noise: on the photon-starved discs at 60 views the best
        // iterate was 0.1446 against 0.1045 with lambda 1, and 0.1614 against 0.1151 at 512^2;
        // ASTRA's best SIRT, lambda 1, is 0.1079 and 0.1197). The stopping rule ends the run.
        s.parameters = {iterationsParam(500), relaxationParam(), nonNegativeParam(false),
                        toleranceParam(),     projectorParam(),  orderingParam()};
        specs.push_back(std::move(s));
    }
    {
        AlgorithmSpec s;
        s.id = "os-sirt";
        s.label = "OS-SIRT";
        s.description =
            "SIRT over S interleaved angle subsets per iteration: about S times "
            "faster convergence per pass, noisier when S is large.";
        s.reference = kPaper001;
        s.parameters = {iterationsParam(200),
                        integerParam("subsets", "Subsets", 5, 1, 100000, "",
                                     "Number S of interleaved angle subsets (at most the "
                                     "number of projections)."),
                        relaxationParam(),
                        nonNegativeParam(false),
                        toleranceParam(),
                        projectorParam(),
                        orderingParam()};
        specs.push_back(std::move(s));
    }
    {
        AlgorithmSpec s;
        s.id = "sart";
        s.label = "SART";
        s.description =
            "Simultaneous ART, one projection at a time: the fastest initial "
            "convergence per pass; its automatic relaxation shrinks with the number of "
            "projections.";
        s.reference =
            "A. H. Andersen, A. C. Kak, Ultrasonic Imaging 6(1), 1984, "
            "doi:10.1177/016173468400600107";
        // One projection per update leaves a limit cycle whose noise grows with lambda and the
        // number of projections per pass: lambda angles <= 20 kept SART within a few percent of
        // its best iterate from 60 to 720 angles (docs/accuracy.md, "Defaults study"); 10 (issue
        // 29's fourth round) halves each pass, so the discrepancy rule no longer overshoots a best
        // iterate at pass 2 on photon-starved data (the 512^2 discs: 1.15x -> 1.00x, their best
        // 0.190 -> 0.119), in about twice the passes.
        const ParameterSpec relax =
            realParam("relaxation", "Relaxation", "0", 0, 1.999, false, "",
                      "Relaxation lambda of each projection's update; 0: automatic, "
                      "min(0.5, 10 / angles).");
        s.parameters = {iterationsParam(50),     relax,
                        nonNegativeParam(false), toleranceParam(),
                        projectorParam(),        orderingParam()};
        specs.push_back(std::move(s));
    }
    {
        AlgorithmSpec s;
        s.id = "cgls";
        s.label = "CGLS";
        s.description =
            "Conjugate gradients on the least-squares problem (matched projector "
            "pair): the fastest convergence; stop at the L-curve corner on noisy "
            "data or add Tikhonov damping.";
        s.reference =
            "M. R. Hestenes, E. Stiefel, J. Res. NBS 49(6), 1952, "
            "doi:10.6028/jres.049.044; A. Bjorck, Numerical Methods for Least "
            "Squares Problems, SIAM 1996, doi:10.1137/1.9781611971484";
        s.parameters = {iterationsParam(30),
                        realParam("lambda", "Tikhonov lambda", "0", 0, 1e6, true, "",
                                  "Damping: minimises ||Ax - b||^2 + lambda^2 ||x||^2."),
                        toleranceParam(), initParam("zero")};
        specs.push_back(std::move(s));
    }
    {
        AlgorithmSpec s;
        s.id = "tv";
        s.label = "TV";
        s.description =
            "Total-variation regularised least squares (Chambolle-Pock): "
            "piecewise-constant images from noisy or few projections; choose "
            "lambda with an L-curve sweep.";
        s.reference =
            "A. Chambolle, T. Pock, J. Math. Imaging Vis. 40(1), 2011, "
            "doi:10.1007/s10851-010-0251-1; E. Y. Sidky, J. H. Jorgensen, X. Pan, "
            "Phys. Med. Biol. 57(10), 2012, doi:10.1088/0031-9155/57/10/3065";
        // 300 iterations (150 before issue 29's fourth round, 250 before its fifth): on the
        // defaults study's 12 undersampled or noisy cases the 150th iterate was up to 1.21x the
        // best of 400; with the lambda of the fifth round (sqrt(n / 128) larger) the photon-
        // starved discs at 720 views still fall slowly, 1.14x at 250 and 1.08x at 300
        // (docs/accuracy.md, "Fifth round").
        s.parameters = {iterationsParam(300),
                        realParam("lambda", "TV lambda", "0", 0, 1e6, true, "",
                                  "Weight of the total variation: minimises "
                                  "1/2 ||Ax - b||^2 + lambda TV(x); 0: automatic, "
                                  "sigma sqrt(angles n / 128) from the data's noise level "
                                  "sigma (n: the image side in pixels)."),
                        nonNegativeParam(true), toleranceParam(), initParam("fbp")};
        s.cornerWhyNot =
            "no L-curve corner for TV: its iterations converge to the minimum of 1/2 ||Ax - b||^2 "
            "+ lambda TV(x) instead of semi-converging, so the curve of its iterates has no "
            "corner that picks an image; lambda is its regularisation (an L-curve over lambda: "
            "sweepRegularization)";
        specs.push_back(std::move(s));
    }
    {
        AlgorithmSpec s;
        s.id = "memxct";
        s.label = "MemXCT";
        s.description =
            "CGLS on the MemXCT memory-centric engine: the Siddon system matrix is "
            "built once (Hilbert-ordered, input-buffered) and reused for every slice "
            "and iteration; best for many slices or iterations on one geometry.";
        s.reference =
            "M. Hidayetoglu et al., MemXCT: Memory-Centric X-ray CT Reconstruction "
            "with Massive Parallelization, SC'19, doi:10.1145/3295500.3356220";
        s.parameters = {iterationsParam(30),
                        realParam("lambda", "Tikhonov lambda", "0", 0, 1e6, true, "",
                                  "Damping: minimises ||Ax - b||^2 + lambda^2 ||x||^2."),
                        toleranceParam(),
                        choiceParam("kernel", "SpMV kernel", {"buffered", "csr"},
                                    "buffered: the matrix product staged through small "
                                    "input buffers that stay in cache (faster); csr: the plain "
                                    "row-by-row product. Same result, other speed."),
                        integerParam("tile", "Hilbert tile", 32, 1, 4096, "pixels",
                                     "Side of the pseudo-Hilbert tiles of image and sinogram "
                                     "(a power of two)."),
                        boolParam("circle-mask", "Circle mask", true,
                                  "Reconstruct only the pixels inside the inscribed circle "
                                  "(the others are 0)."),
                        choiceParam("distribute", "Under mpirun", {"auto", "slices", "spmv"},
                                    "Only for mpirun -np N tomo recon. slices: each rank "
                                    "solves its share of the slices with the whole matrix; "
                                    "spmv: the matrix of every slice partitioned over the ranks "
                                    "(MemXCT's distributed SpMV, for a slice too big for one "
                                    "machine); auto: spmv when there are fewer slices than "
                                    "ranks.")};
        specs.push_back(std::move(s));
    }
    for (AlgorithmSpec& s : specs)
        if (s.iterative) addStoppingParams(s);
    // MBIR runs to the minimum of its cost: its own rules (relative update, golden image).
    specs.push_back(mbirAlgorithmSpec());
    return specs;
}

Result<std::size_t> iterationCornerOf(const AlgorithmSpec& spec,
                                      std::span<const LCurvePoint> points) {
    if (!spec.cornerWhyNot.empty()) return invalidArgument(spec.cornerWhyNot);
    return iterationCorner(points);
}

Result<AlgorithmSpec> findAlgorithm(std::string_view id) {
    std::string known;
    for (AlgorithmSpec& s : algorithmSpecs()) {
        if (s.id == id) return std::move(s);
        known += (known.empty() ? "" : ", ") + s.id;
    }
    return notFound("unknown algorithm '" + std::string(id) + "' (known: " + known + ")");
}

namespace {

bool parseNumber(const std::string& text, double& out) {
    const char* first = text.data();
    const char* last = first + text.size();
    auto [ptr, ec] = std::from_chars(first, last, out);
    return ec == std::errc() && ptr == last && std::isfinite(out);
}

/// A bound as the user would write it ("1e-07", "0.1"; std::to_string prints 0.000000).
std::string boundText(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

Status checkValue(const ParameterSpec& p, const std::string& text) {
    const std::string where = "parameter '" + p.name + "': ";
    switch (p.type) {
        case ParameterType::Integer: {
            double v = 0;
            if (!parseNumber(text, v) || v != std::floor(v))
                return invalidArgument(where + "'" + text + "' is not an integer");
            if (v < p.minimum || v > p.maximum)
                return invalidArgument(where + text + " is outside [" +
                                       std::to_string(static_cast<long long>(p.minimum)) + ", " +
                                       std::to_string(static_cast<long long>(p.maximum)) + "]");
            return Status::ok();
        }
        case ParameterType::Real: {
            double v = 0;
            if (!parseNumber(text, v))
                return invalidArgument(where + "'" + text + "' is not a number");
            if (v < p.minimum || v > p.maximum)
                return invalidArgument(where + text + " is outside [" + boundText(p.minimum) +
                                       ", " + boundText(p.maximum) + "]");
            return Status::ok();
        }
        case ParameterType::Boolean:
            if (text == "true" || text == "false" || text == "1" || text == "0")
                return Status::ok();
            return invalidArgument(where + "'" + text + "' is not true/false");
        case ParameterType::Choice: {
            std::string list;
            for (const std::string& c : p.choices) {
                if (c == text) return Status::ok();
                list += (list.empty() ? "" : ", ") + c;
            }
            return invalidArgument(where + "'" + text + "' is not one of " + list);
        }
    }
    return internalError(where + "unknown type");
}

}  // namespace

Result<ParameterValues> ParameterValues::resolve(const AlgorithmSpec& spec,
                                                 const std::map<std::string, std::string>& given) {
    ParameterValues values;
    for (const auto& [key, text] : given) {
        const ParameterSpec* found = nullptr;
        for (const ParameterSpec& p : spec.parameters)
            if (p.name == key) found = &p;
        if (!found) {
            std::string names;
            for (const ParameterSpec& p : spec.parameters)
                names += (names.empty() ? "" : ", ") + p.name;
            return invalidArgument("unknown parameter '" + key + "' for " + spec.id +
                                   " (parameters: " + (names.empty() ? "none" : names) + ")");
        }
        if (key == "stop" && text == "corner" && !spec.cornerWhyNot.empty())
            return invalidArgument("parameter 'stop': corner does not apply: " + spec.cornerWhyNot);
        TOMO_RETURN_IF_ERROR(checkValue(*found, text));
        values.m_values[key] = found->type == ParameterType::Boolean
                                   ? (text == "true" || text == "1" ? "true" : "false")
                                   : text;
    }
    for (const ParameterSpec& p : spec.parameters)
        if (!values.m_values.count(p.name)) values.m_values[p.name] = p.defaultValue;
    return values;
}

int ParameterValues::integer(const std::string& name) const {
    return static_cast<int>(real(name));
}

double ParameterValues::real(const std::string& name) const {
    double v = 0;
    auto it = m_values.find(name);
    if (it != m_values.end()) parseNumber(it->second, v);
    return v;
}

bool ParameterValues::boolean(const std::string& name) const {
    auto it = m_values.find(name);
    return it != m_values.end() && it->second == "true";
}

const std::string& ParameterValues::text(const std::string& name) const {
    static const std::string kEmpty;
    auto it = m_values.find(name);
    return it != m_values.end() ? it->second : kEmpty;
}

}  // namespace tomo
