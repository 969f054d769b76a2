#!/usr/bin/env python3
"""Kharaz, Gorham & Salman's (2001) measurements against the lumped models.

Reads docs/data/kharaz-2001-measured.csv (tangential coefficient of restitution, final spin and
rebound angle of 5 mm alumina spheres on soda-lime glass, as digitised from Di Renzo & Di Maio
(2004), Figs. 6, 8 and 7(b), in MFIX's verification test DEM05: provenance in
docs/BENCHMARKS-PUBLISHED.md) and solves each case (default: cases/kharaz-2001-glass.json, the
elastic glass anvil, and cases/chung-ooi-test4.json, the same sphere on a rigid plane) with each
model at the measured incidence angles, by rebound.sweep (the solvers of `rebound sweep`).

Prints one Markdown table per quantity: the angle, the measured value and each model's, for
each case. Quantities of the centre of mass: the tangential coefficient e_t = v_t'/v_t of G
(sweep.csv's tangential_cor), the magnitude of the final spin |omega'| (rebound's spin about
b = t x n is negative for a sphere sliding towards +t), and the rebound angle of G's velocity,
atan(e_t tan(alpha) / e_n) for the sphere (theta = 0: the normal velocity of G is that of P).

Usage: PYTHONPATH=build/python python3 scripts/kharaz_comparison.py
           [--models lai,mdr,halfspace,halfspace-beta0] [--cases FILE,FILE]
"""
import argparse
import csv
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    import rebound
except ImportError as error:
    sys.exit(f"kharaz_comparison.py: {error}; build the Python module and set "
             "PYTHONPATH=build/python (docs/PYTHON.md)")


def measured(path):
    data = {}
    with open(path, newline="") as stream:
        for row in csv.DictReader(stream):
            data.setdefault(row["quantity"], []).append(
                (float(row["incidence_angle_deg"]), float(row["value"])))
    return data


def model_values(table, quantity):
    """The quantity of each row of a rebound.sweep table (dict of numpy arrays)."""
    values = []
    for i in range(len(table["model"])):
        e_t = table["tangential_cor"][i]
        if quantity == "tangential_cor":
            values.append(e_t)
        elif quantity == "spin_rad_per_s":
            values.append(abs(table["spin_final_rad_per_s"][i]))
        elif quantity == "rebound_angle_deg":
            alpha = table["sweep_incidence_angle_rad"][i]
            values.append(math.degrees(math.atan2(e_t * math.tan(alpha), table["e_newton"][i])))
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="lai,mdr,halfspace,halfspace-beta0")
    parser.add_argument("--cases", default="cases/kharaz-2001-glass.json,cases/chung-ooi-test4.json")
    parser.add_argument("--data", default=os.path.join(ROOT, "docs", "data",
                                                       "kharaz-2001-measured.csv"))
    args = parser.parse_args()
    models = args.models.split(",")
    cases = [os.path.join(ROOT, path) if not os.path.isabs(path) else path
             for path in args.cases.split(",")]
    names = {"tangential_cor": "tangential coefficient e_t of the centre",
             "spin_rad_per_s": "final spin |omega'| (rad/s)",
             "rebound_angle_deg": "rebound angle of the centre (degrees)"}
    for quantity, points in measured(args.data).items():
        angles = [angle for angle, _ in points]
        columns = []
        for path in cases:
            case = rebound.load_case(path)
            table = rebound.sweep(case, incidence_deg=angles, models=models, as_frame=False)
            values = model_values(table, quantity)
            for k, model in enumerate(models):
                columns.append((f"{model} ({case.name})", values[k * len(angles):(k + 1) * len(angles)]))
        print(f"\n{names[quantity]}\n")
        print("| incidence (deg) | measured | " + " | ".join(name for name, _ in columns) + " |")
        print("|---" * (2 + len(columns)) + "|")
        fmt = "%.0f" if quantity == "spin_rad_per_s" else "%.3f" if quantity == "tangential_cor" \
            else "%.1f"
        for i, (angle, value) in enumerate(points):
            print(f"| {angle:.1f} | {fmt % value} | " +
                  " | ".join(fmt % column[i] for _, column in columns) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
