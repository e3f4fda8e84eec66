#ifndef TOMO_CORE_CONE_CONE_TILE_WALK_H
#define TOMO_CORE_CONE_CONE_TILE_WALK_H
/// @file ConeTileWalk.h
/// @brief The shape and block walk of the tile cone kernels (cuda.fdk.tile in
/// gpu/cuda/kernels/ConeKernels.cu, opencl.fdk.tile in gpu/opencl/kernels/cone.cl), one source
/// read by three compilers as core/cone/FdkWeightFormula.h is: nvcc (__device__), OpenCL C
/// (embedded with the .cl files and put before cone.cl's text) and C++ (the hosts' launch
/// sizes). Plain C: no templates, no std::.
///
/// A block (work-group) is 32 x TOMO_TILE_ROWS threads: TOMO_TILE_COLS x TOMO_TILE_PLANES
/// voxel columns (x, plane), a warp per column, each thread TOMO_TILE_VOXELS voxels (pairs)
/// of its column 32 apart. Blocks are walked y chunks first, then strips of TOMO_TILE_STRIP
/// patches across x, patch row by patch row, so that the blocks resident at one time cover a
/// compact region of the (x, z) plane whose projection footprint stays in L2.

#define TOMO_TILE_VOXELS 4
#define TOMO_TILE_ROWS 8
#define TOMO_TILE_COLS 4
#define TOMO_TILE_PLANES (TOMO_TILE_ROWS / TOMO_TILE_COLS)
#define TOMO_TILE_STRIP 16
/// The staged (shared / local memory) tile kernels (cuda.fdk.tile.shared, opencl.fdk.tile.shared):
/// per view, the detector patch the block's taps read, at most TOMO_TILE_STAGE_COLS padded
/// columns by TOMO_TILE_STAGE_ROWS rows per row window (one window, and one more for the
/// mirror's rows), TOMO_TILE_STAGE_VIEWS views staged per barrier pair; a view whose patch is
/// larger is read from global memory.
#define TOMO_TILE_STAGE_COLS TOMO_TILE_ROWS
#define TOMO_TILE_STAGE_ROWS 256
#define TOMO_TILE_STAGE_VIEWS 2

#if defined(__OPENCL_VERSION__) || defined(__CUDACC__)
#if defined(__OPENCL_VERSION__)
#define TOMO_TILE_FN inline
#define TOMO_TILE_INT3(a, b, c) ((int3)((a), (b), (c)))
#else
#define TOMO_TILE_FN __device__ __forceinline__
#define TOMO_TILE_INT3(a, b, c) make_int3((a), (b), (c))
#endif
/// Block @p b of the walk: (y chunk, patch column along x, patch row along the planes).
TOMO_TILE_FN int3 tomoTileBlock(int b, int jBlocks, int iBlocks, int kBlocks) {
    const int jb = b % jBlocks;
    int r = b / jBlocks;
    const int full = iBlocks / TOMO_TILE_STRIP, perStrip = TOMO_TILE_STRIP * kBlocks;
    int strip = full, width = iBlocks - full * TOMO_TILE_STRIP;
    if (r < full * perStrip) {
        strip = r / perStrip;
        width = TOMO_TILE_STRIP;
    }
    r -= strip * perStrip;
    return TOMO_TILE_INT3(jb, strip * TOMO_TILE_STRIP + r % width, r / width);
}
#undef TOMO_TILE_FN
#undef TOMO_TILE_INT3
#endif

#endif
