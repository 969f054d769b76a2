#!/usr/bin/env python3
"""Michalczyk's (2008) claim that the restitution R is a function of the energy-flux density
Phi = m_w v_n^2 / (2 R^3) alone, tested on the elastic-plastic FE body (docs/FEM.md,
"Elastic-plastic restitution").

    /usr/bin/python3 scripts/plastic_flux_density.py [--build build]
        [--out results/plastic-flux-density] [--thetas 0,0.27018,0.6] [--ratio 20]
        [--resolutions 1.5,3,6] [--degree 2] [--yield-stress Y]

Lai's capsule rod (cases/rod-lai-a.json: R = 10 mm, L = 50 mm, steel; the lumped overrides of
lambda and theta removed) made an elastic-perfectly-plastic FE body, frictionless, strikes the
rigid plane with P's velocity normal to it at each axis angle theta: three reduced masses m_w at
P. The normal speed is `ratio` times Thornton's yield speed of that m_w, so that every theta has
the same Phi / Phi_y = ratio^2 (Phi_y = (pi^5/60) p_y^5 / E*^4, docs/THEORY.md sec. 7) as the
sphere of scripts/plastic_restitution.py at V/V_y = ratio. In Thornton's law the restitution is
then the same for all (a function of Phi alone); the FE body adds what the law has not: the
rod's waves and vibration, its contact's own plastic flow. For each theta `rebound refine
--contact-resolutions R1,R2,R3` runs the FE body and Newton's e at P, the plastic work and the
energy left in the rod's vibration (internal plus vibration kinetic energy at the end), both
over the normal impact's energy (1/2) m_w v_n^2, are extrapolated as in plastic_restitution.py.

Writes OUT/plastic_flux_density.csv and prints a markdown table. Exits 1 naming the run that
failed, 2 for bad arguments.
"""
import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plastic_restitution import extrapolate, run_case, setup  # noqa: E402
from socket_fem import contact_sizes, fail, write  # noqa: E402

CASE = os.path.join(ROOT, "cases", "rod-lai-a.json")


