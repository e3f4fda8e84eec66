// Issue 27 item 6: "every fallback says so". Each reconstruction asked for a device backend
// either runs there (its summary names a variant of that backend) or says on stderr that it
// runs on the CPU and why (no device and the runtime's reason, or no device version of the
// method): FBP, gridrec, the iterative methods, MBIR and cone-beam FDK, on CUDA (without a GPU
// here: every one falls back) and OpenCL (PoCL here: the matched-pair methods fall back).
#include <string>
#include <vector>

#include "CliTestSupport.h"

namespace tomo::test {
namespace {

class DeviceFallbackCli : public CliTest {
  protected:
    /// The backend's variant in the summary line ("with cuda.", "on opencl.").
    static bool ranOn(const CliRun& r, const std::string& backend) {
        const std::size_t line = r.output.find("reconstructed ");
        if (line == std::string::npos) return false;
        const std::string summary = r.output.substr(line, r.output.find('\n', line) - line);
        return summary.find(" with " + backend + ".") != std::string::npos ||
               summary.find(" on " + backend + ".") != std::string::npos;
    }
    /// @p reason: what every note of a method with a device version must say (the runtime's
    /// reason for no device, as FBP's note gives it), or empty.
    static void expectSaysWhere(const CliRun& r, const std::string& backend,
                                const std::string& what, const std::string& reason = "") {
        ASSERT_EQ(r.code, 0) << what << "\n" << r.output;
        if (ranOn(r, backend)) return;
        // Fell back: a note names the backend asked for and the CPU, and the run was the CPU's.
        const std::size_t note = r.output.find("tomo recon: note: ");
        ASSERT_NE(note, std::string::npos) << what << ": fell back without a word\n" << r.output;
        bool names = false;
        for (std::size_t at = note; at != std::string::npos;
             at = r.output.find("tomo recon: note: ", at + 1)) {
            const std::string l = r.output.substr(at, r.output.find('\n', at) - at);
            if (l.find(backend) == std::string::npos || l.find("CPU") == std::string::npos)
                continue;
            names = true;
            if (l.find("needs an exactly matched projector pair") == std::string::npos) {
                EXPECT_NE(l.find(reason), std::string::npos) << what << ": not why\n" << l;
            }
        }
        EXPECT_TRUE(names) << what << ": no note names " << backend << " and the CPU\n" << r.output;
        EXPECT_TRUE(ranOn(r, "cpu") || r.output.find(" on cpu,") != std::string::npos)
            << what << "\n"
            << r.output;
    }
};

TEST_F(DeviceFallbackCli, EveryMethodAskedForADeviceRunsThereOrSaysWhyNot) {
    ASSERT_EQ(
        runTomo("phantom -o " + path("s.raw") + " --size 48 --angles 0:180:36 --detectors 48").code,
        0);
    ASSERT_EQ(runTomo("phantom --cone -o " + path("c.raw") + " --geometry " + path("g.json") +
                      " --size 24 --views 30")
                  .code,
              0);
    const std::vector<std::string> methods = {"fbp",  "gridrec", "sirt",   "os-sirt", "sart",
                                              "cgls", "tv",      "memxct", "mbir"};
    for (const std::string backend : {"cuda", "opencl"}) {
        std::string reason;  // the runtime's reason for no device, from FBP's note
        for (const std::string& algo : methods) {
            const CliRun r = runTomo("recon " + path("s.raw") +
                                     " --shape 36x48 --angles 0:180:36 --size 48 --backend " +
                                     backend + " --algo " + algo +
                                     (algo == "fbp" || algo == "gridrec" ? "" : " --iterations 2") +
                                     " -o " + path("o.raw"));
            if (r.output.find("not compiled") != std::string::npos) continue;
            expectSaysWhere(r, backend, backend + " " + algo, reason);
            if (algo == "fbp" && r.output.find("no CUDA device") != std::string::npos)
                reason = "no CUDA device";
        }
        const CliRun fdk = runTomo("recon " + path("c.raw") + " --geometry " + path("g.json") +
                                   " --size 24 --shape 30x29x38 --detector-pitch 1.5 --backend " +
                                   backend + " -o " + path("v.raw"));
        if (fdk.output.find("not compiled") != std::string::npos) continue;
        expectSaysWhere(fdk, backend, backend + " fdk", reason);
    }
}

}  // namespace
}  // namespace tomo::test
