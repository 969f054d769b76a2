#!/usr/bin/env python3
"""The FEM on Kharaz's glass anvil and on the rigid plane beside the models: the two tables of
docs/BENCHMARKS-PUBLISHED.md ("The FEM on the glass anvil").

Reads the outputs of the two sweeps (their sweep.csv, the lumped models' rows, and
sweep_fem.csv, the FEM's):

    build/bin/rebound sweep cases/kharaz-2001-glass.json --incidence 5:45:9 \\
        --models halfspace,halfspace-beta0,mdr,lai --fem 9
    build/bin/rebound sweep cases/chung-ooi-test4.json   --incidence 5:45:9 \\
        --models halfspace,mdr,lai --fem 9

and prints, per incidence angle, the tangential coefficient e_t of the centre (tangential_cor)
of the FEM and the coupled half-space model on glass, the MDR on glass, the FEM and the coupled
half-space model on the rigid plane, and their differences; then the final spin |omega'| and the
FEM's normal coefficient e (e_newton) on both.

Usage: python3 scripts/kharaz_fem_table.py [--glass DIR] [--rigid DIR]
       (defaults: results/kharaz-2001-glass, results/chung-ooi-test4)
"""
import argparse
import csv
import math
import os
import sys


def rows(path):
    try:
        with open(path, newline="") as stream:
            return list(csv.DictReader(stream))
    except OSError as error:
        sys.exit(f"kharaz_fem_table.py: {path}: {error.strerror}; run the sweep first (--help)")


def by_angle(path, model=None):
    """{incidence angle in whole degrees: row} of a sweep's csv (one model's rows of sweep.csv)."""
    table = {}
    for row in rows(path):
        if model is not None and row.get("model") != model:
            continue
        if row.get("status", "completed") != "completed":
            sys.exit(f"kharaz_fem_table.py: {path}: the run at "
                     f"{row['incidence_angle_rad']} rad is {row['status']}: {row.get('error', '')}")
        table[round(math.degrees(float(row["incidence_angle_rad"])))] = row
    if not table:
        sys.exit(f"kharaz_fem_table.py: {path}: no rows" + (f" of model {model}" if model else ""))
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--glass", default="results/kharaz-2001-glass")
    parser.add_argument("--rigid", default="results/chung-ooi-test4")
    args = parser.parse_args()
    fem_glass = by_angle(os.path.join(args.glass, "sweep_fem.csv"))
    fem_rigid = by_angle(os.path.join(args.rigid, "sweep_fem.csv"))
    halfspace_glass = by_angle(os.path.join(args.glass, "sweep.csv"), "halfspace")
    mdr_glass = by_angle(os.path.join(args.glass, "sweep.csv"), "mdr")
    halfspace_rigid = by_angle(os.path.join(args.rigid, "sweep.csv"), "halfspace")
    angles = sorted(set(fem_glass) & set(fem_rigid) & set(halfspace_glass) & set(halfspace_rigid))
    missing = sorted((set(fem_glass) | set(fem_rigid)) - set(angles))
    if missing:
        print(f"(angles not in every sweep, left out: {missing})")

    def value(table, angle, key):
        return float(table[angle][key])

    print("Tangential coefficient e_t of the centre (sweep_fem.csv and sweep.csv, "
          "`tangential_cor`):\n")
    print("| α (°) | FEM, glass | coupled half-space, glass | MDR, glass | FEM, rigid plane | "
          "coupled half-space, rigid | FEM − half-space, glass | FEM − half-space, rigid |")
    print("|---|---|---|---|---|---|---|---|")
    for a in angles:
        e = [value(t, a, "tangential_cor")
             for t in (fem_glass, halfspace_glass, mdr_glass, fem_rigid, halfspace_rigid)]
        print(f"| {a} | {e[0]:.3f} | {e[1]:.3f} | {e[2]:.3f} | {e[3]:.3f} | {e[4]:.3f} | "
              f"{e[0] - e[1]:+.3f} | {e[3] - e[4]:+.3f} |".replace("-", "−"))
    print("\nFinal spin |ω′| (rad/s) and the FEM's normal coefficient e (`e_newton`):\n")
    print("| α (°) | FEM, glass | coupled half-space, glass | MDR, glass | FEM, rigid plane | "
          "FEM e, glass | FEM e, rigid |")
    print("|---|---|---|---|---|---|---|")
    for a in angles:
        spin = [abs(value(t, a, "spin_final_rad_per_s"))
                for t in (fem_glass, halfspace_glass, mdr_glass, fem_rigid)]
        print(f"| {a} | {spin[0]:.0f} | {spin[1]:.0f} | {spin[2]:.0f} | {spin[3]:.0f} | "
              f"{value(fem_glass, a, 'e_newton'):.4f} | {value(fem_rigid, a, 'e_newton'):.4f} |")


if __name__ == "__main__":
    main()
