#!/usr/bin/env python3
"""Brilliantov's dissipative constant A of the viscoelastic FE body (material.model
"viscoelastic", docs/FEM.md "Viscoelastic material"), measured: the FE steel sphere of
cases/hertz-steel-sphere.json (R = 10 mm) strikes the rigid plane frictionless at several speeds,
elastic and viscoelastic (relaxation strength g, relaxation time tau = ratio x t_c, t_c Hertz's
duration at 1 m/s, the same tau at every speed), and A is fitted so that Brilliantov, Spahn,
Hertzsch & Poschel's (1996) law F = (4/3) E* sqrt(R) (delta^(3/2) + (3/2) A delta^(1/2) ddelta/dt)
restitutes the FE body's e, through Muller & Poschel's (2011) [3/6] Pade approximant e(v*)
(docs/THEORY.md sec. 7; within 1e-6 of the law's e for v* <= 0.3), v* = beta^(1/2) v^(1/10),
beta = (3/2) A (rho_H/m)^(2/5), rho_H = (4/3) E* sqrt(R). docs/THEORY.md sec. 11 derives A = g tau
in the limit tau << t_c.

    /usr/bin/python3 scripts/viscoelastic_fit.py [--build build] [--out results/viscoelastic-fit]
        [--g 1] [--ratios 0.003,0.01,0.03] [--speeds 0.3,1,3] [--degree 1] [--refinement 0]
        [--contact-resolution 2]

The e compared is the FE viscoelastic body's over the FE elastic body's at the same speed (the
elastic FE ball loses a little to vibration and to the kinematic contact, which the lumped law
has not); the raw e gives A_raw. Per tau: A fitted at each speed, A fitted to all speeds (least
squares in e), each over g tau; and the step counts of the viscoelastic and elastic runs at 1 m/s
(summary.json "steps"). Writes OUT/viscoelastic_fit.csv and prints a markdown table. The runs
are serial, `rebound fem CASE -o DIR -q` each (seconds apiece at the default resolution).
Exits 1 with the reason when a run fails, 2 for bad arguments.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERTZ_DURATION = 2.943275  # t_c = 2.943275 delta_max / v (docs/THEORY.md sec. 12)


def fail(message, status=1):
    print(f"viscoelastic_fit.py: {message}", file=sys.stderr)
    sys.exit(status)


def numbers(text, name):
    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        fail(f"--{name} {text}: expected comma-separated numbers", 2)
    if not values or min(values) <= 0:
        fail(f"--{name} {text}: expected positive numbers", 2)
    return values


def pade(v_star):
    """Muller & Poschel's (2011) [3/6] approximant of the viscoelastic sphere's e(v*)."""
    x = v_star
    num = 1 + 1.07232 * x + 0.574198 * x**2 + 0.141552 * x**3
    den = (1 + 1.07232 * x + 1.72765 * x**2 + 1.37842 * x**3 + 1.19449 * x**4 +
           0.467273 * x**5 + 0.235585 * x**6)
    return num / den


def v_star_of(e):
    """The v* whose approximant is e (decreasing in v* on [0, 5]; bisection)."""
    lo, hi = 0.0, 5.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if pade(mid) > e:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


class Sphere:
    def __init__(self, case):
        m = case["material"]
        self.R = case["body"]["radius"]
        self.E_star = m["young_modulus"] / (1 - m["poisson_ratio"] ** 2)
        self.mass = m["density"] * 4 / 3 * math.pi * self.R**3
        self.rho_h = 4 / 3 * self.E_star * math.sqrt(self.R)

    def contact_time(self, v):
        delta_max = (15 * self.mass * v**2 / (16 * self.E_star * math.sqrt(self.R))) ** 0.4
        return HERTZ_DURATION * delta_max / v

    def beta_per_a(self):  # beta / A
        return 1.5 * (self.rho_h / self.mass) ** 0.4

    def a_of(self, e, v):  # the A whose law restitutes e at v
        return v_star_of(e) ** 2 / (self.beta_per_a() * v**0.2)

    def e_of(self, a, v):
        return pade(math.sqrt(self.beta_per_a() * a) * v**0.1)


def fit_all(sphere, es, speeds):
    """Least squares in e over the speeds: golden section on log A."""
    def cost(log_a):
        return sum((sphere.e_of(math.exp(log_a), v) - e) ** 2 for e, v in zip(es, speeds))
    lo, hi = math.log(1e-3 * min(sphere.a_of(e, v) for e, v in zip(es, speeds))), \
        math.log(1e3 * max(sphere.a_of(e, v) for e, v in zip(es, speeds)))
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if cost(a) < cost(b):
            hi = b
        else:
            lo = a
    return math.exp(0.5 * (lo + hi))


def run(args, case, name):
    folder = os.path.join(args.out, name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "case.json")
    case = dict(case, name=name)
    with open(path, "w") as f:
        json.dump(case, f, indent=2)
    rebound = os.path.join(args.build, "bin", "rebound")
    result = subprocess.run([rebound, "fem", path, "-o", folder, "-q", "--frames", "0"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"rebound fem {path} exited {result.returncode}: {result.stderr.strip()}")
    with open(os.path.join(folder, "fem", "summary.json")) as f:
        return json.load(f)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=os.path.join(ROOT, "results", "viscoelastic-fit"))
    p.add_argument("--g", type=float, default=1.0)
    p.add_argument("--ratios", default="0.003,0.01,0.03")
    p.add_argument("--speeds", default="0.3,1,3")
    p.add_argument("--degree", type=int, default=1)
    p.add_argument("--refinement", type=int, default=0)
    p.add_argument("--contact-resolution", type=int, default=2)
    args = p.parse_args()
    if not args.g > 0:
        fail("--g: expected g > 0", 2)
    ratios, speeds = numbers(args.ratios, "ratios"), numbers(args.speeds, "speeds")
    with open(os.path.join(ROOT, "cases", "hertz-steel-sphere.json")) as f:
        base = json.load(f)
    base["fem"] = {"degree": args.degree, "refinement": args.refinement,
                   "contact_resolution": args.contact_resolution}
    sphere = Sphere(base)
    t_c = sphere.contact_time(1.0)

    def at_speed(case, v):
        c = json.loads(json.dumps(case))
        c["impact"] = {"theta": 0.0, "normal_speed": v, "tangential_speed": 0.0}
        return c

    elastic = {v: run(args, at_speed(base, v), f"elastic-v{v:g}") for v in speeds}
    rows = []
    print(f"FE steel sphere R = {sphere.R:g} m, fem degree {args.degree}, refinement "
          f"{args.refinement}, contact_resolution {args.contact_resolution}; g = {args.g:g}, "
          f"t_c(1 m/s) = {t_c:.4e} s\n")
    print("| tau/t_c | v [m/s] | e elastic | e visco | A/(g tau) | A_raw/(g tau) |")
    print("|---|---|---|---|---|---|")
    summary = []
    for ratio in ratios:
        tau = ratio * t_c
        visco_case = json.loads(json.dumps(base))
        visco_case["material"].update(model="viscoelastic", relaxation_strength=args.g,
                                      relaxation_time=tau)
        es, raws = [], []
        for v in speeds:
            s = run(args, at_speed(visco_case, v), f"visco-r{ratio:g}-v{v:g}")
            e_el, e_ve = elastic[v]["e_newton"], s["e_newton"]
            a = sphere.a_of(e_ve / e_el, v)
            a_raw = sphere.a_of(e_ve, v)
            es.append(e_ve / e_el)
            raws.append(e_ve)
            row = dict(tau_over_tc=ratio, speed=v, e_elastic=e_el, e_viscoelastic=e_ve,
                       A_over_g_tau=a / (args.g * tau), A_raw_over_g_tau=a_raw / (args.g * tau),
                       steps=s["steps"], steps_elastic=elastic[v]["steps"],
                       time_step=s["time_step"], time_step_elastic=elastic[v]["time_step"],
                       energy_balance_error=s["energy_balance_error"],
                       viscous_dissipation=s["viscous_dissipation"])
            rows.append(row)
            print(f"| {ratio:g} | {v:g} | {e_el:.5f} | {e_ve:.5f} | {row['A_over_g_tau']:.4f} | "
                  f"{row['A_raw_over_g_tau']:.4f} |")
        a_all = fit_all(sphere, es, speeds)
        a_all_raw = fit_all(sphere, raws, speeds)
        summary.append((ratio, a_all / (args.g * tau), a_all_raw / (args.g * tau)))
    print("\n| tau/t_c | A/(g tau), all speeds | A_raw/(g tau), all speeds |")
    print("|---|---|---|")
    for ratio, a, a_raw in summary:
        print(f"| {ratio:g} | {a:.4f} | {a_raw:.4f} |")
    one = [r for r in rows if r["speed"] == 1.0]
    if one:
        print("\nAt 1 m/s, steps of the viscoelastic run / the elastic run's (time steps):")
        for r in one:
            print(f"  tau/t_c = {r['tau_over_tc']:g}: {r['steps']} / {r['steps_elastic']} = "
                  f"{r['steps'] / r['steps_elastic']:.4f} (dt {r['time_step']:.4g} / "
                  f"{r['time_step_elastic']:.4g} s; sqrt(1 + g) = {math.sqrt(1 + args.g):.4f}); "
                  f"energy balance error {r['energy_balance_error']:.2e}")
    with open(os.path.join(args.out, "viscoelastic_fit.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
