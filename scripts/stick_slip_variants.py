#!/usr/bin/env python3
"""Two separating experiments on the FEM of the stick-slip range: beta -> 0 and the impact speed.

An elastic body on a rigid plane has Dundurs' beta = (1 - 2 nu) / (2 (1 - nu)): 0.286 at
nu = 0.3, 0.0196 at nu = 0.49. The uncoupled models (the MDR bed, the half-space model with
beta = 0) say Psi2 depends on Psi1 (Maw's variable, which contains nu) only; the coupled half-space
model says Psi2 moves with beta/mu. This script runs the FEM (p = 2, the default mesh of
cases/sphere-lai-psi2.json, `mpirun -np RANKS rebound fem`) on the Table 6.1 sphere at
nu = 0.3, 0.4, 0.45, 0.49 and Psi1 = 0.5, 1, 2, 4 (mu = 0.1, same E, rho, v_n), and beside each
run the lumped models on the same case: Lai, MDR, the half-space model with beta = 0 and with
the coupling. If the coupling is what separates the FEM from the uncoupled models, the FEM's
Psi2 approaches MDR's as nu -> 1/2 and tracks the coupled half-space model on the way.

--mu LIST runs the same at other friction coefficients (default: the case's 0.1); Psi1 is kept,
so the tangential speed grows with mu (v_t / v_n = Psi1 mu (2 - nu) / (2 (1 - nu))).

--speed LIST runs the same at other normal impact speeds (m/s; default 0.5, the case's). The
lumped and half-space models are quasi-static and rate-independent in Hertz's scaling: their Psi2
does not depend on the speed. The FEM's can, in two ways this experiment does not separate: its
elastic waves (the contact lasts t_c ~ v^(-1/5), the body's wave transit times are fixed) and the
contact's size against the sphere (a_max/R ~ v^(2/5), which the half-space models take as 0).
The mesh follows a_max ~ v^(2/5); its cells are the coarse mesh's halved k times, so
h_contact/a_max is 0.31, 0.25, 0.20 at 0.5, 0.158, 0.05 m/s (`rebound mesh` prints both).

Examples (the commands docs/FEM.md quotes):
  python3 scripts/stick_slip_variants.py --nu 0.3,0.4,0.45,0.49 --out results/stick-slip-beta
  python3 scripts/stick_slip_variants.py --speed 0.5,0.158,0.05 --psi1 1,2 \
      --out results/stick-slip-speed
  python3 scripts/stick_slip_variants.py --mu 0.4 --speed 0.5,0.158,0.05 --psi1 2 \
      --out results/stick-slip-mu
  python3 scripts/stick_slip_variants.py --mu 1000 --psi1 0.0002 --speed 0.5,0.158,0.05 \
      --out results/stick-slip-full-stick     (full stick: read w_t/v_t, the contact point's
                                               tangential velocity after / before)

Writes OUT/nu<nu>-v<speed>-psi1-<psi1>[-mu<mu>]/{case.json, fem/summary.json, lumped/<model>.json}, OUT/variants.csv
and OUT/variants.md (the table docs/FEM.md quotes). A finished FEM run (its summary.json with the
same case) is reused. About 20 min on 2 cores (the nu = 0.49 runs take 3.6x the steps of
nu = 0.3: the pressure wave is that much faster).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

from stick_slip_convergence import contact_point_ratio, write_json  # noqa: E402 (this script's folder is on sys.path)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = [
    ("lai", {"model": "lai"}),
    ("mdr", {"model": "mdr"}),
    ("halfspace-beta0", {"model": "halfspace", "dundurs_coupling": False}),
    ("halfspace-beta", {"model": "halfspace", "dundurs_coupling": True}),
]


def read_json(path):
    with open(path) as f:
        return json.load(f)


def richardson_in_speed(speeds, differences):
    """Order p in v of d(v) = d0 + C v^p from three speeds (any common ratio v_k/v_(k+1)) and
    Richardson's d0; ("oscillating", None) if the differences change sign."""
    (v1, v2, v3), (d1, d2, d3) = speeds, differences
    if (d1 - d2) * (d2 - d3) <= 0:
        return "oscillating", None
    p = math.log((d1 - d2) / (d2 - d3)) / math.log(v2 / v3)
    return f"{p:.2f}", d3 + (d3 - d2) / ((v2 / v3) ** p - 1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "results", "stick-slip-beta"))
    p.add_argument("--rebound", default=os.path.join(ROOT, "build", "bin", "rebound"))
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--nu", default="0.3")
    p.add_argument("--speed", default="0.5", help="normal impact speeds, m/s")
    p.add_argument("--psi1", default="0.5,1,2,4")
    p.add_argument("--mu", default=None, help="friction coefficients (default: the case's)")
    p.add_argument("--degree", type=int, default=2)
    p.add_argument("--no-fem", action="store_true", help="the lumped models only")
    args = p.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    mpi = ["mpirun", "-np", str(args.ranks)] if args.ranks > 1 else []
    base = read_json(os.path.join(ROOT, "cases", "sphere-lai-psi2.json"))
    rows, failed = [], False
    case_mu = base["contact"]["friction"]
    mus = [float(x) for x in args.mu.split(",")] if args.mu else [case_mu]
    combinations = [(nu, speed, psi1, mu) for nu in [float(x) for x in args.nu.split(",")]
                    for speed in [float(x) for x in args.speed.split(",")]
                    for psi1 in [float(x) for x in args.psi1.split(",")] for mu in mus]
    for nu, speed, psi1, mu in combinations:
        # the case's own friction keeps the folder names of the runs made before --mu existed
        name = f"nu{nu:g}-v{speed:g}-psi1-{psi1:g}" + ("" if mu == case_mu else f"-mu{mu:g}")
        folder = os.path.join(args.out, name)
        case = json.loads(json.dumps(base))
        case["name"] = f"stick-slip-variant-{name}"
        case["description"] = (f"Table 6.1 sphere with nu = {nu:g}, v_n = {speed:g} m/s at "
                               f"Psi1 = {psi1:g}" + ("" if mu == case_mu else f", mu = {mu:g}") +
                               " "
                               "(scripts/stick_slip_variants.py)")
        case["material"]["poisson_ratio"] = nu
        if mu != case_mu:
            case["contact"]["friction"] = mu
        case["impact"]["psi1"] = psi1
        case["impact"]["normal_speed"] = speed
        case["fem"] = {"degree": args.degree}
        case_path = os.path.join(folder, "case.json")
        summary_path = os.path.join(folder, "fem", "summary.json")
        fem = None
        if os.path.exists(summary_path) and os.path.exists(case_path) and \
                read_json(case_path) == case:
            fem = read_json(summary_path)
        elif not args.no_fem:
            write_json(case_path, case)
            cmd = mpi + [args.rebound, "fem", case_path, "-o", folder, "-q", "--frames", "0"]
            print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
            status = subprocess.call(cmd)
            if status == 130:
                sys.exit("interrupted: rerun to continue from the finished runs")
            failed |= status != 0
            if os.path.exists(summary_path):
                fem = read_json(summary_path)
        write_json(case_path, case)
        row = {"nu": nu, "beta": (1 - 2 * nu) / (2 * (1 - nu)), "normal_speed_m_per_s": speed,
               "psi1": psi1, "mu": mu}
        for label, model in MODELS:
            path = os.path.join(folder, "lumped", label + ".json")
            if not os.path.exists(path):
                c = json.loads(json.dumps(case))
                c["lumped"] = model
                c.pop("fem")
                with tempfile.TemporaryDirectory() as tmp:
                    write_json(os.path.join(tmp, "case.json"), c)
                    text = subprocess.run(
                        [args.rebound, "lumped", os.path.join(tmp, "case.json"), "--json",
                         "--no-plots", "-o", tmp], check=True, capture_output=True,
                        text=True).stdout
                write_json(path, json.loads(text))
            lumped = read_json(path)
            row[f"psi2_{label}"] = lumped["psi2"]
            row[f"e_{label}"] = lumped["e_newton"]
            row[f"wt_over_vt_{label}"] = contact_point_ratio(lumped)
        row["psi2_fem"] = fem["psi2"] if fem else None
        row["e_fem"] = fem["e_newton"] if fem else None
        row["wt_over_vt_fem"] = contact_point_ratio(fem) if fem else None
        row["fem_steps"] = fem.get("steps") if fem else None
        row["fem_wall_time_s"] = fem.get("wall_time") if fem else None
        row["fem_kinetic_energy_loss_fraction"] = \
            fem.get("kinetic_energy_loss_fraction") if fem else None
        rows.append(row)
    with open(os.path.join(args.out, "variants.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    f2 = lambda x, d=3: "—" if x is None else f"{x:+.{d}f}"
    lines = ["# Psi2 by Poisson's ratio (Dundurs' beta) and impact speed, FEM p = 2 on the "
             "default mesh", "",
             "Generated by `python3 scripts/stick_slip_variants.py " + " ".join(sys.argv[1:]) + "`.",
             "", "| ν | β | μ | v_n (m/s) | Ψ₁ | Lai | MDR | half-space β = 0 | half-space β | FEM | FEM − MDR |"
             " FEM − half-space β | e FEM | e half-space β | w_t/v_t FEM | w_t/v_t half-space β |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fem = r["psi2_fem"]
        lines.append(
            f"| {r['nu']:g} | {r['beta']:.4f} | {r['mu']:g} | {r['normal_speed_m_per_s']:g} | {r['psi1']:g} | {f2(r['psi2_lai'])} | "
            f"{f2(r['psi2_mdr'])} | {f2(r['psi2_halfspace-beta0'])} | "
            f"{f2(r['psi2_halfspace-beta'])} | {f2(fem)} | "
            f"{f2(fem - r['psi2_mdr'] if fem is not None else None)} | "
            f"{f2(fem - r['psi2_halfspace-beta'] if fem is not None else None)} | "
            f"{'—' if r['e_fem'] is None else format(r['e_fem'], '.5f')} | "
            f"{r['e_halfspace-beta']:.5f} | {f2(r['wt_over_vt_fem'], 4)} | "
            f"{f2(r['wt_over_vt_halfspace-beta'], 4)} |")
    # The speed series: FEM - coupled half-space model against v, extrapolated to v -> 0 from the
    # last three speeds (observed order in v and Richardson's value, as for a mesh series), for
    # Psi2 and for Newton's e.
    speeds = sorted({r["normal_speed_m_per_s"] for r in rows}, reverse=True)
    if len(speeds) >= 3:
        lines += ["", "FEM − half-space β extrapolated to v → 0 (the three slowest speeds, "
                  "ratio v_k/v_(k+1); order p in v, Richardson value d₀ = d₃ + (d₃ − d₂)/(r^p − 1)):",
                  "The last two columns extrapolate the FEM's own value the same way (the half-space "
                  "model's grid error enters d, not the FEM's value).",
                  "", "| quantity | ν | μ | Ψ₁ | d at v = " + ", ".join(f"{v:g}" for v in speeds[-3:]) +
                  " | order in v | d₀ (v → 0) | FEM: order in v | FEM (v → 0) |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for quantity, fem_key, model_key, digits in (("Ψ₂", "psi2_fem", "psi2_halfspace-beta", 4),
                                                     ("e", "e_fem", "e_halfspace-beta", 6),
                                                     ("w_t/v_t", "wt_over_vt_fem",
                                                      "wt_over_vt_halfspace-beta", 4)):
            for nu in sorted({r["nu"] for r in rows}):
                for mu in sorted({r["mu"] for r in rows}):
                    for psi1 in sorted({r["psi1"] for r in rows}):
                        d = {r["normal_speed_m_per_s"]: r[fem_key] - r[model_key] for r in rows
                             if (r["nu"], r["mu"], r["psi1"]) == (nu, mu, psi1) and
                             r[fem_key] is not None}
                        if not all(v in d for v in speeds[-3:]):
                            continue
                        order, d0 = richardson_in_speed(speeds[-3:], [d[v] for v in speeds[-3:]])
                        fem = {r["normal_speed_m_per_s"]: r[fem_key] for r in rows
                               if (r["nu"], r["mu"], r["psi1"]) == (nu, mu, psi1)}
                        fem_order, fem0 = richardson_in_speed(speeds[-3:],
                                                              [fem[v] for v in speeds[-3:]])
                        values = ", ".join(f"{d[v]:+.{digits}f}" for v in speeds[-3:])
                        lines.append(f"| {quantity} | {nu:g} | {mu:g} | {psi1:g} | {values} | "
                                     f"{order} | {f2(d0, digits)} | {fem_order} | "
                                     f"{f2(fem0, digits)} |")
    with open(os.path.join(args.out, "variants.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
