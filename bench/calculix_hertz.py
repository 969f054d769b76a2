#!/usr/bin/python3
"""rebound's explicit FEM beside CalculiX (ccx) on the same Hertz impact, same mesh, same cores.

    /usr/bin/python3 bench/calculix_hertz.py [--case cases/hertz-steel-sphere.json]
        [--degrees 1,2] [--penalty 10[,100...]] [--penalty2 F,...] [--massless-probe]
        [--cores 2] [--build build] [--out DIR]

For each degree p (1: C3D8, 2: C3D20) the script
  1. writes the case with fem.degree = p and exports its mesh with
     `rebound mesh CASE --inp body.inp --degree p` (meshes::write_inp: the triangulation that
     `rebound fem` uses, hanging nodes tied by *EQUATION, the contact surface SCONTACT, material,
     initial velocity);
  2. runs `mpirun -np CORES rebound fem CASE` (wall time of the whole process);
  3. writes a CalculiX deck around body.inp: the rigid plane y = 0 as one C3D8 block under the
     contact zone whose nodes are all fixed (its top face the master surface), node-to-surface
     penalty contact (*CONTACT PAIR, TYPE=NODE TO SURFACE; PRESSURE-OVERCLOSURE=LINEAR, slope
     K = f E*/a_max for each --penalty factor f) and *DYNAMIC, EXPLICIT up to rebound's end time,
     printing the total reaction of the plane's nodes (the contact force) every increment; runs it
     with OMP_NUM_THREADS=CORES (ccx uses threads, not MPI);
  4. reads the contact force histories and prints one table: code, element, dofs, steps or
     increments, wall time, contact duration and peak force errors against Hertz, and the ratio of
     wall times rebound / CalculiX for the same degree.

Contact duration and peak force are taken the same way for both codes: a sample of the force at t_k
stands for [t_k - dt_k/2, t_k + dt_k/2]; the duration runs from the first to the last sample with a
compressive force (> 1e-6 of Hertz's peak); the peak is the maximum of the force smoothed by a
centred difference of the cumulative impulse over +-1 % of the duration (rebound's own definition,
docs/FEM.md); the raw maximum is printed too. Both are also compared with Hertz's values for the
discrete body's own mass m_h (t_c ~ m^(2/5), F_max ~ m^(3/5)): rebound's lumped total mass, and
density x the deck's element volumes for ccx (C3D8's body is the p = 1 FEM's; C3D20's is the
serendipity interpolant of the p = 2 FEM's).

Exits with status 1 and the reason when ccx or rebound fails (missing program, non-zero exit, an
*ERROR in ccx's output, no contact force in its output). Long runs are started with `nice -n 10`.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BenchError(Exception):
    pass


def load_json_with_comments(path):
    text = open(path).read()
    # the case files allow // comments outside strings
    lines = []
    for line in text.splitlines():
        out, in_string, i = [], False, 0
        while i < len(line):
            ch = line[i]
            if ch == '"' and (i == 0 or line[i - 1] != "\\"):
                in_string = not in_string
            if not in_string and line.startswith("//", i):
                break
            out.append(ch)
            i += 1
        lines.append("".join(out))
    return json.loads("\n".join(lines))


def run(command, cwd=None, env=None, log=None):
    """Runs a command, returns (wall seconds, stdout); raises BenchError on a non-zero exit."""
    start = time.monotonic()
    try:
        result = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
    except OSError as error:
        raise BenchError("cannot start %s: %s" % (command[0], error))
    wall = time.monotonic() - start
    if log:
        with open(log, "w") as f:
            f.write(result.stdout)
    if result.returncode != 0:
        tail = "\n".join(result.stdout.splitlines()[-25:])
        how = ("was killed by signal %d" % -result.returncode if result.returncode < 0 else
               "exited with status %d" % result.returncode)
        raise BenchError("%s %s%s:\n%s" % (" ".join(command), how,
                                            " (log: %s)" % log if log else "", tail))
    return wall, result.stdout


def contact_measures(times, forces, threshold):
    """Duration and peaks of a sampled contact force history (see the module's docstring)."""
    n = len(times)
    if n < 2:
        return None
    dt = [0.0] * n
    for k in range(n):
        lo, hi = max(0, k - 1), min(n - 1, k + 1)
        dt[k] = (times[hi] - times[lo]) / (hi - lo)
    contact = [k for k in range(n) if forces[k] > threshold]
    if not contact:
        return None
    first, last = contact[0], contact[-1]
    duration = (times[last] + dt[last] / 2) - (times[first] - dt[first] / 2)
    impulse = [0.0] * n
    for k in range(n):
        impulse[k] = (impulse[k - 1] if k else 0.0) + forces[k] * dt[k]
    half = 0.01 * duration
    peak_smoothed, lo, hi = 0.0, 0, 0
    for k in range(n):
        while times[lo] < times[k] - half:
            lo += 1
        while hi + 1 < n and times[hi + 1] <= times[k] + half:
            hi += 1
        if hi > lo:
            peak_smoothed = max(peak_smoothed,
                                (impulse[hi] - impulse[lo]) / (times[hi] - times[lo]))
    return {"duration": duration, "peak": peak_smoothed, "peak_raw": max(forces),
            "first": times[first], "last": times[last], "impulse": impulse[-1]}


def read_ccx_forces(dat_file, node_set, partial=False):
    """Time and y component of '*NODE PRINT, TOTALS=ONLY' of RF for the set, every increment
    (partial: the file of a run that died, whose last block may be cut)."""
    header = re.compile(r"total force \(fx,fy,fz\) for set %s and time\s+(\S+)" % node_set,
                        re.IGNORECASE)
    times, forces = [], []

    def number(text):
        # Fortran drops the E of three-digit exponents: 1.234567-113
        return float(re.sub(r"(\d)([+-]\d{3})$", r"\1E\2", text))

    expect_values = False
    with open(dat_file) as f:
        for line in f:
            m = header.search(line)
            if m:
                times.append(number(m.group(1)))
                expect_values = True
                continue
            if expect_values and line.strip():
                forces.append(number(line.split()[1]))
                expect_values = False
    if partial:
        times = times[:len(forces)]
    if len(forces) != len(times):
        raise BenchError("%s: %d times but %d force lines" % (dat_file, len(times), len(forces)))
    return times, forces


def body_counts(inp_file):
    counts = {}
    with open(inp_file) as f:
        for line in f:
            if not line.startswith("**"):
                break
            m = re.match(r"\*\* (\d+) nodes \(1\.\.\d+\), (\d+) elements", line)
            if m:
                counts["nodes"], counts["elements"] = int(m.group(1)), int(m.group(2))
            m = re.match(r"\*\* (\d+) hanging nodes", line)
            if m:
                counts["hanging"] = int(m.group(1))
            m = re.match(r"\*\* SCONTACT: (\d+) boundary faces within (\S+) m", line)
            if m:
                counts["contact_faces"] = int(m.group(1))
                counts["contact_radius"] = float(m.group(2))
    if "nodes" not in counts or "contact_radius" not in counts:
        raise BenchError("%s: no rebound header (nodes, elements, SCONTACT)" % inp_file)
    return counts


def massless_slave_faces(body_inp):
    """SCONTACT's C3D8 faces without a hanging node (massless contact rejects slave nodes with an
    *EQUATION)."""
    corners = {1: (0, 1, 2, 3), 2: (4, 7, 6, 5), 3: (0, 4, 5, 1), 4: (1, 5, 6, 2), 5: (2, 6, 7, 3),
               6: (3, 7, 4, 0)}
    elements, hanging, faces, block = {}, set(), [], None
    with open(body_inp) as f:
        for line in f:
            if line.startswith("**"):
                continue
            if line.startswith("*"):
                upper = line.upper().replace(" ", "")
                block = ("element" if upper.startswith("*ELEMENT") else
                         "hang" if upper.startswith("*NSET,NSET=NHANG") else
                         "surface" if upper.startswith("*SURFACE,NAME=SCONTACT") else None)
                if block == "element" and "TYPE=C3D8," not in upper + ",":
                    raise BenchError("the massless probe needs C3D8 (--degrees 1)")
                continue
            fields = [x.strip() for x in line.split(",") if x.strip()]
            if block == "element":
                elements[int(fields[0])] = [int(x) for x in fields[1:9]]
            elif block == "hang":
                hanging.update(int(x) for x in fields)
            elif block == "surface":
                faces.append((int(fields[0]), int(fields[1][1:])))
    return [(e, label) for e, label in faces
            if not any(elements[e][k] in hanging for k in corners[label])]


def force_set(contact):
    """The node set whose total reaction is the contact force (massless: the block's bottom)."""
    return "NPLANEFIX" if contact == "massless" else "NPLANE"


def write_ccx_deck(path, body_inp, counts, material, penalty_slope, end_time, half_width,
                   contact="penalty"):
    """The analysis around the exported body: the plane, the contact, the explicit step.

    contact "penalty": node-to-surface, LINEAR pressure-overclosure with slope penalty_slope, the
    plane's block fixed. contact "massless" (the probe): ccx's hard contact for explicit dynamics,
    which rejects SPCs on master nodes, so the block's top nodes are free and only its bottom is
    fixed; the block has 1000 E and 1000 rho (the same wave speed, 1000 times the impedance)."""
    n0, e0 = counts["nodes"], counts["elements"]
    w = half_width
    # Abaqus C3D8 order (right-handed in x, y, z); the top face y = 0 is S5 (nodes 3-7-8-4)
    corners = [(-w, -w, -w), (w, -w, -w), (w, 0, -w), (-w, 0, -w),
               (-w, -w, w), (w, -w, w), (w, 0, w), (-w, 0, w)]
    E, nu, rho = material["young_modulus"], material["poisson_ratio"], material["density"]
    lines = [
        "*HEADING",
        "rebound bench/calculix_hertz.py: the exported body on the rigid plane y = 0",
        "*INCLUDE, INPUT=%s" % body_inp,
        "** the rigid plane: one C3D8 block under the contact zone, every node fixed;",
        "** its top face y = 0 is the master surface",
        "*NODE, NSET=NPLANE",
    ]
    lines += ["%d, %.14g, %.14g, %.14g" % ((n0 + 1 + i,) + c) for i, c in enumerate(corners)]
    lines += [
        "*ELEMENT, TYPE=C3D8, ELSET=EPLANE",
        "%d, %s" % (e0 + 1, ", ".join(str(n0 + 1 + i) for i in range(8))),
        "*NSET, NSET=NPLANEFIX",
        ", ".join(str(n0 + 1 + i) for i in (0, 1, 4, 5)),
        "*MATERIAL, NAME=PLANE",
        "*ELASTIC",
        "%.14g, %.14g" % (E * (1000 if contact == "massless" else 1), nu),
        "*DENSITY",
        "%.14g" % (rho * (1000 if contact == "massless" else 1)),
        "*SOLID SECTION, ELSET=EPLANE, MATERIAL=PLANE",
        "*SURFACE, NAME=SPLANE, TYPE=ELEMENT",
        "%d, S5" % (e0 + 1),
        "*BOUNDARY",
        "%s, 1, 3" % ("NPLANEFIX" if contact == "massless" else "NPLANE"),
    ]
    if contact == "massless":
        faces = massless_slave_faces(body_inp)
        lines += ["** massless (hard) contact; slave: SCONTACT's faces without hanging nodes",
                  "*SURFACE, NAME=SMASSLESS, TYPE=ELEMENT"]
        lines += ["%d, S%d" % face for face in faces]
        lines += [
            "*SURFACE INTERACTION, NAME=HARD",
            "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=HARD",
            "*CONTACT PAIR, INTERACTION=HARD, TYPE=MASSLESS",
            "SMASSLESS, SPLANE",
        ]
    else:
        lines += [
            "** penalty contact: pressure = K x penetration; tension at large clearance 1 Pa,",
            "** c0 1 mm",
            "*SURFACE INTERACTION, NAME=PENALTY",
            "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR",
            "%.14g, 1., 1.e-3" % penalty_slope,
            "*CONTACT PAIR, INTERACTION=PENALTY, TYPE=NODE TO SURFACE",
            "SCONTACT, SPLANE",
        ]
    lines += [
        "*STEP, NLGEOM=NO, INC=100000000",
        "** explicit central differences with the lumped mass; ccx picks the stable increment",
        "** (the element Courant limit and the contact springs' limit); the first value is only",
        "** the increment below which ccx would soften the springs (Selective Spring Scaling)",
        "*DYNAMIC, EXPLICIT",
        "1.e-15, %.14g" % end_time,
        "** the contact force: the total reaction of the plane's fixed nodes",
        "*NODE PRINT, NSET=%s, TOTALS=ONLY" % force_set(contact),
        "RF",
        "*END STEP",
    ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def machine_description():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores online" % (cpu, os.cpu_count() or 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", default=os.path.join(ROOT, "cases/hertz-steel-sphere.json"))
    parser.add_argument("--degrees", default="1,2", help="comma list of 1 (C3D8) and 2 (C3D20)")
    parser.add_argument("--penalty", default="10",
                        help="comma list of factors f: ccx's contact slope K = f E*/a_max")
    parser.add_argument("--penalty2", default=None,
                        help="the factors for p = 2 (C3D20) if they differ from --penalty")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results/calculix-hertz"))
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--massless-probe", action="store_true",
                        help="also try ccx's massless (hard) contact for p = 1 and report the "
                             "outcome in the table")
    args = parser.parse_args()

    degrees = [int(d) for d in args.degrees.split(",")]
    factors = {1: [float(f) for f in args.penalty.split(",")]}
    factors[2] = [float(f) for f in args.penalty2.split(",")] if args.penalty2 else factors[1]
    rebound = os.path.join(args.build, "bin/rebound")
    ccx = shutil.which("ccx")
    mpirun = shutil.which("mpirun")
    for name, path in (("ccx", ccx), ("mpirun", mpirun)):
        if not path:
            raise BenchError("%s not found (Debian: apt-get install %s; scripts/install-deps.sh)"
                             % (name, "calculix-ccx" if name == "ccx" else "openmpi-bin"))
    if not os.access(rebound, os.X_OK):
        raise BenchError("%s not found: build first (cmake --build build)" % rebound)
    ccx_version = subprocess.run([ccx, "-v"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True).stdout.strip().splitlines()
    ccx_version = next((l.strip() for l in ccx_version if "Version" in l), "unknown")
    os.makedirs(args.out, exist_ok=True)
    nice = ["nice", "-n", str(args.nice)] if args.nice else []
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

    case = load_json_with_comments(args.case)
    check = json.loads(run([rebound, "check", args.case, "--json"])[1])
    hertz = (check[0] if isinstance(check, list) else check)["hertz"]
    e_star, a_max = hertz["contact_modulus"], hertz["contact_radius"]
    print("case %s: Hertz duration %.6g s, peak force %.6g N, a_max %.6g m, E* %.6g Pa"
          % (args.case, hertz["duration"], hertz["peak_force"], a_max, e_star))
    threshold = 1e-6 * hertz["peak_force"]
    load_before = os.getloadavg()

    rows = []
    for p in degrees:
        work = os.path.abspath(os.path.join(args.out, "p%d" % p))
        os.makedirs(work, exist_ok=True)
        case_p = json.loads(json.dumps(case))
        case_p.setdefault("fem", {})["degree"] = p
        case_file = os.path.join(work, "case.json")
        with open(case_file, "w") as f:
            json.dump(case_p, f, indent=2)
        body = os.path.join(work, "body.inp")
        run([rebound, "mesh", case_file, "-o", work, "--inp", body, "--degree", str(p)],
            log=os.path.join(work, "mesh.log"))
        counts = body_counts(body)
        m = re.search(r"volume \(written nodes\)\s+(\S+)\s+exact\s+(\S+)",
                      open(os.path.join(work, "mesh.log")).read())
        if not m:
            raise BenchError("rebound mesh printed no deck volume (%s)"
                             % os.path.join(work, "mesh.log"))
        deck_mass_ratio = float(m.group(1)) / float(m.group(2))  # = the C3D8/C3D20 body's mass / m

        print("p = %d: rebound fem on %d rank(s) ..." % (p, args.cores), flush=True)
        wall, _ = run(nice + [mpirun, "-np", str(args.cores), rebound, "fem", case_file, "-o",
                              os.path.join(work, "rebound"), "--frames", "0", "--quiet"],
                      env=env, log=os.path.join(work, "rebound.log"))
        summary = json.load(open(os.path.join(work, "rebound/fem/summary.json")))
        if summary.get("status") != "completed":
            raise BenchError("rebound fem: status %s (%s)" % (summary.get("status"),
                                                            summary.get("message", "")))
        rows.append({
            "code": "rebound (mpirun -np %d)" % args.cores,
            "element": "FE_Q(%d)" % p, "degree": p, "dofs": summary["dofs"],
            "steps": summary["steps"], "dt": summary["time_step"], "wall": wall,
            "duration": summary["contact_duration"], "peak": summary["peak_normal_force"],
            "peak_raw": summary["peak_normal_force_raw"], "contact": "kinematic (hard)",
            "mass_ratio": summary["total_mass_lumped"] / summary["total_mass_exact"],
        })
        end_time = summary["end_time"]

        runs = [("penalty", f) for f in factors[p]]
        if args.massless_probe and p == 1:
            runs.append(("massless", None))
        for contact, factor in runs:
            run_dir = os.path.join(work, "ccx-f%g" % factor if factor else "ccx-massless")
            os.makedirs(run_dir, exist_ok=True)
            for stale in ("hertz.dat", "hertz.frd", "hertz.sta", "hertz.cvg"):
                if os.path.exists(os.path.join(run_dir, stale)):
                    os.remove(os.path.join(run_dir, stale))
            write_ccx_deck(os.path.join(run_dir, "hertz.inp"), body, counts, case["material"],
                           factor * e_star / a_max if factor else 0, end_time,
                           1.5 * counts["contact_radius"], contact)
            label = ("penalty K = %g E*/a_max" % factor if factor else
                     "massless (hard; probe, block 1000 E, 1000 rho)")
            print("p = %d: ccx, %s, %d thread(s) ..." % (p, label, args.cores), flush=True)
            ccx_env = dict(env, OMP_NUM_THREADS=str(args.cores))
            log = os.path.join(run_dir, "ccx.log")
            row = {"code": "CalculiX %s" % ccx_version.split()[-1],
                   "element": ("C3D8" if p == 1 else "C3D20"), "degree": p,
                   "dofs": 3 * (counts["nodes"] + 8), "contact": label,
                   "mass_ratio": deck_mass_ratio}
            try:
                wall, output = run(nice + [ccx, "-i", "hertz"], cwd=run_dir, env=ccx_env, log=log)
                if "*ERROR" in output or "Job finished" not in output:
                    error = [l.strip() for l in output.splitlines() if "ERROR" in l]
                    raise BenchError("ccx failed (log: %s): %s" % (
                        log, "; ".join(error[:3]) or "no 'Job finished'"))
                times, forces = read_ccx_forces(os.path.join(run_dir, "hertz.dat"),
                                                force_set(contact))
                measures = contact_measures(times, forces, threshold)
                if measures is None:
                    raise BenchError("ccx: no contact force in %s" %
                                     os.path.join(run_dir, "hertz.dat"))
            except BenchError as error:
                if contact != "massless":
                    raise
                # the probe's outcome is the measurement: report it in the table
                message = str(error).splitlines()[0]
                m = re.search(r"(killed by signal \d+|exited with status \d+)", message)
                row["failed"] = "ccx " + (m.group(1) if m else message[:120])
                dat = os.path.join(run_dir, "hertz.dat")
                if os.path.exists(dat):
                    times, forces = read_ccx_forces(dat, force_set(contact), partial=True)
                    big = [k for k, f in enumerate(forces) if abs(f) > 10 * hertz["peak_force"]]
                    if big:
                        row["failed"] = ("diverged: abs(force) > 10 x Hertz's peak from "
                                         "increment %d (t = %.3g s), %.3g N at increment %d; "
                                         "then %s" % (
                                             big[0] + 1, times[big[0]], max(map(abs, forces)),
                                             len(forces), row["failed"]))
                print("p = %d: massless probe: %s" % (p, row["failed"]), flush=True)
                rows.append(row)
                continue
            if "Selective Spring Scaling is active" in output:
                row["contact"] += ", springs scaled"
            m = re.search(r"Using up to (\d+) cpu\(s\) for the stress calculation", output)
            row["code"] += " (%s threads)" % (m.group(1) if m else "?")
            row.update({
                "steps": len(times), "dt": (times[-1] - times[0]) / max(1, len(times) - 1),
                "wall": wall, "duration": measures["duration"], "peak": measures["peak"],
                "peak_raw": measures["peak_raw"]})
            rows.append(row)
            with open(os.path.join(run_dir, "force.csv"), "w") as f:
                f.write("time,contact_force\n")
                f.writelines("%.10g,%.10g\n" % tf for tf in zip(times, forces))

    # the table
    print()
    print("%s, %s; %s; load average before %.2f %.2f %.2f" % (
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        machine_description(), ccx_version, *load_before))
    print("Hertz: duration %.6g s, peak force %.6g N" % (hertz["duration"], hertz["peak_force"]))
    print()
    print("| code | element | contact | dofs | steps | mean dt [s] | wall [s] | duration vs Hertz "
          "| peak force vs Hertz | peak (raw) vs Hertz | body mass vs exact | duration vs Hertz "
          "(body's mass) | peak vs Hertz (body's mass) | wall rebound / CalculiX |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        if "failed" in row:
            print("| %s | %s | %s | %d | failed: %s | | | | | | | | | |" % (
                row["code"], row["element"], row["contact"], row["dofs"], row["failed"]))
            continue
        reference = next(r for r in rows if r["degree"] == row["degree"] and
                         r["code"].startswith("rebound"))
        ratio = "-" if row is reference else "%.3g" % (reference["wall"] / row["wall"])
        # Hertz for the discrete body's own mass: t_c ~ m^(2/5), F_max ~ m^(3/5)
        q = row["mass_ratio"]
        print("| %s | %s | %s | %d | %d | %.3g | %.1f | %+.2f %% | %+.2f %% | %+.2f %% | %+.2f %% "
              "| %+.2f %% | %+.2f %% | %s |" % (
                  row["code"], row["element"], row["contact"], row["dofs"], row["steps"],
                  row["dt"], row["wall"], 100 * (row["duration"] / hertz["duration"] - 1),
                  100 * (row["peak"] / hertz["peak_force"] - 1),
                  100 * (row["peak_raw"] / hertz["peak_force"] - 1), 100 * (q - 1),
                  100 * (row["duration"] / (hertz["duration"] * q ** 0.4) - 1),
                  100 * (row["peak"] / (hertz["peak_force"] * q ** 0.6) - 1), ratio))
    with open(os.path.join(args.out, "table.json"), "w") as f:
        json.dump({"case": args.case, "hertz": hertz, "rows": rows, "ccx": ccx_version,
                   "cores": args.cores}, f, indent=2)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        print("calculix_hertz: error: %s" % error, file=sys.stderr)
        sys.exit(1)
