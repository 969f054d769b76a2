"""Shared by the Python module's tests (tests/python/, CTest label `python`).

CTest sets PYTHONPATH to build/python and passes the light `rebound` binary, the source and the
build folder in the environment (tests/CMakeLists.txt)."""

import json
import math
import os
import subprocess
import tempfile

REBOUND_BINARY = os.environ["REBOUND_BINARY"]
SOURCE_DIR = os.environ["REBOUND_SOURCE_DIR"]
BUILD_DIR = os.environ.get("REBOUND_BUILD_DIR", "")
CASES_DIR = os.path.join(SOURCE_DIR, "cases")


def case_path(name):
    return os.path.join(CASES_DIR, name)


def run_cli(*arguments):
    """Runs `rebound ARGUMENTS...`; returns the completed process (raises on a non-zero exit)."""
    return subprocess.run([REBOUND_BINARY, *arguments], check=True, capture_output=True, text=True)


def temporary_folder(test_case):
    """A temporary folder removed when the test ends."""
    folder = tempfile.TemporaryDirectory(prefix="rebound-python-")
    test_case.addCleanup(folder.cleanup)
    return folder.name


def load_json(path):
    with open(path) as stream:
        return json.load(stream)


# What differs between two runs of the same case by design: when and how each was started
# (observables/provenance.h). Everything else of the provenance (version, commit, host, the case
# as read and its hash) must agree.
RUN_DEPENDENT = {".provenance.date", ".provenance.command_line"}


def json_differences(expected, actual, relative=1e-12, path="", ignore=RUN_DEPENDENT):
    """Every place where two JSON-like values differ: numbers beyond `relative` (relative to the
    larger magnitude; equal zeros agree), anything else not equal, keys missing on either side;
    paths in `ignore` are skipped. Returns a list of strings (empty when they agree)."""
    out = []
    if path in ignore:
        return out
    number = (int, float)
    if isinstance(expected, bool) or isinstance(actual, bool):
        if expected is not actual:
            out.append(f"{path}: {expected!r} != {actual!r}")
    elif isinstance(expected, number) and isinstance(actual, number):
        scale = max(abs(expected), abs(actual))
        if math.isnan(expected) or math.isnan(actual) or abs(expected - actual) > relative * scale:
            out.append(f"{path}: {expected!r} != {actual!r}")
    elif isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                out.append(f"{path}.{key}: missing from the module's result")
            elif key not in expected:
                out.append(f"{path}.{key}: not in the command line's result")
            else:
                out += json_differences(expected[key], actual[key], relative, f"{path}.{key}", ignore)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append(f"{path}: {len(expected)} items != {len(actual)}")
        else:
            for k, (a, b) in enumerate(zip(expected, actual)):
                out += json_differences(a, b, relative, f"{path}[{k}]", ignore)
    elif expected != actual or type(expected) is not type(actual):
        out.append(f"{path}: {expected!r} != {actual!r}")
    return out


def count_numbers(value):
    """How many numbers (not booleans) a JSON-like value holds."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, (int, float)):
        return 1
    if isinstance(value, dict):
        return sum(count_numbers(v) for v in value.values())
    if isinstance(value, list):
        return sum(count_numbers(v) for v in value)
    return 0


def read_csv_text(path):
    """A CSV file's header and rows as the strings the command line printed."""
    with open(path) as stream:
        lines = stream.read().splitlines()
    return lines[0].split(","), [line.split(",") for line in lines[1:] if line]
