"""docs/python-api.md is what scripts/python-api-doc generates from the docstrings now."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_api_reference_is_up_to_date():
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "python-api-doc"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr + p.stdout


def test_every_public_name_is_documented():
    import tomostation as ts
    text = (ROOT / "docs" / "python-api.md").read_text()
    missing = [n for n in ts.__all__ if f"`{n}" not in text and n not in (
        "ITERATIVE", "Engine", "Phantom", "read_dataset", "uniform_angles")]
    assert not missing, missing
