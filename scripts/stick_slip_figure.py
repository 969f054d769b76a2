#!/usr/bin/python3
"""The figure of the stick-slip range: Psi2(Psi1) of every model with the converged FEM points.

Curves: `rebound sweep cases/sphere-lai-psi2.json --psi1 0:8:33 --models
lai,mdr,halfspace,halfspace-beta0` (Lai's model, the MDR bed, the half-space model with the
Dundurs coupling and without it), run by this script into SWEEP_DIR unless its sweep.csv exists.
Points: the FEM at p = 2, Richardson's value along the contact cell size with the error bar of
scripts/stick_slip_convergence.py (its convergence.csv in CONVERGENCE_DIR). The lower panel shows
every model's and the FEM's difference from the coupled half-space model.

    /usr/bin/python3 scripts/stick_slip_figure.py   (a python with matplotlib) [--convergence results/stick-slip-convergence]
        [--sweep results/stick-slip-curves] [--rebound build/bin/rebound]
        [-o docs/images/stick-slip/psi2_models_fem.png]
"""
import argparse
import csv
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = [("lai", "Lai (one spring)", "C0", "-"),
          ("mdr", "MDR bed (partial slip, β = 0)", "C1", "-"),
          ("halfspace-beta0", "half-space, β = 0", "C2", "--"),
          ("halfspace", "half-space, coupled (β = 0.286)", "C3", "-")]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--convergence",
                   default=os.path.join(ROOT, "results", "stick-slip-convergence"))
    p.add_argument("--sweep", default=os.path.join(ROOT, "results", "stick-slip-curves"))
    p.add_argument("--rebound", default=os.path.join(ROOT, "build", "bin", "rebound"))
    p.add_argument("-o", "--output",
                   default=os.path.join(ROOT, "docs", "images", "stick-slip", "psi2_models_fem.png"))
    args = p.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sweep_csv = os.path.join(args.sweep, "sweep.csv")
    if not os.path.exists(sweep_csv):
        subprocess.run([args.rebound, "sweep", os.path.join(ROOT, "cases", "sphere-lai-psi2.json"),
                        "--psi1", "0:8:33", "--models", ",".join(m for m, *_ in MODELS), "-o",
                        args.sweep, "-q", "--no-plots"], check=True)
    curves = {}
    with open(sweep_csv) as f:
        for row in csv.DictReader(f):
            curves.setdefault(row["model"], []).append((float(row["psi1"]), float(row["psi2"])))
    fem = []
    conv_csv = os.path.join(args.convergence, "convergence.csv")
    if os.path.exists(conv_csv):
        with open(conv_csv) as f:
            rows = [r for r in csv.DictReader(f) if r["quantity"] == "psi2"]
        for r in rows:
            if r["series"] != "contact" or not r["condition"].startswith("psi1-"):
                continue
            g = next((x for x in rows if x["condition"] == r["condition"] and
                      x["series"] == "global"), None)
            values = [float(v) for v in r["values"].split()]
            if r["status"] == "ok":
                value, bar = float(r["richardson"]), float(r["error_estimate"])
            else:
                value, bar = values[-1], abs(values[-1] - values[-2])
            if g and g["spread"]:
                bar += float(g["spread"])
            fem.append((float(r["condition"][5:]), value, bar))
    else:
        print(f"warning: {conv_csv} not found: no FEM points", file=sys.stderr)

    coupled = dict(curves.get("halfspace", []))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 7.5), sharex=True,
                                      gridspec_kw={"height_ratios": [2.2, 1]})
    for key, label, color, style in MODELS:
        xs, ys = zip(*curves[key])
        top.plot(xs, ys, style, color=color, label=label)
        bottom.plot(xs, [y - coupled[x] for x, y in zip(xs, ys)], style, color=color)
    if fem:
        x, y, e = zip(*fem)
        top.errorbar(x, y, yerr=e, fmt="ko", capsize=4, label="FEM p = 2, Richardson ± error")
        # the coupled model at the FEM's Psi1 values: interpolate the sweep
        xs, ys = zip(*curves["halfspace"])

        def at(v):
            for (x0, y0), (x1, y1) in zip(zip(xs, ys), zip(xs[1:], ys[1:])):
                if x0 <= v <= x1:
                    return y0 + (y1 - y0) * (v - x0) / (x1 - x0)
            return float("nan")
        bottom.errorbar(x, [yy - at(xx) for xx, yy in zip(x, y)], yerr=e, fmt="ko", capsize=4)
        bottom.fill_between([0, 8], -0.05, 0.05, color="0.9", zorder=0,
                            label="±0.05 of the coupled model")
    top.axhline(0, color="0.6", lw=0.5)
    top.set_ylabel("Ψ₂ (Maw's rebound variable)")
    top.set_title("Table 6.1 sphere (ν = 0.3, μ = 0.1): Ψ₂(Ψ₁) by model and the FEM")
    top.legend(fontsize=8)
    top.grid(alpha=0.3)
    bottom.axhline(0, color="C3", lw=0.8)
    bottom.set_xlabel("Ψ₁ (Maw's incidence variable)")
    bottom.set_ylabel("Ψ₂ − half-space coupled")
    bottom.set_xlim(0, 8)
    bottom.grid(alpha=0.3)
    bottom.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.savefig(args.output, dpi=110)
    print("written:", args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
