"""A study's FEM runs, each reused when finished: the scripts that run `rebound fem` on cases they
write (scripts/zener_plate.py, scripts/elastic_socket.py) share this."""
import csv
import json
import os
import subprocess
import sys

from stick_slip_convergence import write_json


def read_json(path):
    with open(path) as f:
        return json.load(f)


def run_reusing(binary, folder, case, script):
    """`rebound fem FOLDER/case.json -o FOLDER -q --frames 0`, unless FOLDER holds a summary.json
    beside the same case.json. Returns the summary of a completed run, or None (the failure said
    on stderr, naming `script`); exits when interrupted (the finished runs are kept)."""
    case_path = os.path.join(folder, "case.json")
    summary_path = os.path.join(folder, "fem", "summary.json")
    fresh = os.path.exists(summary_path) and os.path.exists(case_path) and \
        read_json(case_path) == case
    if not fresh:
        write_json(case_path, case)
        cmd = [binary, "fem", case_path, "-o", folder, "-q", "--frames", "0"]
        print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
        status = subprocess.call(cmd)
        if status == 130:
            sys.exit("interrupted: rerun to continue from the finished runs")
        if status != 0:
            print(f"{script}: {folder}: rebound fem exited {status}", file=sys.stderr)
            return None
    s = read_json(summary_path)
    if s.get("status", "completed") != "completed":
        print(f"{script}: {folder} did not complete: {s.get('status')}", file=sys.stderr)
        return None
    return s


def write_study(out, rows, table_name, lines):
    """OUT/runs.csv (one row per run, the union of the rows' keys as columns) and OUT/<table_name>
    (the markdown `lines`), which are also printed."""
    os.makedirs(out, exist_ok=True)
    fields = []
    for row in rows.values():
        fields += [k for k in row if k not in fields]
    with open(os.path.join(out, "runs.csv"), "w", newline="") as stream:
        w = csv.DictWriter(stream, fieldnames=fields)
        w.writeheader()
        w.writerows(rows.values())
    with open(os.path.join(out, table_name), "w") as stream:
        stream.write("\n".join(lines) + "\n")
    print("\n".join(lines))
