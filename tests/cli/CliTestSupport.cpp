#include "CliTestSupport.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

namespace tomo::test {
namespace fs = std::filesystem;

CliRun runTomo(const std::string& args) {
    CliRun r;
    FILE* pipe = popen((std::string(TOMO_CLI) + " " + args + " 2>&1").c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), pipe))
        r.output += buf.data();
    const int status = pclose(pipe);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

void CliTest::SetUp() {
    ::setenv("XDG_CACHE_HOME", (fs::path(TOMO_TEST_BINARY_DIR) / "test-cache").c_str(), 1);
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = fs::temp_directory_path() / ("tomo-cli-" + std::to_string(::getpid()) + "-" +
                                       info->test_suite_name() + "-" + info->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
}

void CliTest::TearDown() {
    fs::remove_all(dir);
}

void CliTest::expectOnly(std::initializer_list<std::string> names) const {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        ++n;
        EXPECT_NE(std::find(names.begin(), names.end(), e.path().filename().string()), names.end())
            << "unexpected file " << e.path();
    }
    EXPECT_EQ(n, names.size());
}

void CliTest::expectOneLineError(const CliRun& r, const std::string& cause) {
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.output.find(cause), std::string::npos) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

}  // namespace tomo::test
