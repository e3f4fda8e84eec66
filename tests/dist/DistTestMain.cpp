// main() of the distributed tests: MPI started once, the world handed to the tests through
// DistEnvironment, rank 0's output printed, and the worst exit code of all ranks returned.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "DistTestEnvironment.h"
#include "core/dist/MpiSession.h"

namespace tomo::test {
namespace {
Communicator* g_world = nullptr;  // the test binary's own session (main below)
}  // namespace

Communicator& DistEnvironment::world() {
    return *g_world;
}

}  // namespace tomo::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    auto session = tomo::MpiSession::start(argc, argv);
    if (!session) {
        std::fprintf(stderr, "%s\n", session.status().message().c_str());
        return 1;
    }
    const std::unique_ptr<tomo::Communicator> world = (*session)->world();
    tomo::test::g_world = world.get();
    if (world->rank() != 0) {  // one report, from rank 0; the others' failures still count
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
    }
    const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    std::vector<std::byte> all(std::size_t(world->size()));
    const std::byte mine{static_cast<unsigned char>(failed)};
    if (!world->allgather(std::span<const std::byte>(&mine, 1), all).isOk()) return 1;
    int worst = 0;
    for (int r = 0; r < world->size(); ++r)
        if (all[std::size_t(r)] != std::byte{0}) {
            worst = 1;
            if (world->rank() == 0) std::fprintf(stderr, "rank %d had failures\n", r);
        }
    return worst;
}
