#pragma once
// Shared by the end-to-end CLI tests: running the `tomo` executable as a user would, and a
// fixture giving each test an empty temporary folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <string>

namespace tomo::test {

/// Exit code and everything the command printed (stdout and stderr together).
struct CliRun {
    int code = -1;
    std::string output;
};

/// Runs `tomo ARGS` (the binary of this build) through the shell.
CliRun runTomo(const std::string& args);

/// A fresh folder per test, removed afterwards. The user's cached variant choice (`tomo tune`)
/// must not change what the tests expect, so XDG_CACHE_HOME points at a folder of the build
/// (which also keeps OpenCL kernel binaries warm between runs).
class CliTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;
    std::string path(const std::string& name) const { return (dir / name).string(); }
    /// Only the named files exist in the folder (no partial or temporary output).
    void expectOnly(std::initializer_list<std::string> names) const;
    /// Non-zero exit and one line of output that mentions @p cause.
    static void expectOneLineError(const CliRun& r, const std::string& cause);

    std::filesystem::path dir;
};

}  // namespace tomo::test
