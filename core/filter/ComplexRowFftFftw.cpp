// FFTW3 (single precision) backend of ComplexRowFft; compiled only when TOMO_WITH_FFTW.
//
// Four in-place plans made once in create(): forward and inverse over `batch` rows
// (fftwf_plan_many_dft, rows `distance` apart) and over one row, for a call's remainder.
// Execution uses the new-array interface (fftwf_execute_dft) on the caller's rows, which have
// the planning arrays' layout (same distance, 64-byte aligned first row, in place).
#include <fftw3.h>

#include <mutex>
#include <string>

#include "core/filter/ComplexRowFft.h"
#include "core/filter/FftwPlanner.h"

namespace tomo {
namespace {

struct FftwFree {
    void operator()(void* p) const { fftwf_free(p); }
};

fftwf_complex* asFftw(std::complex<float>* p) {
    return reinterpret_cast<fftwf_complex*>(p);  // layout-compatible (FFTW manual, 4.1.1)
}

}  // namespace

struct ComplexRowFft::Impl {
    std::size_t batch = 0, distance = 0;
    fftwf_plan forwardBatch = nullptr, inverseBatch = nullptr;
    fftwf_plan forwardRow = nullptr, inverseRow = nullptr;

    ~Impl() {
        std::lock_guard lock(detail::fftwPlannerMutex());
        for (fftwf_plan p : {forwardBatch, inverseBatch, forwardRow, inverseRow})
            if (p) fftwf_destroy_plan(p);
    }
    void run(fftwf_plan batchPlan, fftwf_plan rowPlan, std::complex<float>* rows,
             std::size_t count) const {
        if (count == batch) {
            fftwf_execute_dft(batchPlan, asFftw(rows), asFftw(rows));
            return;
        }
        for (std::size_t r = 0; r < count; ++r) {
            fftwf_complex* row = asFftw(rows + r * distance);
            fftwf_execute_dft(rowPlan, row, row);
        }
    }
};

ComplexRowFft::ComplexRowFft() = default;
ComplexRowFft::ComplexRowFft(std::unique_ptr<Impl> impl, std::size_t length, std::size_t batch,
                             std::size_t distance)
    : m_impl(std::move(impl)), m_length(length), m_batch(batch), m_distance(distance) {}
ComplexRowFft::ComplexRowFft(ComplexRowFft&&) noexcept = default;
ComplexRowFft& ComplexRowFft::operator=(ComplexRowFft&&) noexcept = default;
ComplexRowFft::~ComplexRowFft() = default;

const char* ComplexRowFft::backendName() {
    return "fftw3f";
}
bool ComplexRowFft::supportsLength(std::size_t n) {
    return n >= 1 && n <= (std::size_t{1} << 30);
}
std::size_t ComplexRowFft::fastLength(std::size_t atLeast, bool even) {
    return smoothLength(atLeast, even);
}

Result<ComplexRowFft> ComplexRowFft::create(std::size_t length, std::size_t batch,
                                            std::size_t distance) {
    TOMO_RETURN_IF_ERROR(checkShape(length, batch, distance));
    auto impl = std::make_unique<Impl>();
    impl->batch = batch;
    impl->distance = distance;
    // FFTW_ESTIMATE never touches the planning array; its alignment is what callers match.
    std::unique_ptr<fftwf_complex, FftwFree> plan(
        static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * distance * batch)));
    if (!plan)
        return outOfMemory("cannot allocate an FFT planning array of " +
                           std::to_string(distance * batch) + " complex values");
    const int n = static_cast<int>(length);
    const int howMany = static_cast<int>(batch);
    const int dist = static_cast<int>(distance);
    fftwf_complex* a = plan.get();
    {
        std::lock_guard lock(detail::fftwPlannerMutex());
        impl->forwardBatch = fftwf_plan_many_dft(1, &n, howMany, a, nullptr, 1, dist, a, nullptr, 1,
                                                 dist, FFTW_FORWARD, FFTW_ESTIMATE);
        impl->inverseBatch = fftwf_plan_many_dft(1, &n, howMany, a, nullptr, 1, dist, a, nullptr, 1,
                                                 dist, FFTW_BACKWARD, FFTW_ESTIMATE);
        impl->forwardRow = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
        impl->inverseRow = fftwf_plan_dft_1d(n, a, a, FFTW_BACKWARD, FFTW_ESTIMATE);
    }
    if (!impl->forwardBatch || !impl->inverseBatch || !impl->forwardRow || !impl->inverseRow)
        return internalError("FFTW could not plan a length-" + std::to_string(length) +
                             " complex transform over " + std::to_string(batch) + " rows");
    return ComplexRowFft(std::move(impl), length, batch, distance);
}

void ComplexRowFft::forward(std::complex<float>* rows, std::size_t count) const {
    m_impl->run(m_impl->forwardBatch, m_impl->forwardRow, rows, count);
}

void ComplexRowFft::inverse(std::complex<float>* rows, std::size_t count) const {
    m_impl->run(m_impl->inverseBatch, m_impl->inverseRow, rows, count);
}

}  // namespace tomo
