#!/usr/bin/env python3
"""The FE static law of the ball in the rigid socket, at three mesh resolutions, with Richardson
extrapolation at fixed delta/dR (docs/SOCKET.md, "FE static law").

    /usr/bin/python3 scripts/socket_fem.py [--build build] [--out results/socket-study/fem]
        [--clearances 0.5] [--resolutions 4,6,8] [--degree 1]

For each clearance dR (mm) and each resolution r (fem.contact_resolution: cells per radius of
the refined contact zone) the script writes the case of Wang & Gao's Table 1 (scripts/
socket_study.py's, with fem.degree and fem.contact_resolution) at the impact speed whose Hertz
peak force F_p (R_eff) is 1.12 times Hertz's force at delta_30, the approach where the overlap
semi-angle theta reaches 30 degrees, and runs `rebound fem CASE --quasi-static` (fem/
quasi_static.h): its law spans 1e-3 to 1.3 F_p, so that it passes delta_30 although the FE ball is
up to about 1.4 times stiffer than Hertz there, and the mesh refines the overlap zone at F_p (its
radius within the 35-degree limit of the FEM's socket). The runs are serial; the influence solves
take most of the time (minutes per run at r = 8).

At each delta/dR of DELTAS (and delta_30) the law of every run is interpolated (power law between
its points) and F/F_Hertz(R_eff) taken; with the three contact cell sizes h1 > h2 > h3 (the
meshes' h_contact, checked to differ) the observed order p solves
(f1 - f2)/(f2 - f3) = (h1^p - h2^p)/(h2^p - h3^p), and the Richardson value is
f3 + (f3 - f2) h3^p/(h2^p - h3^p), its error estimate |Richardson - f3|. A point whose
differences change sign (no monotone convergence) gets no order and is reported as such.
Writes OUT/fem_static_convergence.csv and prints a markdown table. Exits 1 with the reason when a
run fails, 2 for bad arguments.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import socket_study as study  # noqa: E402  (the study's geometry, material and cases)

DELTAS = [0.003, 0.01, 0.03, 0.1]  # delta / dR where the laws are compared, and delta_30
PEAK_OVER_30 = 1.12  # Hertz peak force of the FE case over Hertz's force at delta_30


def fail(message, status=1):
    print(f"socket_fem.py: {message}", file=sys.stderr)
    sys.exit(status)


def hertz_force(clearance, approach, modulus):
    r1 = study.R2 + clearance
    return 4.0 / 3.0 * modulus * math.sqrt(r1 * study.R2 / clearance) * approach ** 1.5


def fem_case(clearance_mm, degree, resolution):
    """The study's case of this clearance for the FE static law up to delta_30."""
    clearance = clearance_mm * 1e-3
    modulus = study.YOUNG / (1 - study.POISSON ** 2)
    r_eff = (study.R2 + clearance) * study.R2 / clearance
    mass = 4.0 / 3.0 * math.pi * study.R2 ** 3 * study.DENSITY
    delta_30 = study.approach_at_angle(clearance, math.radians(study.MAX_ANGLE_DEG))
    peak = PEAK_OVER_30 * hertz_force(clearance, delta_30, modulus)
    delta_m = (9 * peak ** 2 / (16 * modulus ** 2 * r_eff)) ** (1.0 / 3.0)
    speed = math.sqrt(16 * modulus * math.sqrt(r_eff) * delta_m ** 2.5 / (15 * mass))
    case = study.case_document(clearance_mm, {"model": "lai", "normal_law": "hertz"})
    case["name"] = f"socket-wang-gao-{study.label(clearance_mm)}-p{degree}-r{resolution:g}"
    case["description"] += (
        f"; the FE static law up to theta = 30 deg: impact speed {speed:.6g} m/s (Hertz's peak "
        f"force {PEAK_OVER_30} times Hertz's force at delta_30), fem.contact_resolution "
        f"{resolution:g} (scripts/socket_fem.py)")
    case["impact"]["normal_speed"] = speed
    case["fem"] = {"degree": degree, "contact_resolution": resolution}
    return case, delta_30


def run_law(rebound_fem, case, out):
    """`rebound fem CASE --quasi-static -o OUT/<name>`: the law's points and h_contact."""
    folder = os.path.join(out, case["name"])
    path = os.path.join(out, case["name"] + ".json")
    with open(path, "w") as stream:
        json.dump(case, stream, indent=2)
        stream.write("\n")
    log = os.path.join(out, case["name"] + ".log")
    with open(log, "w") as stream:
        status = subprocess.run([rebound_fem, "fem", path, "--quasi-static", "-o", folder],
                                stdout=stream, stderr=subprocess.STDOUT).returncode
    if status != 0:
        fail(f"rebound fem {path} --quasi-static exited with {status} (log: {log})")
    law = os.path.join(folder, "fem-quasi-static")
    with open(os.path.join(law, "static_law.csv"), newline="") as stream:
        rows = list(csv.DictReader(stream))
    with open(os.path.join(law, "summary.json")) as stream:
        summary = json.load(stream)
    points = [(float(r["approach_m"]), float(r["force_N"])) for r in rows]
    return {"points": points, "h_contact": summary["h_contact"], "dofs": summary["dofs"],
            "candidates": summary["candidate_nodes"],
            "seconds": summary["setup_seconds"] + summary["influence_seconds"]
            + summary["law_seconds"]}


def force_at(points, approach):
    """The law's force at `approach`, a power law between its points (nan outside them)."""
    for (d0, f0), (d1, f1) in zip(points, points[1:]):
        if d0 <= approach <= d1:
            return f0 * (approach / d0) ** (math.log(f1 / f0) / math.log(d1 / d0))
    return float("nan")


