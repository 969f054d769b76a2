#!/usr/bin/env python3
"""The FEM's elastic plate against Zener's (1941) plate model (docs/FEM.md, "An elastic plate").

    PYTHONPATH=build/python /usr/bin/python3 scripts/zener_plate.py [--build build]
        [--out results/zener-plate] [--runs all|quick]

From cases/sphere-plate-steel.json (a steel sphere, R = 5 mm, head-on at 1 m/s, frictionless, on a
steel plate) the script runs `rebound fem CASE -o OUT/<run> -q --frames 0` for
  * the plate h = R = 5 mm, L = 70 mm, free edges, at fem.refinement 0, 1 and 2 (one, two and four
    cells of degree 2 across the thickness; the contact zone's cells unchanged): the mesh series,
    with the observed order and Richardson's value of e (the plate's cell size h / 2^refinement
    is the series' h; the dofs are checked to differ);
  * the same plate with clamped edges (refinement 1): whether a wave returns from the edges
    within the contact;
  * the plate h = R/2 = 2.5 mm, L = 50 mm, free edges, at refinement 0 and 1 (the second
    thickness of the check);
  * the same sphere on the rigid plane (refinement 1): its own vibration loss, which the plate
    runs include and Zener's model does not;
  * the plate h = 2R = 10 mm (L = 70 mm, refinement 1): where the plate's share of the loss is
    small, the FEM's loss beyond Zener's shows what the contact radiates as waves of its own
    (Hunter's loss on a half-space) against what a thicker plate departs from Kirchhoff's.
--runs quick: the refinement 1 runs only (no mesh series).
For each, beside rebound.zener_plate(case) (lumped/zener_plate.h: Hertz's contact in series with
the infinite plate's point admittance): Zener's Lambda, e, the contact duration and peak force,
and the share of the impact energy in the plate at the end of the run (its elastic and kinetic
energy over the sphere's initial kinetic energy) against Zener's 1 - e^2.

A finished run (its summary.json beside the same case.json) is reused. Writes OUT/runs.csv and
OUT/zener-plate.md (the table docs/FEM.md quotes). About 40 minutes on 2 cores (quick: 15).
Exits 1 when a run fails, 2 for bad arguments.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fem_runs import read_json, run_reusing, write_study  # noqa: E402 (this script's folder)
from stick_slip_convergence import richardson  # noqa: E402

try:
    import rebound
except ImportError as error:
    sys.exit(f"zener_plate.py: {error}; build the Python module and set PYTHONPATH=build/python "
             "(docs/PYTHON.md)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (name, thickness m, half-width m, edge, refinement, target): the runs, in order of use.
RUNS = [
    ("h5-r1", 0.005, 0.07, "free", 1, "plate"),
    ("h5-r1-clamped", 0.005, 0.07, "clamped", 1, "plate"),
    ("h2.5-r1", 0.0025, 0.05, "free", 1, "plate"),
    ("plane-r1", None, None, None, 1, "rigid_plane"),
    ("h5-r0", 0.005, 0.07, "free", 0, "plate"),
    ("h2.5-r0", 0.0025, 0.05, "free", 0, "plate"),
    ("h5-r2", 0.005, 0.07, "free", 2, "plate"),
    ("h10-r1", 0.01, 0.07, "free", 1, "plate"),
]
QUICK = {"h5-r1", "h5-r1-clamped", "h2.5-r1", "plane-r1"}


def case_of(base, name, thickness, half_width, edge, refinement, target):
    case = json.loads(json.dumps(base))
    case["name"] = f"zener-plate-{name}"
    case["description"] = f"scripts/zener_plate.py run {name} of cases/sphere-plate-steel.json"
    if target == "plate":
        case["target"].update(thickness=thickness, half_width=half_width, edge=edge)
    else:
        case["target"] = {"type": "rigid_plane"}
    case["fem"] = {"refinement": refinement}
    return case


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=os.path.join(ROOT, "results", "zener-plate"))
    p.add_argument("--runs", choices=["all", "quick"], default="all")
    args = p.parse_args()
    binary = os.path.join(args.build, "bin", "rebound")
    if not os.access(binary, os.X_OK):
        print(f"zener_plate.py: no {binary}; build first (scripts/build.sh)", file=sys.stderr)
        return 2
    base = read_json(os.path.join(ROOT, "cases", "sphere-plate-steel.json"))
    rows, failed = {}, False
    for name, thickness, half_width, edge, refinement, target in RUNS:
        if args.runs == "quick" and name not in QUICK:
            continue
        case = case_of(base, name, thickness, half_width, edge, refinement, target)
        s = run_reusing(binary, os.path.join(args.out, name), case, "zener_plate.py")
        if s is None:
            failed = True
            continue
        row = {"run": name, "thickness_m": thickness, "half_width_m": half_width, "edge": edge,
               "refinement": refinement, "dofs": s["dofs"], "cells": s["cells"],
               "steps": s["steps"], "wall_time_s": s["wall_time"], "e_fem": s["e_newton"],
               "contact_duration_fem_s": s["contact_duration"],
               "peak_force_fem_N": s["peak_normal_force"],
               "energy_balance_error": s["energy_balance_error"]}
        if target == "plate":
            z = rebound.zener_plate(case)
            initial = s["kinetic_energy_initial"]
            row.update({"plate_cell_m": thickness / 2 ** refinement,
                        "inelasticity": z["inelasticity"], "e_zener": z["restitution"],
                        "contact_duration_zener_s": z["contact_duration"],
                        "peak_force_zener_N": z["peak_force"],
                        "plate_energy_fem": (s["target_internal_energy_final"] +
                                             s["target_kinetic_energy_final"]) / initial,
                        "plate_energy_zener": z["plate_energy"]})
        rows[name] = row
    if not rows:
        sys.exit("zener_plate.py: no finished runs")
    write_study(args.out, rows, "zener-plate.md", tables(rows, args))
    return 1 if failed else 0


def tables(rows, args):
    lines = ["Generated by `PYTHONPATH=build/python python3 scripts/zener_plate.py" +
             ("" if args.runs == "all" else f" --runs {args.runs}") + "`.", "",
             "| run | h (mm) | L (mm) | edge | refinement | dofs | Λ | e FEM | e Zener | "
             "FEM − Zener | loss 1 − e² FEM − Zener | t_c FEM / Zener | F_max FEM / Zener | plate's energy FEM / "
             "Zener's 1 − e² | energy balance |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        if "e_zener" not in r:
            continue
        lines.append(
            f"| {name} | {r['thickness_m'] * 1e3:g} | {r['half_width_m'] * 1e3:g} | {r['edge']} | "
            f"{r['refinement']} | {r['dofs']} | {r['inelasticity']:.4f} | {r['e_fem']:.4f} | "
            f"{r['e_zener']:.4f} | {r['e_fem'] - r['e_zener']:+.4f} | "
            f"{r['e_zener'] ** 2 - r['e_fem'] ** 2:+.4f} | "
            f"{r['contact_duration_fem_s'] / r['contact_duration_zener_s']:.4f} | "
            f"{r['peak_force_fem_N'] / r['peak_force_zener_N']:.4f} | "
            f"{r['plate_energy_fem']:.4f} / {r['plate_energy_zener']:.4f} | "
            f"{r['energy_balance_error']:.1e} |")
    if "plane-r1" in rows:
        e = rows["plane-r1"]["e_fem"]
        lines += ["", f"The same sphere on the rigid plane (refinement 1): e = {e:.6f}, its own "
                  f"vibration loss 1 − e² = {1 - e * e:.2e}."]
    if "h5-r1-clamped" in rows and "h5-r1" in rows:
        a, b = rows["h5-r1"]["e_fem"], rows["h5-r1-clamped"]["e_fem"]
        lines += ["", f"Edges clamped instead of free (h = 5 mm): e {b:.5f} against {a:.5f} "
                  f"({b - a:+.5f})."]
    series = [rows.get(f"h5-r{k}") for k in range(3)]
    if all(series):
        hs = [r["plate_cell_m"] for r in series]
        qs = [r["e_fem"] for r in series]
        dofs = [r["dofs"] for r in series]
        if len(set(dofs)) != 3:
            sys.exit(f"zener_plate.py: the mesh series did not change the mesh (dofs {dofs})")
        rich = richardson(hs, qs)
        text = " / ".join(f"{q:.5f}" for q in qs)
        if rich["status"] == "ok":
            lines += ["", f"Mesh series, h = 5 mm, plate cells h/1, h/2, h/4 (dofs "
                      f"{', '.join(str(d) for d in dofs)}): e = {text}; observed order "
                      f"{rich['order']:.2f}, Richardson's value {rich['extrapolated']:.5f} ± "
                      f"{rich['error_estimate']:.5f}; Zener {series[0]['e_zener']:.5f} "
                      f"(FEM − Zener {rich['extrapolated'] - series[0]['e_zener']:+.5f})."]
        else:
            lines += ["", f"Mesh series, h = 5 mm, plate cells h/1, h/2, h/4 (dofs "
                      f"{', '.join(str(d) for d in dofs)}): e = {text}; no observed order "
                      f"({rich['status']}): spread {max(qs) - min(qs):.5f}."]
    return lines


if __name__ == "__main__":
    sys.exit(main())
