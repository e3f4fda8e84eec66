// Scaling benchmark of the distributed FDK (docs/scaling.md, "Cone beam (iFDK R x C)"): the
// model's constants measured on this machine with every rank busy at once (filter views/s,
// back-projection GU/s, broadcast, reduce and point-to-point bandwidth), then one
// runConeDistributed of an analytic phantom with its measured stages beside coneModel's.
//   mpirun -np 2 tomo_cone_dist_bench SIZE VIEWS DETECTOR [ROWS COLUMNS THREADS [sequential]]
// (sequential: filter and exchange every batch before the back-projection, the ablation of
// the overlap)
//   tomo_cone_dist_bench --project     (the model for 16 to 2,048 GPUs, no run)
// Prints rank 0's lines; the stages are the slowest rank's (each phase ends in an agreement).

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/Engine.h"
#include "app/recon/ConeDistributed.h"
#include "core/cone/ConePhantom.h"
#include "core/dist/MpiSession.h"

namespace tomo {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kGiB = 1073741824.0;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// The seconds of @p step on every rank at once (a barrier before: a broadcast of one byte).
template <class F>
double timed(Communicator& world, F&& step) {
    std::byte b{};
    (void)world.broadcast(std::span<std::byte>(&b, 1), 0);
    const auto t0 = Clock::now();
    step();
    (void)world.broadcast(std::span<std::byte>(&b, 1), 0);
    return since(t0);
}

struct Measured {
    ConeModelConstants constants;
    double filterPerRank = 0, gupsPerRank = 0;
};

Measured measure(Communicator& world, const app::Engine& engine, const ConeGeometry& g,
                 const Array3<float>& views, const ConeVolumeGrid& grid, int threads) {
    Measured m;
    ExecContext ctx;
    ctx.threads = threads;
    FdkOptions o;
    auto bp = engine.coneRegistry().create("cpu.fdk.symmetric").value();
    const FdkFilter filter = FdkFilter::create(g, o).value();
    const int n = std::min<int>(64, g.viewCount());
    Array3<float> copy = views.clone();
    const double tf = timed(world, [&] {
        for (int first = 0; first < n; first += 16) {
            Array3<float> part = Array3<float>::create(std::size_t(std::min(16, n - first)),
                                                       views.dim(1), views.dim(2))
                                     .value();
            std::copy_n(copy.data() + std::size_t(first) * views.dim(1) * views.pitch(),
                        part.dim(0) * part.dim(1) * part.pitch(), part.data());
            (void)filter.apply(first, part.rows(), ctx);
        }
    });
    m.filterPerRank = n / tf;
    const int planes = grid.nz;
    const int used = std::min(64, g.viewCount());
    Array3<float> some =
        Array3<float>::create(std::size_t(used), views.dim(1), views.dim(2)).value();
    std::copy_n(views.data(), some.dim(0) * some.dim(1) * some.pitch(), some.data());
    auto sink = [](int, Volume&&) { return Status::ok(); };
    const double tb = timed(world, [&] {
        (void)backProjectFiltered(g, grid, o, *bp, FdkFiltered{0, &some}, 0, planes, sink, ctx);
    });
    m.gupsPerRank = double(grid.nx) * grid.ny * planes * used / (tb * kGiB);
    std::vector<float> block(std::size_t(16) << 20);  // 64 MiB
    const double bytes = double(block.size()) * 4;
    // The first collective of a kind sets up its channels (the paper's "a first collective call
    // is slow"): one untimed call of each first.
    (void)world.broadcast(writableBytesOf(std::span<float>(block)), 0);
    (void)reduceSumInRankOrder(world, block, block, 0);
    const double tg =
        timed(world, [&] { (void)world.broadcast(writableBytesOf(std::span<float>(block)), 0); });
    const double tr = timed(world, [&] { (void)reduceSumInRankOrder(world, block, block, 0); });
    const double tp = timed(world, [&] {
        if (world.rank() == 1)
            (void)world.send(0, int(Tag::Slab), bytesOf(std::span<const float>(block)));
        if (world.rank() == 0 && world.size() > 1)
            (void)world.recv(1, int(Tag::Slab), writableBytesOf(std::span<float>(block)));
    });
    ConeModelConstants& k = m.constants;
    k.ranksPerNode = world.size();
    k.filterViewsPerSecond = m.filterPerRank * world.size();
    k.backProjectGups = m.gupsPerRank;
    k.allgatherBytesPerSecond = world.size() > 1 ? bytes / tg : 0;
    k.reduceBytesPerSecond = world.size() > 1 ? bytes / tr : 0;
    k.storeBytesPerSecond = world.size() > 1 ? bytes / tp : 0;
    return m;
}

/// The model's projection for the paper's problems on 16 to 2,048 GPUs (docs/scaling.md):
/// V100-like constants from paper 003 (digest section 5, Table 5) and H100-like assumptions.
struct Machine {
    const char* name;
    std::size_t gpuMemory, hostMemory;
    ConeModelConstants k;
};

void project() {
    const double gb = 1e9;
    ConeModelConstants v100;
    v100.loadBytesPerSecond = 28.5 * gb;             // assumed = GPFS write (no read figure quoted)
    v100.filterViewsPerSecond = 350;                 // T_flt 1.4 s / 0.8 s, 8 / 16 nodes (Table 5)
    v100.ranksPerNode = 4;                           // 4 V100 per ABCI node
    v100.allgatherBytesPerSecond = 2.1 * gb;         // Table 5, 32 GPUs: 64 GiB x 31/32 in 31.4 s
    v100.backProjectGups = 200;                      // shflBP L1-Tran, Table 4
    v100.pcieBytesPerSecond = 11.9 * gb;             // bandwidthTest
    v100.pcieLinks = 2;                              // dual PCIe switches per node
    v100.transposeBytesPerSecond = 8 * kGiB / 0.29;  // 8 GiB sub-volume in 0.29 s
    v100.reduceBytesPerSecond = 8 * kGiB / 2.7;      // "8GB ... 2.7s"
    v100.storeBytesPerSecond = 28.5 * gb;            // GPFS peak sequential write
    ConeModelConstants h100 = v100;                  // assumptions, see docs/scaling.md
    h100.filterViewsPerSecond = 1000;
    h100.allgatherBytesPerSecond = 10 * gb;
    h100.backProjectGups = 800;
    h100.pcieBytesPerSecond = 50 * gb;
    h100.pcieLinks = 4;
    h100.transposeBytesPerSecond = 3 * v100.transposeBytesPerSecond;
    h100.reduceBytesPerSecond = 20 * gb;
    const Machine machines[] = {{"V100", std::size_t(16) << 30, std::size_t(96) << 30, v100},
                                {"H100", std::size_t(80) << 30, std::size_t(256) << 30, h100}};
    const std::pair<const char*, int> problems[] = {{"2K", 2048}, {"4K", 4096}, {"8K", 8192}};
    std::printf(
        "| GPUs | problem | GPU | R x C | T_flt | T_AllGather | T_bp | T_compute | "
        "T_D2H | T_reduce | T_store | T_runtime | GUPS |\n");
    for (const auto& [label, n] : problems)
        for (const Machine& m : machines)
            for (int gpus = 16; gpus <= 2048; gpus *= 2) {
                const ConeProblem p{n, n, n, 2048, 2048, 4096};
                ConeGridLimits l;
                l.ranks = gpus;
                l.memory = m.gpuMemory;
                l.hostMemory = m.hostMemory;
                auto grid = chooseConeRankGrid(p, l);
                if (!grid) {
                    std::printf("| %d | %s | %s | does not fit | | | | | | | | | |\n", gpus, label,
                                m.name);
                    continue;
                }
                const ConeModelTimes t = coneModel(p, *grid, m.k);
                std::printf(
                    "| %d | %s | %s | %d x %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f "
                    "| %.1f | %.1f | %.0f |\n",
                    gpus, label, m.name, grid->rows, grid->columns, t.filter, t.allgather,
                    t.backProject, t.compute, t.d2h, t.reduce, t.store, t.runtime, t.gups);
            }
}

int bench(Communicator& world, int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--project") {
        project();
        return 0;
    }
    if (argc < 4) {
        std::fprintf(
            stderr, "usage: tomo_cone_dist_bench SIZE VIEWS DETECTOR [R C THREADS [sequential]]\n");
        return 2;
    }
    const int n = std::atoi(argv[1]), views = std::atoi(argv[2]), det = std::atoi(argv[3]);
    app::ConeDistributedOptions options;
    const int threads = argc > 6 ? std::atoi(argv[6]) : 1;
    options.overlap = !(argc > 7 && std::string(argv[7]) == "sequential");
    const app::Engine engine;
    const DetectorGrid d = DetectorGrid::centred(det, det, 1.5, 1.5);
    const ConeGeometry g = ConeGeometry::circular(1000, 1500, views, 0, 360, d).value();
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(n, n, n, 1.0);
    auto projections = std::make_shared<const Array3<float>>(
        ConePhantom::fromName("shepp-logan", n * 0.45).value().project(g, 1).value());
    const Measured m = measure(world, engine, g, *projections, grid, threads);
    options.model = m.constants;
    app::ConeReconRequest request(app::memoryProjections(projections), g, grid);
    request.backend = "cpu";
    request.rankRows = argc > 4 ? std::atoi(argv[4]) : 0;
    request.rankColumns = argc > 5 ? std::atoi(argv[5]) : 0;
    ExecContext ctx;
    ctx.threads = threads;
    auto report = app::runConeDistributed(engine, world, request, {}, ctx, options);
    if (!report) {
        std::fprintf(stderr, "rank %d: %s\n", world.rank(), report.status().message().c_str());
        return 1;
    }
    if (world.rank() != 0) return 0;
    std::printf("%d rank(s) x %d thread(s), %d^3 from %d views of %d^2, %s\n", world.size(),
                threads, n, views, det, options.overlap ? "overlapped" : "sequential");
    std::printf(
        "constants: filter %.1f views/s per rank, back-projection %.3f GU/s per rank, "
        "broadcast %.2f GB/s, reduce %.2f GB/s, point-to-point %.2f GB/s\n",
        m.filterPerRank, m.gupsPerRank, m.constants.allgatherBytesPerSecond / 1e9,
        m.constants.reduceBytesPerSecond / 1e9, m.constants.storeBytesPerSecond / 1e9);
    for (const std::string& note : report->notes)
        if (note.rfind("distributed", 0) == 0 || note.rfind("model", 0) == 0)
            std::printf("%s\n", note.c_str());
    std::printf("end to end %.3f s, %.3f GUPS\n", report->fdk->timings.total, report->fdk->gups);
    return 0;
}

}  // namespace
}  // namespace tomo

int main(int argc, char** argv) {
    std::unique_ptr<tomo::MpiSession> session;
    std::unique_ptr<tomo::Communicator> world;
    if (tomo::launchedWorldSize() > 1) {
        auto started = tomo::MpiSession::start(argc, argv);
        if (!started) return 2;
        session = std::move(*started);
        world = session->world();
    } else {
        world = tomo::singleProcess();
    }
    return tomo::bench(*world, argc, argv);
}
