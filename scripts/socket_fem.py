#!/usr/bin/env python3
"""The FE ball in the rigid socket at three mesh resolutions, with Richardson extrapolation: its
static law at fixed delta/dR, or (--dynamic) its impact at 0.3 m/s (docs/SOCKET.md, "FE static
law" and "FE dynamic impact").

    /usr/bin/python3 scripts/socket_fem.py [--build build] [--out results/socket-study/fem]
        [--clearances 0.5] [--resolutions 4,6,8] [--degree 1] [--up-to X | --dynamic]

Static law. For each clearance dR (mm) and each resolution r (fem.contact_resolution: cells per
radius of the refined contact zone) the script writes the case of Wang & Gao's Table 1 (scripts/
socket_study.py's, with fem.degree and fem.contact_resolution) at the impact speed whose Hertz
peak force F_p (R_eff) is 1.12 times Hertz's force at the largest approach compared: delta_30,
the approach where the overlap semi-angle theta reaches 30 degrees, or X dR with --up-to X (the
light-load end, meshed for its own smaller zone). It runs `rebound fem CASE --quasi-static` (fem/
quasi_static.h): its law spans 1e-3 to 1.3 F_p, so that it passes the largest approach although
the FE ball is up to about 1.4 times stiffer than Hertz, and the mesh refines the overlap zone at
F_p (its radius within the 35-degree limit of the FEM's socket). The runs are serial; the
influence solves take most of the time (minutes per run at r = 12).

At each delta/dR of DELTAS (and delta_30), or of X/30, X/10, X/3 and X with --up-to X, the law of
every run is interpolated (power law between its points) and F/F_Hertz(R_eff) taken; with the
three contact cell sizes h1 > h2 > h3 (the meshes' h_contact, checked to differ) the observed
order p solves (f1 - f2)/(f2 - f3) = (h1^p - h2^p)/(h2^p - h3^p), and the Richardson value is
f3 + (f3 - f2) h3^p/(h2^p - h3^p), its error estimate |Richardson - f3|. A point whose
differences change sign (no monotone convergence) gets no order and is reported as such.
Writes OUT/fem_static_convergence.csv and prints a markdown table.

--dynamic: the explicit FEM's impact of the study's case (1 kg, 0.3 m/s, frictionless) at each
clearance by `rebound refine CASE --contact-resolutions R1,R2,R3 --resume` (into
OUT/socket-wang-gao-<dR>mm/, FE_Q(degree)); from each run's summary.json and history.csv the
contact duration t_c, the peak force F_max, the largest approach of the centroid delta_max and
Newton's e, extrapolated as above; a quantity without an observed order (its differences change
sign or do not shrink) is given as the finest run's value with the spread of the three (for t_c
at least the finest time step) as its error. Writes OUT/fem_dynamic_convergence.csv.

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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import socket_study as study  # noqa: E402  (the study's geometry, material and cases)

DELTAS = [0.003, 0.01, 0.03, 0.1]  # delta / dR where the laws are compared, and delta_30
PEAK_OVER_30 = 1.12  # Hertz peak force of the FE case over Hertz's force at delta_30


def fail(message, status=1):
    """Exits naming the script that runs (this one, or a study that imports it)."""
    print(f"{os.path.basename(sys.argv[0]) or 'socket_fem.py'}: {message}", file=sys.stderr)
    sys.exit(status)


def hertz_force(clearance, approach, modulus):
    r1 = study.R2 + clearance
    return 4.0 / 3.0 * modulus * math.sqrt(r1 * study.R2 / clearance) * approach ** 1.5


def fem_case(clearance_mm, degree, resolution, up_to=None):
    """The study's case of this clearance for the FE static law up to delta_30 (or up to
    delta = up_to dR), and delta_30."""
    clearance = clearance_mm * 1e-3
    modulus = study.YOUNG / (1 - study.POISSON ** 2)
    r_eff = (study.R2 + clearance) * study.R2 / clearance
    mass = 4.0 / 3.0 * math.pi * study.R2 ** 3 * study.DENSITY
    delta_30 = study.approach_at_angle(clearance, math.radians(study.MAX_ANGLE_DEG))
    largest = delta_30 if up_to is None else up_to * clearance
    peak = PEAK_OVER_30 * hertz_force(clearance, largest, modulus)
    delta_m = (9 * peak ** 2 / (16 * modulus ** 2 * r_eff)) ** (1.0 / 3.0)
    speed = math.sqrt(16 * modulus * math.sqrt(r_eff) * delta_m ** 2.5 / (15 * mass))
    case = study.case_document(clearance_mm, {"model": "lai", "normal_law": "hertz"})
    range_name = "" if up_to is None else f"-upto{up_to:g}"
    case["name"] = (f"socket-wang-gao-{study.label(clearance_mm)}{range_name}-p{degree}"
                    f"-r{resolution:g}")
    largest_text = "delta_30" if up_to is None else f"delta = {up_to:g} dR"
    case["description"] += (
        f"; the FE static law up to {largest_text}: impact speed {speed:.6g} m/s (Hertz's peak "
        f"force {PEAK_OVER_30} times Hertz's force at {largest_text}), fem.contact_resolution "
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


def contact_sizes(runs, label, resolutions):
    """The runs' contact cell sizes, coarse to fine, or exits naming `label` when they do not
    decrease (the meshes did not change with the resolutions)."""
    sizes = [r["h_contact"] for r in runs]
    if not all(a > b for a, b in zip(sizes, sizes[1:])):
        fail(f"{label}: the contact cell sizes {sizes} do not decrease with the resolutions "
             f"{resolutions}: the meshes did not change")
    return sizes


def executable(build):
    rebound_fem = os.path.join(build, "bin", "rebound-fem")
    if not os.access(rebound_fem, os.X_OK):
        fail(f"{rebound_fem} not found (build first: bash scripts/build.sh)")
    return rebound_fem


def compared_approaches(up_to, delta_30, clearance):
    """delta/dR where the static laws are compared."""
    if up_to is None:
        return DELTAS + [delta_30 / clearance]
    return [up_to / 30, up_to / 10, up_to / 3, up_to]


def converge(build, out, clearances_mm, resolutions, degree, up_to=None):
    """Runs the laws and extrapolates; returns the rows of fem_static_convergence.csv."""
    rebound_fem = executable(build)
    os.makedirs(out, exist_ok=True)
    modulus = study.YOUNG / (1 - study.POISSON ** 2)
    rows = []
    for clearance_mm in clearances_mm:
        clearance = clearance_mm * 1e-3
        runs = []
        for resolution in resolutions:
            case, delta_30 = fem_case(clearance_mm, degree, resolution, up_to)
            runs.append(run_law(rebound_fem, case, out))
            print(f"socket_fem.py: dR = {clearance_mm:g} mm, r = {resolution:g}: "
                  f"{runs[-1]['dofs']} dofs, h_contact {runs[-1]['h_contact']:.4g} m, "
                  f"{runs[-1]['candidates']} candidates, {runs[-1]['seconds']:.0f} s",
                  file=sys.stderr)
        sizes = contact_sizes(runs, f"dR = {clearance_mm:g} mm", resolutions)
        for x in compared_approaches(up_to, delta_30, clearance):
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


DYNAMIC_QUANTITIES = [("contact_duration", "t_c (us)", 1e6), ("peak_normal_force", "F_max (N)", 1),
                      ("max_approach", "delta_max (um)", 1e6), ("e_newton", "e", 1)]


def max_approach(history):
    """The largest approach of the centroid in history.csv, as the study takes it from the lumped
    histories (socket_study.largest_approach: minus the normal displacement, refined by the
    parabola through the largest sample and its neighbours)."""
    with open(history, newline="") as stream:
        displacement = [float(r["normal_displacement_m"]) for r in csv.DictReader(stream)]
    return study.largest_approach({"normal_displacement_m": displacement})


def run_impacts(rebound_fem, clearance_mm, resolutions, degree, out):
    """`rebound refine CASE --contact-resolutions ... --resume` for the study's case of this
    clearance; its runs coarse to fine with delta_max from their histories."""
    case = study.case_document(clearance_mm, {"model": "lai", "normal_law": "wang-gao",
                                              "polynomial_index": 2, "restitution": study.RESTITUTION,
                                              "restitution_calibration": "published"})
    case["fem"] = {"degree": degree}
    runs = run_refine(rebound_fem, case, resolutions, out)
    for run in runs:
        run["max_approach"] = max_approach(os.path.join(run["directory"], "history.csv"))
    return runs


def run_refine(rebound_fem, case, resolutions, out, options=()):
    """Writes the case to OUT/<name>.json and runs `rebound refine` on it along
    --contact-resolutions (--resume, into OUT/<name>, log OUT/<name>.log, `options` added);
    returns refinement.json's runs coarse to fine, each completed, or exits naming the failure."""
    path = os.path.join(out, case["name"] + ".json")
    with open(path, "w") as stream:
        json.dump(case, stream, indent=2)
        stream.write("\n")
    folder = os.path.join(out, case["name"])
    log = os.path.join(out, case["name"] + ".log")
    command = [rebound_fem, "refine", path, "--contact-resolutions",
               ",".join(f"{r:g}" for r in resolutions), "--resume", "--no-plots", *options,
               "-o", folder]
    with open(log, "w") as stream:
        status = subprocess.run(command, stdout=stream, stderr=subprocess.STDOUT).returncode
    if status != 0:
        fail(f"{' '.join(command)} exited with {status} (log: {log})")
    with open(os.path.join(folder, "refinement.json")) as stream:
        runs = [r for r in json.load(stream)["runs"] if r["contact_resolution"] in resolutions]
    runs.sort(key=lambda r: r["contact_resolution"])
    if [r["contact_resolution"] for r in runs] != list(resolutions):
        fail(f"{folder}/refinement.json: expected one run per resolution {resolutions}")
    for run in runs:
        if run["status"] != "completed":
            fail(f"{run['directory']}: status {run['status']}")
    return runs


