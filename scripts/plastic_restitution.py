#!/usr/bin/env python3
"""The elastic-plastic FE ball's coefficient of restitution against V/V_y, converged on three
meshes, beside Thornton's (1997) law (docs/FEM.md, "Elastic-plastic restitution").

    /usr/bin/python3 scripts/plastic_restitution.py [--build build]
        [--out results/plastic-restitution] [--ratios 0.5,1,2,5,10,20,50,100]
        [--resolutions 1.5,3,6] [--degree 2]

The case is cases/hertz-steel-sphere.json (a steel ball, R = 10 mm, E = 210 GPa, nu = 0.3, on
the rigid plane, head-on and frictionless at 1 m/s) made an elastic-perfectly-plastic FE body
(material.model "elastic-plastic"). Thornton's e depends on V/V_y alone, so the speed is kept
at 1 m/s (the same waves, the same time scale, the same step count on every mesh) and the yield
stress Y is chosen for each ratio: V_y = v / ratio, Y = (V_y^2 E*^4 rho / 1.56^2)^(1/5) / 1.6
(V_y = 1.56 sqrt(p_y^5/(E*^4 rho)), p_y = 1.6 Y). For each ratio it runs `rebound refine CASE
--contact-resolutions R1,R2,R3 --resume` (FE_Q(degree); the contact cells shrink inside
Thornton's contact zone, cases::ThorntonScales) and extrapolates Newton's e, the plastic
work's fraction of the impact energy and the peak force over the three contact cell sizes
(observed order from three unequal h, Richardson value, error |Richardson - finest|; without an
observed order the finest value and the spread of the three). Beside them: Thornton's e and
peak force from the lumped `thornton` law (rebound.lumped), and, on the finest mesh, the FE
contact's mean pressure at the peak force (force over the contact nodes' area) over Y, against
the p_y = 1.6 Y that Thornton's law takes as the pressure's limit, the radius of that area over
the meshed contact zone's, and the energy balance with the plastic work counted.

Writes OUT/plastic_restitution.csv and prints a markdown table. Exits 1 naming the run that
failed, 2 for bad arguments.
"""
import argparse
import csv
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from socket_fem import (contact_sizes, executable, fail, numbers, richardson,  # noqa: E402
                        run_refine, write)

CASE = os.path.join(ROOT, "cases", "hertz-steel-sphere.json")


def yield_stress_at(case, ratio):
    """The Y that puts the case's normal speed at `ratio` times Thornton's V_y (sphere, plane)."""
    m = case["material"]
    modulus = m["young_modulus"] / (1 - m["poisson_ratio"] ** 2)
    v_y = case["impact"]["normal_speed"] / ratio
    return (v_y ** 2 / 1.56 ** 2 * modulus ** 4 * m["density"]) ** 0.2 / 1.6


def study_case(base, ratio, degree):
    case = json.loads(json.dumps(base))
    y = yield_stress_at(base, ratio)
    case["name"] = f"{base['name']}-plastic-{ratio:g}vy"
    case["description"] = (f"{base['name']} as an elastic-perfectly-plastic FE body (J2, Y = "
                           f"{y:.6g} Pa: v_n = {ratio:g} V_y), head-on and frictionless "
                           "(scripts/plastic_restitution.py)")
    case["material"]["model"] = "elastic-plastic"
    case["material"]["yield_stress"] = y
    case["contact"] = {"friction": 0.0}
    case["lumped"] = {"model": "lai", "normal_law": "thornton"}
    case["fem"] = {"degree": degree}
    return case


def extrapolate(values, sizes):
    order, value, error = richardson(values, sizes)
    if order is None:
        return None, values[-1], max(values) - min(values)
    return order, value, error


def contact_at_peak(directory):
    """The FE contact at the largest normal force: force over the contact nodes' area (Pa) and
    the radius sqrt(area / pi) of that area (m)."""
    with open(os.path.join(directory, "history.csv")) as stream:
        rows = list(csv.DictReader(stream))
    peak = max(rows, key=lambda r: float(r["normal_force_N"]))
    area = float(peak["contact_area_m2"])
    return float(peak["normal_force_N"]) / area, math.sqrt(area / math.pi)


def run_case(rebound_fem, case, resolutions, out):
    """`rebound refine` along the contact resolutions (no frames); its runs coarse to fine with
    the plastic work's fraction, the energy balance and the contact at the peak force."""
    runs = run_refine(rebound_fem, case, resolutions, out, ["--frames", "0"])
    for run in runs:
        with open(os.path.join(run["directory"], "summary.json")) as stream:
            summary = json.load(stream)
        run["summary"] = summary
        run["plastic_fraction"] = summary["plastic_dissipation"] / summary["kinetic_energy_initial"]
        run["energy_balance_error"] = summary["energy_balance_error"]
        run["mean_pressure"], run["contact_radius"] = contact_at_peak(run["directory"])
    return runs


