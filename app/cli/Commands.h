#pragma once
/// @file Commands.h
/// @brief Entry points of the `tomo` subcommands; each returns the process exit code
/// (CliSupport.h). argv[1] is the subcommand name; options start at argv[2].

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dist/Communicator.h"

namespace tomo::cli {

int runPhantom(int argc, char** argv);
/// @p ranks: the processes of an mpirun job (null: this process alone).
int runRecon(int argc, char** argv, Communicator* ranks = nullptr);
int runBench(int argc, char** argv);
int runBenchMemxct(int argc, char** argv);     ///< `tomo bench --suite memxct` (BenchMemxct.cpp)
int runBenchIterative(int argc, char** argv);  ///< `--suite sirt|ordering` (BenchIterative.cpp)
int runBenchFdk(int argc, char** argv);        ///< `tomo bench --suite fdk` (BenchFdk.cpp)
int runBenchGridrec(int argc, char** argv);    ///< `--suite gridrec` (BenchGridrec.cpp)
int runBenchPreview(int argc, char** argv);    ///< `--suite preview` (BenchPreview.cpp)
int runDevices(int argc, char** argv);
int runDemo(int argc, char** argv);
int runCompare(int argc, char** argv);
int runTune(int argc, char** argv);
int runInfo(int argc, char** argv);
int runConvert(int argc, char** argv);
int runPreprocess(int argc, char** argv);
int runCenter(int argc, char** argv);
int runProject(int argc, char** argv);  ///< `tomo project` (ProjectCommand.cpp)

/// Reads a float stack by extension: ".raw" needs @p rawShape as written on the command line
/// (first two dims are rows x columns of a plane, the optional third the plane count), ".tif" and
/// ".tiff" carry their own, every other registered format (".mha", ".nrrd", ".h5", ...) is read
/// through the format registry. The result is [plane][row][column].
Result<Array3<float>> readStack(const std::string& path, const std::optional<std::string>& rawShape,
                                const std::string& shapeOption = "--shape");

}  // namespace tomo::cli
