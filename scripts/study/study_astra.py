"""ASTRA (astra-toolbox, CPU algorithms with its 'linear' 2-D projector) on a case of the defaults
study: its FBP at its defaults (Ram-Lak filter), SIRT at a fixed 100 iterations (ASTRA has no
default iteration count) and the best iterates of SIRT and CGLS against the phantom: the error a
perfect stopping rule would reach. A comparison tool installed by pip for the study, never a
dependency of TomoStation."""
import numpy as np

# Longest runs scanned for the best iterate (bounded: the study runs on shared cores); a scan
# ends early once the error is 5% above its minimum (past the semi-convergence minimum, which is
# unimodal on these cases). A best iterate at its cap is marked so in the table.
SIRT_CAP, SIRT_STEP = 300, 10
CGLS_CAP, CGLS_STEP = 60, 1
PAST_MINIMUM = 1.05


def _rmse(image, truth):
    return float(np.sqrt(np.mean((image - truth) ** 2)))


def _scan(astra, alg, ids, truth, cap, step, fixed=()):
    """Run `alg` in steps, the error after each; (best error, its iteration, {fixed k: error})."""
    pid, sid, vol = ids
    rid = astra.data2d.create("-vol", vol, 0.0)
    cfg = astra.astra_dict(alg)
    cfg.update(ProjectorId=pid, ProjectionDataId=sid, ReconstructionDataId=rid)
    aid = astra.algorithm.create(cfg)
    best, at, marks = np.inf, 0, {}
    try:
        for k in range(step, cap + 1, step):
            astra.algorithm.run(aid, step)  # ASTRA's SIRT and CGLS continue across run() calls
            e = _rmse(astra.data2d.get(rid), truth)
            if k in fixed:
                marks[k] = e
            if e < best:
                best, at = e, k
            if e > PAST_MINIMUM * best and all(f in marks for f in fixed):
                break
    finally:
        astra.algorithm.delete(aid)
        astra.data2d.delete(rid)
    return best, at, marks


def run_astra(case):
    """ASTRA's numbers for one study case, or None without astra-toolbox."""
    try:
        import astra
    except ImportError:
        return None
    vol = astra.create_vol_geom(case.size, case.size)
    proj = astra.create_proj_geom("parallel", 1.0, case.detectors,
                                  np.arange(case.views) * np.pi / case.views)
    pid = astra.create_projector("linear", proj, vol)
    sid = astra.data2d.create("-sino", proj, case.data)
    out = {"version": astra.__version__, "projector": "linear", "sirt_cap": SIRT_CAP,
           "cgls_cap": CGLS_CAP, "past_minimum": PAST_MINIMUM}
    try:
        rid = astra.data2d.create("-vol", vol, 0.0)
        cfg = astra.astra_dict("FBP")
        cfg.update(ProjectorId=pid, ProjectionDataId=sid, ReconstructionDataId=rid)
        aid = astra.algorithm.create(cfg)
        astra.algorithm.run(aid)
        out["fbp"] = _rmse(astra.data2d.get(rid), case.truth)
        astra.algorithm.delete(aid)
        astra.data2d.delete(rid)
        ids = (pid, sid, vol)
        best, at, marks = _scan(astra, "SIRT", ids, case.truth, SIRT_CAP, SIRT_STEP, fixed=(100,))
        out.update(sirt100=marks.get(100), sirt_best=best, sirt_best_iteration=at)
        best, at, _ = _scan(astra, "CGLS", ids, case.truth, CGLS_CAP, CGLS_STEP)
        out.update(cgls_best=best, cgls_best_iteration=at)
    finally:
        astra.data2d.delete(sid)
        astra.projector.delete(pid)
    return out
