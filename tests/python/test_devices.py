"""devices(), tune(), algorithms(), build_info(): the data `tomo devices`, `tomo tune` and the
parameter schemas print."""
import json

import pytest

import tomostation as ts
from conftest import run_cli


def test_devices_are_tomo_devices():
    mine = {d["backend"]: d for d in ts.devices()}
    cli = {d["backend"]: d for d in json.loads(run_cli("devices", "--json")[1])["backends"]}
    assert set(mine) == set(cli)
    for backend, d in mine.items():
        assert d["available"] == cli[backend]["available"]
        assert [x["name"] for x in d["devices"]] == [x["name"] for x in cli[backend]["devices"]]
    cpu = mine["cpu"]
    assert cpu["available"] and cpu["default_variant"] in [v["id"] for v in cpu["variants"]]


def test_tune_runs_the_sweep_and_stores_the_choice(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    r = ts.tune("cpu", size=64, slices=1, budget=2, repeats=1)
    assert r["backend"] == "cpu" and r["saved"], r["save_error"]
    assert r["cache"].startswith(str(tmp_path))
    assert len(r["classes"]) == 1 and r["classes"][0]["image_size"] == 64
    assert any(v["state"] == "measured" for v in r["classes"][0]["variants"])
    with pytest.raises(ts.InvalidArgumentError, match="--repeats"):
        ts.tune("cpu", repeats=20)


def test_algorithms_and_build_info():
    ids = [a["id"] for a in ts.algorithms()]
    assert ids[0] == "fbp" and {"sirt", "cgls", "tv", "mbir"} <= set(ids)
    assert set(ts.ITERATIVE) == set(ids) - {"fbp", "gridrec"}
    info = ts.build_info()
    assert "cpu" in info["backends"] and info["version"] == ts.__version__
