#!/usr/bin/env python3
"""The elastic-plastic FE ball's oblique impact: normal and tangential coefficients of restitution
against the angle of incidence, converged on three meshes, beside Lai's model with Thornton's
normal law and the rigid-body limit of gross sliding (docs/FEM.md, "Oblique elastic-plastic
impact"; the question of Wu, Thornton & Li 2009).

    /usr/bin/python3 scripts/plastic_oblique.py [--build build] [--out results/plastic-oblique]
        [--ratio 10] [--friction 0.1] [--angles 5,10,20,30,45,60]
        [--resolutions 1.5,3,6] [--degree 2]

The ball is scripts/plastic_restitution.py's (cases/hertz-steel-sphere.json, R = 10 mm, steel,
elastic-perfectly-plastic with the Y that puts the normal speed of 1 m/s at `ratio` times
Thornton's V_y) with Coulomb friction mu, struck at the angle theta from the normal: the normal
speed is kept (1 m/s: the same V/V_y, the same normal problem at every angle), the tangential
speed is tan(theta) m/s, no initial spin. For each angle it runs `rebound refine CASE
--contact-resolutions R1,R2,R3 --resume` and extrapolates Newton's e_n, the centre's tangential
coefficient e_t and Maw's reflection Psi_2 over the three contact cell sizes (observed order,
Richardson value, error |Richardson - finest|; without an observed order the finest value and the
spread of the three).

Beside them:
* Lai's model with `lumped.normal_law` "thornton" (rebound.lumped): the lumped e_n, e_t, Psi_2;
* gross sliding: a ball that slides through the whole contact takes the tangential impulse
  mu (1 + e_n) m v_n, so e_t = 1 - mu (1 + e_n) / tan(theta) with the FE ball's own e_n; it
  holds where the contact point's tangential velocity never reaches zero, tan(theta) >
  (7/2) mu (1 + e_n) for a rigid solid sphere (the elastic ball's tangential compliance moves
  the bound);
* head-on (theta = 0, frictionless): the FE e_n of the same ball, the reference against which the
  oblique e_n are compared (Wu, Thornton & Li report e_n of elastoplastic spheres that does not
  depend on the angle of incidence).

Writes OUT/plastic_oblique.csv and prints a markdown table. Exits 1 naming the run that failed, 2
for bad arguments.
"""
import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plastic_restitution import extrapolate, setup, study_case  # noqa: E402
from socket_fem import contact_sizes, fail, numbers, run_refine, write  # noqa: E402

CASE = os.path.join(ROOT, "cases", "hertz-steel-sphere.json")


def oblique_case(base, ratio, degree, theta_deg, friction):
    """The plastic ball of plastic_restitution.study_case at the incidence theta (degrees from
    the normal) with friction mu; theta = 0 is the frictionless head-on impact."""
    case = study_case(base, ratio, degree)
    theta = math.radians(theta_deg)
    v_n = case["impact"]["normal_speed"]
    case["name"] = f"{case['name']}-theta{theta_deg:g}" + (f"-mu{friction:g}" if theta_deg else "")
    case["description"] += f", at {theta_deg:g} degrees from the normal, mu = {friction:g}"
    case["impact"] = {"theta": 0.0, "normal_speed": v_n, "tangential_speed": v_n * math.tan(theta)}
    case["contact"] = {"friction": friction if theta_deg else 0.0}
    return case


