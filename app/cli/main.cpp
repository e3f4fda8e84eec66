// tomo: the TomoStation command-line interface. Subcommands live in app/cli/*Command.cpp.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "core/dist/MpiSession.h"
#include "tomo/config.h"

namespace {

struct Command {
    const char* name;
    int (*run)(int, char**);
    const char* summary;
};

constexpr Command kCommands[] = {
    {"phantom", tomo::cli::runPhantom, "analytic phantom sinogram and its ground truth"},
    {"recon", [](int argc, char** argv) { return tomo::cli::runRecon(argc, argv); },
     "reconstruct by FBP, FDK or an iterative method (across ranks under mpirun)"},
    {"compare", tomo::cli::runCompare, "RMSE, PSNR, SSIM and maximum error of two images"},
    {"bench", tomo::cli::runBench, "back-projection throughput (GU/s) of every variant"},
    {"devices", tomo::cli::runDevices, "CPUs, GPUs and back-projector variants of this build"},
    {"tune", tomo::cli::runTune,
     "measure the variants and store the fastest per device and workload class"},
    {"info", tomo::cli::runInfo, "format, datasets, shapes, types and angles of a data file"},
    {"convert", tomo::cli::runConvert, "convert a float stack between HDF5, TIFF and raw"},
    {"preprocess", tomo::cli::runPreprocess, "flat/dark, zingers, rings, Paganin, bin, crop"},
    {"center", tomo::cli::runCenter, "centre of rotation of a sinogram by three estimators"},
    {"project", tomo::cli::runProject,
     "parallel-beam sinograms of an image (Joseph's projector, ASTRA's \"linear\")"},
    {"demo", tomo::cli::runDemo, "the bundled demo: phantom, FBP, error against the phantom"},
};

void printUsage(std::ostream& os) {
    os << "TomoStation " << TOMO_VERSION
       << " - CT reconstruction\n\nusage: tomo <command> [options]\n\ncommands:\n";
    for (const Command& c : kCommands)
        os << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
    os << "\n'tomo <command> --help' describes each command's options.\n";
}

/// A process that mpirun started in a job of several: `tomo recon` runs across the ranks, every
/// other command refuses (each rank would do the whole work and write the same files). Ranks
/// other than 0 stay silent (rank 0 reports for all; TOMO_RANK_OUTPUT=1 keeps their output).
int runUnderMpirun(int argc, char** argv, const std::string& name) {
    const std::string gpu = tomo::assignGpuPerRank();  // before anything touches CUDA
    tomo::cli::blockInterrupts();  // before MPI starts its threads: mpirun's SIGTERM stops cleanly
    auto session = tomo::MpiSession::start(argc, argv);
    if (!session) return tomo::cli::reportError(name, session.status());
    const auto world = (*session)->world();
    const char* keep = std::getenv("TOMO_RANK_OUTPUT");
    if (world->rank() != 0 && !(keep && std::string(keep) == "1")) {
        (void)std::freopen("/dev/null", "w", stdout);
        (void)std::freopen("/dev/null", "w", stderr);
    }
    if (!gpu.empty()) std::cerr << "tomo " << name << ": note: " << gpu << "\n";
    if (name != "recon")
        return tomo::cli::reportError(
            name, tomo::invalidArgument("runs as one process: only `tomo recon` runs across the "
                                        "ranks of mpirun"));
    return tomo::cli::runRecon(argc, argv, world.get());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        printUsage(std::cerr);
        return tomo::cli::kExitUsage;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(std::cout);
        return tomo::cli::kExitOk;
    }
    if (name == "--version") {
        std::cout << "tomo " << TOMO_VERSION << "\nMPI: "
                  << (tomo::mpiCompiled()
                          ? "yes, " + tomo::mpiDescription() + " (mpirun -np N tomo recon ...)"
                          : tomo::mpiDescription())
                  << "\n";
        return tomo::cli::kExitOk;
    }
    if (tomo::launchedWorldSize() > 1) return runUnderMpirun(argc, argv, name);
    for (const Command& c : kCommands)
        if (name == c.name) return c.run(argc, argv);
    std::cerr << "tomo: unknown command '" << name << "'\n\n";
    printUsage(std::cerr);
    return tomo::cli::kExitUsage;
}