def rod_case(base, theta, yield_stress, degree):
    case = json.loads(json.dumps(base))
    case["name"] = f"{base['name']}-plastic-theta{theta:g}"
    case["description"] = (f"{base['name']} as an elastic-perfectly-plastic FE body (J2, Y = "
                           f"{yield_stress:.6g} Pa), frictionless, P's velocity normal to the "
                           f"plane, theta = {theta:g} (scripts/plastic_flux_density.py)")
    case["material"]["model"] = "elastic-plastic"
    case["material"]["yield_stress"] = yield_stress
    case["contact"] = {"friction": 0.0}
    case["impact"] = {"theta": theta, "normal_speed": 1.0, "tangential_speed": 0.0, "spin": 0.0}
    case["lumped"] = {"model": "lai", "normal_law": "thornton"}
    case["fem"] = {"degree": degree}
    return case


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "plastic-flux-density"))
    parser.add_argument("--thetas", default="0,0.27018,0.6", help="axis angles theta, rad")
    parser.add_argument("--ratio", type=float, default=20.0, help="V/V_y of every run")
    parser.add_argument("--resolutions", default="1.5,3,6",
                        help="three fem.contact_resolution values, coarse to fine")
    parser.add_argument("--degree", type=int, default=2, choices=[1, 2])
    parser.add_argument("--yield-stress", type=float, default=1.8e9, help="Y, Pa")
    args = parser.parse_args()
    try:
        thetas = [float(t) for t in args.thetas.split(",")]
    except ValueError:
        fail(f"--thetas {args.thetas!r}: expected comma-separated angles in rad", 2)
    if not args.ratio > 1 or not args.yield_stress > 0:
        fail("--ratio must be > 1 and --yield-stress > 0", 2)
    resolutions, rebound_fem, rebound, out = setup(args)
    with open(CASE) as stream:
        base = json.load(stream)
    rows = []
    for theta in thetas:
        case = rod_case(base, theta, args.yield_stress, args.degree)
        derived = rebound.load_case(case).derived()
        case["impact"]["normal_speed"] = args.ratio * derived["thornton"]["yield_speed"]
        loaded = rebound.load_case(case)
        derived = loaded.derived()
        t = derived["thornton"]
        modulus = derived["hertz"]["contact_modulus"]
        flux_y = math.pi ** 5 / 60 * t["limiting_pressure"] ** 5 / modulus ** 4
        runs = run_case(rebound_fem, case, resolutions, out)
        sizes = contact_sizes(runs, f"theta = {theta:g}", resolutions)
        # Energies over the normal impact's, (1/2) m_w v_n^2 (the rod's KE_0 is (1/2) m v_n^2).
        impact_energy = 0.5 * derived["reduced_mass"] * case["impact"]["normal_speed"] ** 2
        vibration, plastic = [], []
        for run in runs:
            s = run["summary"]
            vibration.append((s["internal_energy_final"] + s["vibration_kinetic_energy_final"])
                             / impact_energy)
            plastic.append(s["plastic_dissipation"] / impact_energy)
        e = extrapolate([r["e_newton"] for r in runs], sizes)
        w = extrapolate(plastic, sizes)
        v = extrapolate(vibration, sizes)
        rows.append({"theta": theta, "reduced_mass_kg": derived["reduced_mass"],
                     "normal_speed_m_per_s": case["impact"]["normal_speed"],
                     "energy_flux_density_J_per_m3": derived["energy_flux_density"],
                     "flux_over_yield_flux": derived["energy_flux_density"] / flux_y,
                     **{f"e_r{res:g}": r["e_newton"] for res, r in zip(resolutions, runs)},
                     **{f"h{k + 1}_m": h for k, h in enumerate(sizes)},
                     "e_order": e[0], "e": e[1], "e_error": e[2],
                     "plastic_fraction": w[1], "plastic_fraction_error": w[2],
                     "vibration_fraction": v[1], "vibration_fraction_error": v[2],
                     "energy_balance_error_finest": runs[-1]["energy_balance_error"],
                     "e_thornton": rebound.lumped(loaded, history=False)["e_newton"]})
        print(f"plastic_flux_density.py: theta = {theta:g}: e = {e[1]:.4f} +- {e[2]:.2g}",
              file=sys.stderr)
    path = write(rows, out, "plastic_flux_density.csv")
    head = " | ".join(f"r = {r:g}" for r in resolutions)
    print(f"Elastic-plastic FE rod at Phi = {args.ratio:g}^2 Phi_y (`python3 "
          f"scripts/plastic_flux_density.py --thetas {args.thetas} --ratio {args.ratio:g} "
          f"--resolutions {args.resolutions} --degree {args.degree} --yield-stress "
          f"{args.yield_stress:g}`):\n")
    print(f"| θ | m_w (kg) | v_n (m/s) | Φ (J/m³) | e: {head} | order | e (FE) | Thornton | "
          "plastic work / ½m_wv_n² | left in vibration / ½m_wv_n² |")
    print("|---:|---:|---:|---:|" + "---:|" * (len(resolutions) + 5))
    for row in rows:
        cells = " | ".join(f"{row[f'e_r{r:g}']:.4f}" for r in resolutions)
        order = f"{row['e_order']:.2f}" if row["e_order"] is not None else "none (spread)"
        print(f"| {row['theta']:g} | {row['reduced_mass_kg']:.4f} | "
              f"{row['normal_speed_m_per_s']:.4g} | {row['energy_flux_density_J_per_m3']:.4g} | "
              f"{cells} | {order} | {row['e']:.4f} ± {row['e_error']:.1g} | "
              f"{row['e_thornton']:.4f} | {row['plastic_fraction']:.4f} ± "
              f"{row['plastic_fraction_error']:.1g} | {row['vibration_fraction']:.4f} ± "
              f"{row['vibration_fraction_error']:.1g} |")
    print(f"\nwritten: {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