def converge_impacts(build, out, clearances_mm, resolutions, degree):
    """Runs the impacts and extrapolates; returns the rows of fem_dynamic_convergence.csv."""
    rebound_fem = executable(build)
    os.makedirs(out, exist_ok=True)
    rows = []
    for clearance_mm in clearances_mm:
        runs = run_impacts(rebound_fem, clearance_mm, resolutions, degree, out)
        sizes = contact_sizes(runs, f"dR = {clearance_mm:g} mm", resolutions)
        print(f"socket_fem.py: dR = {clearance_mm:g} mm: "
              + ", ".join(f"r = {r['contact_resolution']:g} {r['dofs']:.0f} dofs" for r in runs),
              file=sys.stderr)
        for quantity, _, _ in DYNAMIC_QUANTITIES:
            values = [r[quantity] for r in runs]
            order, value, error = richardson(values, sizes)
            status = "converged"
            if order is None:
                # no observed order (the differences change sign, do not shrink, or vanish): the
                # finest value, with the spread of the three as its error estimate, and for a
                # duration measured on the steps at least the finest run's time step
                status, value = "no order: finest, spread", values[2]
                error = max(values) - min(values)
                if quantity == "contact_duration":
                    error = max(error, runs[2]["time_step"])
            rows.append({"clearance_mm": clearance_mm, "quantity": quantity,
                         **{f"r{res:g}": v for res, v in zip(resolutions, values)},
                         **{f"h{k + 1}_m": h for k, h in enumerate(sizes)},
                         **{f"dofs{k + 1}": r["dofs"] for k, r in enumerate(runs)},
                         "order": order, "richardson": value, "error": error, "status": status})
    return rows


