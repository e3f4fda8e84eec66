"""The Markdown tables of the defaults study (defaults_study.py), rendered from its JSON rows."""
import numpy as np


def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def _at(a, method):
    """"(iteration)", or "(iteration, cap)" where the scan ended at its cap before a minimum."""
    k = a[f"{method}_best_iteration"]
    return f"({k}, cap)" if k >= a.get(f"{method}_cap", 10**9) else f"({k})"


def _astra_cells(a):
    if not a:
        return ["-", "-", "-"]
    sirt100 = f"{a['sirt100']:.4f}" if a.get("sirt100") is not None else "-"
    cgls = f"{a['cgls_best']:.4f} {_at(a, 'cgls')}" if "cgls_best" in a else "-"
    return [f"{a['fbp']:.4f}", f"{sirt100} / {a['sirt_best']:.4f} {_at(a, 'sirt')}", cgls]


def defaults_table(rows, methods):
    """Per case and method: the default's error (its iteration), the best iterate's error (its
    iteration) and their ratio; bold where the default is worse than FBP; ASTRA's FBP, SIRT at 100
    iterations and the best iterates of its SIRT and CGLS."""
    head = ["case", "FBP"] + [f"{m} default / best (ratio)" for m in methods] + [
        "ASTRA FBP", "ASTRA SIRT 100 / best", "ASTRA CGLS best"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in rows:
        cells = [r["case"]["name"], f"{r['fbp']['rmse']:.4f}" if "fbp" in r else "-"]
        for m in methods:
            d = r.get(m)
            if not d or "fbp" not in r:
                cells.append("-")
                continue
            mark = "**" if d["rmse"] > r["fbp"]["rmse"] else ""
            cells.append(f"{mark}{d['rmse']:.4f}{mark} ({d['iteration']}) / {d['best']:.4f} "
                         f"({d['best_iteration']}) {ratio(d['rmse'], d['best'])}")
        cells += _astra_cells(r.get("astra"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def hard(case):
    """Undersampled (90 views or fewer) or noisy (2e4 counts or fewer): issue 29's item 2."""
    return case["views"] <= 90 or (case["counts"] and case["counts"] <= 2e4)


def summary_table(rows, methods):
    """Per method over all cases: the worst ratio to its best iterate and to FBP; the same over
    the undersampled or noisy cases (hard())."""
    lines = ["| method | cases | worst default / best | median default / best | "
             "worst default / FBP | cases worse than FBP | undersampled or noisy: cases, worst "
             "default / best, worst default / FBP |", "|" + " --- |" * 7]
    for m in methods:
        done = [r for r in rows if r.get(m) and "fbp" in r]
        if not done:
            continue
        to_best = [r[m]["rmse"] / r[m]["best"] for r in done]
        to_fbp = [r[m]["rmse"] / r["fbp"]["rmse"] for r in done]
        worse = [r["case"]["name"] for r in done if r[m]["rmse"] > r["fbp"]["rmse"]]
        sub = [r for r in done if hard(r["case"])]
        sub_cell = (f"{len(sub)}, {max(r[m]['rmse'] / r[m]['best'] for r in sub):.2f}, "
                    f"{max(r[m]['rmse'] / r['fbp']['rmse'] for r in sub):.2f}" if sub else "-")
        lines.append(f"| {m} | {len(done)} | {max(to_best):.2f} | "
                     f"{float(np.median(to_best)):.2f} | {max(to_fbp):.2f} | "
                     f"{', '.join(worse) if worse else 'none'} | {sub_cell} |")
    return "\n".join(lines)


def mbir_table(rows):
    """MBIR against svmbir: both at their defaults (error, seconds: ours the whole `tomo recon`
    process, svmbir's cached in-process call and its first call) and at their best sharpness."""
    lines = ["| case | MBIR default | MBIR s | svmbir default | svmbir s (cached / first) | "
             "MBIR best sharpness | svmbir best sharpness |", "|" + " --- |" * 7]
    for r in rows:
        m, s = r.get("mbir"), r.get("svmbir")
        if not m or not s:
            continue
        mark = "**" if m["rmse"] > s["rmse"] else ""
        best = (f"{m['best_sharpness_rmse']:.4f} ({m['best_sharpness']:+g})"
                if "best_sharpness" in m else "-")
        lines.append(
            f"| {r['case']['name']} | {mark}{m['rmse']:.4f}{mark} | {m['seconds']:.2f} | "
            f"{s['rmse']:.4f} | {s['seconds']:.2f} / {s['seconds_first']:.2f} | {best} | "
            f"{s['best_sharpness_rmse']:.4f} ({s['best_sharpness']:+g}) |")
    return "\n".join(lines)


def provenance_table(rows):
    """Which run produced which part of each row: the tree, the date and the load."""
    lines = ["| case | part | tree | date (UTC) | load (1 min) | threads |", "|" + " --- |" * 6]
    for r in rows:
        for run in r.get("runs", []):
            lines.append(f"| {r['case']['name']} | {', '.join(run['parts'])} | {run['tree']} | "
                         f"{run['date']} | {run['load']} | {run['threads']} |")
    return "\n".join(lines)


def table(rows, methods):
    return "\n\n".join([summary_table(rows, methods), defaults_table(rows, methods),
                        mbir_table(rows), "Provenance of each part of each row:",
                        provenance_table(rows)])
