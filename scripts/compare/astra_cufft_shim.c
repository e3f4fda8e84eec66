/* libcufft.so.11 for astra-toolbox's PyPI wheel on a machine that has only CUDA 13's cuFFT
 * (libcufft.so.12): the wheel's libastra.so.0 names libcufft.so.11 (CUDA 12, the 201 MB wheel
 * nvidia-cufft-cu12, too large to carry to the GPU machine) and calls five of its functions,
 * which CUDA 13 keeps with the same signatures. Each is forwarded to the library named by
 * TOMO_ASTRA_CUFFT (a path), else to libcufft.so.12 found by the loader; when none loads, each
 * returns CUFFT_INTERNAL_ERROR (ASTRA then reports its FFT failed: FBP_CUDA, FDK_CUDA), and the
 * projectors, which use no FFT, still run. A check tool, never part of the product: built by
 * `scripts/gpu-check astra` (cc -shared, astra_cufft_shim.map gives the symbols the version
 * libcufft.so.11 that libastra.so.0 asks for). */
#include <dlfcn.h>
#include <stdlib.h>

typedef int cufftHandle;
typedef int cufftResult;
typedef int cufftType;
typedef float cufftReal;
typedef struct {
    float x, y;
} cufftComplex;
typedef void* cudaStream_t;

enum { CUFFT_INTERNAL_ERROR = 5 };

static void* cufft(void) {
    static void* handle;
    if (!handle) {
        const char* path = getenv("TOMO_ASTRA_CUFFT");
        handle = dlopen(path && *path ? path : "libcufft.so.12", RTLD_NOW | RTLD_LOCAL);
    }
    return handle;
}

#define FORWARD(name, params, args)                                                      \
    cufftResult name params {                                                            \
        static cufftResult(*real) params;                                                \
        if (!real) {                                                                     \
            void* h = cufft();                                                           \
            if (!h || !(*(void**)& real = dlsym(h, #name))) return CUFFT_INTERNAL_ERROR; \
        }                                                                                \
        return real args;                                                                \
    }

FORWARD(cufftPlan1d, (cufftHandle * plan, int nx, cufftType type, int batch),
        (plan, nx, type, batch))
FORWARD(cufftExecR2C, (cufftHandle plan, cufftReal* in, cufftComplex* out), (plan, in, out))
FORWARD(cufftExecC2R, (cufftHandle plan, cufftComplex* in, cufftReal* out), (plan, in, out))
FORWARD(cufftSetStream, (cufftHandle plan, cudaStream_t stream), (plan, stream))
FORWARD(cufftDestroy, (cufftHandle plan), (plan))
