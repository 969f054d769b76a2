#!/usr/bin/env python3
"""The ball in a spherical socket with clearance (Wang & Gao 2023, Actuators 12(2):89): the
static laws F(delta) and the normal impact of every normal law and of the half-space model.

    PYTHONPATH=build/python python3 scripts/socket_study.py [--build build]
        [--out results/socket-study] [--fem DIR] [--quick]

Geometry and material of Wang & Gao's Table 1: a steel ball of radius R2 = 50 mm (E = 206.8 GPa,
nu = 0.29) in sockets of radius R1 = 50.1, 50.3, 50.5, 50.7, 50.9 and 51.0 mm (clearance dR =
R1 - R2). The socket is rigid here (E* = E/(1 - nu^2), the ball's alone); theirs was steel, so
their E* is half ours: the impact is also run with "their E*" (a ball of E/2, same nu, whose
E/(1 - nu^2) is theirs), the static laws scale with E* and are given in ours.

1. laws_static: for each clearance, F(delta) from delta = 1e-4 dR up to the delta where the
   overlap contact semi-angle theta (Wang & Gao's eq. 8, cos theta = ((dR + delta)^2 + R1^2 -
   R2^2)/(2 (dR + delta) R1)) reaches 30 degrees: Hertz with R_eff = R1 R2/dR, Liu (n = 2),
   Wang-Gao n = 1, 2, 4, 8 (rebound.normal_law: the C++ laws the lumped solver integrates), and
   the half-space model on the exact gap of the two spheres (rebound.halfspace_static, 40 cells
   across Hertz's contact diameter; the grid is doubled at three approaches per clearance and the
   change reported). Writes static-<dR>mm.csv per clearance, static_convergence.csv and the
   figure static_laws.png (F/F_Hertz against delta/dR).
2. laws_dynamic: the central impact at 0.3 m/s of the 1 kg ball with c_r = 0.9 (rebound.lumped:
   the solver of `rebound lumped`) by hertz (elastic), liu (n = 2, elastic), wang-gao n = 1, 2,
   4, 8 elastic (K delta alone) and with their eq. 29 damping ("published" chi) and the "exact" calibration, hunt-crossley,
   lankarani-nikravesh and flores (published D; and the exact calibration, one D for the three),
   and the half-space model on the exact gap (elastic): contact duration t_c, peak force F_max,
   largest approach delta_max (from the history) and Newton's e. Writes dynamic.csv, dynamic.md
   (printed) and dynamic_force_0.5mm.png (F(t) at dR = 0.5 mm).
3. with --fem DIR...: the converged FE results scripts/socket_fem.py wrote into those folders
   (fem_static_convergence.csv: the FE static law's Richardson values at fixed delta/dR;
   fem_dynamic_convergence.csv: the explicit impact's t_c, F_max, delta_max, e). Each law over
   the FE law at its converged points, the delta/dR ranges where each law is within 5 % of it
   (the FE law interpolated linearly in log(delta/dR) between its points), and each law's impact
   over the FE impact; the FE points join the static figure, the finest FE run's F(t) the
   dynamic one. Nothing FE is run here.

--quick: the 0.5 mm clearance only, coarser (a smoke test, 3 s). The full run takes 11 s of CPU
(13 s on an idle core, 17 to 73 s beside other builds on 2 cores), half of it the half-space
model's solves. Exits 1 with the reason when a law or a solve fails, 2 for
bad arguments or a missing module.
"""
import argparse
import csv
import json
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

R2 = 0.05                      # ball radius, m (Wang & Gao, Table 1)
YOUNG, POISSON = 206.8e9, 0.29  # steel (Table 1)
DENSITY = 1909.859317102744    # 1 kg ball of radius 50 mm (their sec. 4)
SPEED, RESTITUTION = 0.3, 0.9  # their dynamic case (sec. 4)
CLEARANCES_MM = [0.1, 0.3, 0.5, 0.7, 0.9, 1.0]  # R1 - R2 of Table 1
MAX_ANGLE_DEG = 30.0
WANG_GAO_INDICES = [1, 2, 4, 8]
CELLS, FINE_CELLS = 40, 80     # half-space grid: cells across Hertz's contact diameter


