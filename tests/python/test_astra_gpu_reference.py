"""scripts/compare/astra_gpu_reference.py's compare half, which runs here on the npz that the GPU
machine's astra-toolbox makes (issue 30): its reader refuses what it did not make, and its cone
checks pass on stand-in data made here from ASTRA's geometry definition and FP3D_CUDA's
ray-driven scheme alone (no astra, no GPU) and fail when that data is moved by one detector
column or one voxel."""
import pathlib
import sys

import numpy as np
import pytest

from tomostation import astra as tsa

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts" / "compare"))
import astra_gpu_reference as agr  # noqa: E402


def vectors(kind):
    pg, _ = agr.cone_geometries(kind)
    return pg["Vectors"] if kind == "cone_vec" else agr._cone_vectors(pg)


def centre(index):
    """ASTRA's coordinates of voxel (z, y, x): WindowMin + index + 0.5 on each axis."""
    z, y, x = index
    return np.array([x, y, z], np.float64) + 0.5 - agr.N_CONE / 2


def ray_driven(vec, index):
    """FP3D_CUDA's scheme written out for a one-voxel volume (cuda/3d/cone_fp.cu): the axis most
    along src -> detector centre (x first on a tie), a sample on every slice's centre plane,
    trilinear interpolation there, the sum times the ray's length per slice."""
    src, d, u, v = np.split(vec, 4)
    k = int(np.argmax(np.abs(src - d)))
    cols = np.arange(agr.COLS_CONE) - (agr.COLS_CONE - 1) / 2
    rows = np.arange(agr.ROWS_CONE) - (agr.ROWS_CONE - 1) / 2
    ray = d + cols[None, :, None] * u + rows[:, None, None] * v - src   # [rows][cols][3]
    c = centre(index)
    out = np.zeros(ray.shape[:2])
    for plane in np.arange(agr.N_CONE) + 0.5 - agr.N_CONE / 2:
        point = src + ((plane - src[k]) / ray[..., k])[..., None] * ray
        out += np.prod(np.clip(1 - np.abs(point - c), 0, None), axis=2)
    return out * np.linalg.norm(ray, axis=2) / np.abs(ray[..., k])


def stand_in_cone(kind):
    """Single voxels projected by FP3D_CUDA's ray-driven scheme and the balls' exact line
    integrals, both through ASTRA's geometry; the 'FDK' is the voxelised phantom."""
    vecs = vectors(kind)
    shape = (agr.ROWS_CONE, agr.VIEWS_CONE, agr.COLS_CONE)
    voxels = np.zeros((len(agr.VOXELS),) + shape, np.float32)
    for k, index in enumerate(agr.VOXELS):
        for a, vec in enumerate(vecs):
            voxels[k, :, a, :] = ray_driven(vec, index)
    cols = np.arange(agr.COLS_CONE) - (agr.COLS_CONE - 1) / 2
    rows = np.arange(agr.ROWS_CONE) - (agr.ROWS_CONE - 1) / 2
    proj = np.zeros(shape)
    for a, vec in enumerate(vecs):
        src, d, u, v = np.split(vec, 4)
        pixels = d + cols[None, :, None] * u + rows[:, None, None] * v   # [rows][cols][3]
        ray = pixels - src
        ray /= np.linalg.norm(ray, axis=2, keepdims=True)
        for bz, by, bx, r in agr.BALLS:
            to_c = centre((bz, by, bx)) - src
            dist2 = np.sum(np.cross(to_c, ray) ** 2, axis=2)
            proj[:, a, :] += 2 * np.sqrt(np.clip(r * r - dist2, 0, None))
    return {f"{kind}.voxels": voxels, f"{kind}.proj": proj.astype(np.float32),
            f"{kind}.fdk": agr.ball_phantom()}


@pytest.fixture(scope="module")
def stand_in():
    ref = {"format": np.array(agr.FORMAT), "astra_version": np.array("stand-in"),
           "mode": np.array("gpu"), "gpu": np.array("none"),
           "par.error": np.array("not made: a test")}
    ref.update(stand_in_cone("cone"))
    ref.update(stand_in_cone("cone_vec"))
    return ref


def write(path, ref):
    np.savez_compressed(path, **ref)
    return path


@pytest.mark.parametrize("kind", ["cone", "cone_vec"])
def test_cone_checks_pass_on_astras_geometry_and_fail_one_column_off(tmp_path, stand_in, kind):
    ref = agr.read_reference(write(tmp_path / "ref.npz", stand_in))
    assert ref["mode"] == "gpu" and ref["astra_version"] == "stand-in"
    assert agr.compare_cone(ref, kind, tsa)
    moved = dict(ref)
    moved[f"{kind}.voxels"] = np.roll(ref[f"{kind}.voxels"], 1, axis=3)
    assert not agr.compare_cone(moved, kind, tsa)
    moved = dict(ref)
    moved[f"{kind}.fdk"] = np.roll(ref[f"{kind}.fdk"], 1, axis=2)
    assert not agr.compare_cone(moved, kind, tsa)


def test_compare_reports_a_case_not_run_and_fails(tmp_path, stand_in, capsys):
    assert agr.compare(write(tmp_path / "ref.npz", stand_in)) == 1
    out = capsys.readouterr().out
    assert "par: not run on the GPU machine: not made: a test" in out
    assert "cone.voxels:" in out and "cone_vec.fdk:" in out and "FAIL" not in out


def test_an_fdk_that_astra_refused_is_reported_and_the_voxels_still_checked(tmp_path, stand_in,
                                                                             capsys):
    ref = {k: v for k, v in stand_in.items() if k != "cone_vec.fdk"}
    ref["cone_vec.fdk_error"] = np.array("RuntimeError: FDK_CUDA refused it")
    ref = agr.read_reference(write(tmp_path / "ref.npz", ref))
    assert agr.compare_cone(ref, "cone_vec", tsa)
    assert "cone_vec.fdk: not run on the GPU machine: RuntimeError" in capsys.readouterr().out


def test_the_reader_refuses_what_it_did_not_make(tmp_path, stand_in):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not an npz")
    with pytest.raises(agr.ReferenceError, match="not an npz file"):
        agr.read_reference(bad)
    with pytest.raises(agr.ReferenceError, match="format 7, expected 1"):
        agr.read_reference(write(tmp_path / "f.npz", dict(stand_in, format=np.array(7))))
    missing = {k: v for k, v in stand_in.items() if k != "cone.proj"}
    with pytest.raises(agr.ReferenceError, match="no 'cone.proj' and no 'cone.error'"):
        agr.read_reference(write(tmp_path / "m.npz", missing))
    small = dict(stand_in, **{"cone.fdk": np.zeros((4, 4, 4), np.float32)})
    with pytest.raises(agr.ReferenceError, match=r"'cone.fdk' is \(4, 4, 4\), expected"):
        agr.read_reference(write(tmp_path / "s.npz", small))