def setup(args):
    """The three resolutions, rebound-fem, the rebound module and the output folder of a study's
    arguments (exits 2 naming a bad one)."""
    resolutions = numbers(args.resolutions, float, "--resolutions")
    if len(resolutions) != 3 or sorted(resolutions) != resolutions or len(set(resolutions)) != 3:
        fail(f"--resolutions {args.resolutions!r}: expected three increasing values", 2)
    rebound_fem = executable(os.path.abspath(args.build))
    sys.path.insert(0, os.path.join(os.path.abspath(args.build), "python"))
    try:
        import rebound
    except ImportError as error:
        fail(f"{error}; build the Python module in {args.build}", 2)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    return resolutions, rebound_fem, rebound, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "plastic-restitution"))
    parser.add_argument("--ratios", default="0.5,1,2,5,10,20,50,100", help="V/V_y values")
    parser.add_argument("--resolutions", default="1.5,3,6",
                        help="three fem.contact_resolution values, coarse to fine")
    parser.add_argument("--degree", type=int, default=2, choices=[1, 2])
    args = parser.parse_args()
    ratios = numbers(args.ratios, float, "--ratios")
    if any(not r > 0 for r in ratios):
        fail(f"--ratios {args.ratios!r}: expected values > 0", 2)
    resolutions, rebound_fem, rebound, out = setup(args)
    with open(CASE) as stream:
        base = json.load(stream)
    rows = []
    for ratio in ratios:
        case = study_case(base, ratio, args.degree)
        runs = run_case(rebound_fem, case, resolutions, out)
        sizes = contact_sizes(runs, f"V/V_y = {ratio:g}", resolutions)
        e = extrapolate([r["e_newton"] for r in runs], sizes)
        w = extrapolate([r["plastic_fraction"] for r in runs], sizes)
        f = extrapolate([r["peak_normal_force"] for r in runs], sizes)
        loaded = rebound.load_case(case)
        thornton = rebound.lumped(loaded, history=False)
        zone = loaded.derived()["thornton"]["contact_zone_radius"]
        y = case["material"]["yield_stress"]
        rows.append({"ratio": ratio, "yield_stress_Pa": y,
                     **{f"e_r{res:g}": r["e_newton"] for res, r in zip(resolutions, runs)},
                     **{f"h{k + 1}_m": h for k, h in enumerate(sizes)},
                     **{f"dofs{k + 1}": r["dofs"] for k, r in enumerate(runs)},
                     "e_order": e[0], "e": e[1], "e_error": e[2],
                     "plastic_fraction_order": w[0], "plastic_fraction": w[1],
                     "plastic_fraction_error": w[2],
                     "peak_force_order": f[0], "peak_force_N": f[1], "peak_force_error_N": f[2],
                     "mean_pressure_over_Y_finest": runs[-1]["mean_pressure"] / y,
                     "contact_radius_over_zone_finest": runs[-1]["contact_radius"] / zone,
                     "energy_balance_error_finest": runs[-1]["energy_balance_error"],
                     "e_thornton": thornton["e_newton"],
                     "peak_force_thornton_N": thornton["peak_normal_force"]})
        print(f"plastic_restitution.py: V/V_y = {ratio:g}: e = {e[1]:.4f} +- {e[2]:.2g} "
              f"(Thornton {thornton['e_newton']:.4f})", file=sys.stderr)
    path = write(rows, out, "plastic_restitution.csv")
    head = " | ".join(f"r = {r:g}" for r in resolutions)
    print(f"Elastic-plastic FE ball (FE_Q({args.degree})) against Thornton (1997), head-on at "
          f"1 m/s (`python3 scripts/plastic_restitution.py --ratios {args.ratios} "
          f"--resolutions {args.resolutions} --degree {args.degree}`):\n")
    print(f"| V/V_y | Y (MPa) | e: {head} | order | e (FE) | Thornton | FE − Thornton | "
          "plastic work / KE₀ | F_max FE / Thornton | FE mean pressure at F_max / Y | "
          "FE contact radius / zone | energy balance |")
    print("|---:|---:|" + "---:|" * (len(resolutions) + 9))
    for row in rows:
        cells = " | ".join(f"{row[f'e_r{r:g}']:.4f}" for r in resolutions)
        order = f"{row['e_order']:.2f}" if row["e_order"] is not None else "none (spread)"
        print(f"| {row['ratio']:g} | {row['yield_stress_Pa'] / 1e6:.0f} | {cells} | {order} | "
              f"{row['e']:.4f} ± {row['e_error']:.1g} | {row['e_thornton']:.4f} | "
              f"{row['e'] - row['e_thornton']:+.4f} | {row['plastic_fraction']:.4f} ± "
              f"{row['plastic_fraction_error']:.1g} | "
              f"{row['peak_force_N'] / row['peak_force_thornton_N']:.3f} | "
              f"{row['mean_pressure_over_Y_finest']:.2f} | "
              f"{row['contact_radius_over_zone_finest']:.2f} | "
              f"{row['energy_balance_error_finest']:.1e} |")
    print(f"\nwritten: {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
