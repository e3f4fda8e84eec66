#include "core/iterative/AlgorithmSchema.h"

#include "core/iterative/MbirReconstruction.h"

#include <charconv>
#include <cmath>

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

/// The default stopping rule of an iterative algorithm (docs/algorithms.md, "Stopping rules").
std::string defaultStopRule(const std::string& id) {
    // Measured against FBP on noisy 90-view Shepp-Logans (docs/algorithms.md): CGLS (and MemXCT)
    // semi-converge and stop best by the discrepancy principle; the others run their count.
    return id == "cgls" || id == "memxct" ? "discrepancy" : "none";
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
    ParameterSpec rule = choiceParam(
        "stop", "Stopping rule", {"none", "corner", "discrepancy", "rel-change"},
        "none: run the iterations; corner: return the iterate at the L-curve corner (after "
        "running stop-patience iterations past it); discrepancy: stop when ||Ax - b|| reaches "
        "1.05 times the noise norm; rel-change: stop when ||x_k - x_k-1|| / ||x_k|| falls to "
        "stop-tol.");
    rule.defaultValue = defaultStopRule(s.id);
    s.parameters.push_back(std::move(rule));
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
        s.parameters.push_back(choiceParam("filter", "Filter",
                                           {"ramp", "shepp-logan", "cosine", "hamming", "hann"},
                                           "Apodisation window of the ramp filter."));
        s.parameters.push_back(realParam("cutoff", "Cutoff", "1", 0.01, 1, false, "",
                                         "Filter cutoff as a fraction of Nyquist."));
        specs.push_back(std::move(s));
    }
    {
        AlgorithmSpec s;
        s.id = "sirt";
        s.label = "SIRT";
        s.description =
            "Simultaneous iterative reconstruction: smooth, robust convergence; "
            "stop early on noisy data (watch the L-curve).";
        s.reference = kPaper001;
        s.parameters = {iterationsParam(100), relaxationParam(), nonNegativeParam(false),
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
        s.parameters = {iterationsParam(20),
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
            "convergence per pass; use a relaxation below 1 on noisy data.";
        s.reference =
            "A. H. Andersen, A. C. Kak, Ultrasonic Imaging 6(1), 1984, "
            "doi:10.1177/016173468400600107";
        ParameterSpec relax = relaxationParam();
        relax.defaultValue = "0.5";
        s.parameters = {iterationsParam(10),     relax,
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
        s.parameters = {iterationsParam(100),
                        realParam("lambda", "TV lambda", "0", 0, 1e6, true, "",
                                  "Weight of the total variation: minimises "
                                  "1/2 ||Ax - b||^2 + lambda TV(x); 0: automatic, "
                                  "sigma sqrt(angles) from the data's noise level."),
                        nonNegativeParam(true), toleranceParam(), initParam("fbp")};
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
                return invalidArgument(where + text + " is outside [" + std::to_string(p.minimum) +
                                       ", " + std::to_string(p.maximum) + "]");
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
