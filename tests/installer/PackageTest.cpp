// The Debian package, end to end: cpack builds it from this build tree (the build tree's
// CPackConfig.cmake, into a temporary folder), dpkg-deb unpacks it into a temporary root, and the
// programs run from there: `tomo --version`, the headless demo on the bundled dataset (found
// relative to the executable), `tomo devices` with cuFFT made unfindable, and
// `tomostation --demo --screenshot` on Qt's offscreen platform. Neither executable may link a
// CUDA library, so that the package starts on machines without the CUDA toolkit.
// Skips, with the reason, only when dpkg-deb or dpkg-shlibdeps (needed to build a .deb) is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdlib.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#ifdef TOMO_INSTALLER_GUI
#include <set>

#include <QImage>
#endif

namespace tomo {
namespace {
namespace fs = std::filesystem;

struct CommandResult {
    int exitCode = -1;
    std::string output;  ///< stdout and stderr together
};

/// Runs @p command through the shell and collects its output.
CommandResult run(const std::string& command) {
    CommandResult r;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        r.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

bool onPath(const std::string& tool) {
    return run("command -v " + tool).exitCode == 0;
}

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

std::string readFile(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The package, built and unpacked once for all tests of this executable.
class Package : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        for (const char* tool : {"dpkg-deb", "dpkg-shlibdeps"})
            if (!onPath(tool))
                s_skip = std::string(tool) + " not found: cannot build or unpack a .deb";
        if (!s_skip.empty()) return;
        char pattern[] = "/tmp/tomo-package-XXXXXX";
        if (!mkdtemp(pattern)) {
            s_error = "cannot create a temporary folder";
            return;
        }
        s_work = pattern;
        const CommandResult pack =
            run("cd " + quoted(TOMO_TEST_BINARY_DIR) + " && " + quoted(TOMO_CPACK) +
                " --config CPackConfig.cmake -G DEB -B " + quoted(s_work / "out"));
        for (const auto& e : fs::directory_iterator(s_work / "out"))
            if (e.path().extension() == ".deb") s_deb = e.path();
        if (pack.exitCode != 0 || s_deb.empty()) {
            s_error = "cpack failed:\n" + pack.output;
            return;
        }
        s_root = s_work / "root";
        const CommandResult unpack = run("dpkg-deb -x " + quoted(s_deb) + " " + quoted(s_root));
        if (unpack.exitCode != 0) s_error = "dpkg-deb -x failed:\n" + unpack.output;
    }
    static void TearDownTestSuite() {
        std::error_code ec;
        if (!s_work.empty()) fs::remove_all(s_work, ec);
    }
    void SetUp() override {
        if (!s_skip.empty()) GTEST_SKIP() << s_skip;
        ASSERT_TRUE(s_error.empty()) << s_error;
    }
    static fs::path bin(const char* name) { return s_root / "usr" / "bin" / name; }

    static inline std::string s_skip, s_error;
    static inline fs::path s_work, s_deb, s_root;
};

TEST_F(Package, ControlFileDeclaresDebianDependenciesOnly) {
    const CommandResult control = run("dpkg-deb -f " + quoted(s_deb) + " Package Depends");
    ASSERT_EQ(control.exitCode, 0) << control.output;
    EXPECT_NE(control.output.find("Package: tomostation"), std::string::npos) << control.output;
    EXPECT_NE(control.output.find("libc6"), std::string::npos) << control.output;  // shlibdeps ran
    EXPECT_EQ(control.output.find("cuda"), std::string::npos) << control.output;
    EXPECT_EQ(control.output.find("cufft"), std::string::npos) << control.output;
}

TEST_F(Package, InstallsProgramsDemoDataDesktopEntryIconAndDocs) {
    const fs::path share = s_root / "usr" / "share";
    std::vector<fs::path> files{bin("tomo"), share / "applications/tomostation.desktop",
                                share / "icons/hicolor/scalable/apps/tomostation.svg",
                                share / "doc/tomostation/README.md",
                                share / "doc/tomostation/docs/user-guide.md"};
#ifdef TOMO_INSTALLER_DEMO_DATA
    for (const char* f : {"geometry.txt", "sinogram.tif", "truth.tif"})
        files.push_back(share / "tomostation/demo" / f);
#endif
    for (const fs::path& p : files)
        EXPECT_TRUE(fs::is_regular_file(p)) << p << " is not in the package";
    const std::string desktop = readFile(share / "applications/tomostation.desktop");
    EXPECT_NE(desktop.find("\nIcon=tomostation\n"), std::string::npos) << desktop;
    EXPECT_NE(desktop.find("\nExec=tomostation"), std::string::npos) << desktop;
#ifdef TOMO_INSTALLER_GUI
    EXPECT_TRUE(fs::is_regular_file(bin("tomostation")));
#endif
#if defined(TOMO_INSTALLER_GUI) && defined(TOMO_INSTALLER_PNG_ICONS)
    const QImage icon(
        QString::fromStdString((share / "icons/hicolor/48x48/apps/tomostation.png").string()));
    EXPECT_EQ(icon.width(), 48);
    EXPECT_EQ(icon.height(), 48);
#endif
}

TEST_F(Package, ExecutablesLinkNoCudaLibrary) {
    const std::regex cuda("lib(cufft|cusparse|cudart|cublas|cuda)\\b");
    for (const char* name : {"tomo", "tomostation"}) {
        if (!fs::exists(bin(name))) continue;  // tomostation only in GUI builds
        const CommandResult dynamic = run("readelf -d " + quoted(bin(name)));
        ASSERT_EQ(dynamic.exitCode, 0) << dynamic.output;
        ASSERT_NE(dynamic.output.find("(NEEDED)"), std::string::npos) << dynamic.output;
        EXPECT_FALSE(std::regex_search(dynamic.output, cuda)) << name << ":\n" << dynamic.output;
        const CommandResult ldd = run("ldd " + quoted(bin(name)));
        EXPECT_EQ(ldd.exitCode, 0) << ldd.output;
        EXPECT_FALSE(std::regex_search(ldd.output, cuda)) << name << ":\n" << ldd.output;
        EXPECT_EQ(ldd.output.find("not found"), std::string::npos) << name << ":\n" << ldd.output;
    }
}

TEST_F(Package, TomoPrintsItsVersion) {
    const CommandResult r = run(quoted(bin("tomo")) + " --version");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    // The version, then whether MPI is in (issue 16): "MPI: yes, Open MPI v4.1.4 (...)" or
    // the reason it is not.
    EXPECT_EQ(r.output.rfind("tomo " TOMO_VERSION "\nMPI: ", 0), 0u) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 2) << r.output;
}

TEST_F(Package, HeadlessDemoFindsTheInstalledDataAndReconstructsIt) {
    const fs::path out = s_work / "demo";
    const CommandResult r =
        run(quoted(bin("tomo")) + " demo --quiet --threads 2 --out " + quoted(out));
    ASSERT_EQ(r.exitCode, 0) << r.output;
#ifdef TOMO_INSTALLER_DEMO_DATA
    const fs::path data = s_root / "usr/share/tomostation/demo";
    EXPECT_NE(r.output.find("bundled dataset " + data.string()), std::string::npos) << r.output;
#endif
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.output, m, std::regex("against the phantom: RMSE ([0-9.]+)")))
        << r.output;
    // FBP of the bundled 256x256 noisy Shepp-Logan: 0.019 (docs); a broken install is far off.
    const double rmse = std::stod(m[1].str());
    EXPECT_GT(rmse, 0.0);
    EXPECT_LT(rmse, 0.05);
    // The volume is a TIFF, or raw in builds without libtiff (the minimal configuration).
    const fs::path volume = fs::exists(out / "reconstruction.tif") ? out / "reconstruction.tif"
                                                                   : out / "reconstruction.raw";
    for (const fs::path& file : {volume, out / "reconstruction.png"})
        EXPECT_GT(fs::exists(file) ? fs::file_size(file) : 0u, 1000u) << file;
}

TEST_F(Package, CudaWithoutCufftIsExplainedNotFatal) {
#ifndef TOMO_INSTALLER_CUDA
    GTEST_SKIP() << "built without CUDA";
#endif
    const CommandResult r =
        run("TOMO_CUFFT_LIBRARY=/nonexistent/libcufft.so.12 " + quoted(bin("tomo")) + " devices");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("cuFFT (libcufft.so."), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("FBP filters on the CPU"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cpu.simd"), std::string::npos) << r.output;  // CPU path still there
}

#ifdef TOMO_INSTALLER_GUI
TEST_F(Package, GuiWritesANonBlankDemoScreenshot) {
    const fs::path png = s_work / "screenshot.png";
    const CommandResult r = run("QT_QPA_PLATFORM=offscreen " + quoted(bin("tomostation")) +
                                " --demo --threads 2 --screenshot " + quoted(png));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const QImage image(QString::fromStdString(png.string()));
    ASSERT_FALSE(image.isNull()) << "no PNG written\n" << r.output;
    EXPECT_GE(image.width(), 640);
    EXPECT_GE(image.height(), 480);
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 20u) << "the screenshot is (nearly) blank";
}
#endif

}  // namespace
}  // namespace tomo
