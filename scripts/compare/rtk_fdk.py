#!/usr/bin/env python3
# RTK's CPU FDK beside TomoStation's on the same data (side-by-side reference; not part of the
# product or of the test command).
# Usage: pip install itk-rtk numpy; scripts/compare/rtk_fdk.py [N] [VIEWS] [--tomo build/release/bin/tomo]
# Makes exact projections with `tomo phantom --cone` (Shepp-Logan, N^3 truth, RTK XML geometry),
# reconstructs them with RTK (rtk.FDKConeBeamReconstructionFilter, Ram-Lak) and with `tomo recon`
# (--filter ramp), and prints each one's time, GU/s, RMSE against the truth on the central axial
# planes, and the RMSE between the two.
import argparse, os, subprocess, tempfile, time
import numpy as np
import itk
from itk import RTK as rtk

p = argparse.ArgumentParser()
p.add_argument("n", nargs="?", type=int, default=128)
p.add_argument("views", nargs="?", type=int, default=180)
p.add_argument("--tomo", default=os.path.join(os.path.dirname(__file__), "../../build/release/bin/tomo"))
p.add_argument("--repeat", type=int, default=3)
a = p.parse_args()
d = tempfile.mkdtemp()
proj, geo, truth, ours = (os.path.join(d, f) for f in ("proj.mha", "geometry.xml", "truth.mha", "tomo.mha"))
subprocess.run([a.tomo, "phantom", "--cone", "-o", proj, "--geometry", geo, "--truth", truth,
                "--size", str(a.n), "--views", str(a.views), "--quiet"], check=True, stdout=subprocess.DEVNULL)

ImageType = itk.Image[itk.F, 3]
projections = itk.imread(proj, itk.F)
geometry = rtk.read_geometry(geo) if hasattr(rtk, "read_geometry") else None
if geometry is None:
    reader = rtk.ThreeDCircularProjectionGeometryXMLFileReader.New()
    reader.SetFilename(geo); reader.GenerateOutputInformation(); geometry = reader.GetOutputObject()
src = rtk.ConstantImageSource[ImageType].New()
src.SetOrigin([-(a.n - 1) / 2.0] * 3); src.SetSpacing([1.0] * 3); src.SetSize([a.n] * 3); src.SetConstant(0.)
best = 1e9
for _ in range(a.repeat):
    fdk = rtk.FDKConeBeamReconstructionFilter[ImageType].New()
    fdk.SetInput(0, src.GetOutput()); fdk.SetInput(1, projections); fdk.SetGeometry(geometry)
    t = time.perf_counter(); fdk.Update(); best = min(best, time.perf_counter() - t)
rtk_vol = itk.array_from_image(fdk.GetOutput())  # [z][y][x]

tomo_best = 1e9
for _ in range(a.repeat):
    t = time.perf_counter()
    subprocess.run([a.tomo, "recon", proj, "--geometry", geo, "--size", str(a.n), "-o", ours, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tomo_best = min(tomo_best, time.perf_counter() - t)
tomo_vol = itk.array_from_image(itk.imread(ours, itk.F))
truth_vol = itk.array_from_image(itk.imread(truth, itk.F))

def central(v):  # axial planes (constant y) around the mid-plane, inside a cylinder
    n = v.shape[1]; c = v[:, n // 2 - 4:n // 2 + 4, :]
    z, x = np.meshgrid(np.arange(v.shape[0]), np.arange(v.shape[2]), indexing="ij")
    r = np.hypot((x - (v.shape[2] - 1) / 2) / v.shape[2], (z - (v.shape[0] - 1) / 2) / v.shape[0])
    return c[:, :, :][np.broadcast_to((r <= 0.45)[:, None, :], c.shape)]

rmse = lambda x, y: float(np.sqrt(np.mean((central(x) - central(y)) ** 2)))
gu = a.n ** 3 * a.views / 2 ** 30
print(f"{a.n}^3 from {a.views} views, {projections.GetLargestPossibleRegion().GetSize()} pixels, {os.cpu_count()} cores")
print(f"RTK {itk.Version.GetITKVersion()} CPU FDK: {best:.3f} s ({gu / best:.3f} GU/s), RMSE vs truth {rmse(rtk_vol, truth_vol):.4f}")
print(f"tomo recon (whole process): {tomo_best:.3f} s ({gu / tomo_best:.3f} GU/s), RMSE vs truth {rmse(tomo_vol, truth_vol):.4f}")
print(f"speed-up {best / tomo_best:.1f}x; RMSE tomo vs RTK {rmse(tomo_vol, rtk_vol):.5f} (all voxels: "
      f"{float(np.sqrt(np.mean((tomo_vol - rtk_vol) ** 2))):.5f})")
