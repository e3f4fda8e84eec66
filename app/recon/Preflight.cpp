// The preflight of a reconstruction (Preflight.h): the machine's resources, the default budget,
// and the checks ReconService::run makes before it reads, allocates or writes anything.
#include "app/recon/Preflight.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app/data/DataFormats.h"
#include "app/recon/MemoryModel.h"
#include "app/recon/ReconSteps.h"

namespace tomo::app {
namespace {

/// A "Key:   123 kB" line of /proc/meminfo in bytes, 0 when absent.
std::size_t meminfoBytes(const std::string& key) {
    std::ifstream in("/proc/meminfo");
    std::string name;
    std::size_t kib = 0;
    std::string unit;
    while (in >> name >> kib) {
        std::getline(in, unit);
        if (name == key + ":") return kib * 1024;
    }
    return 0;
}

/// The first number in @p path, 0 when absent or "max".
std::size_t fileNumber(const char* path) {
    std::ifstream in(path);
    std::size_t value = 0;
    return in >> value ? value : 0;
}

/// Room left under the container's memory limit (cgroup v2, else v1), 0 when unlimited.
std::size_t cgroupRoom(std::size_t& limit) {
    limit = fileNumber("/sys/fs/cgroup/memory.max");
    std::size_t used = fileNumber("/sys/fs/cgroup/memory.current");
    if (limit == 0) {
        limit = fileNumber("/sys/fs/cgroup/memory/memory.limit_in_bytes");
        used = fileNumber("/sys/fs/cgroup/memory/memory.usage_in_bytes");
    }
    if (limit == 0 || limit >= (std::size_t(1) << 60)) {  // v1 says "unlimited" with 2^63
        limit = 0;
        return 0;
    }
    return limit > used ? limit - used : 1;
}

}  // namespace

MachineResources MachineResources::probe() {
    MachineResources m;
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) m.physicalMemory = std::size_t(pages) * std::size_t(page);
    m.availableMemory = meminfoBytes("MemAvailable");
    if (m.availableMemory == 0) {
        const long avail = ::sysconf(_SC_AVPHYS_PAGES);
        if (avail > 0 && page > 0) m.availableMemory = std::size_t(avail) * std::size_t(page);
    }
    std::size_t limit = 0;
    if (const std::size_t room = cgroupRoom(limit); room > 0) {
        m.availableMemory = m.availableMemory ? std::min(m.availableMemory, room) : room;
        m.physicalMemory = m.physicalMemory ? std::min(m.physicalMemory, limit) : limit;
    }
    m.freeDisk = [](const std::filesystem::path& path) -> std::optional<std::uintmax_t> {
        std::error_code ec;
        const std::filesystem::path folder =
            path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
        const std::filesystem::space_info s = std::filesystem::space(folder, ec);
        if (ec) return std::nullopt;
        return s.available;
    };
    return m;
}

std::size_t defaultMemoryBudget(const MachineResources& machine) {
    constexpr std::size_t kMiB = std::size_t(1) << 20;
    if (machine.availableMemory == 0) return std::size_t(1) << 30;
    return std::max(256 * kMiB, machine.availableMemory / 2 / kMiB * kMiB);
}

namespace detail {
namespace {

using std::to_string;

std::string shapeText(std::size_t slices, int ny, int nx) {
    return to_string(slices) + " slice(s) of " + to_string(nx) + "x" + to_string(ny);
}

/// Bytes of the output as stored, and whether the run holds it whole in memory (kept in
/// memory, or a format without a streaming writer).
struct OutputSize {
    std::uintmax_t fileBytes = 0;
    std::size_t heldBytes = 0;
};

Result<OutputSize> outputSize(const ReconRequest& request) {
    const std::size_t voxels =
        std::size_t(request.grid.nx) * std::size_t(request.grid.ny) * std::size_t(request.grid.nz);
    OutputSize o;
    if (request.output.path.empty()) {
        o.heldBytes = voxels * sizeof(float);
        return o;
    }
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, formats.forPath(request.output.path));
    const bool tiff16 = request.output.tiff16.has_value() && format->name == "tiff";
    o.fileBytes = std::uintmax_t(voxels) * (tiff16 ? 2 : sizeof(float));
    if (!format->openVolumeWriter) o.heldBytes = voxels * sizeof(float);
    return o;
}

/// The memory of one step of @p request as resolved.
Result<StepMemory> stepMemory(const ReconRequest& request, const Resolved& resolved) {
    if (resolved.spec.iterative) return iterativeStepMemory(request, resolved);
    return analyticStepMemory(request, resolved);
}

/// The smallest FBP batch when it is smaller than the variant's, as @p request's front end sets
/// it (the CLI's --chunk 1, Python's chunk=1): a hint.
std::string smallerBatchHint(const ReconRequest& request, const Resolved& resolved,
                             const StepMemory& step) {
    if (resolved.spec.iterative || resolved.fourier || step.granule <= 1) return "";
    const StepMemory one = fbpStepMemory(request, 1);
    const char* option = request.frontEnd == FrontEnd::Python ? "chunk=1" : "--chunk 1";
    return std::string(" (one slice at a time, ") + option + ", would need " +
           formatSize(double(one.bytes(1))) + ")";
}

/// What the user of @p request's front end can do about a run that does not fit: the CLI's
/// options; Python's keywords; the GUI's controls (it holds the result in memory and has no
/// batch size), and the job streamed to a file by its Reconstruct to file or by the CLI.
std::string tooBigAdvice(const ReconRequest& request, const Resolved& resolved,
                         const StepMemory& step, std::size_t heldOutputBytes) {
    if (request.frontEnd == FrontEnd::Gui)
        return "; choose a smaller Image size in Region and sampling and press Apply, or "
               "stream the result to a file a slab at a time: Reconstruction > Reconstruct to "
               "file... (FBP, gridrec), or the command line: tomo recon <data> ... -o result.h5";
    if (heldOutputBytes == 0) return smallerBatchHint(request, resolved, step);
    if (request.frontEnd == FrontEnd::Python)
        return smallerBatchHint(request, resolved, step) +
               "; stream the result to a file instead of returning an array: "
               "output=\"result.h5\" (or .raw, .tif)";
    return smallerBatchHint(request, resolved, step) +
           "; write the result to a streamed file (.raw, .tif, .h5)";
}

}  // namespace

