// What mpirun tells a process through its environment (MpiSession.h).
#include <cstdlib>
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

int launchedLocalRank() {
    return firstInteger({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}, 0);
}

}  // namespace tomo