def fail(message, status=1):
    print(f"socket_study.py: {message}", file=sys.stderr)
    sys.exit(status)


def label(clearance_mm):
    return f"{clearance_mm:.1f}mm"


def case_document(clearance_mm, lumped, young=YOUNG):
    """A case of the study: Table 1's ball in the socket of this clearance, 1 kg, 0.3 m/s."""
    return {
        "name": f"socket-wang-gao-{label(clearance_mm)}",
        "description": (
            "Wang & Gao (2023, Actuators 12(2):89), Table 1: steel ball R2 = 50 mm in a rigid "
            f"spherical socket of clearance {clearance_mm:g} mm, 1 kg, 0.3 m/s along the line of "
            "centres (written by scripts/socket_study.py; docs/SOCKET.md)"),
        "body": {"shape": "sphere", "radius": R2},
        "material": {"young_modulus": young, "poisson_ratio": POISSON, "density": DENSITY},
        "target": {"type": "spherical_socket", "radius": R2 + clearance_mm * 1e-3},
        "contact": {"friction": 0.0},
        "impact": {"normal_speed": SPEED, "tangential_speed": 0.0},
        "lumped": lumped,
    }


def semi_angle(clearance, approach):
    """Wang & Gao's overlap semi-angle theta (rad; their eq. 8), from sin and cos: sin theta in
    the product form without cancellation at small delta (docs/THEORY.md sec. 7)."""
    r1, d = R2 + clearance, clearance + approach
    cosine = (d * d + r1 * r1 - R2 * R2) / (2 * d * r1)
    product = approach * (2 * R2 - approach) * (2 * clearance + approach) * (2 * r1 + approach)
    return math.atan2(math.sqrt(product) / (2 * d * r1), cosine)


def approach_at_angle(clearance, angle):
    """delta at which theta reaches `angle`: the smaller root of D^2 - 2 R1 cos(angle) D + R1^2 -
    R2^2 = 0 (D = dR + delta; theta = 0 at D = dR), as (R1^2 - R2^2)/(larger root)."""
    r1, c = R2 + clearance, math.cos(angle)
    q = r1 * r1 - R2 * R2
    larger = r1 * c + math.sqrt(r1 * r1 * c * c - q)
    return q / larger - clearance


def static_laws_list():
    laws = [("hertz", {"normal_law": "hertz"}), ("liu_n2", {"normal_law": "liu", "polynomial_index": 2})]
    laws += [(f"wang_gao_n{n}", {"normal_law": "wang-gao", "polynomial_index": n})
             for n in WANG_GAO_INDICES]
    return laws