def richardson(values, sizes):
    """(order, Richardson value, error estimate) of three values on cell sizes coarse to fine;
    (None, None, None) without monotone convergence."""
    (f1, f2, f3), (h1, h2, h3) = values, sizes
    if any(math.isnan(v) for v in values) or f2 == f3 or (f1 - f2) / (f2 - f3) <= 0:
        return None, None, None
    ratio = (f1 - f2) / (f2 - f3)

    def residual(p):
        return (h1 ** p - h2 ** p) / (h2 ** p - h3 ** p) - ratio

    low, high = 0.05, 12.0
    if residual(low) * residual(high) > 0:
        return None, None, None
    for _ in range(200):
        middle = 0.5 * (low + high)
        if residual(low) * residual(middle) > 0:
            low = middle
        else:
            high = middle
    p = 0.5 * (low + high)
    value = f3 + (f3 - f2) * h3 ** p / (h2 ** p - h3 ** p)
    return p, value, abs(value - f3)


def converge(build, out, clearances_mm, resolutions, degree):
    """Runs the laws and extrapolates; returns the rows of fem_static_convergence.csv."""
    rebound_fem = os.path.join(build, "bin", "rebound-fem")
    if not os.access(rebound_fem, os.X_OK):
        fail(f"{rebound_fem} not found (build first: bash scripts/build.sh)")
    os.makedirs(out, exist_ok=True)
    modulus = study.YOUNG / (1 - study.POISSON ** 2)
    rows = []
    for clearance_mm in clearances_mm:
        clearance = clearance_mm * 1e-3
        runs = []
        for resolution in resolutions:
            case, delta_30 = fem_case(clearance_mm, degree, resolution)
            runs.append(run_law(rebound_fem, case, out))
            print(f"socket_fem.py: dR = {clearance_mm:g} mm, r = {resolution:g}: "
                  f"{runs[-1]['dofs']} dofs, h_contact {runs[-1]['h_contact']:.4g} m, "
                  f"{runs[-1]['candidates']} candidates, {runs[-1]['seconds']:.0f} s",
                  file=sys.stderr)
        sizes = [r["h_contact"] for r in runs]
        if not sizes[0] > sizes[1] > sizes[2]:
            fail(f"dR = {clearance_mm:g} mm: the contact cell sizes {sizes} do not decrease with "
                 f"the resolutions {resolutions}: the meshes did not change")
        for x in DELTAS + [delta_30 / clearance]:
            approach = x * clearance
            hertz = hertz_force(clearance, approach, modulus)
            values = [force_at(r["points"], approach) / hertz for r in runs]
            order, value, error = richardson(values, sizes)
            rows.append({"clearance_mm": clearance_mm, "approach_over_clearance": x,
                         "theta_deg": math.degrees(study.semi_angle(clearance, approach)),
                         **{f"r{res:g}": v for res, v in zip(resolutions, values)},
                         **{f"h{k + 1}_m": h for k, h in enumerate(sizes)},
                         "order": order, "richardson": value, "error": error})
    return rows


def markdown(rows, resolutions):
    head = " | ".join(f"r = {r:g}" for r in resolutions)
    lines = [f"| dR (mm) | delta/dR | theta (deg) | {head} | order | Richardson | error |",
             "|" + "---:|" * (6 + len(resolutions))]
    for row in rows:
        cells = " | ".join(f"{row[f'r{r:g}']:.4f}" for r in resolutions)
        tail = (f"{row['order']:.2f} | {row['richardson']:.4f} | {row['error']:.4f}"
                if row["order"] is not None else "not monotone | – | –")
        lines.append(f"| {row['clearance_mm']:g} | {row['approach_over_clearance']:.4g} | "
                     f"{row['theta_deg']:.1f} | {cells} | {tail} |")
    return "\n".join(lines)


def write(rows, out):
    path = os.path.join(out, "fem_static_convergence.csv")
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else f"{v:.10g}" if isinstance(v, float) else v)
                             for k, v in row.items()})
    return path


def numbers(text, kind, option):
    try:
        values = [kind(v) for v in text.split(",")]
    except ValueError:
        fail(f"{option} {text!r}: expected numbers separated by commas", 2)
    if not values or min(values) <= 0:
        fail(f"{option} {text!r}: expected positive numbers", 2)
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "socket-study", "fem"))
    parser.add_argument("--clearances", default="0.5", help="dR in mm, e.g. 0.1,0.5,1.0")
    parser.add_argument("--resolutions", default="4,6,8",
                        help="three fem.contact_resolution values, coarse to fine")
    parser.add_argument("--degree", type=int, default=1, choices=[1, 2])
    args = parser.parse_args()
    clearances = numbers(args.clearances, float, "--clearances")
    resolutions = numbers(args.resolutions, float, "--resolutions")
    if len(resolutions) != 3 or sorted(resolutions) != resolutions or len(set(resolutions)) != 3:
        fail(f"--resolutions {args.resolutions!r}: expected three increasing values", 2)
    rows = converge(os.path.abspath(args.build), os.path.abspath(args.out), clearances,
                    resolutions, args.degree)
    path = write(rows, os.path.abspath(args.out))
    print(f"FE static law of the ball in the rigid socket, F/F_Hertz(R_eff), FE_Q({args.degree}) "
          f"(`python3 scripts/socket_fem.py --clearances {args.clearances} --resolutions "
          f"{args.resolutions} --degree {args.degree}`):\n")
    print(markdown(rows, resolutions))
    print(f"\nwritten: {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