Result<PreflightReport> preflight(const ReconRequest& request, Resolved& resolved,
                                  const MachineResources& machine) {
    PreflightReport p;
    p.budget = request.memoryBudget;
    p.slices = request.source->shape()[0];
    p.availableMemory = machine.availableMemory;
    p.heldInputBytes = heldInputBytes(request);
    TOMO_ASSIGN_OR_RETURN(const OutputSize out, outputSize(request));
    p.heldOutputBytes = out.heldBytes;
    p.outputFileBytes = out.fileBytes;
    TOMO_ASSIGN_OR_RETURN(const StepMemory step, stepMemory(request, resolved));
    p.step = step.what;
    p.minimumSlices = std::min(step.granule, p.slices);
    p.minimumBytes = step.bytes(p.minimumSlices);

    std::vector<Status> failures;
    if (!request.output.path.empty() && machine.freeDisk)
        p.diskFree = machine.freeDisk(request.output.path);
    if (p.diskFree && p.outputFileBytes > *p.diskFree)
        failures.push_back(ioError(request.output.path.string() + ": the output needs " +
                                   formatSize(double(p.outputFileBytes)) + " but its disk has " +
                                   formatSize(double(*p.diskFree)) + " free"));
    const std::size_t available = machine.availableMemory;
    const std::string job = shapeText(p.slices, request.grid.ny, request.grid.nx);
    // The held input counted once: a step over every slice reads it in place (stepPeakBytes).
    const std::size_t minimumPeak =
        stepPeakBytes(step, p.minimumSlices, p.slices, p.heldInputBytes) + p.heldOutputBytes;
    if (available > 0 && minimumPeak > available) {
        std::string what = "one " + step.what + " of " + to_string(p.minimumSlices) +
                           " slice(s) needs " + formatSize(double(p.minimumBytes));
        if (p.heldOutputBytes > 0)
            what +=
                " and the result, held whole in memory, " + formatSize(double(p.heldOutputBytes));
        if (p.heldInputBytes > 0 && p.minimumSlices < p.slices)  // else the step's input
            what +=
                " besides the input held in memory (" + formatSize(double(p.heldInputBytes)) + ")";
        failures.push_back(outOfMemory(
            job + ": " + what + ", but this machine has " + formatSize(double(available)) +
            " of memory available (the budget is " + formatSize(double(p.budget)) + ")" +
            tooBigAdvice(request, resolved, step, p.heldOutputBytes)));
    }
    if (!failures.empty()) {
        std::string message;
        for (const Status& s : failures)
            message += (message.empty() ? "" : "; and ") + s.message();
        return Status(failures.front().code(), "cannot start: " + message);
    }
    p.effectiveBudget = p.budget;
    if (available > 0 && p.heldOutputBytes + p.budget > available) {
        p.effectiveBudget = available - p.heldOutputBytes;
        p.notes.push_back("the memory budget of " + formatSize(double(p.budget)) +
                          " is more than this machine has available (" +
                          formatSize(double(available)) +
                          (p.heldOutputBytes ? ", less the result held in memory" : "") +
                          "): steps within " + formatSize(double(p.effectiveBudget)));
    }
    resolved.budget = p.effectiveBudget;
    const SlabChoice choice =
        resolved.spec.iterative
            ? planSolveSlices(request, resolved, step)
            : chooseSlab(step, p.slices, resolved.budget, p.heldInputBytes, request.slabSlices);
    p.slabSlices = choice.slices;
    p.slabs = (p.slices + p.slabSlices - 1) / std::max<std::size_t>(1, p.slabSlices);
    p.slabBytes = step.bytes(p.slabSlices);
    p.peakBytes = stepPeakBytes(step, p.slabSlices, p.slices, p.heldInputBytes) + p.heldOutputBytes;
    if (choice.overBudget)
        p.notes.push_back("one " + step.what + " of " + to_string(p.minimumSlices) +
                          " slice(s) needs " +
                          formatSize(double(p.minimumBytes + p.heldInputBytes)) +
                          (p.heldInputBytes ? " with the input held in memory" : "") +
                          ", more than the memory budget of " +
                          formatSize(double(resolved.budget)) + ": using that minimum" +
                          (p.slabSlices > p.minimumSlices
                               ? " and " + to_string(p.slabSlices) + " slices per step (" +
                                     formatSize(double(p.slabBytes)) + "; " +
                                     formatSize(double(step.fixed)) + " of it once per step)"
                               : ""));
    return p;
}

}  // namespace detail
}  // namespace tomo::app
