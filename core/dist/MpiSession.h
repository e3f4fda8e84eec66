#pragma once
/// @file MpiSession.h
/// @brief MPI's lifetime in a process (RAII: MPI_Init_thread when it starts, MPI_Finalize when
/// it ends) and its world communicator. main() starts one when the process was launched by
/// mpirun (launchedByMpirun()); other processes never touch MPI, so a build with MPI runs
/// alone exactly as one without.

#include <memory>
#include <string>

#include "core/base/Status.h"
#include "core/dist/Communicator.h"

namespace tomo {

/// True when this build has MPI (CMake found it).
bool mpiCompiled();
/// "Open MPI v4.1.4, ..." when compiled with MPI, else "no MPI in this build".
std::string mpiDescription();

/// The size of the job mpirun (or another PMI launcher) started this process in, from the
/// environment (OMPI_COMM_WORLD_SIZE, PMIX_SIZE or PMI_SIZE); 1 otherwise.
int launchedWorldSize();
/// The rank on this node (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID), 0 otherwise: the GPU
/// this rank uses is localRank() modulo the devices.
int launchedLocalRank();
/// The ranks on this node (OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS), 1 otherwise.
int launchedLocalSize();

/// Under mpirun on a node with several NVIDIA GPUs (/dev/nvidiaN) and no CUDA_VISIBLE_DEVICES
/// set: gives this rank the GPU localRank() modulo their number, by setting
/// CUDA_VISIBLE_DEVICES before any CUDA call (the Engine then sees that one device). Returns a
/// note saying so, or "" when it did nothing.
std::string assignGpuPerRank();

class MpiSession {
  public:
    /// Initialises MPI (thread level funneled). Unsupported in a build without MPI.
    static Result<std::unique_ptr<MpiSession>> start(int& argc, char**& argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    /// MPI_COMM_WORLD (errors returned, not fatal).
    std::unique_ptr<Communicator> world() const;
    /// Ends every rank of the job with @p exitCode (MPI_Abort): for a rank that cannot reach
    /// its peers any more.
    [[noreturn]] void abort(int exitCode) const;

  private:
    MpiSession() = default;
};

}  // namespace tomo
