// tomo_memxct_cuda_bench [ADS1,ADS2] [repeat]: MemXCT SpMV on the CUDA device (paper 000,
// section 4.2): per dataset and direction (A and A^T) the milliseconds, GFLOPS (2 nnz / t) and
// regular-data bandwidth of the per-block padded ELL kernel, the shared-memory buffered kernel
// (48 KiB and 96 KiB stages) and cuSPARSE CSR SpMV, against a device-to-device copy.
// Exit 0 = measured, 2 = no CUDA device, 1 = an error.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/memxct/MemxctSystem.h"
#include "gpu/cuda/sparse/CudaSparseMatrix.h"

namespace {

using namespace tomo;
using namespace tomo::cuda;

struct Dataset {
    const char* name;
    int angles, detectors;
};

/// Times one device format of @p m and prints a line.
Status measure(const char* label, Result<CudaSparseMatrix> d, double nnz, double copyBw,
               int repeat) {
    if (!d.isOk()) {
        std::printf("  %-28s %s\n", label, d.status().toString().c_str());
        return Status::ok();  // e.g. a stage larger than this device's shared memory
    }
    TOMO_ASSIGN_OR_RETURN(double ms, d->timeMultiply(repeat));
    // Regular data: what the kernel streams (index + value per stored entry, plus the map for
    // the buffered format; CSR adds 4 B row pointers per row).
    const double bytes = double(d->deviceBytes());
    const double bw = bytes / (ms * 1e-3);
    std::printf("  %-28s %9.3f %9.1f %10.1f %8.0f%% %9.0f\n", label, ms, 2.0 * nnz / ms * 1e-6,
                bw * 1e-9, 100.0 * bw / copyBw, bytes / (1 << 20));
    return Status::ok();
}

Status run(const std::vector<Dataset>& sets, int repeat) {
    TOMO_ASSIGN_OR_RETURN(std::string device, cudaDeviceName());
    TOMO_ASSIGN_OR_RETURN(double copyBw, cudaCopyBandwidth(std::size_t(1) << 30, 10));
    std::printf("device %s: device-to-device copy %.0f GB/s (read + write)\n", device.c_str(),
                copyBw * 1e-9);
    for (const Dataset& ds : sets) {
        ParallelGeometry::Params p;
        p.angles = uniformAngles(0.0, kPi, ds.angles);
        p.detectorCount = ds.detectors;
        TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(p));
        MemxctOptions o;
        o.kernel = MemxctKernel::Csr;
        o.circleMask = false;
        TOMO_ASSIGN_OR_RETURN(MemxctSystem sys,
                              MemxctSystem::build(geom, VolumeGeometry::forDetector(geom), o, {}));
        const double nnz = double(sys.nonzeros());
        std::printf("%s (%d x %d, %.1f M nonzeros)\n  %-28s %9s %9s %10s %9s %9s\n", ds.name,
                    ds.angles, ds.detectors, nnz * 1e-6, "kernel", "ms", "GFLOPS", "GB/s",
                    "of copy", "MiB");
        for (int dir = 0; dir < 2; ++dir) {
            const CsrMatrix& m = dir == 0 ? sys.forwardCsr() : sys.adjointCsr();
            const std::string side = dir == 0 ? "A   " : "A^T ";
            TOMO_RETURN_IF_ERROR(measure((side + "cusparse csr").c_str(),
                                         CudaSparseMatrix::upload(m, SparseFormat::CusparseCsr),
                                         nnz, copyBw, repeat));
            for (int block : {32, 64, 128})
                TOMO_RETURN_IF_ERROR(measure((side + "ell block " + std::to_string(block)).c_str(),
                                             CudaSparseMatrix::upload(m, SparseFormat::Ell, block),
                                             nnz, copyBw, repeat));
            for (int block : {512, 1024})
                for (int floats : {12288, 24576}) {
                    TOMO_ASSIGN_OR_RETURN(BufferedMatrix b, buildBuffered(m, std::size_t(block),
                                                                          std::size_t(floats), {}));
                    TOMO_RETURN_IF_ERROR(measure((side + "buffered " + std::to_string(block) +
                                                  " rows " + std::to_string(floats / 256) + " KiB")
                                                     .c_str(),
                                                 CudaSparseMatrix::upload(b), nnz, copyBw, repeat));
                }
        }
    }
    return Status::ok();
}

}  // namespace

int main(int argc, char** argv) {
    if (!cudaDeviceAvailable()) {
        std::fprintf(stderr, "tomo_memxct_cuda_bench: no CUDA device\n");
        return 2;
    }
    const std::vector<Dataset> known = {
        {"ADS1", 360, 256}, {"ADS2", 750, 512}, {"ADS3", 1500, 1024}};
    std::vector<Dataset> sets;
    std::stringstream ss(argc > 1 ? argv[1] : "ADS1,ADS2");
    for (std::string item; std::getline(ss, item, ',');) {
        bool found = false;
        for (const Dataset& d : known)
            if (item == d.name) {
                sets.push_back(d);
                found = true;
            }
        if (!found) {
            std::fprintf(stderr, "unknown dataset '%s' (ADS1, ADS2, ADS3)\n", item.c_str());
            return 1;
        }
    }
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 20;
    const Status st = run(sets, repeat > 0 ? repeat : 20);
    if (!st.isOk()) {
        std::fprintf(stderr, "tomo_memxct_cuda_bench: %s\n", st.toString().c_str());
        return 1;
    }
    return 0;
}
