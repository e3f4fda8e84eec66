#pragma once
/// @file Preflight.h
/// @brief What a reconstruction will need, checked before anything is read, allocated or
/// written (issue 29): one step against the memory budget, the whole run against the memory the
/// machine has available, the output against the free space of its disk. ReconService::run()
/// calls it first, so the CLI, the GUI and Python all get it; a caller may ask first
/// (ReconService::preflight) to show the numbers or refuse before starting.
///
/// - **The budget** (ReconRequest::memoryBudget) bounds one step's working set (an FBP slab, one
///   iterative solve: MemoryModel.h). When even the smallest step (one FBP batch, one slice per
///   solve) needs more, the run uses that minimum and a note says how much it is.
/// - **The machine**: the run's peak (an input or output held whole, plus one step) must fit the
///   memory available now (MemAvailable, within a cgroup's limit). A budget above it is lowered
///   to it with a note; when even the minimum does not fit, the run fails before it starts with
///   OutOfMemory naming both numbers.
///   Its advice is in the terms of the front end that asks (ReconRequest::frontEnd): the CLI's
///   options (`--chunk 1`, a streamed output file), Python's keywords (`chunk=1`,
///   `output="result.h5"`), or the GUI's controls (a smaller Image size) and the CLI for the
///   whole job streamed to a file.
/// - **The disk**: an output file must fit the free space of its file system (IoError naming
///   both numbers).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tomo::app {

/// What this machine offers now. probe() reads it; tests make their own.
struct MachineResources {
    std::size_t availableMemory = 0;  ///< bytes that can be allocated now; 0 = unknown
    std::size_t physicalMemory = 0;   ///< bytes installed (or the cgroup's limit); 0 = unknown
    /// Free bytes of the file system that would hold @p path (its folder); nullopt: unknown.
    std::function<std::optional<std::uintmax_t>(const std::filesystem::path&)> freeDisk;

    /// /proc/meminfo's MemAvailable (else sysconf), bounded by a cgroup v2 memory.max, and
    /// std::filesystem::space for the disk.
    static MachineResources probe();
};

/// The numbers of a run as planned, before it starts.
struct PreflightReport {
    std::size_t budget = 0;              ///< the request's, bytes
    std::size_t effectiveBudget = 0;     ///< lowered to the machine's available memory when above
    std::size_t slices = 0;              ///< of the job
    std::size_t slabSlices = 0;          ///< per step (FBP slab or iterative solve)
    std::size_t slabs = 0;               ///< steps
    std::string step;                    ///< "FBP batch", "sirt solve", ...
    std::size_t minimumSlices = 0;       ///< the smallest step
    std::size_t minimumBytes = 0;        ///< its memory
    std::size_t slabBytes = 0;           ///< one step's working set as planned
    std::size_t heldInputBytes = 0;      ///< an input held whole in memory
    std::size_t heldOutputBytes = 0;     ///< an output held whole (in memory, or written whole)
    std::size_t peakBytes = 0;           ///< held input + one step + held output (stepPeakBytes)
    std::uintmax_t outputFileBytes = 0;  ///< the output file (0: kept in memory)
    std::optional<std::uintmax_t> diskFree;  ///< where the output goes, when known
    std::size_t availableMemory = 0;         ///< the machine's, when known (else 0)
    std::vector<std::string> notes;          ///< the minimum used, the budget lowered
};

/// The default memory budget of a request: half of the memory available now (the rest for the
/// page cache, the GUI and other programs), at least 256 MiB; 1 GiB when the machine says
/// nothing.
std::size_t defaultMemoryBudget(const MachineResources& machine = MachineResources::probe());

}  // namespace tomo::app