def markdown_impacts(rows, resolutions):
    head = " | ".join(f"r = {r:g}" for r in resolutions)
    lines = [f"| dR (mm) | quantity | {head} | order | Richardson | error |",
             "|---:|---|" + "---:|" * (3 + len(resolutions))]
    for row in rows:
        name, scale = next((n, s) for q, n, s in DYNAMIC_QUANTITIES if q == row["quantity"])
        cells = " | ".join(f"{row[f'r{r:g}'] * scale:.6g}" for r in resolutions)
        order = f"{row['order']:.2f}" if row["order"] is not None else row["status"]
        value, error = f"{row['richardson'] * scale:.6g}", f"{row['error'] * scale:.2g}"
        lines.append(f"| {row['clearance_mm']:g} | {name} | {cells} | {order} | {value} | "
                     f"{error} |")
    return "\n".join(lines)


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


def write(rows, out, name):
    path = os.path.join(out, name)
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
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--up-to", type=float, default=None, metavar="X",
                      help="static law up to delta = X dR (the light-load end), not delta_30")
    mode.add_argument("--dynamic", action="store_true",
                      help="the explicit impact at 0.3 m/s (rebound refine), not the static law")
    args = parser.parse_args()
    clearances = numbers(args.clearances, float, "--clearances")
    resolutions = numbers(args.resolutions, float, "--resolutions")
    if len(resolutions) != 3 or sorted(resolutions) != resolutions or len(set(resolutions)) != 3:
        fail(f"--resolutions {args.resolutions!r}: expected three increasing values", 2)
    if args.up_to is not None and not 0 < args.up_to <= 0.15:
        fail(f"--up-to {args.up_to!r}: expected delta/dR in (0, 0.15] (below the 30-degree "
             "overlap; without --up-to the law runs up to it)", 2)
    build, out = os.path.abspath(args.build), os.path.abspath(args.out)
    command = (f"`python3 scripts/socket_fem.py --clearances {args.clearances} --resolutions "
               f"{args.resolutions} --degree {args.degree}"
               + (" --dynamic" if args.dynamic else "")
               + (f" --up-to {args.up_to:g}" if args.up_to is not None else "") + "`")
    if args.dynamic:
        rows = converge_impacts(build, out, clearances, resolutions, args.degree)
        name, table = "fem_dynamic_convergence.csv", markdown_impacts(rows, resolutions)
        title = f"FE impact of the ball in the rigid socket at {study.SPEED} m/s"
    else:
        rows = converge(build, out, clearances, resolutions, args.degree, args.up_to)
        name, table = "fem_static_convergence.csv", markdown(rows, resolutions)
        title = "FE static law of the ball in the rigid socket, F/F_Hertz(R_eff)"
    path = write(rows, out, name)
    print(f"{title}, FE_Q({args.degree}) ({command}):\n")
    print(table)
    print(f"\nwritten: {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
