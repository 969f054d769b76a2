#!/usr/bin/env python3
"""The half-space model's FFTs: whole `rebound lumped` runs of this build (A, FFTW) against a
build of the last commit with Eigen's kissfft (B), taking turns A B A B ..., and the wall-time
ratio A/B of each pair with its median; Psi2 of both, to show the results moved by the solvers'
tolerances only. Prints one markdown table.

    python3 bench/halfspace_fft.py [--baseline-build DIR] [--runs CELLS:STEPS:PAIRS,...]

Without --baseline-build, commit d057942 (kissfft) is checked out into a temporary git worktree
and its command line alone built there without deal.II (about 1.5 min on 2 cores). Runs: the case
cases/sphere-lai-psi2.json with "lumped": {"model": "halfspace", "cells": CELLS, "time_steps":
STEPS}, --no-plots; default 24:100:5,64:400:2.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE_COMMIT = "d057942"


def parse_runs(text):
    runs = []
    for item in text.split(","):
        parts = item.split(":")
        try:
            cells, steps, pairs = (int(p) for p in parts)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"'{item}': expected CELLS:STEPS:PAIRS, three positive integers")
        if len(parts) != 3 or min(cells, steps, pairs) < 1:
            raise argparse.ArgumentTypeError(f"'{item}': expected three positive integers")
        runs.append((cells, steps, pairs))
    return runs


def add_worktree(work):
    source = os.path.join(work, "source")
    subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", source, BASELINE_COMMIT],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return source


def build_baseline(source):
    build = os.path.join(source, "build")
    print(f"building {BASELINE_COMMIT} (kissfft) in {build} ...", file=sys.stderr, flush=True)
    for command in (["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                     "-DREBOUND_WITH_DEALII=OFF"],
                    ["cmake", "--build", build, "-j2", "--target", "rebound"]):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return build


def timed_run(binary, case_path, out):
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([binary, "lumped", case_path, "-o", out, "--no-plots", "-q"], check=True)
    wall = time.perf_counter() - start
    with open(os.path.join(out, "lumped", "summary.json")) as f:
        return wall, json.load(f)["psi2"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline-build", help="a build folder of commit d057942 (bin/rebound)")
    parser.add_argument("--runs", type=parse_runs, default=parse_runs("24:100:5,64:400:2"))
    args = parser.parse_args()
    binary_a = os.path.join(ROOT, "build", "bin", "rebound")
    if not os.access(binary_a, os.X_OK):
        sys.exit(f"halfspace_fft.py: {binary_a} missing (bash scripts/build.sh)")
    with tempfile.TemporaryDirectory() as work:
        worktree = None
        try:
            if args.baseline_build:
                baseline = args.baseline_build
            else:
                worktree = add_worktree(work)  # removed below even if the build fails
                baseline = build_baseline(worktree)
            binary_b = os.path.join(baseline, "bin", "rebound")
            if not os.access(binary_b, os.X_OK):
                sys.exit(f"halfspace_fft.py: {binary_b} missing")
            with open(os.path.join(ROOT, "cases", "sphere-lai-psi2.json")) as f:
                case = json.load(f)
            print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
                  f"load before: {' '.join(open('/proc/loadavg').read().split()[:3])}")
            print()
            print("| cells | steps | pairs | A wall [s] | B wall [s] | A/B wall (median, min, max) "
                  "| Psi2 A | Psi2 A - B |")
            print("|---|---|---|---|---|---|---|---|")
            for cells, steps, pairs in args.runs:
                case["lumped"].update({"model": "halfspace", "cells": cells, "time_steps": steps})
                case_path = os.path.join(work, f"halfspace-{cells}-{steps}.json")
                with open(case_path, "w") as f:
                    json.dump(case, f)
                walls_a, walls_b, ratios = [], [], []
                for _ in range(pairs):
                    wall_a, psi2_a = timed_run(binary_a, case_path, os.path.join(work, "a"))
                    wall_b, psi2_b = timed_run(binary_b, case_path, os.path.join(work, "b"))
                    walls_a.append(wall_a)
                    walls_b.append(wall_b)
                    ratios.append(wall_a / wall_b)
                print(f"| {cells} | {steps} | {pairs} | {statistics.median(walls_a):.3f} | "
                      f"{statistics.median(walls_b):.3f} | {statistics.median(ratios):.3f} "
                      f"({min(ratios):.3f}, {max(ratios):.3f}) | {psi2_a:.10f} | "
                      f"{psi2_a - psi2_b:+.1e} |", flush=True)
        finally:
            if worktree:
                subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", worktree],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
