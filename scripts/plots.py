#!/usr/bin/env python3
"""PNG plots of a rebound result folder, drawn without a display (matplotlib's Agg backend).

Usage: python3 scripts/plots.py DIR [--title TEXT]

Reads DIR/lumped/history.csv and, when present, DIR/fem/history.csv (the common columns of both
solvers) and writes into DIR/plots/:
  normal_force.png        normal contact force vs time          (as Lai 1999, Figs. 5.4, 6.19)
  tangential_force.png    tangential contact force vs time      (as Lai 1999, Fig. 6.20)
  impulse_path.png        normal vs tangential impulse          (as Lai 1999, Fig. 6.18)
  tangential_velocity.png rigid-body tangential velocity of P    (as Lai 1999, Fig. 6.10)
  energy_budget.png       FEM energies: rigid / vibration kinetic, internal, friction (FEM only)
Prints the files written. Exit status 2 when DIR has no history at all.

Other modes (--mode):
  refinement  DIR/refinement.json (rebound refine) -> DIR/plots/refinement_<quantity>.png: each
              quantity vs the cell size h (log scale, finer to the right) per series, with the lumped
              model's value, Hertz's (normal impacts) and the Richardson value +- its estimate
  sweep       DIR/sweep.csv and DIR/sweep_fem.csv (rebound sweep --fem) -> DIR/plots/
              psi2_vs_psi1.png: the lumped curve, the FEM points, the rigid-body gross-slip line
              Psi2 = Psi1 - 4 chi (--chi) and reference points (--reference CSV with psi1,psi2)
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    table = {}
    for key in rows[0]:
        values = []
        for row in rows:
            try:
                values.append(float(row[key]))
            except (TypeError, ValueError):
                values.append(float("nan"))
        table[key] = values
    return table


def finite(values):
    return [v for v in values if v is not None and v == v and abs(v) != float("inf")]


def save(fig, ax, path, title, written):
    ax.set_title(title)
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    written.append(path)


def refinement_plots(directory, title):
    import json

    path = os.path.join(directory, "refinement.json")
    if not os.path.exists(path):
        print(f"plots.py: no {path}", file=sys.stderr)
        return 2
    with open(path) as f:
        study = json.load(f)
    out = os.path.join(directory, "plots")
    os.makedirs(out, exist_ok=True)
    reference = study.get("reference") or {}
    lumped = reference.get("lumped") or {}
    hertz = reference.get("hertz") or {}
    written = []
    for quantity in study.get("quantities", []):
        fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
        drawn = 0
        for series in study.get("series", []):
            conv = (series.get("convergence") or {}).get(quantity) or {}
            points = [(h, q) for h, q in zip(series.get("h", []), conv.get("values", []))
                      if h is not None and q is not None]
            if not points:
                continue
            varied = {"level": "levels", "refinement": "fem.refinement",
                      "contact_resolution": "contact resolutions"}.get(series.get("varied"), "?")
            fixed = [f"{name} {series[key]:g}" for key, name in
                     (("level", "level"), ("refinement", "ref."), ("contact_resolution", "res."))
                     if series.get(key) is not None]
            label = f"{varied} vs {series.get('h_measure', 'h')} ({', '.join(fixed)})"
            line = ax.plot([p[0] for p in points], [p[1] for p in points], "o-", label=label,
                           linewidth=1.6)[0]
            drawn += 1
            if conv.get("status") == "ok" and conv.get("extrapolated") is not None:
                q_r, error = conv["extrapolated"], conv.get("error_estimate") or 0.0
                ax.axhline(q_r, color=line.get_color(), linewidth=0.9,
                           label=f"Richardson {q_r:.6g} (p = {conv['order']:.2f})")
                ax.axhspan(q_r - error, q_r + error, color=line.get_color(), alpha=0.12)
        if drawn == 0:
            plt.close(fig)
            continue
        if lumped.get(quantity) is not None:
            ax.axhline(lumped[quantity], color="black", linestyle="--", linewidth=1.2,
                       label=f"lumped model ({lumped.get('model', '?')}) {lumped[quantity]:.6g}")
        if hertz.get(quantity) is not None:
            ax.axhline(hertz[quantity], color="tab:red", linestyle=":", linewidth=1.6,
                       label=f"Hertz {hertz[quantity]:.6g}")
        ax.set_xscale("log")
        ax.invert_xaxis()
        ax.set_xlabel("cell size h [m]: h_contact, or h_max along fem.refinement (finer to the right)")
        ax.set_ylabel(quantity)
        save(fig, ax, os.path.join(out, f"refinement_{quantity}.png"), title, written)
    for p in written:
        print(p)
    return 0 if written else 2


def sweep_plot(directory, title, chi, reference_path):
    out = os.path.join(directory, "plots")
    lumped = read(os.path.join(directory, "sweep.csv"))
    if lumped is None:
        print(f"plots.py: no {directory}/sweep.csv", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    pairs = sorted((x, y) for x, y in zip(lumped["psi1"], lumped["psi2"]) if finite([x, y]) == [x, y])
    xs = [p[0] for p in pairs]
    if pairs:
        ax.plot(xs, [p[1] for p in pairs], "-", linewidth=1.6, label="lumped model")
    fem = read(os.path.join(directory, "sweep_fem.csv"))
    if fem is not None and "psi1" in fem:
        status = []
        with open(os.path.join(directory, "sweep_fem.csv"), newline="") as f:
            status = [row.get("status") for row in csv.DictReader(f)]
        points = [(x, y) for x, y, s in zip(fem["psi1"], fem["psi2"], status)
                  if s == "completed" and finite([x, y]) == [x, y]]
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], "o", markersize=7,
                    label="FEM (rigid-body average)")
            xs += [p[0] for p in points]
    if reference_path:
        ref = read(reference_path)
        if ref is None or "psi1" not in ref or "psi2" not in ref:
            print(f"plots.py: {reference_path} has no psi1,psi2 columns", file=sys.stderr)
            return 2
        points = [(x, y) for x, y in zip(ref["psi1"], ref["psi2"]) if finite([x, y]) == [x, y]]
        ax.plot([p[0] for p in points], [p[1] for p in points], "s", color="black", markersize=5,
                fillstyle="none", label=f"reference ({os.path.basename(reference_path)})")
        xs += [p[0] for p in points]
    ys = [v for line in ax.get_lines() for v in line.get_ydata()]
    if chi is not None and xs:
        lo, hi = min(xs), max(xs)
        if ys:  # the line is drawn where the data are, not down to Psi1 = 0
            span = max(ys) - min(ys) or 1.0
            ax.set_ylim(min(ys) - 0.1 * span, max(ys) + 0.1 * span)
        ax.plot([lo, hi], [lo - 4 * chi, hi - 4 * chi], ":", color="tab:red", linewidth=1.4,
                label=f"gross slip: Psi2 = Psi1 - 4 chi (chi = {chi:.4g})")
    ax.set_xlabel("Psi1 (incidence)")
    ax.set_ylabel("Psi2 (rebound of P)")
    path = os.path.join(out, "psi2_vs_psi1.png")
    save(fig, ax, path, title, [])
    print(path)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--title", default=None)
    parser.add_argument("--mode", choices=("pair", "refinement", "sweep"), default="pair")
    parser.add_argument("--chi", type=float, default=None, help="sweep mode: chi of the case")
    parser.add_argument("--reference", default=None, help="sweep mode: CSV with psi1,psi2")
    args = parser.parse_args()
    if args.mode == "refinement":
        return refinement_plots(args.directory, args.title or os.path.basename(
            os.path.normpath(args.directory)))
    if args.mode == "sweep":
        return sweep_plot(args.directory, args.title or os.path.basename(
            os.path.normpath(args.directory)), args.chi, args.reference)
    solutions = {}
    for name, label, style in (("lumped", "lumped model", "-"), ("fem", "FEM (rigid-body average)", "--")):
        table = read(os.path.join(args.directory, name, "history.csv"))
        if table is not None:
            solutions[name] = (label, style, table)
    if not solutions:
        print(f"plots.py: no history.csv under {args.directory}/lumped or /fem", file=sys.stderr)
        return 2
    out = os.path.join(args.directory, "plots")
    os.makedirs(out, exist_ok=True)
    title = args.title or os.path.basename(os.path.normpath(args.directory))
    written = []

    def figure(name, xlabel, ylabel, series):
        fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
        drawn = 0
        for label, style, x, y in series:
            if x and y:
                ax.plot(x, y, style, label=label, linewidth=1.6)
                drawn += 1
        if drawn == 0:
            plt.close(fig)
            return
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out, name)
        fig.savefig(path)
        plt.close(fig)
        written.append(path)

    def ms(t):
        return [1e3 * v for v in t]

    for column, name, ylabel in (
        ("normal_force", "normal_force.png", "normal force [N]"),
        ("tangential_force", "tangential_force.png", "tangential force [N]"),
        ("tangential_velocity", "tangential_velocity.png", "tangential velocity of P [m/s]"),
    ):
        figure(name, "time [ms]", ylabel,
               [(label, style, ms(t["time"]), t.get(column)) for label, style, t in solutions.values()])
    figure("impulse_path.png", "tangential impulse [N s]", "normal impulse [N s]",
           [(label, style, t.get("tangential_impulse"), t.get("normal_impulse"))
            for label, style, t in solutions.values()])
    if "fem" in solutions:
        fem = solutions["fem"][2]
        series = []
        for column, label in (("rigid_kinetic_energy", "rigid-body kinetic"),
                              ("vibration_kinetic_energy", "vibration kinetic"),
                              ("internal_energy", "internal (strain)"),
                              ("frictional_dissipation", "frictional dissipation"),
                              ("total_energy", "total")):
            if column in fem:
                series.append((label, "-", ms(fem["time"]), fem[column]))
        figure("energy_budget.png", "time [ms]", "energy [J]", series)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
