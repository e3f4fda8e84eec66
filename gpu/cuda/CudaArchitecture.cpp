#include "gpu/cuda/CudaArchitecture.h"

namespace tomo::cuda {

std::string ccToArchitecture(int major, int minor) {
    switch (major) {
        case 1:
            return "Tesla";
        case 2:
            return "Fermi";
        case 3:
            return "Kepler";
        case 5:
            return "Maxwell";
        case 6:
            return "Pascal";
        case 7:
            return minor == 5 ? "Turing" : (minor == 0 || minor == 2) ? "Volta" : "unknown";
        case 8:
            if (minor == 9) return "Ada";
            return (minor == 0 || minor == 6 || minor == 7) ? "Ampere" : "unknown";
        case 9:
            return "Hopper";
        case 10:
        case 11:
        case 12:
            return "Blackwell";
        default:
            return "unknown";
    }
}

std::string architectureLabel(int major, int minor) {
    return ccToArchitecture(major, minor) + " (sm_" + std::to_string(major) +
           std::to_string(minor) + ")";
}

}  // namespace tomo::cuda
