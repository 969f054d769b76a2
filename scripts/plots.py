#!/usr/bin/env python3
"""PNG plots of a rebound result folder, drawn without a display (matplotlib's Agg backend).

Usage: python3 scripts/plots.py DIR [--title TEXT]

Reads DIR/lumped/history.csv and, when present, DIR/fem/history.csv (the common columns of both
solvers) and writes into DIR/plots/:
  normal_force.png        normal contact force vs time          (seed 000 Figs. 5.4, 6.19)
  tangential_force.png    tangential contact force vs time      (seed 000 Fig. 6.20)
  impulse_path.png        normal vs tangential impulse          (seed 000 Fig. 6.18)
  tangential_velocity.png rigid-body tangential velocity of P    (seed 000 Fig. 6.10)
  energy_budget.png       FEM energies: rigid / vibration kinetic, internal, friction (FEM only)
Prints the files written. Exit status 2 when DIR has no history at all.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--title", default=None)
    args = parser.parse_args()
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
