#pragma once
/// @file CudaArchitecture.h
/// @brief NVIDIA architecture family names from a CUDA compute capability. Pure functions, no
/// CUDA types, so that tests and the device panel can use them without the CUDA runtime.
///
/// Mapping (CUDA C++ Programming Guide, "Compute Capabilities"): 1.x Tesla, 2.x Fermi,
/// 3.x Kepler, 5.x Maxwell, 6.x Pascal, 7.0/7.2 Volta, 7.5 Turing, 8.0/8.6/8.7 Ampere, 8.9 Ada,
/// 9.x Hopper, 10.x/11.x/12.x Blackwell (B200/B300 are 10.x, Jetson Thor 11.0, GeForce/RTX PRO
/// Blackwell 12.x). Anything else is "unknown".

#include <string>

namespace tomo::cuda {

/// The family name for compute capability major.minor: ccToArchitecture(9, 0) == "Hopper".
std::string ccToArchitecture(int major, int minor);

/// "Hopper (sm_90)": family plus the SASS target name used by nvcc.
std::string architectureLabel(int major, int minor);

}  // namespace tomo::cuda
