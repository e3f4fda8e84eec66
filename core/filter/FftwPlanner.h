#pragma once
/// @file FftwPlanner.h
/// @brief Internal to core/filter (built with FFTW only): the one process-wide lock around
/// FFTW's planner. Plan creation and destruction use FFTW's global planner state, which is not
/// thread-safe; every FFTW backend of this folder (SpectralRowFilterFftw.cpp,
/// ComplexRowFftFftw.cpp) takes this lock around them. Execution needs no lock.

#include <mutex>

namespace tomo::detail {

std::mutex& fftwPlannerMutex();

}  // namespace tomo::detail