def laws_static(rebound, clearances_mm, points, out):
    """F(delta) of every law per clearance; returns {clearance_mm: columns} and the grid check."""
    results, convergence = {}, []
    for clearance_mm in clearances_mm:
        clearance = clearance_mm * 1e-3
        top = approach_at_angle(clearance, math.radians(MAX_ANGLE_DEG))
        approaches = [1e-4 * clearance * (top / (1e-4 * clearance)) ** (k / (points - 1))
                      for k in range(points)]
        columns = {"approach_m": approaches,
                   "approach_over_clearance": [a / clearance for a in approaches],
                   "theta_deg": [math.degrees(semi_angle(clearance, a)) for a in approaches]}
        for name, lumped in static_laws_list():
            case = rebound.load_case(case_document(clearance_mm, {"model": "lai", **lumped}))
            columns[f"{name}_N"] = [float(f) for f in rebound.normal_law(case, approaches)]
        case = rebound.load_case(case_document(clearance_mm, {"model": "lai"}))
        half = rebound.halfspace_static(case, approaches, cells=CELLS)
        columns["halfspace_N"] = [float(f) for f in half["normal_force_N"]]
        columns["halfspace_contact_radius_m"] = [float(a) for a in half["contact_radius_m"]]
        # The grid check: the same approaches on twice the cells (first, middle, last).
        checked = [approaches[0], approaches[points // 2], approaches[-1]]
        fine = rebound.halfspace_static(case, checked, cells=FINE_CELLS)
        for k, approach in enumerate(checked):
            coarse = columns["halfspace_N"][approaches.index(approach)]
            convergence.append({
                "clearance_mm": clearance_mm, "approach_m": approach,
                "approach_over_clearance": approach / clearance,
                f"force_{CELLS}_cells_N": coarse,
                f"force_{FINE_CELLS}_cells_N": float(fine["normal_force_N"][k]),
                "relative_change": float(fine["normal_force_N"][k]) / coarse - 1})
        results[clearance_mm] = columns
        write_csv(os.path.join(out, f"static-{label(clearance_mm)}.csv"), columns)
    write_rows(os.path.join(out, "static_convergence.csv"), convergence)
    return results, convergence


def dynamic_laws_list():
    """(row label, lumped section): every law of the study at c_r = 0.9 where it takes one."""
    laws = [("hertz (elastic)", {"model": "lai", "normal_law": "hertz"}),
            ("liu n=2 (elastic)", {"model": "lai", "normal_law": "liu", "polynomial_index": 2})]
    laws += [(f"wang-gao n={n} (elastic)", {"model": "lai", "normal_law": "wang-gao",
                                             "polynomial_index": n}) for n in WANG_GAO_INDICES]
    for calibration in ("published", "exact"):
        for n in WANG_GAO_INDICES:
            laws.append((f"wang-gao n={n} {calibration}",
                         {"model": "lai", "normal_law": "wang-gao", "polynomial_index": n,
                          "restitution": RESTITUTION, "restitution_calibration": calibration}))
    for law in ("hunt-crossley", "lankarani-nikravesh", "flores"):
        laws.append((f"{law} published",
                     {"model": "lai", "normal_law": law, "restitution": RESTITUTION,
                      "restitution_calibration": "published"}))
    laws.append(("hunt-crossley/lankarani-nikravesh/flores exact",
                 {"model": "lai", "normal_law": "hunt-crossley", "restitution": RESTITUTION,
                  "restitution_calibration": "exact"}))
    laws.append(("halfspace (elastic, exact gap)", {"model": "halfspace"}))
    return laws


def largest_approach(history):
    """delta_max from the history's normal displacement (negative into the socket), refined by
    the parabola through the largest sample and its neighbours."""
    x = [-v for v in history["normal_displacement_m"]]
    i = max(range(len(x)), key=x.__getitem__)
    if 0 < i < len(x) - 1:
        curvature = 2 * x[i] - x[i - 1] - x[i + 1]
        if curvature > 0:
            return x[i] + (x[i + 1] - x[i - 1]) ** 2 / (8 * curvature)
    return x[i]


def laws_dynamic(rebound, clearances_mm, out, quick):
    rows, histories = [], {}
    for modulus_name, young in (("rigid socket", YOUNG), ("their E*", YOUNG / 2)):
        for clearance_mm in clearances_mm:
            for name, lumped in dynamic_laws_list():
                if quick and lumped["model"] == "halfspace":
                    lumped = {**lumped, "cells": 16, "time_steps": 60}
                case = rebound.load_case(case_document(clearance_mm, lumped, young))
                try:
                    result = rebound.lumped(case)
                except (rebound.SolveError, ValueError) as error:
                    fail(f"{name} at dR = {clearance_mm} mm ({modulus_name}): {error}")
                history = result["history"]
                rows.append({
                    "modulus": modulus_name, "clearance_mm": clearance_mm, "law": name,
                    "contact_duration_s": result["contact_duration"],
                    "peak_normal_force_N": result["peak_normal_force"],
                    "max_approach_m": largest_approach(history),
                    "e_newton": result["e_newton"],
                    "damping_D": result.get("normal_law_damping"),
                })
                if modulus_name == "rigid socket" and clearance_mm == 0.5:
                    histories[name] = (list(history["time_s"]), list(history["normal_force_N"]))
    write_rows(os.path.join(out, "dynamic.csv"), rows)
    return rows, histories


def halfspace_dynamic_check(rebound, clearance_mm, quick):
    """The half-space impact at its default grid (24 cells across Hertz's contact diameter, 100
    steps per Hertz duration) against twice both (48 cells, 200 steps)."""
    values = []
    for cells, steps in ((16, 60), (32, 120)) if quick else ((24, 100), (48, 200)):
        case = rebound.load_case(case_document(
            clearance_mm, {"model": "halfspace", "cells": cells, "time_steps": steps}))
        result = rebound.lumped(case, history=False)
        values.append((cells, steps, result["contact_duration"], result["peak_normal_force"],
                       result["e_newton"]))
    (c0, s0, t0, f0, e0), (c1, s1, t1, f1, e1) = values
    return (f"Half-space impact grid check at dR = {clearance_mm:g} mm (rigid socket): {c0} cells, "
            f"{s0} steps -> {c1} cells, {s1} steps: t_c {t0 * 1e6:.3f} -> {t1 * 1e6:.3f} us "
            f"({t1 / t0 - 1:+.1e}), F_max {f0:.6g} -> {f1:.6g} N ({f1 / f0 - 1:+.1e}), "
            f"e {e0:.6f} -> {e1:.6f}")


def read_csv_rows(path):
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


def number(text):
    return float(text) if text not in ("", None) else None


FE_CONVERGED = 0.02  # largest relative error estimate of an FE value the laws are judged against


def fem_converged(fem_dirs):
    """The converged FE results of scripts/socket_fem.py found in the --fem folders:
    static {clearance_mm: [(delta/dR, Richardson F/F_Hertz, error), ...]} (points with an observed
    order and an error estimate within FE_CONVERGED of the value, 2 %, well inside the 5 % the
    laws are judged by; where two runs give the same delta/dR, the smaller error) and dynamic
    {clearance_mm: {quantity: (Richardson, error, status)}}, with the folders of the finest
    impact runs {clearance_mm: directory}."""
    static, dynamic, finest = {}, {}, {}
    for folder in fem_dirs or []:
        path = os.path.join(folder, "fem_static_convergence.csv")
        if os.path.exists(path):
            for r in read_csv_rows(path):
                if number(r["order"]) is None or \
                        float(r["error"]) > FE_CONVERGED * float(r["richardson"]):
                    continue
                points = static.setdefault(float(r["clearance_mm"]), {})
                x, value, error = (float(r["approach_over_clearance"]), float(r["richardson"]),
                                   float(r["error"]))
                key = round(math.log10(x), 6)
                if key not in points or error < points[key][2]:
                    points[key] = (x, value, error)
        path = os.path.join(folder, "fem_dynamic_convergence.csv")
        if os.path.exists(path):
            for r in read_csv_rows(path):
                clearance_mm = float(r["clearance_mm"])
                dynamic.setdefault(clearance_mm, {})[r["quantity"]] = (
                    number(r["richardson"]), number(r["error"]), r["status"])
                runs = os.path.join(folder, f"socket-wang-gao-{label(clearance_mm)}",
                                    "refinement.json")
                if os.path.exists(runs):
                    with open(runs) as stream:
                        done = json.load(stream)["runs"]
                    finest[clearance_mm] = max(done, key=lambda q: q["contact_resolution"])["directory"]
    if fem_dirs and not static and not dynamic:
        fail(f"--fem {' '.join(fem_dirs)}: no fem_static_convergence.csv or "
             "fem_dynamic_convergence.csv (scripts/socket_fem.py writes them)", 2)
    return ({c: sorted(p.values()) for c, p in static.items()}, dynamic, finest)


def fem_ratio_at(points, x):
    """The FE law's F/F_Hertz at delta/dR = x, linear in log(delta/dR) between its converged
    points (None outside them)."""
    for (x0, f0, _), (x1, f1, _) in zip(points, points[1:]):
        if x0 <= x <= x1:
            return f0 + (f1 - f0) * math.log(x / x0) / math.log(x1 / x0)
    return None


def law_ratios(rebound, clearance_mm, approaches):
    """F/F_Hertz of every static law (and the half-space model) at these approaches."""
    ratios = {}
    hertz = None
    for name, lumped in static_laws_list():
        case = rebound.load_case(case_document(clearance_mm, {"model": "lai", **lumped}))
        forces = [float(f) for f in rebound.normal_law(case, approaches)]
        if name == "hertz":
            hertz = forces
        ratios[name] = [f / h for f, h in zip(forces, hertz)]
    case = rebound.load_case(case_document(clearance_mm, {"model": "lai"}))
    half = rebound.halfspace_static(case, approaches, cells=CELLS)
    ratios["halfspace"] = [float(f) / h for f, h in zip(half["normal_force_N"], hertz)]
    return ratios


def within(flags, grid):
    """The intervals of grid where flags hold, as text."""
    spans, begin = [], None
    for k, ok in enumerate(flags + [False]):
        if ok and begin is None:
            begin = k
        if not ok and begin is not None:
            spans.append(f"{grid[begin]:.2g}–{grid[k - 1]:.2g}")
            begin = None
    return ", ".join(spans) if spans else "nowhere"


def fem_static_verdict(rebound, fem_static_points, tolerance=0.05, samples=120):
    """Each law over the converged FE law at the FE's points, and the delta/dR ranges (within
    the FE's converged span) where each is within `tolerance` of it."""
    names = [n for n, _ in static_laws_list()] + ["halfspace"]
    lines = ["Each law's force over the converged FE force (the Richardson value; its error in "
             "the FE column) at the same approach:", "",
             "| dR (mm) | delta/dR | FE F/F_Hertz | " + " | ".join(names) + " |",
             "|---:|---:|---:|" + "---:|" * len(names)]
    ranges = {}
    for clearance_mm, points in sorted(fem_static_points.items()):
        clearance = clearance_mm * 1e-3
        xs = [x for x, _, _ in points]
        ratios = law_ratios(rebound, clearance_mm, [x * clearance for x in xs])
        for k, (x, value, error) in enumerate(points):
            lines.append(f"| {clearance_mm:g} | {x:.3g} | {value:.4f} ± {error:.4f} | "
                         + " | ".join(f"{ratios[n][k] / value:.3f}" for n in names) + " |")
        grid = [xs[0] * (xs[-1] / xs[0]) ** (k / (samples - 1)) for k in range(samples)]
        fine = law_ratios(rebound, clearance_mm, [x * clearance for x in grid])
        fe = [fem_ratio_at(points, x) for x in grid]
        ranges[clearance_mm] = {n: within([abs(r / f - 1) <= tolerance for r, f in zip(fine[n], fe)],
                                          grid) for n in names}
    lines += ["", f"delta/dR where each law is within {tolerance:.0%} of the FE law (the FE law "
              "linear in log(delta/dR) between its converged points, "
              f"{samples} approaches per clearance; only within the span the FE covers):", "",
              "| law | " + " | ".join(f"{c:g} mm" for c in sorted(ranges)) + " |",
              "|---|" + "---|" * len(ranges)]
    for n in names:
        lines.append(f"| {n} | " + " | ".join(ranges[c][n] for c in sorted(ranges)) + " |")
    return "\n".join(lines)


def fem_dynamic_verdict(rows, fem_dynamic_values, tolerance=0.05):
    """Each law's impact (rigid socket) over the converged FE impact."""
    quantities = [("contact_duration", "contact_duration_s", "t_c", 1e6, "us"),
                  ("peak_normal_force", "peak_normal_force_N", "F_max", 1, "N"),
                  ("max_approach", "max_approach_m", "delta_max", 1e6, "um"),
                  ("e_newton", "e_newton", "e", 1, "")]
    lines = []
    for clearance_mm, fe in sorted(fem_dynamic_values.items()):
        head = ", ".join(f"{name} = {fe[q][0] * scale:.6g} ± {fe[q][1] * scale:.2g} {unit}".rstrip()
                         for q, _, name, scale, unit in quantities if q in fe)
        lines += [f"dR = {clearance_mm:g} mm, converged FE impact (elastic): {head}. Each law "
                  f"over it (rigid socket; * within {tolerance:.0%}):", "",
                  "| law | " + " | ".join(n for _, _, n, _, _ in quantities) + " |",
                  "|---|" + "---:|" * len(quantities)]
        for r in rows:
            if r["modulus"] != "rigid socket" or r["clearance_mm"] != clearance_mm:
                continue
            cells = []
            for q, column, _, _, _ in quantities:
                ratio = r[column] / fe[q][0]
                cells.append(f"{ratio:.4f}{'*' if abs(ratio - 1) <= tolerance else ''}")
            lines.append(f"| {r['law']} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def fem_history(directory):
    rows = read_csv_rows(os.path.join(directory, "history.csv"))
    return ([float(r["time_s"]) for r in rows], [float(r["normal_force_N"]) for r in rows])


def built_for(build):
    """The Python3_EXECUTABLE of the build (CMakeCache.txt), or a hint when unknown."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as stream:
            for line in stream:
                if line.startswith("Python3_EXECUTABLE:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return "see docs/PYTHON.md"


def write_csv(path, columns):
    names = list(columns)
    with open(path, "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(names)
        for row in zip(*(columns[n] for n in names)):
            writer.writerow([f"{v:.10g}" for v in row])


def write_rows(path, rows):
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.10g}" if isinstance(v, float) else v) for k, v in row.items()})


def static_markdown(results, convergence):
    lines = ["F/F_Hertz(R_eff) of each law at delta/dR = 1e-4 (light load), 1e-2 and at theta = 30 deg "
             "(rigid socket; E* cancels in the ratios):", "",
             "| dR (mm) | delta/dR | theta (deg) | liu n=2 | wang-gao n=1 | n=2 | n=4 | n=8 | "
             "half-space (exact gap) |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for clearance_mm, c in results.items():
        n = len(c["approach_m"])
        marks = sorted({0, min(range(n), key=lambda k: abs(math.log(c["approach_over_clearance"][k] / 1e-2))), n - 1})
        for k in marks:
            h = c["hertz_N"][k]
            ratios = [c[f"{name}_N"][k] / h for name, _ in static_laws_list()[1:]] + [c["halfspace_N"][k] / h]
            lines.append(f"| {clearance_mm:g} | {c['approach_over_clearance'][k]:.4g} | "
                         f"{c['theta_deg'][k]:.3g} | " + " | ".join(f"{r:.4f}" for r in ratios) + " |")
    lines += ["", f"Half-space grid check ({CELLS} -> {FINE_CELLS} cells across Hertz's contact "
              "diameter): largest |F_fine/F - 1| = "
              f"{max(abs(r['relative_change']) for r in convergence):.2e}", ""]
    lines += ["| dR (mm) | delta/dR | F (N), " + str(CELLS) + " cells | F (N), " + str(FINE_CELLS)
              + " cells | change |", "|---:|---:|---:|---:|---:|"]
    for r in convergence:
        lines.append(f"| {r['clearance_mm']:g} | {r['approach_over_clearance']:.4g} | "
                     f"{r[f'force_{CELLS}_cells_N']:.6g} | {r[f'force_{FINE_CELLS}_cells_N']:.6g} | "
                     f"{r['relative_change']:+.2e} |")
    return "\n".join(lines)


def dynamic_markdown(rows, modulus, clearance_mm):
    lines = [f"Impact at {SPEED} m/s, 1 kg, c_r = {RESTITUTION}, dR = {clearance_mm:g} mm, "
             f"{modulus}:", "",
             "| law | t_c (us) | F_max (N) | delta_max (um) | e |", "|---|---:|---:|---:|---:|"]
    for r in rows:
        if r["modulus"] == modulus and r["clearance_mm"] == clearance_mm:
            lines.append(f"| {r['law']} | {r['contact_duration_s'] * 1e6:.3f} | "
                         f"{r['peak_normal_force_N']:.6g} | {r['max_approach_m'] * 1e6:.4f} | "
                         f"{r['e_newton']:.5f} |")
    return "\n".join(lines)


def dynamic_overview(rows, modulus, quantity, title, scale, digits):
    clearances = sorted({r["clearance_mm"] for r in rows})
    laws = list(dict.fromkeys(r["law"] for r in rows))
    lines = [f"{title}, {modulus}:", "",
             "| law | " + " | ".join(f"{c:g} mm" for c in clearances) + " |",
             "|---|" + "---:|" * len(clearances)]
    for law in laws:
        values = {r["clearance_mm"]: r[quantity] for r in rows
                  if r["law"] == law and r["modulus"] == modulus}
        lines.append(f"| {law} | " + " | ".join(f"{values[c] * scale:.{digits}g}" for c in clearances) + " |")
    return "\n".join(lines)


def figures(results, fem_laws, histories, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("socket_study.py: matplotlib missing (apt-get install -y python3-matplotlib): "
              "no figures", file=sys.stderr)
        return []
    written = []
    clearances = list(results)
    columns = min(3, len(clearances))
    rows = (len(clearances) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.4 * rows), squeeze=False,
                             sharey=True)
    styles = {"liu_n2": ("Liu n=2", "C1", "--")}
    styles.update({f"wang_gao_n{n}": (f"Wang-Gao n={n}", f"C{k + 2}", "-")
                   for k, n in enumerate(WANG_GAO_INDICES)})
    for ax, clearance_mm in zip(axes.flat, clearances):
        c = results[clearance_mm]
        x = c["approach_over_clearance"]
        for name, (text, colour, style) in styles.items():
            ax.plot(x, [f / h for f, h in zip(c[f"{name}_N"], c["hertz_N"])], style,
                    color=colour, label=text)
        ax.plot(x, [f / h for f, h in zip(c["halfspace_N"], c["hertz_N"])], "k-", lw=2,
                label="half-space, exact gap")
        ax.axhline(1.0, color="grey", lw=1, ls=":", label="Hertz (R_eff)")
        if clearance_mm in fem_laws:
            x_fe, f_fe, e_fe = zip(*fem_laws[clearance_mm])
            ax.errorbar(x_fe, f_fe, yerr=e_fe, fmt="ks", ms=4, mfc="none", capsize=2,
                        label="FEM (static, Richardson)")
        ax.set_xscale("log")
        ax.set_title(f"dR = {clearance_mm:g} mm (theta to {MAX_ANGLE_DEG:g} deg)")
        ax.set_xlabel("delta / dR")
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("F / F_Hertz(R_eff)")
    for ax in list(axes.flat)[len(clearances):]:
        ax.set_visible(False)
    handles, names = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=4, fontsize=8)
    fig.suptitle("Ball (R2 = 50 mm) in a rigid spherical socket: static laws against Hertz "
                 "(R_eff = R1 R2 / dR)", fontsize=10)
    fig.tight_layout(rect=(0, 0.1 if rows == 1 else 0.06, 1, 0.96))
    path = os.path.join(out, "static_laws.png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)

    if histories:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        # The "exact" rows are within 0.2 % of the "published" ones (table): left out.
        # The "exact" rows and the elastic Wang-Gao rows but n = 2 are left out (readability).
        shown = [name for name in histories if not name.endswith(" exact") and not (
            name.startswith("wang-gao") and name.endswith("(elastic)") and "n=2" not in name)]
        for k, name in enumerate(shown):
            t, f = histories[name]
            halfspace = name.startswith("halfspace")
            if name.startswith("FEM"):
                ax.plot([v * 1e6 for v in t], [v / 1e3 for v in f], "k-", lw=2, zorder=3,
                        label=name)
                continue
            dashed = name.endswith("published") and not name.startswith("wang-gao")
            # The half-space curve lies on Hertz's: drawn wide and grey beneath it.
            ax.plot([v * 1e6 for v in t], [v / 1e3 for v in f], ls="--" if dashed else "-",
                    color="0.6" if halfspace else f"C{k % 10}", lw=4 if halfspace else 1.2,
                    zorder=1 if halfspace else 2, label=name)
        ax.set_xlabel("t (us)")
        ax.set_ylabel("F (kN)")
        ax.set_title(f"dR = 0.5 mm, 1 kg at {SPEED} m/s, c_r = {RESTITUTION} (rigid socket)",
                     fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, ncol=2, loc="lower center")
        fig.tight_layout()
        path = os.path.join(out, "dynamic_force_0.5mm.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="build folder holding python/rebound (default: build)")
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "socket-study"))
    parser.add_argument("--fem", nargs="+", default=None, metavar="DIR",
                        help="folders of scripts/socket_fem.py (fem_static_convergence.csv, "
                             "fem_dynamic_convergence.csv)")
    parser.add_argument("--quick", action="store_true",
                        help="the 0.5 mm clearance only, coarser (smoke test)")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(os.path.abspath(args.build), "python"))
    try:
        import rebound
    except ImportError as error:
        fail(f"{error}; build the Python module (make _rebound) in {args.build} and run this "
             f"script with the interpreter it was built for ({built_for(args.build)})", 2)
    for folder in args.fem or []:
        if not os.path.isdir(folder):
            fail(f"--fem {folder}: not a folder", 2)
    start = time.time()
    clearances = [0.5] if args.quick else CLEARANCES_MM
    fem_laws, fem_impacts, fem_runs = fem_converged(args.fem)
    fem_laws = {c: p for c, p in fem_laws.items() if c in clearances}
    fem_impacts = {c: v for c, v in fem_impacts.items() if c in clearances}
    out = os.path.abspath(args.out)
    os.makedirs(os.path.join(out, "cases"), exist_ok=True)
    points = 9 if args.quick else 25
    for clearance_mm in clearances:  # the cases an FE run takes (rebound fem CASE --quasi-static)
        with open(os.path.join(out, "cases", f"socket-wang-gao-{label(clearance_mm)}.json"), "w") as f:
            json.dump(case_document(clearance_mm, {"model": "lai", "normal_law": "wang-gao",
                                                   "polynomial_index": 2}), f, indent=2)
            f.write("\n")
    try:
        static, convergence = laws_static(rebound, clearances, points, out)
    except (ValueError, RuntimeError) as error:
        fail(f"static laws: {error}")
    static_seconds = time.time() - start
    rows, histories = laws_dynamic(rebound, clearances, out, args.quick)
    dynamic_check = halfspace_dynamic_check(rebound, 0.5 if 0.5 in clearances else clearances[0],
                                            args.quick)

    report = ["# Ball in a spherical socket: lumped laws and the half-space model", "",
              f"`python3 scripts/socket_study.py{' --quick' if args.quick else ''}` "
              f"(rebound {rebound.__version__}). Ball R2 = 50 mm, E = 206.8 GPa, nu = 0.29, 1 kg; "
              "rigid socket (E* = E/(1 - nu^2) = 224.9 GPa; Wang & Gao's steel socket: half).", "",
              "## Static laws", "", static_markdown(static, convergence), "",
              "## Dynamic impact", ""]
    for modulus in ("rigid socket", "their E*"):
        report += [dynamic_markdown(rows, modulus, 0.5 if 0.5 in clearances else clearances[0]), ""]
    report += [dynamic_check, ""]
    if len(clearances) > 1:
        for modulus in ("rigid socket", "their E*"):
            report += [dynamic_overview(rows, modulus, "peak_normal_force_N", "F_max (N)", 1, 6), "",
                       dynamic_overview(rows, modulus, "contact_duration_s", "t_c (us)", 1e6, 5), "",
                       dynamic_overview(rows, modulus, "max_approach_m", "delta_max (um)", 1e6, 5), "",
                       dynamic_overview(rows, modulus, "e_newton", "e", 1, 5), ""]
    if fem_laws or fem_impacts:
        report += ["## Against the converged FEM", ""]
        if fem_laws:
            report += [fem_static_verdict(rebound, fem_laws), ""]
        if fem_impacts:
            report += [fem_dynamic_verdict(rows, fem_impacts)]
        if 0.5 in fem_runs:
            histories["FEM (elastic, finest mesh)"] = fem_history(fem_runs[0.5])
    written = figures(static, fem_laws, histories, out)
    elapsed = time.time() - start
    report += [f"Run time: {elapsed:.0f} s ({static_seconds:.0f} s static laws).", ""]
    text = "\n".join(report)
    with open(os.path.join(out, "socket-study.md"), "w") as stream:
        stream.write(text)
    print(text)
    print("written:", ", ".join(os.path.relpath(p, ROOT) for p in
                                [os.path.join(out, "socket-study.md"), os.path.join(out, "dynamic.csv"),
                                 os.path.join(out, "static_convergence.csv")] + written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
