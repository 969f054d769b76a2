#!/usr/bin/env python3
"""How long a half-space solve takes to stop after Ctrl-C: `rebound lumped` sent SIGTERM, and
the Python module's rebound.lumped interrupted as a terminal's Ctrl-C would
(_thread.interrupt_main), each DELAY seconds into the solve of cases/sphere-lai-psi2.json with
the half-space model on grids of CELLS cells across the Hertz contact diameter. Prints one table:
milliseconds from the signal to the command's exit (130) or to KeyboardInterrupt.

    python3 bench/stop_latency.py [--cells 128,256] [--delays 1,3] [--build build]
                                  [--command-only]

Run from anywhere; the build folder (relative to the checkout) must hold bin/rebound and
python/ (the module). A solve that ends before its signal is reported as such, not timed.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import _thread

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def number_list(text, kind):
    try:
        values = [kind(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': expected a comma-separated list of numbers")
    if not values or any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError(f"'{text}': expected positive numbers")
    return values


def case_text(cells):
    with open(os.path.join(ROOT, "cases", "sphere-lai-psi2.json")) as f:
        case = json.load(f)
    case.setdefault("lumped", {}).update({"model": "halfspace", "cells": cells, "time_steps": 4000})
    return case


def command_latency(binary, cells, delay, work):
    path = os.path.join(work, f"halfspace-{cells}.json")
    with open(path, "w") as f:
        json.dump(case_text(cells), f)
    out = os.path.join(work, f"out-{cells}-{delay}")
    process = subprocess.Popen([binary, "lumped", path, "-o", out], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    time.sleep(delay)
    if process.poll() is not None:
        return f"ended before the signal (exit {process.returncode})"
    asked = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    status = process.wait()
    elapsed = 1e3 * (time.perf_counter() - asked)
    return f"exit {status} after {elapsed:.0f} ms"


def module_latency(rebound, cells, delay):
    case = rebound.load_case(os.path.join(ROOT, "cases", "sphere-lai-psi2.json")).with_changes(
        {"lumped": {"model": "halfspace", "cells": cells, "time_steps": 4000}})
    asked = []

    def interrupt():
        asked.append(time.perf_counter())
        _thread.interrupt_main()

    timer = threading.Timer(delay, interrupt)
    timer.start()
    try:
        rebound.lumped(case, history=False)
    except KeyboardInterrupt:
        return f"KeyboardInterrupt after {1e3 * (time.perf_counter() - asked[0]):.0f} ms"
    finally:
        timer.cancel()
    return "ended before the interrupt"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=lambda t: number_list(t, int), default=[128, 256])
    parser.add_argument("--delays", type=lambda t: number_list(t, float), default=[1.0, 3.0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--command-only", action="store_true",
                        help="time `rebound lumped` only (a build without the Python module)")
    args = parser.parse_args()
    build = os.path.join(ROOT, args.build)
    binary = os.path.join(build, "bin", "rebound")
    if not os.access(binary, os.X_OK):
        sys.exit(f"stop_latency.py: {binary} not found or not executable (build first)")
    rebound = None
    if not args.command_only:
        sys.path.insert(0, os.path.join(build, "python"))
        try:
            import rebound
        except ImportError as error:
            sys.exit(f"stop_latency.py: the Python module in {build}/python does not import: "
                     f"{error} (--command-only times the command alone)")
    print(f"cases/sphere-lai-psi2.json, model halfspace, 4000 steps per Hertz duration, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"{'cells':>6} {'delay [s]':>10}  {'rebound lumped, SIGTERM':<28} rebound.lumped, Ctrl-C")
    with tempfile.TemporaryDirectory() as work:
        for cells in args.cells:
            for delay in args.delays:
                command = command_latency(binary, cells, delay, work)
                module = module_latency(rebound, cells, delay) if rebound else "-"
                print(f"{cells:>6} {delay:>10g}  {command:<28} {module}", flush=True)


if __name__ == "__main__":
    main()
