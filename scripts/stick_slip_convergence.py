#!/usr/bin/env python3
"""The converged FEM answer of the stick-slip range, with error bars.

For the Table 6.1 sphere (cases/sphere-lai-psi2.json: aluminium, D = 0.1 m, v_n = 0.5 m/s,
nu = 0.3) at Psi1 = 0.5, 1, 2, 3, 4 with mu = 0.1 and in full stick (mu = 1000, the tangential speed
of Psi1 = 2 at mu = 0.1), the FEM at p = 2 is run by `rebound refine` along two series:

  contact  fem.contact_resolution 1.5, 3, 6 (and 12 with --finest): every step halves h_contact,
           the size of the cells within the Hertz radius a_max (the script checks it did);
  global   fem.refinement 0, 1, 2 at the case's contact resolution: every step halves h_max,
           the cells away from the contact.

refine's refinement.json gives, per series and quantity, the observed order and the Richardson
value with its error estimate |q_R - q_finest|. The error bar quoted for the FEM is that error
estimate of the contact series plus the spread of the global series (max - min over its three
runs) -- the far field is not in the asymptotic range of a power law (see the table's status),
so its whole spread is counted. The lumped and half-space models on the same case (Lai, the MDR
bed, the half-space model with and without the Dundurs coupling) are the references.

Writes OUT/<condition>/{contact,global}/ (refine's folders), OUT/lumped/<condition>-<model>.json,
OUT/convergence.csv (one row per condition, series and quantity) and OUT/convergence.md (the
tables docs/FEM.md quotes). --resume reuses finished runs (refine --resume). Runs under
`mpirun -np RANKS` (default 2). About 45 min on 2 cores (70 min with --finest).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Psi1 = 2 (1 - nu) / (mu (2 - nu)) tan(alpha): the tangential speed of Psi1 = 2, mu = 0.1, nu = 0.3.
FULL_STICK_TANGENTIAL_SPEED = 2.0 * 0.1 * (2 - 0.3) / (2 * (1 - 0.3)) * 0.5

CONDITIONS = [
    ("psi1-0.5", {"friction": 0.1, "psi1": 0.5}),
    ("psi1-1", {"friction": 0.1, "psi1": 1.0}),
    ("psi1-2", {"friction": 0.1, "psi1": 2.0}),
    ("psi1-3", {"friction": 0.1, "psi1": 3.0}),
    ("psi1-4", {"friction": 0.1, "psi1": 4.0}),
    ("full-stick", {"friction": 1000.0, "tangential_speed": FULL_STICK_TANGENTIAL_SPEED}),
]
QUANTITIES = ["psi2", "e_newton", "tangential_impulse", "tangential_cor", "wt_over_vt"]


def contact_point_ratio(summary):
    """w_t/v_t: the contact point's tangential velocity after / before the impact."""
    return summary["contact_point_velocity_final"][0] / summary["contact_point_velocity_initial"][0]


def richardson(hs, qs):
    """Observed order and Richardson value of the last three (h decreasing), as studies/convergence.h
    for a constant ratio; status 'oscillating' when the differences change sign."""
    (h1, h2, h3), (q1, q2, q3) = hs[-3:], qs[-3:]
    d1, d2 = q1 - q2, q2 - q3
    if d1 * d2 <= 0:
        return {"status": "oscillating", "order": None, "extrapolated": None,
                "error_estimate": None}
    r = h2 / h3
    p = math.log(d1 / d2) / math.log(r)
    if p <= 0:
        return {"status": "differences grow", "order": p, "extrapolated": None,
                "error_estimate": None}
    q_r = q3 + (q3 - q2) / (r ** p - 1)
    return {"status": "ok", "order": p, "extrapolated": q_r, "error_estimate": abs(q_r - q3)}
LUMPED_MODELS = [
    ("lai", {"model": "lai"}),
    ("mdr", {"model": "mdr"}),
    ("halfspace-beta0", {"model": "halfspace", "dundurs_coupling": False}),
    ("halfspace-beta", {"model": "halfspace", "dundurs_coupling": True}),
]


