#!/usr/bin/env python3
"""The FEM's elastic spherical socket against the rigid socket with the same pair modulus, Hertz's
law and Wang & Gao's (docs/FEM.md, "An elastic spherical socket").

    PYTHONPATH=build/python /usr/bin/python3 scripts/elastic_socket.py [--build build]
        [--out results/elastic-socket]

From cases/socket-wang-gao-0.1mm-steel.json (Wang & Gao's 1 kg steel ball, R2 = 50 mm, in their
steel socket R1 = 50.1 mm, head-on at 0.3 m/s, frictionless; the FEM's shell held at R_o =
110 mm) the script runs `rebound fem CASE -o OUT/<run> -q --frames 0`, FE_Q(2), for
  * the elastic socket at fem.contact_resolution 1.5, 3 and 6 (the ball's and the socket's
    contact cells halving; the mesh series, with the observed order and Richardson's value of
    each quantity; the dofs and the ball's contact cell size are checked to change);
  * the rigid socket (no target.material) struck by a ball of half the modulus, E/2 with the
    same nu and density, at the same resolutions: the pair's E* = E / (2 (1 - nu^2)), the mass and
    the geometry are the elastic socket's, so the two differ only in where the compliance lies
    (shared between the ball and the socket, or all in the ball) and in the socket's mass and
    held outer surface;
  * the elastic socket with its outer surface at R_o = 160 mm (resolution 3): whether the held
    outer surface changes the impact; both walls again at fem.refinement 2 (every cell halved,
    the far wall's included): whether that change is the wall's or its coarse far cells';
  * the elastic socket with its gap measured from the facets' chords instead of its exact inner
    sphere is not run here: it is the branch experiment/socket-chord-gap (docs/FEM.md).
Beside them the lumped model's elastic laws with the pair's E* (rebound.lumped, normal_law hertz
with R_eff = R1 R2 / dR, and wang-gao n = 2 without damping). For each run: the contact duration
t_c, the peak force F_max, Newton's e, the share of the impact energy in the socket at the end and
the energy balance.

A finished run (its summary.json beside the same case.json) is reused. Writes OUT/runs.csv and
OUT/elastic-socket.md (the table docs/FEM.md quotes). About 15 minutes on 2 cores.
Exits 1 when a run fails, 2 for bad arguments.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fem_runs import read_json, run_reusing, write_study  # noqa: E402 (this script's folder)
from stick_slip_convergence import richardson  # noqa: E402

try:
    import rebound
except ImportError as error:
    sys.exit(f"elastic_socket.py: {error}; build the Python module and set PYTHONPATH=build/python "
             "(docs/PYTHON.md)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESOLUTIONS = [1.5, 3, 6]
# (name, target: "elastic" or "rigid", contact resolution, outer radius m, fem.refinement or None
# for the case's default, 1)
RUNS = [(f"elastic-r{r:g}", "elastic", r, 0.11, None) for r in RESOLUTIONS] + \
       [(f"rigid-half-modulus-r{r:g}", "rigid", r, None, None) for r in RESOLUTIONS] + \
       [("elastic-outer160-r3", "elastic", 3, 0.16, None),
        ("elastic-refinement2-r3", "elastic", 3, 0.11, 2),
        ("elastic-outer160-refinement2-r3", "elastic", 3, 0.16, 2)]
QUANTITIES = [("contact_duration", "t_c (µs)", 1e6, ".3f"),
              ("peak_normal_force", "F_max (N)", 1.0, ".1f"),
              ("e_newton", "e", 1.0, ".6f")]


def case_of(base, name, target, resolution, outer_radius, refinement):
    case = json.loads(json.dumps(base))
    case["name"] = f"elastic-socket-{name}"
    case["description"] = f"scripts/elastic_socket.py run {name} of " \
                          "cases/socket-wang-gao-0.1mm-steel.json"
    if target == "elastic":
        case["target"]["outer_radius"] = outer_radius
    else:  # the rigid socket, the ball's modulus halved: the pair's E* unchanged
        case["target"] = {"type": "spherical_socket", "radius": base["target"]["radius"]}
        case["material"]["young_modulus"] = base["material"]["young_modulus"] / 2
    case["fem"] = {"degree": 2, "contact_resolution": resolution}
    if refinement is not None:
        case["fem"]["refinement"] = refinement
    return case


def lumped_laws(base):
    """The lumped model's elastic laws with the pair's E*: (name, summary)."""
    laws = []
    for name, lumped in [("Hertz, R_eff", {"model": "lai", "normal_law": "hertz"}),
                         ("Wang & Gao n = 2", {"model": "lai", "normal_law": "wang-gao",
                                               "polynomial_index": 2})]:
        case = json.loads(json.dumps(base))
        case["lumped"] = lumped
        laws.append((name, rebound.lumped(rebound.load_case(json.dumps(case)), history=False)))
    return laws


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=os.path.join(ROOT, "results", "elastic-socket"))
    args = p.parse_args()
    binary = os.path.join(args.build, "bin", "rebound")
    if not os.access(binary, os.X_OK):
        print(f"elastic_socket.py: no {binary}; build first (scripts/build.sh)", file=sys.stderr)
        return 2
    base = read_json(os.path.join(ROOT, "cases", "socket-wang-gao-0.1mm-steel.json"))
    rows, failed = {}, False
    for name, target, resolution, outer_radius, refinement in RUNS:
        s = run_reusing(binary, os.path.join(args.out, name),
                        case_of(base, name, target, resolution, outer_radius, refinement),
                        "elastic_socket.py")
        if s is None:
            failed = True
            continue
        initial = s["kinetic_energy_initial"]
        socket = (s.get("target_internal_energy_final", 0) +
                  s.get("target_kinetic_energy_final", 0)) / initial
        rows[name] = {"run": name, "target": target, "contact_resolution": resolution,
                      "outer_radius_m": outer_radius, "refinement": refinement or 1,
                      "dofs": s["dofs"],
                      "h_contact_m": s["mesh"]["h_contact"], "steps": s["steps"],
                      "wall_time_s": s["wall_time"], "contact_duration": s["contact_duration"],
                      "peak_normal_force": s["peak_normal_force"], "e_newton": s["e_newton"],
                      "socket_energy": socket,
                      "energy_balance_error": s["energy_balance_error"]}
    if not rows:
        sys.exit("elastic_socket.py: no finished runs")
    write_study(args.out, rows, "elastic-socket.md", tables(rows, lumped_laws(base)))
    return 1 if failed else 0


def series(rows, target):
    """The mesh series' runs of a target, coarse to fine, or None when one is missing; exits when
    the mesh did not change."""
    runs = [rows.get(f"{'elastic' if target == 'elastic' else 'rigid-half-modulus'}-r{r:g}")
            for r in RESOLUTIONS]
    if not all(runs):
        return None
    dofs = [r["dofs"] for r in runs]
    sizes = [r["h_contact_m"] for r in runs]
    if len(set(dofs)) != 3 or not all(a > b for a, b in zip(sizes, sizes[1:])):
        sys.exit(f"elastic_socket.py: the {target} series did not change the mesh (dofs {dofs}, "
                 f"contact cells {sizes})")
    return runs


def converged(runs, key, scale, form):
    """Richardson's value with its error and order, or the finest with the spread of the three."""
    hs = [r["h_contact_m"] for r in runs]
    qs = [r[key] * scale for r in runs]
    rich = richardson(hs, qs)
    if rich["status"] == "ok":
        return (rich["extrapolated"],
                f"{rich['extrapolated']:{form}} ± {rich['error_estimate']:.2g} "
                f"(order {rich['order']:.2f})")
    return qs[-1], f"{qs[-1]:{form}} ± {max(qs) - min(qs):.2g} (finest; spread, {rich['status']})"


