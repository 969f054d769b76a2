#!/usr/bin/env python3
"""A 10,000-point Psi1 sweep with Lai's model through the Python module and through the command
line, on the same machine in one run (docs/PERFORMANCE.md, "Python module").

    /usr/bin/python3 bench/python_sweep.py [--build build] [--points 10000] [--repeats 7]

Times are wall-clock medians of interleaved repeats (after one warm-up of each):
  CLI     `rebound sweep CASE --psi1 0.1:8:N -o TMP --quiet`: process start, case, sweep on the
          threads, sweep.csv written;
  Python  `rebound.sweep(CASE, psi1="0.1:8:N")` in a running interpreter: case, sweep on the
          threads, the columns as a pandas DataFrame (or a dict of numpy arrays);
  and both on one thread (--threads 1, threads=1), and the module in a new `python3 -c`
  process (interpreter start, `import rebound`, pandas, the sweep). Ratio: Python / CLI. The
  acceptance (issue: usability) is ratio <= 2 on all cores. The rows are checked equal (sweep.csv
  printed digits).
"""

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(SOURCE_DIR, "build"),
                        help="build folder with bin/rebound and python/rebound (default: build)")
    parser.add_argument("--case", default=os.path.join(SOURCE_DIR, "cases",
                                                       "sphere-lai-psi2.json"))
    parser.add_argument("--points", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=7)
    return parser.parse_args()


def median_wall(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    arguments = parse_arguments()
    build = os.path.abspath(arguments.build)
    sys.path.insert(0, os.path.join(build, "python"))
    import rebound

    binary = os.path.join(build, "bin", "rebound")
    spec = f"0.1:8:{arguments.points}"
    threads = os.cpu_count() or 1
    output = tempfile.mkdtemp(prefix="rebound-bench-")
    with open("/proc/loadavg") as stream:
        load = " ".join(stream.read().split()[:3])

    def cli(*extra):
        subprocess.run([binary, "sweep", arguments.case, "--psi1", spec, "-o", output, "--quiet",
                        *extra], check=True)

    def module(**options):
        return rebound.sweep(arguments.case, psi1=spec, **options)

    cold_script = ("import sys; sys.path.insert(0, sys.argv[1]); import rebound; "
                   "rebound.sweep(sys.argv[2], psi1=sys.argv[3])")

    def cold():
        subprocess.run([sys.executable, "-c", cold_script, os.path.join(build, "python"),
                        arguments.case, spec], check=True)

    rows = [
        (f"all cores ({threads} threads), DataFrame", lambda: cli(), lambda: module()),
        (f"all cores ({threads} threads), dict of numpy arrays", lambda: cli(),
         lambda: module(as_frame=False)),
        ("1 thread, DataFrame", lambda: cli("--threads", "1"), lambda: module(threads=1)),
        (f"new process: `python3 -c` (start, import, sweep; {threads} threads)", lambda: cli(),
         cold),
    ]
    for _, a, b in rows:  # warm-up: page cache, imports
        a()
        b()
    # Interleaved: each repeat times every row once, so load changes hit both columns alike.
    times = {label: ([], []) for label, _, _ in rows}
    for _ in range(arguments.repeats):
        for label, a, b in rows:
            times[label][0].append(median_wall(a, 1))
            times[label][1].append(median_wall(b, 1))

    # The same rows: sweep.csv's psi2 cells against the module's, printed as the CLI prints them.
    cli()
    with open(os.path.join(output, "sweep.csv")) as stream:
        cells = [row["psi2"] for row in csv.DictReader(stream)]
    frame = module()
    equal = cells == ["%.10g" % x for x in frame["psi2"]]

    print(f"{arguments.points}-point Psi1 sweep ({spec}), model {frame['model'][0]}, "
          f"{os.path.basename(arguments.case)}; median of {arguments.repeats}; "
          f"{threads} cores; load average before the run {load}")
    print()
    print("| run | CLI `rebound sweep` | Python `rebound.sweep` | ratio Python/CLI |")
    print("|---|---|---|---|")
    ratios = {}
    for label, _, _ in rows:
        a = statistics.median(times[label][0])
        b = statistics.median(times[label][1])
        ratios[label] = b / a
        print(f"| {label} | {a * 1e3:.0f} ms | {b * 1e3:.0f} ms | {b / a:.2f} |")
    print()
    print(f"rows equal to sweep.csv (psi2, 10 digits): {'yes' if equal else 'NO'}")
    shutil.rmtree(output, ignore_errors=True)
    first = rows[0][0]
    verdict = "met" if ratios[first] <= 2 and equal else "NOT met"
    print(f"acceptance (all cores, DataFrame: ratio <= 2): {verdict} ({ratios[first]:.2f})")
    return 0 if verdict == "met" else 1


if __name__ == "__main__":
    sys.exit(main())
