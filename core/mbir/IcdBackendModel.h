#pragma once
/// @file IcdBackendModel.h
/// @brief `--backend auto`'s choice for MBIR between GPU-ICD on a CUDA device and PSV-ICD on the
/// CPU (issue 27 item 4). Both do work proportional to voxels x views per equit; the model gives
/// each a rate and GPU-ICD a fixed cost per solve (context, uploads, read-back):
///
///   t_cpu = slices W / (r_cpu threads),   t_gpu = t_0 + slices W / r_gpu,   W = nx ny views
///
/// (a stack is one solve on the device, its fixed cost paid once).
///
/// The defaults come from issue 27's H200 machine (16 host threads) on paper 004's case (512^2,
/// 720 views): GPU-ICD's solve 0.23-0.31 s per slice, PSV-ICD 34.7 s for 16 slices on 16 threads
/// (2.17 s per slice), so r_gpu = 7.0e8 and r_cpu = 5.4e6 per thread; t_0 = 0.3 s is an estimate
/// (the process took 2.1-2.7 s with the layout, matrix and FBP warm start that PSV-ICD shares).
/// Only CUDA is chosen: GPU-ICD on OpenCL has run on PoCL only, where it is slower.

#include <cstddef>
#include <string>

namespace tomo {

struct IcdBackendModel {
    double cpuRatePerThread = 5.4e6;  ///< voxel-views per second per CPU thread (PSV-ICD)
    double gpuRate = 7.0e8;           ///< voxel-views per second (GPU-ICD on an H200)
    double gpuFixedSeconds = 0.3;     ///< per solve
};

struct IcdBackendChoice {
    bool gpu = false;  ///< GPU-ICD is predicted faster
    double cpuSeconds = 0, gpuSeconds = 0;
    std::string describe() const;  ///< "model: GPU-ICD 0.57 s, PSV-ICD on 16 threads 2.2 s"
    int threads = 1;
};

/// The model's prediction for @p slices slices of nx x ny from @p views views, PSV-ICD on
/// @p cpuThreads threads (at least 1).
IcdBackendChoice chooseIcdBackend(int nx, int ny, int views, std::size_t slices, int cpuThreads,
                                  const IcdBackendModel& model = {});

}  // namespace tomo
