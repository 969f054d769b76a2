#!/usr/bin/env python3
"""The viscoelastic FE ball's coefficient of restitution against the impact speed, converged on
three meshes, beside Brilliantov et al.'s (1996) law, Hunt & Crossley's (1975) and Tsuji et al.'s
(1992): which law does the FE body follow? (docs/FEM.md, "Viscoelastic restitution").

    /usr/bin/python3 scripts/viscoelastic_restitution.py [--build build]
        [--out results/viscoelastic-restitution] [--speeds 0.1,0.3,1,3,10] [--g 1]
        [--tau-ratio 0.01] [--resolutions 1,2,4] [--degree 1]

The case is cases/hertz-steel-sphere.json (a steel ball, R = 10 mm, on the rigid plane, head-on
and frictionless) made a standard linear solid (material.model "viscoelastic", relaxation
strength g, relaxation time tau = ratio x t_c, t_c Hertz's contact time at 1 m/s; the same tau at
every speed, as a material constant is). For each speed it runs `rebound refine CASE
--contact-resolutions R1,R2,R3 --resume` (FE_Q(degree)) and extrapolates Newton's e over the
three contact cell sizes (observed order, Richardson value, error |Richardson - finest|; without
an observed order the finest value and the spread of the three). FE_Q(1) by default: FE_Q(2) on
the finest mesh at 0.1 m/s alone would take about an hour on one core; docs/FEM.md gives the
FE_Q(2) values at 1 m/s (`--degree 2 --speeds 1`) beside FE_Q(1)'s; and the elastic body at the
middle resolution (`rebound-fem fem`), whose own loss (vibration, the kinematic contact) the
viscoelastic e is divided by: e_visc = e / e_elastic is what a lumped law of the contact alone
should restitute. Its steps and the elastic run's on the same mesh are the cost of the glassy
step.

Beside e_visc, through the lumped models (rebound.lumped, Lai's model, 1-DOF head-on):
* Brilliantov et al.'s `viscoelastic` law with A = g tau (THEORY sec. 11: no fit) and with the A
  fitted to every speed (least squares in e through Muller & Poschel's Pade approximant,
  scripts/viscoelastic_fit.py); its 1 - e grows like v^(1/5) while small;
* Hunt & Crossley's law with a material damping factor chi (s/m) fitted at the reference speed
  (the one nearest 1 m/s: `hunt-crossley` calibrated to the FE e there gives D = chi v), at the
  other speeds D = chi v (`restitution_calibration` "published", c_r = 1 - 2 D / 3): 1 - e grows
  like v;
* Tsuji et al.'s dashpot (proportional to delta^(1/4), the DEM codes' Hertz damping): e does not
  depend on the speed (THEORY sec. 7), so its e is the FE e at the reference speed.
The slope of log(1 - e_visc) against log v between neighbouring speeds and by least squares over
all of them tells the laws apart (1/5, 1, 0).

Writes OUT/viscoelastic_restitution.csv and prints markdown tables. Exits 1 naming the run that
failed, 2 for bad arguments.
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plastic_restitution import extrapolate, setup  # noqa: E402
from socket_fem import contact_sizes, fail, numbers, run_refine, write  # noqa: E402
from viscoelastic_fit import Sphere, fit_all  # noqa: E402

CASE = os.path.join(ROOT, "cases", "hertz-steel-sphere.json")


def at_speed(base, speed, degree, name):
    case = json.loads(json.dumps(base))
    case["name"] = name
    case["impact"] = {"theta": 0.0, "normal_speed": speed, "tangential_speed": 0.0}
    case["contact"] = {"friction": 0.0}
    case["lumped"] = {"model": "lai"}
    case["fem"] = {"degree": degree}
    return case


def viscoelastic_case(base, speed, degree, g, tau):
    case = at_speed(base, speed, degree, f"{base['name']}-viscoelastic-v{speed:g}")
    case["description"] = (f"{base['name']} as a standard linear solid (g = {g:g}, tau = "
                           f"{tau:.6g} s) at {speed:g} m/s, head-on and frictionless "
                           "(scripts/viscoelastic_restitution.py)")
    case["material"].update(model="viscoelastic", relaxation_strength=g, relaxation_time=tau)
    return case


def run_elastic(rebound_fem, case, resolution, out):
    """The elastic body at one resolution (`rebound-fem fem`, no frames, reused when its
    summary exists); its summary."""
    case = json.loads(json.dumps(case))
    case["fem"]["contact_resolution"] = resolution
    folder = os.path.join(out, f"{case['name']}-p{case['fem']['degree']}-r{resolution:g}")
    summary = os.path.join(folder, "fem", "summary.json")
    if os.path.exists(summary):
        with open(os.path.join(folder, "case.json")) as stream:
            if json.load(stream) != case:
                fail(f"{folder}/case.json is not this study's case: remove {folder}")
    else:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "case.json")
        with open(path, "w") as stream:
            json.dump(case, stream, indent=2)
        command = [rebound_fem, "fem", path, "-o", folder, "-q", "--frames", "0"]
        with open(os.path.join(folder, "log.txt"), "w") as stream:
            status = subprocess.run(command, stdout=stream, stderr=subprocess.STDOUT).returncode
        if status != 0:
            fail(f"{' '.join(command)} exited with {status} (log: {folder}/log.txt)")
    with open(summary) as stream:
        return json.load(stream)


def lumped_e(rebound, case, lumped):
    c = json.loads(json.dumps(case))
    c["material"] = {k: v for k, v in c["material"].items()
                     if k in ("young_modulus", "poisson_ratio", "density")}
    c["lumped"] = {"model": "lai", **lumped}
    return rebound.lumped(rebound.load_case(c), history=False)


def slope(speeds, es):
    """Least-squares slope of log(1 - e) against log v."""
    x = [math.log(v) for v in speeds]
    y = [math.log(1 - e) for e in es]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "viscoelastic-restitution"))
    parser.add_argument("--speeds", default="0.1,0.3,1,3,10", help="normal speeds, m/s")
    parser.add_argument("--g", type=float, default=1.0, help="relaxation strength")
    parser.add_argument("--tau-ratio", type=float, default=0.01,
                        help="relaxation time over Hertz's contact time at 1 m/s")
    parser.add_argument("--resolutions", default="1,2,4",
                        help="three fem.contact_resolution values, coarse to fine")
    parser.add_argument("--degree", type=int, default=1, choices=[1, 2])
    args = parser.parse_args()
    speeds = numbers(args.speeds, float, "--speeds")
    if any(not v > 0 for v in speeds) or sorted(speeds) != speeds or len(set(speeds)) != len(speeds):
        fail(f"--speeds {args.speeds!r}: expected increasing speeds > 0", 2)
    if not args.g > 0 or not args.tau_ratio > 0:
        fail("--g and --tau-ratio: expected values > 0", 2)
    resolutions, rebound_fem, rebound, out = setup(args)
    with open(CASE) as stream:
        base = json.load(stream)
    sphere = Sphere(base)
    tau = args.tau_ratio * sphere.contact_time(1.0)
    rows = []
    for speed in speeds:
        case = viscoelastic_case(base, speed, args.degree, args.g, tau)
        runs = run_refine(rebound_fem, case, resolutions, out, ["--frames", "0"])
        sizes = contact_sizes(runs, f"{speed:g} m/s", resolutions)
        e = extrapolate([r["e_newton"] for r in runs], sizes)
        middle = runs[1]
        with open(os.path.join(middle["directory"], "summary.json")) as stream:
            visco = json.load(stream)
        with open(os.path.join(runs[2]["directory"], "summary.json")) as stream:
            finest = json.load(stream)
        elastic = run_elastic(rebound_fem, at_speed(base, speed, args.degree,
                                                    f"{base['name']}-elastic-v{speed:g}"),
                              resolutions[1], out)
        if elastic["dofs"] != visco["dofs"]:
            fail(f"{speed:g} m/s: the elastic run has {elastic['dofs']} dofs, the viscoelastic "
                 f"one at the same resolution {visco['dofs']}: not the same mesh")
        rows.append({"speed_m_per_s": speed, "tau_over_contact_time": tau / sphere.contact_time(speed),
                     **{f"e_r{res:g}": r["e_newton"] for res, r in zip(resolutions, runs)},
                     **{f"h{k + 1}_m": h for k, h in enumerate(sizes)},
                     **{f"dofs{k + 1}": r["dofs"] for k, r in enumerate(runs)},
                     "e_order": e[0], "e": e[1], "e_error": e[2],
                     "e_elastic": elastic["e_newton"], "e_visc": e[1] / elastic["e_newton"],
                     "viscous_fraction_finest": finest["viscous_dissipation"] /
                     finest["kinetic_energy_initial"],
                     "energy_balance_error_finest": finest["energy_balance_error"],
                     "steps": visco["steps"], "steps_elastic": elastic["steps"],
                     "time_step": visco["time_step"], "time_step_elastic": elastic["time_step"]})
        print(f"viscoelastic_restitution.py: {speed:g} m/s: e = {e[1]:.5f} +- {e[2]:.2g}",
              file=sys.stderr)
    e_visc = [row["e_visc"] for row in rows]
    a_fit = fit_all(sphere, e_visc, speeds)
    reference = min(range(len(speeds)), key=lambda k: abs(math.log(speeds[k])))
    v_ref = speeds[reference]
    hunt = lumped_e(rebound, at_speed(base, v_ref, args.degree, "hc"),
                    {"normal_law": "hunt-crossley", "restitution": e_visc[reference]})
    chi = hunt["hysteresis_damping_factor"] / v_ref  # D = chi v, s/m
    for row, speed in zip(rows, speeds):
        case = at_speed(base, speed, args.degree, "lumped")
        row["e_brilliantov_A_g_tau"] = lumped_e(
            rebound, case, {"normal_law": "viscoelastic",
                            "dissipative_constant": args.g * tau})["e_newton"]
        row["e_brilliantov_A_fit"] = lumped_e(
            rebound, case, {"normal_law": "viscoelastic", "dissipative_constant": a_fit})["e_newton"]
        row["A_fit_here_over_g_tau"] = sphere.a_of(row["e_visc"], speed) / (args.g * tau)
        d = chi * speed
        row["e_hunt_crossley"] = (lumped_e(rebound, case, {
            "normal_law": "hunt-crossley", "restitution": 1 - 2 * d / 3,
            "restitution_calibration": "published"})["e_newton"] if d < 1.5 else float("nan"))
        row["e_tsuji"] = e_visc[reference]
    path = write(rows, out, "viscoelastic_restitution.csv")
    head = " | ".join(f"r = {r:g}" for r in resolutions)
    print(f"Viscoelastic FE ball (standard linear solid, g = {args.g:g}, tau = {tau:.4g} s = "
          f"{args.tau_ratio:g} t_c(1 m/s), FE_Q({args.degree})), head-on on the rigid plane "
          f"(`python3 scripts/viscoelastic_restitution.py --speeds {args.speeds} --g {args.g:g} "
          f"--tau-ratio {args.tau_ratio:g} --resolutions {args.resolutions} --degree "
          f"{args.degree}`):\n")
    print(f"| v (m/s) | τ/t_c | e: {head} | order | e (FE) | e elastic | e_visc = e/e_elastic | "
          "Brilliantov A = gτ | Brilliantov A fit | Hunt–Crossley | Tsuji | A here / gτ | "
          "viscous work / KE₀ | energy balance | steps / elastic |")
    print("|---:|---:|" + "---:|" * (len(resolutions) + 12))
    for row in rows:
        cells = " | ".join(f"{row[f'e_r{r:g}']:.5f}" for r in resolutions)
        order = f"{row['e_order']:.2f}" if row["e_order"] is not None else "none (spread)"
        print(f"| {row['speed_m_per_s']:g} | {row['tau_over_contact_time']:.4f} | {cells} | "
              f"{order} | {row['e']:.5f} ± {row['e_error']:.1g} | {row['e_elastic']:.6f} | "
              f"{row['e_visc']:.5f} | {row['e_brilliantov_A_g_tau']:.5f} | "
              f"{row['e_brilliantov_A_fit']:.5f} | {row['e_hunt_crossley']:.5f} | "
              f"{row['e_tsuji']:.5f} | {row['A_fit_here_over_g_tau']:.4f} | "
              f"{row['viscous_fraction_finest']:.4f} | {row['energy_balance_error_finest']:.1e} | "
              f"{row['steps']}/{row['steps_elastic']} = {row['steps'] / row['steps_elastic']:.3f} |")
    print(f"\nA fitted to every speed: {a_fit:.4g} s = {a_fit / (args.g * tau):.4f} g tau; "
          f"Hunt-Crossley's chi fitted at {v_ref:g} m/s: {chi:.4g} s/m.")
    if len(speeds) < 2:
        print(f"\nwritten: {os.path.relpath(path, ROOT)}")
        return 0
    print("\nSlope of log(1 - e) against log v (least squares over the speeds; between "
          "neighbours):\n")
    print("| e of | slope | between neighbours |")
    print("|---|---:|---|")
    for label, key in (("FE (e_visc)", "e_visc"), ("Brilliantov, A fit", "e_brilliantov_A_fit"),
                       ("Hunt–Crossley", "e_hunt_crossley")):
        es = [row[key] for row in rows]
        if any(math.isnan(x) for x in es):
            continue
        local = [math.log((1 - es[k + 1]) / (1 - es[k])) / math.log(speeds[k + 1] / speeds[k])
                 for k in range(len(speeds) - 1)]
        print(f"| {label} | {slope(speeds, es):.3f} | {', '.join(f'{s:.3f}' for s in local)} |")
    print("| Tsuji | 0 | (e independent of v) |")
    print(f"\nwritten: {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