def tables(rows, laws):
    lines = ["Generated by `PYTHONPATH=build/python python3 scripts/elastic_socket.py`.", "",
             "| run | R_o (mm) | fem.refinement | contact resolution | dofs | ball's contact cell "
             "(mm) | t_c (µs) | F_max (N) | e | socket's energy / impact's | energy balance |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        outer = f"{r['outer_radius_m'] * 1e3:g}" if r["outer_radius_m"] else "rigid"
        lines.append(
            f"| {name} | {outer} | {r['refinement']} | {r['contact_resolution']:g} | {r['dofs']} | "
            f"{r['h_contact_m'] * 1e3:.3f} | {r['contact_duration'] * 1e6:.3f} | "
            f"{r['peak_normal_force']:.1f} | {r['e_newton']:.6f} | {r['socket_energy']:.2e} | "
            f"{r['energy_balance_error']:.1e} |")
    elastic, rigid = series(rows, "elastic"), series(rows, "rigid")
    if elastic and rigid:
        lines += ["", "Converged (resolutions 1.5, 3, 6; Richardson's value ± its error, or the "
                  "finest run ± the spread of the three):", "",
                  "| quantity | elastic socket | rigid socket, ball E/2 | elastic / rigid |",
                  "|---|---|---|---|"]
        values = {}
        for key, label, scale, form in QUANTITIES:
            a, text_a = converged(elastic, key, scale, form)
            b, text_b = converged(rigid, key, scale, form)
            values[key] = a / scale
            lines.append(f"| {label} | {text_a} | {text_b} | {a / b:.4f} |")
        lines += ["", "The lumped model's elastic laws with the pair's E*, over the converged "
                  "elastic socket:", "", "| law | t_c | F_max |", "|---|---|---|"]
        for name, s in laws:
            lines.append(f"| {name} | {s['contact_duration'] / values['contact_duration']:.4f} | "
                         f"{s['peak_normal_force'] / values['peak_normal_force']:.4f} |")
    balance = [f"{name} {r['e_newton'] ** 2 + r['socket_energy'] - 1:+.1e}"
               for name, r in rows.items() if r["target"] == "elastic"]
    lines += ["", "e² + the socket's share of the impact energy − 1 (the ball's own vibration and "
              "the energy balance): " + ", ".join(balance) + "."]
    for suffix, label in [("r3", "fem.refinement 1"), ("refinement2-r3", "fem.refinement 2")]:
        a, b = rows.get(f"elastic-{suffix}"), rows.get(f"elastic-outer160-{suffix}")
        if a and b:
            lines += ["", f"Outer surface at 160 mm instead of 110 mm ({label}, resolution 3): "
                      f"t_c {(b['contact_duration'] / a['contact_duration'] - 1) * 100:+.3f} %, "
                      f"F_max {(b['peak_normal_force'] / a['peak_normal_force'] - 1) * 100:+.3f} %,"
                      f" e {b['e_newton'] - a['e_newton']:+.2e}."]
    return lines


if __name__ == "__main__":
    sys.exit(main())
