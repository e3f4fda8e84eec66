// Command line of tomo_cuda_selfcheck (see SelfCheckOptions.h).
#include "gpu/cuda/selfcheck/SelfCheckOptions.h"

#include <charconv>

namespace tomo::cuda {
namespace {

constexpr const char* kUsage =
    " (--bench --fbp-only --family --variants --size --projections --slices --window-rows "
    "--band-rows "
    "--angle-chunk --no-fbp --cpu-candidate --json --bench-slices --repeat --fbp-variant "
    "--fbp-slices)";

}  // namespace

Result<SelfCheckOptions> parseSelfCheckOptions(const std::vector<std::string>& args) {
    SelfCheckOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto text = [&](std::string& v) -> Status {
            if (i + 1 >= args.size()) return invalidArgument(a + " needs a value");
            v = args[++i];
            return Status::ok();
        };
        auto integer = [&](int& v) -> Status {
            std::string s;
            TOMO_RETURN_IF_ERROR(text(s));
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (ec != std::errc() || end != s.data() + s.size() || v <= 0)
                return invalidArgument(a + " must be a positive integer, not '" + s + "'");
            return Status::ok();
        };
        Status s;
        if (a == "--bench")
            o.bench = true;
        else if (a == "--fbp-only")
            o.bench = o.fbpOnly = true;
        else if (a == "--no-fbp")
            o.fbp = false;
        else if (a == "--family")
            s = text(o.family);
        else if (a == "--variants")
            s = text(o.variants);
        else if (a == "--size")
            s = integer(o.shape.size);
        else if (a == "--projections")
            s = integer(o.shape.projections);
        else if (a == "--slices")
            s = integer(o.shape.slices);
        else if (a == "--window-rows")
            s = integer(o.shape.windowRows);
        else if (a == "--band-rows")
            s = integer(o.bandRows);
        else if (a == "--angle-chunk")
            s = integer(o.angleChunk);
        else if (a == "--cpu-candidate")
            s = text(o.cpuCandidate);
        else if (a == "--json")
            s = text(o.json);
        else if (a == "--bench-slices")
            s = integer(o.benchSlices);
        else if (a == "--repeat")
            s = integer(o.repeat);
        else if (a == "--fbp-variant")
            s = text(o.fbpVariant);
        else if (a == "--fbp-slices")
            s = integer(o.fbpSlices);
        else
            return invalidArgument("unknown option '" + a + "'" + kUsage);
        TOMO_RETURN_IF_ERROR(s);
    }
    static const char* const families[] = {"all", "texture", "alu", "oversampling", "hybrid"};
    bool known = false;
    for (const char* f : families)
        known = known || o.family == f;
    if (!known)
        return invalidArgument("--family must be all, texture, alu, oversampling or hybrid, not '" +
                               o.family + "'");
    if (o.shape.windowRows * 4 > o.shape.size)
        return invalidArgument("--window-rows must be at most a quarter of --size");
    return o;
}

bool selectsVariant(const SelfCheckOptions& o, const std::string& id, const std::string& family) {
    if (o.family != "all" && family != o.family) return false;
    return o.variants.empty() || ("," + o.variants + ",").find("," + id + ",") != std::string::npos;
}

}  // namespace tomo::cuda
