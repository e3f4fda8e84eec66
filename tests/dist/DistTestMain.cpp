// main() of the distributed tests (both binaries of tests/dist): MPI started once when mpirun
// started the process (one process otherwise), the world handed to the tests through
// DistEnvironment, rank 0's output printed, and the worst exit code of all ranks returned.
// Its own test checks that world: what every other test here stands on.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "DistTestEnvironment.h"
#include "core/dist/MpiSession.h"

namespace tomo::test {
namespace {
Communicator* g_world = nullptr;  // the test binary's own session (main below)

TEST(DistEnvironment, EveryRankHasItsOwnPlaceInTheLaunchedWorld) {
    Communicator& world = DistEnvironment::world();
    EXPECT_EQ(world.size(), launchedWorldSize());
    ASSERT_GE(world.rank(), 0);
    ASSERT_LT(world.rank(), world.size());
    // Every rank's number, gathered in rank order: 0, 1, ..., n-1, each once.
    std::vector<int> ranks(std::size_t(world.size()), -1);
    const int mine = world.rank();
    ASSERT_TRUE(world
                    .allgather(std::as_bytes(std::span<const int>(&mine, 1)),
                               std::as_writable_bytes(std::span<int>(ranks)))
                    .isOk());
    for (int r = 0; r < world.size(); ++r)
        EXPECT_EQ(ranks[std::size_t(r)], r);
}

}  // namespace

Communicator& DistEnvironment::world() {
    return *g_world;
}

/// On ranks other than 0: each failed assertion on stderr, prefixed by the rank and test, so a
/// failure that only one rank sees can be read in the ctest log (rank 0 prints the report).
class RankFailurePrinter final : public ::testing::EmptyTestEventListener {
  public:
    explicit RankFailurePrinter(int rank) : m_rank(rank) {}
    void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (!r.failed()) return;
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        std::fprintf(stderr, "rank %d, %s.%s: %s:%d: %s\n", m_rank,
                     test ? test->test_suite_name() : "?", test ? test->name() : "?",
                     r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
    }

  private:
    int m_rank;
};

}  // namespace tomo::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    std::unique_ptr<tomo::MpiSession> session;
    std::unique_ptr<tomo::Communicator> world;
    if (tomo::launchedWorldSize() > 1) {
        auto started = tomo::MpiSession::start(argc, argv);
        if (!started) {
            std::fprintf(stderr, "%s\n", started.status().message().c_str());
            return 1;
        }
        session = std::move(*started);
        world = session->world();
    } else {
        world = tomo::singleProcess();
    }
    tomo::test::g_world = world.get();
    if (world->rank() != 0) {  // one report, from rank 0; the others' failures still count
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new tomo::test::RankFailurePrinter(world->rank()));
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
