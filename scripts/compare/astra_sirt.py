#!/usr/bin/env python3
# ASTRA CPU SIRT per-iteration time (side-by-side reference; not part of the product).
# Usage: pip install astra-toolbox numpy; scripts/compare/astra_sirt.py N ANGLES [ITERATIONS]
# Compare with: tomo bench --suite sirt --sizes N --angles ANGLES (docs/performance.md).
import sys, time, numpy as np, astra
n = int(sys.argv[1]); angles = int(sys.argv[2]); iters = int(sys.argv[3]) if len(sys.argv) > 3 else 4
vol = astra.create_vol_geom(n, n)
proj = astra.create_proj_geom('parallel', 1.0, n, np.linspace(0, np.pi, angles, endpoint=False))
pid = astra.create_projector('linear', proj, vol)
x = np.zeros((n, n), np.float32); x[n//4:3*n//4, n//4:3*n//4] = 1
sid, sino = astra.create_sino(x, pid)
rid = astra.data2d.create('-vol', vol, 0)
cfg = astra.astra_dict('SIRT'); cfg['ProjectorId'] = pid; cfg['ProjectionDataId'] = sid; cfg['ReconstructionDataId'] = rid
alg = astra.algorithm.create(cfg)
astra.algorithm.run(alg, 1)  # warm-up (weights)
t = time.perf_counter(); astra.algorithm.run(alg, iters); dt = (time.perf_counter() - t) / iters
print(f"astra {astra.__version__} CPU SIRT ('linear' = Joseph), {n}^2 x {angles}: {dt:.3f} s per iteration")
