#!/usr/bin/python3
"""The FEM's normal impact against Hertz, with and without the body's inertia, over a_max/R.

    /usr/bin/python3 scripts/hertz_quasi_static.py [--case cases/hertz-glass-bead.json]
        [--speeds 2,0.2,0.02] [--contact-resolution 1.5] [--build build] [--ranks 1]
        [--out results/hertz-quasi-static]

For each impact speed v the script writes the case with impact.normal_speed = v and
fem.contact_resolution = the given value (the contact cells follow a_max, so every speed has the
same cells per contact radius) and runs
  1. `rebound fem CASE --quasi-static` (fem/quasi_static.h): the FE body's frictionless contact
     law without inertia and the impact integrated on it;
  2. `rebound fem CASE --frames 0` (under `mpirun -np RANKS` when RANKS > 1): the explicit FEM,
     the same mesh, elements and contact nodes with the body's inertia;
and prints one markdown table: a_max/R (Hertz), the contact duration and peak force of both
against Hertz's, and the explicit run against the quasi-static one (the inertia's share).
For a sphere on a rigid plane a_max/R = (5 pi rho v^2 / (4 E*))^(1/5) depends on the speed alone,
so the speeds scan a_max/R; the quasi-static law has no other parameter than a_max/R (and the
mesh). Exits 1 with the reason when a run fails.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command, log):
    with open(log, "w") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        sys.exit("hertz_quasi_static: %s exited with %d (log: %s)"
                 % (" ".join(command), result.returncode, log))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--case", default=os.path.join(ROOT, "cases", "hertz-glass-bead.json"))
    p.add_argument("--speeds", default="2,0.2,0.02", help="normal impact speeds, m/s")
    p.add_argument("--contact-resolution", type=float, default=1.5)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--ranks", type=int, default=1)
    p.add_argument("--out", default=os.path.join(ROOT, "results", "hertz-quasi-static"))
    args = p.parse_args()
    try:
        speeds = [float(s) for s in args.speeds.split(",")]
    except ValueError:
        sys.exit("hertz_quasi_static: --speeds %r: expected numbers separated by commas"
                 % args.speeds)
    if not speeds or min(speeds) <= 0:
        sys.exit("hertz_quasi_static: --speeds: expected positive speeds")
    if args.ranks < 1:
        sys.exit("hertz_quasi_static: --ranks: expected a positive integer")
    rebound = os.path.join(args.build, "bin", "rebound")
    if not os.access(rebound, os.X_OK):
        sys.exit("hertz_quasi_static: %s not found (build first: bash scripts/build.sh)" % rebound)
    case = json.load(open(args.case))
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    os.environ.update(env)
    rows = []
    for v in speeds:
        name = "%s-v%g" % (case["name"], v)
        c = json.loads(json.dumps(case))
        c["name"] = name
        c["impact"]["normal_speed"] = v
        c.setdefault("fem", {})["contact_resolution"] = args.contact_resolution
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        case_file = os.path.join(folder, "case.json")
        json.dump(c, open(case_file, "w"), indent=2)
        start = time.monotonic()
        run([rebound, "fem", case_file, "--quasi-static", "-o", folder, "-q"],
            os.path.join(folder, "quasi-static.log"))
        quasi_wall = time.monotonic() - start
        explicit = [rebound, "fem", case_file, "-o", folder, "--frames", "0", "-q"]
        if args.ranks > 1:
            explicit = ["mpirun", "-np", str(args.ranks)] + explicit
        start = time.monotonic()
        run(explicit, os.path.join(folder, "explicit.log"))
        explicit_wall = time.monotonic() - start
        q = json.load(open(os.path.join(folder, "fem-quasi-static", "summary.json")))
        e = json.load(open(os.path.join(folder, "fem", "summary.json")))
        if e.get("status") != "completed":
            sys.exit("hertz_quasi_static: the explicit run of %s ended %s" % (name, e.get("status")))
        rows.append((v, q, e, quasi_wall, explicit_wall))

    print("Normal impact of `%s` against Hertz, quasi-static FE law and explicit FEM on the same "
          "mesh (p = %d, contact_resolution %g)" % (os.path.relpath(args.case, ROOT),
                                                    rows[0][1]["degree"], args.contact_resolution))
    print("Command: `/usr/bin/python3 scripts/hertz_quasi_static.py --speeds %s "
          "--contact-resolution %g --ranks %d`, %s UTC"
          % (args.speeds, args.contact_resolution, args.ranks,
             time.strftime("%Y-%m-%d %H:%M", time.gmtime())))
    print()
    print("| v [m/s] | a_max/R | dofs | t_c quasi-static vs Hertz | F_max quasi-static vs Hertz "
          "| t_c explicit vs Hertz | F_max explicit vs Hertz | t_c explicit vs quasi-static "
          "| F_max explicit vs quasi-static | wall quasi-static / explicit [s] |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    pct = lambda a, b: "%+.3f %%" % (100 * (a / b - 1))
    for v, q, e, qw, ew in rows:
        t_h, f_h = q["hertz_contact_duration"], q["hertz_peak_force"]
        print("| %g | %.4f | %d | %s | %s | %s | %s | %s | %s | %.0f / %.0f |" % (
            v, q["hertz_contact_radius"] / q["hertz_radius"], q["dofs"],
            pct(q["contact_duration"], t_h), pct(q["peak_normal_force"], f_h),
            pct(e["contact_duration"], t_h), pct(e["peak_normal_force"], f_h),
            pct(e["contact_duration"], q["contact_duration"]),
            pct(e["peak_normal_force"], q["peak_normal_force"]), qw, ew))


if __name__ == "__main__":
    main()
