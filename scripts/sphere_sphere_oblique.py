#!/usr/bin/env python3
"""Two identical spheres, oblique: the FEM against the MDR in Psi2, the mesh and the rate effect out.

Two identical elastic spheres have Dundurs' beta = 0: the normal and tangential contact problems
do not couple, which is the MDR's (and the uncoupled half-space model's) premise. So the FEM of the
pair should approach the MDR (Popov & Hess 2015; Mindlin & Deresiewicz 1953, Maw et al. 1976 for
the sphere) in Maw's Psi2 = f(Psi1), where on the rigid plane (beta = 0.29 at nu = 0.3) it lies
with the coupled half-space model (docs/FEM.md, "The stick-slip range").

The pair is cases/sphere-sphere-oblique.json: two Lai (1999) Table 6.1 aluminium spheres (R = 50
mm, E = 70 GPa, nu = 0.3, rho = 2700 kg/m^3), mu = 0.1, the target at rest, the tangential speed
from Psi1. Every run is `mpirun -np RANKS rebound fem` at p = 2 (--degree), beside the MDR and
Lai's model on the same case (`rebound lumped`). Three series:

* the mesh at 0.5 m/s: fem.contact_resolution 1, 1.5, 3, observed order and Richardson's value
  with its error estimate (the cells are the coarse mesh's halved k times, so the contact cell
  size h_contact takes the values 1.0, 0.5, 0.25 mm: the tables print h_contact/a_max);
* the impact speed at contact_resolution 1: v_n = 0.5 x 2^(-5k/2) = 0.5, 0.0884, 0.0156 m/s,
  at which Hertz's a_max ~ v^(2/5) halves from one speed to the next, and with it h_contact: every
  speed has the same h_contact/a_max (printed). The quasi-static models' Psi2 does not depend on
  v; the FEM's does through its inertia and a_max/R (the rate effect of docs/FEM.md). Order in v
  and the FEM's value extrapolated to v -> 0 (Richardson in v);
* the FEM's answer: the speed series' v -> 0 value plus the mesh correction measured at 0.5 m/s
  (Richardson's value minus the contact_resolution 1 run, the speed series' mesh), with the
  error bar |v -> 0 value - slowest run| + Richardson's error estimate.

Examples (the command docs/FEM.md quotes):
  python3 scripts/sphere_sphere_oblique.py --out results/sphere-sphere-oblique

Writes OUT/<run>/{case.json, fem/summary.json, lumped/<model>.json} for every run (a finished
run, its summary.json beside the same case.json, is reused: an interrupted study continues),
OUT/runs.csv and OUT/sphere-sphere-oblique.md (the tables docs/FEM.md quotes). Runs are made in
order of use (the speed series first); about an hour on 2 cores.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

from stick_slip_convergence import lumped_value, richardson, write_json  # noqa: E402 (this script's folder)
from stick_slip_variants import richardson_in_speed  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LUMPED = [("mdr", {"model": "mdr"}), ("lai", {"model": "lai"})]
MESH_SPEED = 0.5  # m/s: the mesh series' speed (the case's)
SPEED_RESOLUTION = 1.0  # the speed series' contact_resolution
BOUND = 0.05  # the acceptance: within 0.05 of the MDR in Psi2, with the error bar


def read_json(path):
    with open(path) as f:
        return json.load(f)


def run_case(base, psi1, speed, resolution, degree):
    case = json.loads(json.dumps(base))
    name = f"v{speed:g}-cr{resolution:g}-psi1-{psi1:g}"
    case["name"] = f"sphere-sphere-oblique-{name}"
    case["description"] = (f"Two Table 6.1 spheres at Psi1 = {psi1:g}, v_n = {speed:g} m/s, "
                           f"contact_resolution {resolution:g} (scripts/sphere_sphere_oblique.py)")
    case["impact"]["psi1"] = psi1
    case["impact"]["normal_speed"] = speed
    case["fem"] = {"degree": degree, "contact_resolution": resolution}
    return name, case


def complete(runs, keys):
    """The runs of a series in the order of keys, or None while one of them is missing."""
    series = [runs.get(k) for k in keys]
    return None if any(r is None for r in series) else series


def last_with_spread(qs):
    """A series without an order: its last value, the bar its largest difference from the others."""
    return qs[-1], max(abs(q - qs[-1]) for q in qs)


def f(x, digits=4):
    return "—" if x is None else f"{x:+.{digits}f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "results", "sphere-sphere-oblique"))
    p.add_argument("--rebound", default=os.path.join(ROOT, "build", "bin", "rebound"))
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--psi1", default="0.5,1,2,4,6")
    p.add_argument("--resolutions", default="1,1.5,3", help="the mesh series at 0.5 m/s")
    p.add_argument("--speeds", default="0.5,0.0883883,0.015625",
                   help="the speed series, m/s")
    p.add_argument("--degree", type=int, default=2)
    p.add_argument("--no-fem", action="store_true", help="tables from the finished runs only")
    args = p.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    mpi = ["mpirun", "-np", str(args.ranks)] if args.ranks > 1 else []
    base = read_json(os.path.join(ROOT, "cases", "sphere-sphere-oblique.json"))
    psi1s = [float(x) for x in args.psi1.split(",")]
    resolutions = sorted(float(x) for x in args.resolutions.split(","))
    speeds = sorted((float(x) for x in args.speeds.split(",")), reverse=True)
    if SPEED_RESOLUTION not in resolutions or MESH_SPEED not in speeds:
        sys.exit(f"--resolutions must hold {SPEED_RESOLUTION:g} and --speeds {MESH_SPEED:g}")
    # In order of cost: the speed series, then the mesh series.
    plan = [(v, SPEED_RESOLUTION) for v in speeds] + \
           [(MESH_SPEED, r) for r in resolutions if r != SPEED_RESOLUTION]
    runs, failed = {}, False
    for speed, resolution in plan:
        for psi1 in psi1s:
            name, case = run_case(base, psi1, speed, resolution, args.degree)
            folder = os.path.join(args.out, name)
            case_path = os.path.join(folder, "case.json")
            summary_path = os.path.join(folder, "fem", "summary.json")
            fresh = os.path.exists(summary_path) and os.path.exists(case_path) and \
                read_json(case_path) == case
            if not fresh and not args.no_fem:
                write_json(case_path, case)
                cmd = mpi + [args.rebound, "fem", case_path, "-o", folder, "-q", "--frames", "0"]
                print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
                status = subprocess.call(cmd)
                if status == 130:
                    sys.exit("interrupted: rerun to continue from the finished runs")
                failed |= status != 0
                fresh = status == 0
            if not fresh:
                continue
            fem = read_json(summary_path)
            row = {"psi1": psi1, "normal_speed_m_per_s": speed, "contact_resolution": resolution,
                   "dofs": fem["dofs"], "h_contact_m": fem["mesh"]["h_contact"],
                   "a_max_m": fem["mesh"]["a_max"], "steps": fem["steps"],
                   "wall_time_s": fem["wall_time"], "psi2_fem": fem["psi2"],
                   "e_fem": fem["e_newton"], "energy_balance_error": fem["energy_balance_error"]}
            for label, model in LUMPED:
                lumped = lumped_value(args.rebound, case, label, model, folder)
                row[f"psi2_{label}"] = lumped["psi2"]
                row[f"e_{label}"] = lumped["e_newton"]
            runs[(psi1, speed, resolution)] = row
    if not runs:
        sys.exit("no finished runs")
    rows = [runs[k] for k in sorted(runs)]
    with open(os.path.join(args.out, "runs.csv"), "w", newline="") as out:
        w = csv.DictWriter(out, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = write_tables(runs, psi1s, resolutions, speeds)
    with open(os.path.join(args.out, "sphere-sphere-oblique.md"), "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failed else 0


def write_tables(runs, psi1s, resolutions, speeds):
    lines = ["# Two identical spheres, oblique: the FEM (p = 2) against the MDR in Psi2", "",
             "Generated by `python3 scripts/sphere_sphere_oblique.py " + " ".join(sys.argv[1:]) +
             "`.", "", "## Every run", "",
             "| Ψ₁ | v_n (m/s) | contact_resolution | dofs | h_contact/a_max | steps | wall (s) | "
             "Ψ₂ FEM | Ψ₂ MDR | Ψ₂ Lai | FEM − MDR | e FEM | energy balance |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(runs):
        r = runs[key]
        lines.append(f"| {r['psi1']:g} | {r['normal_speed_m_per_s']:g} | "
                     f"{r['contact_resolution']:g} | {r['dofs']} | "
                     f"{r['h_contact_m'] / r['a_max_m']:.3f} | {r['steps']} | "
                     f"{r['wall_time_s']:.0f} | {f(r['psi2_fem'])} | {f(r['psi2_mdr'])} | "
                     f"{f(r['psi2_lai'])} | {f(r['psi2_fem'] - r['psi2_mdr'])} | "
                     f"{r['e_fem']:.5f} | {r['energy_balance_error']:.1e} |")
    lines += ["", f"## The mesh at {MESH_SPEED:g} m/s", "",
              "| Ψ₁ | Ψ₂ at h_contact/a_max " + " / ".join(f"{c:g}" for c in resolutions) +
              " (contact_resolution) | h ratios | order | Richardson ± error | MDR |",
              "|---|---|---|---|---|---|"]
    mesh = {}
    for psi1 in psi1s:
        series = complete(runs, [(psi1, MESH_SPEED, c) for c in resolutions])
        if series is None:
            continue
        hs = [s["h_contact_m"] for s in series]
        qs = [s["psi2_fem"] for s in series]
        ratios = [hs[k] / hs[k + 1] for k in range(len(hs) - 1)]
        rich = richardson(hs, qs)
        if rich["status"] == "ok":
            value, error = rich["extrapolated"], rich["error_estimate"]
            order = f"{rich['order']:.2f}"
        else:  # no order: the finest run
            value, error = last_with_spread(qs)
            order = f"none ({rich['status']})"
        mesh[psi1] = (value, error, qs[resolutions.index(SPEED_RESOLUTION)])
        lines.append(f"| {psi1:g} | " + " / ".join(f"{q:+.4f}" for q in qs) + " | " +
                     ", ".join(f"{x:.2f}" for x in ratios) + f" | {order} | "
                     f"{value:+.4f} ± {error:.4f} | {series[0]['psi2_mdr']:+.4f} |")
    lines += ["", f"## The impact speed at contact_resolution {SPEED_RESOLUTION:g}", "",
              "| Ψ₁ | Ψ₂ at v_n = " + ", ".join(f"{v:g}" for v in speeds) +
              " m/s | h_contact/a_max | FEM − MDR | order in v | FEM (v → 0) |",
              "|---|---|---|---|---|---|"]
    rate = {}
    for psi1 in psi1s:
        series = complete(runs, [(psi1, v, SPEED_RESOLUTION) for v in speeds])
        if series is None:
            continue
        qs = [s["psi2_fem"] for s in series]
        order, q0 = richardson_in_speed(speeds[-3:], qs[-3:])
        if q0 is None:  # no order: the slowest run
            q0, bar = last_with_spread(qs)
        else:
            bar = abs(q0 - qs[-1])
        rate[psi1] = (q0, bar)
        lines.append(f"| {psi1:g} | " + ", ".join(f"{q:+.4f}" for q in qs) + " | " +
                     ", ".join(f"{s['h_contact_m'] / s['a_max_m']:.3f}" for s in series) + " | " +
                     ", ".join(f"{s['psi2_fem'] - s['psi2_mdr']:+.4f}" for s in series) +
                     f" | {order} | {q0:+.4f} |")
    lines += ["", "## The FEM's answer against the MDR", "",
              "FEM = the speed series' v → 0 value + (Richardson − the contact_resolution "
              f"{SPEED_RESOLUTION:g} run) at {MESH_SPEED:g} m/s; bar = |v → 0 − slowest run| + "
              f"Richardson's error estimate. Within: |FEM − MDR| ≤ bar + {BOUND:g}.", "",
              "| Ψ₁ | FEM (v → 0, mesh-corrected) | bar | MDR | Lai | FEM − MDR | "
              f"within bar + {BOUND:g} | |FEM − MDR| + bar ≤ {BOUND:g} |",
              "|---|---|---|---|---|---|---|---|"]
    for psi1 in psi1s:
        if psi1 not in mesh or psi1 not in rate:
            continue
        (rich, rich_error, coarse), (q0, rate_bar) = mesh[psi1], rate[psi1]
        value, bar = q0 + (rich - coarse), rate_bar + rich_error
        r = runs[(psi1, MESH_SPEED, SPEED_RESOLUTION)]
        difference = value - r["psi2_mdr"]
        lines.append(f"| {psi1:g} | {value:+.4f} | {bar:.4f} | {r['psi2_mdr']:+.4f} | "
                     f"{r['psi2_lai']:+.4f} | {difference:+.4f} | "
                     f"{'yes' if abs(difference) <= bar + BOUND else 'no'} | "
                     f"{'yes' if abs(difference) + bar <= BOUND else 'no'} |")
    return lines


if __name__ == "__main__":
    sys.exit(main())