def gross_sliding_e_t(e_n, theta_deg, friction):
    return 1 - friction * (1 + e_n) / math.tan(math.radians(theta_deg))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "plastic-oblique"))
    parser.add_argument("--ratio", type=float, default=10.0, help="V_n / V_y")
    parser.add_argument("--friction", type=float, default=0.1, help="Coulomb's mu")
    parser.add_argument("--angles", default="5,10,20,30,45,60",
                        help="angles of incidence from the normal, degrees, in (0, 90)")
    parser.add_argument("--resolutions", default="1.5,3,6",
                        help="three fem.contact_resolution values, coarse to fine")
    parser.add_argument("--degree", type=int, default=2, choices=[1, 2])
    args = parser.parse_args()
    angles = numbers(args.angles, float, "--angles")
    if any(not 0 < a < 90 for a in angles):
        fail(f"--angles {args.angles!r}: expected angles in (0, 90) degrees", 2)
    if not args.ratio > 0 or not args.friction > 0:
        fail("--ratio and --friction: expected values > 0", 2)
    resolutions, rebound_fem, rebound, out = setup(args)
    with open(CASE) as stream:
        base = json.load(stream)
    rows = []
    for theta in [0.0] + angles:
        case = oblique_case(base, args.ratio, args.degree, theta, args.friction)
        runs = run_refine(rebound_fem, case, resolutions, out, ["--frames", "0"])
        sizes = contact_sizes(runs, f"theta = {theta:g}", resolutions)
        summaries = []
        for run in runs:
            with open(os.path.join(run["directory"], "summary.json")) as stream:
                summaries.append(json.load(stream))
        row = {"theta_deg": theta, "friction": case["contact"]["friction"],
               **{f"h{k + 1}_m": h for k, h in enumerate(sizes)},
               **{f"dofs{k + 1}": r["dofs"] for k, r in enumerate(runs)}}
        keys = ["e_newton"] + (["tangential_cor", "psi2"] if theta else [])
        for key in keys:
            values = [s[key] for s in summaries]
            order, value, error = extrapolate(values, sizes)
            row.update({f"{key}_r{res:g}": v for res, v in zip(resolutions, values)})
            row.update({f"{key}_order": order, key: value, f"{key}_error": error})
        row["plastic_fraction_finest"] = (summaries[-1]["plastic_dissipation"] /
                                          summaries[-1]["kinetic_energy_initial"])
        row["frictional_fraction_finest"] = (summaries[-1]["frictional_dissipation"] /
                                             summaries[-1]["kinetic_energy_initial"])
        row["energy_balance_error_finest"] = summaries[-1]["energy_balance_error"]
        lumped_case = json.loads(json.dumps(case))
        lumped_case["lumped"] = {"model": "lai", "normal_law": "thornton"}
        lumped = rebound.lumped(rebound.load_case(lumped_case), history=False)
        row["e_newton_lai_thornton"] = lumped["e_newton"]
        if theta:
            row["psi1"] = summaries[-1]["psi1"]
            row["tangential_cor_lai_thornton"] = lumped["tangential_cor"]
            row["psi2_lai_thornton"] = lumped["psi2"]
            row["tangential_cor_gross_sliding"] = gross_sliding_e_t(row["e_newton"], theta,
                                                                    args.friction)
            row["sliding_bound_tan"] = 3.5 * args.friction * (1 + row["e_newton"])
        rows.append(row)
        print(f"plastic_oblique.py: theta = {theta:g}: e_n = {row['e_newton']:.4f}"
              + (f", e_t = {row['tangential_cor']:.4f}" if theta else ""), file=sys.stderr)
    columns = list(dict.fromkeys(key for row in rows for key in row))  # head-on has fewer
    path = write([{key: row.get(key) for key in columns} for row in rows], out,
                 "plastic_oblique.csv")
    head = rows[0]
    print(f"Elastic-plastic FE ball (FE_Q({args.degree}), V_n = {args.ratio:g} V_y at 1 m/s) at "
          f"incidence theta from the normal, mu = {args.friction:g} (`python3 "
          f"scripts/plastic_oblique.py --ratio {args.ratio:g} --friction {args.friction:g} "
          f"--angles {args.angles} --resolutions {args.resolutions} --degree {args.degree}`); "
          f"head-on, frictionless: e_n = {head['e_newton']:.4f} ± {head['e_newton_error']:.1g}, "
          f"Lai + Thornton {head['e_newton_lai_thornton']:.4f}\n")
    print("| θ (°) | Ψ₁ | e_n (FE) | e_n − head-on | e_n Lai + Thornton | e_t (FE) | e_t Lai + "
          "Thornton | e_t gross sliding | tan θ / (3.5 μ (1 + e_n)) | Ψ₂ (FE) | Ψ₂ Lai + Thornton "
          "| plastic / friction work / KE₀ | energy balance |")
    print("|---:|" + "---:|" * 12)
    for row in rows[1:]:
        theta = row["theta_deg"]
        print(f"| {theta:g} | {row['psi1']:.3f} | {row['e_newton']:.4f} ± "
              f"{row['e_newton_error']:.1g} | {row['e_newton'] - head['e_newton']:+.4f} | "
              f"{row['e_newton_lai_thornton']:.4f} | {row['tangential_cor']:.4f} ± "
              f"{row['tangential_cor_error']:.1g} | {row['tangential_cor_lai_thornton']:.4f} | "
              f"{row['tangential_cor_gross_sliding']:.4f} | "
              f"{math.tan(math.radians(theta)) / row['sliding_bound_tan']:.2f} | "
              f"{row['psi2']:.3f} ± {row['psi2_error']:.1g} | {row['psi2_lai_thornton']:.3f} | "
              f"{row['plastic_fraction_finest']:.3f} / {row['frictional_fraction_finest']:.3f} | "
              f"{row['energy_balance_error_finest']:.1e} |")
    print(f"\nwritten: {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
