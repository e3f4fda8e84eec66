// What mpirun tells a process through its environment (MpiSession.h).
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

#include "core/dist/MpiSession.h"

namespace tomo {
namespace {

int firstInteger(std::initializer_list<const char*> names, int fallback) {
    for (const char* name : names)
        if (const char* v = std::getenv(name); v && *v) {
            char* end = nullptr;
            const long n = std::strtol(v, &end, 10);
            if (end && *end == '\0' && n >= 0 && n < (1 << 24)) return int(n);
        }
    return fallback;
}

}  // namespace

int launchedWorldSize() {
    return firstInteger({"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"}, 1);
}

int launchedLocalSize() {
    return firstInteger({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}, 1);
}

std::string assignGpuPerRank() {
    if (launchedWorldSize() <= 1 || std::getenv("CUDA_VISIBLE_DEVICES")) return {};
    int gpus = 0;
    std::error_code ec;
    const std::regex device("nvidia[0-9]+");
    for (const auto& entry : std::filesystem::directory_iterator("/dev", ec))
        if (std::regex_match(entry.path().filename().string(), device)) ++gpus;
    if (gpus <= 1) return {};
    const std::string mine = std::to_string(launchedLocalRank() % gpus);
    ::setenv("CUDA_VISIBLE_DEVICES", mine.c_str(), 1);
    return "local rank " + std::to_string(launchedLocalRank()) + " uses CUDA device " + mine +
           " of " + std::to_string(gpus);
}

int launchedLocalRank() {
    return firstInteger({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}, 0);
}

}  // namespace tomo