def case_for(name, condition, degree):
    with open(os.path.join(ROOT, "cases", "sphere-lai-psi2.json")) as f:
        case = json.load(f)
    case["name"] = f"stick-slip-{name}"
    case["description"] = (f"Table 6.1 sphere, stick-slip convergence study: {name} "
                           "(scripts/stick_slip_convergence.py)")
    case["contact"]["friction"] = condition["friction"]
    impact = {"theta": 0.0, "normal_speed": 0.5, "spin": 0.0}
    if "psi1" in condition:
        impact["psi1"] = condition["psi1"]
    else:
        impact["tangential_speed"] = condition["tangential_speed"]
    case["impact"] = impact
    case["fem"] = {"degree": degree}
    return case


def write_json(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


def run(cmd):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    status = subprocess.call(cmd)
    if status == 130:
        sys.exit("interrupted: rerun with --resume to continue from the finished runs")
    return status


def lumped_value(rebound, case, model_name, model, out):
    path = os.path.join(out, "lumped", f"{case['name']}-{model_name}.json")
    if not os.path.exists(path):
        c = json.loads(json.dumps(case))
        c["lumped"] = model
        c.pop("fem", None)
        with tempfile.TemporaryDirectory() as tmp:
            case_path = os.path.join(tmp, "case.json")
            write_json(case_path, c)
            text = subprocess.run([rebound, "lumped", case_path, "--json", "--no-plots", "-o",
                                   tmp], check=True, capture_output=True, text=True).stdout
        write_json(path, json.loads(text))
    with open(path) as f:
        return json.load(f)


def fmt(x, digits=4, sign="+"):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    return f"{x:{sign}.{digits}f}" if abs(x) < 10 else f"{x:.{digits}g}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "results", "stick-slip-convergence"))
    p.add_argument("--rebound", default=os.path.join(ROOT, "build", "bin", "rebound"))
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--degree", type=int, default=2)
    p.add_argument("--conditions", default=",".join(n for n, _ in CONDITIONS),
                   help="comma-separated subset of " + ", ".join(n for n, _ in CONDITIONS))
    p.add_argument("--contact-resolutions", default="1.5,3,6")
    p.add_argument("--refinements", default="0..2")
    p.add_argument("--finest", default="",
                   help="conditions (comma-separated) whose contact series also runs "
                        "resolution 12 (about 30 min each on 2 cores)")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--tables-only", action="store_true",
                   help="only collect the tables from the finished studies")
    args = p.parse_args()

    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    chosen = args.conditions.split(",")
    unknown = [c for c in chosen if c not in dict(CONDITIONS)]
    if unknown:
        sys.exit(f"--conditions: unknown {unknown}; expected some of {[n for n, _ in CONDITIONS]}")
    finest = [c for c in args.finest.split(",") if c]
    mpi = ["mpirun", "-np", str(args.ranks)] if args.ranks > 1 else []
    failed = False
    rows = []
    for name, condition in CONDITIONS:
        if name not in chosen:
            continue
        case = case_for(name, condition, args.degree)
        case_path = os.path.join(args.out, name, "case.json")
        write_json(case_path, case)
        resolutions = args.contact_resolutions + (",12" if name in finest else "")
        series = {
            "contact": ["--contact-resolutions", resolutions],
            "global": ["--refinements", args.refinements],
        }
        studies = {}
        for label, option in series.items():
            folder = os.path.join(args.out, name, label)
            if not args.tables_only:
                cmd = mpi + [args.rebound, "refine", case_path, *option, "-o", folder, "-q",
                             "--no-plots"]
                if args.resume or os.path.exists(os.path.join(folder, "refinement.csv")):
                    cmd.append("--resume")
                failed |= run(cmd) != 0
            with open(os.path.join(folder, "refinement.json")) as f:
                studies[label] = json.load(f)
        lumped = {m: lumped_value(args.rebound, case, m, model, args.out)
                  for m, model in LUMPED_MODELS}
        for label, study in studies.items():
            runs = study["runs"]
            hs = [r["h_contact" if label == "contact" else "h_max"] for r in runs]
            for a, b in zip(hs, hs[1:]):
                if not b < 0.9 * a:
                    sys.exit(f"{name} {label}: h did not decrease ({hs}): not a refinement")
            conv = dict(study["series"][0]["convergence"])
            ratios = []
            for r in runs:
                with open(os.path.join(r["directory"], "summary.json")) as f:
                    ratios.append(contact_point_ratio(json.load(f)))
            conv["wt_over_vt"] = {"values": ratios, **(richardson(hs, ratios) if len(runs) >= 3
                                                       else {"status": "too few runs", "order": None,
                                                             "extrapolated": None,
                                                             "error_estimate": None})}
            for m, _ in LUMPED_MODELS:
                lumped[m]["wt_over_vt"] = contact_point_ratio(lumped[m])
            for q in QUANTITIES:
                c = conv[q]
                rows.append({
                    "condition": name, "series": label, "quantity": q,
                    "h_m": " ".join(f"{h:.4g}" for h in hs),
                    "dofs": " ".join(str(int(r["dofs"])) for r in runs),
                    "values": " ".join(f"{v:.6g}" if v is not None else "nan"
                                       for v in c["values"]),
                    "status": c["status"], "order": c["order"],
                    "richardson": c["extrapolated"], "error_estimate": c["error_estimate"],
                    "spread": (max(c["values"]) - min(c["values"]))
                    if None not in c["values"] else None,
                    **{m: lumped[m].get(q) for m, _ in LUMPED_MODELS},
                })
    with open(os.path.join(args.out, "convergence.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    write_tables(rows, args.out)
    return 1 if failed else 0


def write_tables(rows, out):
    by = {(r["condition"], r["series"], r["quantity"]): r for r in rows}
    conditions = list(dict.fromkeys(r["condition"] for r in rows))
    lines = ["# Stick-slip convergence (FEM p = 2)", "",
             "Generated by `python3 scripts/stick_slip_convergence.py`.", ""]
    for q in QUANTITIES:
        lines += [f"## {q}", "",
                  "| condition | contact series h_contact (m) | values | order | Richardson ± error |"
                  " global series spread (max − min) | FEM value ± bar | Lai | MDR | half-space β = 0 |"
                  " half-space β | FEM − half-space β |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        d = 6 if q == "e_newton" else 4  # e differs from 1 in the fourth digit
        for cnd in conditions:
            c, g = by.get((cnd, "contact", q)), by.get((cnd, "global", q))
            if c is None:
                continue
            value, bar = fem_value(c, g)
            diff = value - c["halfspace-beta"] if value is not None and c["halfspace-beta"] is not None else None
            lines.append(
                f"| {cnd} | {c['h_m']} | {c['values']} | "
                f"{fmt(c['order'], 2) if c['status'] == 'ok' else c['status']} | "
                f"{fmt(c['richardson'], d)} ± {fmt(c['error_estimate'], d, sign='')} | "
                f"{fmt(g['spread'], d, sign='') if g else '—'} | "
                f"{fmt(value, d)} ± {fmt(bar, d, sign='')} | {fmt(c['lai'], d)} | "
                f"{fmt(c['mdr'], d)} | {fmt(c['halfspace-beta0'], d)} | "
                f"{fmt(c['halfspace-beta'], d)} | {fmt(diff, d)} |")
        lines.append("")
    with open(os.path.join(out, "convergence.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


def fem_value(contact, global_):
    """The FEM's value and error bar: Richardson's value of the contact series with its error
    estimate plus the global series' spread; the finest run and the last difference of the
    contact series when it has no order."""
    vals = [float(v) for v in contact["values"].split()]
    if contact["status"] == "ok":
        value, bar = contact["richardson"], contact["error_estimate"]
    else:
        value, bar = vals[-1], abs(vals[-1] - vals[-2])
    if global_ and global_["spread"] is not None:
        bar += global_["spread"]
    return value, bar


if __name__ == "__main__":
    sys.exit(main())
