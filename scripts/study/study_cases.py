"""The cases of the defaults study (defaults_study.py): independent sinograms, each with its own
noise seed. `tomo phantom` cases cover three phantoms, 60 to 720 views, Poisson noise of 1e3 to
1e6 incident counts (attenuation scale 0.02 per density-pixel, tomo phantom's default) and
noise-free data, at 256^2 and 512^2; the external cases (external_data.py) are made by other
code: our analytic formula with one ray per bin and issue 29's setting (peak attenuation e^-4,
2e4 counts, 256 detectors), scikit-image's radon, ASTRA's strip projector."""


def _tomo(phantom, size, views, counts, seed):
    short = {"shepp-logan": "sl", "discs": "discs"}.get(phantom, "ell")
    noise = f"{counts:.0e}".replace("+0", "") if counts else "clean"
    return {"name": f"{short}-{size}-{views}v-{noise}", "generator": "tomo", "phantom": phantom,
            "size": size, "views": views, "counts": counts, "seed": seed}


def _external(generator, size, views, counts, seed, detectors, peak=None):
    noise = f"{counts:.0e}".replace("+0", "") if counts else "clean"
    case = {"name": f"{generator}-sl-{size}-{views}v-{noise}-d{detectors}",
            "generator": generator, "size": size, "views": views, "counts": counts,
            "seed": seed, "detectors": detectors}
    if peak:
        case["peak"] = peak
    return case


CASES = [
    _tomo("shepp-logan", 256, 60, 1e4, 11),
    _tomo("shepp-logan", 256, 180, 1e5, 12),
    _tomo("shepp-logan", 256, 720, 0, 13),
    _tomo("shepp-logan", 256, 180, 1e3, 14),
    _tomo("ellipses:12:5", 256, 60, 1e5, 15),
    _tomo("ellipses:12:6", 256, 180, 1e4, 16),
    _tomo("ellipses:12:7", 256, 720, 1e6, 17),
    _tomo("ellipses:12:8", 256, 60, 0, 18),
    _tomo("discs", 256, 60, 1e3, 19),
    _tomo("discs", 256, 180, 1e6, 20),
    _tomo("discs", 256, 720, 1e4, 21),
    _tomo("discs", 256, 180, 0, 22),
    _tomo("shepp-logan", 512, 180, 1e4, 23),
    _tomo("ellipses:12:9", 512, 720, 1e5, 24),
    _tomo("discs", 512, 60, 1e4, 25),
    _external("analytic", 256, 90, 2e4, 26, 256, peak=4.0),
    _external("analytic", 256, 180, 2e4, 27, 256, peak=4.0),
    _external("skimage", 256, 60, 1e4, 28, 365, peak=4.0),
    _external("astra", 256, 180, 1e5, 29, 365, peak=4.0),
]

QUICK_CASES = [CASES[0], CASES[5], CASES[15], CASES[17]]
