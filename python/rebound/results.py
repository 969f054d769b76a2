"""Readers of the result folders the command line writes (pure Python, numpy only).

A run folder (``rebound lumped`` -> ``DIR/lumped/``, ``rebound fem`` -> ``DIR/fem/``, and the
``lumped/``, ``lumped-exact/``, ``fem/`` of ``rebound pair``, ``sweep_fem/<variable>_<value>/``)
holds summary.json, history.csv, a ParaView .pvd (rigid_body.pvd for the lumped models,
solution.pvd for the FEM) and, for ``rebound lumped``, plots/*.png. A case folder ``DIR`` holds
the run folders and, after ``rebound pair``, comparison.json, report.md, plots/*.png and view.py;
after ``rebound sweep`` sweep.csv and plots/*.png (and sweep_fem.csv with --fem), after ``rebound
refine`` refinement.csv. The CSV headers carry the unit of each column (``time_s``,
``normal_force_N``; dimensionless ones as ``psi2``), and so do the keys of the tables read here.
"""

import csv
import glob
import json
import os

import numpy as np

__all__ = ["read_csv", "read_run", "read_results"]

_PVD_NAMES = ("rigid_body.pvd", "solution.pvd")
_TABLES = {"sweep": "sweep.csv", "sweep_fem": "sweep_fem.csv", "refinement": "refinement.csv"}


def read_csv(path):
    """A CSV file with a header row (history.csv, sweep.csv, ...) as a dict of numpy arrays in
    column order: a column whose non-empty cells are all numbers (``nan`` included) is float64
    with NaN for empty cells; any other column (the lumped ``mode``, ``phases``, ``error``) is an
    array of str."""
    with open(path, newline="") as stream:
        rows = list(csv.reader(stream))
    if not rows:
        raise ValueError(f"{path} is empty; expected a header row")
    header, body = rows[0], rows[1:]
    columns = {}
    for k, name in enumerate(header):
        cells = [row[k] if k < len(row) else "" for row in body]
        try:
            columns[name] = np.array([float(cell) if cell.strip() else np.nan for cell in cells],
                                     dtype=float)
        except ValueError:
            columns[name] = np.array(cells, dtype=str)
    return columns


def _read_json(path):
    with open(path) as stream:
        return json.load(stream)


def read_run(folder):
    """One run folder as a dict:

    ``path``     the folder;
    ``kind``     "lumped" or "fem" (from the summary's ``solver``: ``lumped:<model>`` or ``fem``);
    ``summary``  summary.json as a dict (SI; None where the file has null);
    ``history``  history.csv as a dict of numpy arrays keyed by its header (``time_s``,
                 ``normal_force_N``, ...; None when the file is absent);
    ``pvd``      the ParaView collection (rigid_body.pvd or solution.pvd), or None;
    ``plots``    the PNG plots the run drew (its plots/*.png, sorted; ``rebound lumped`` draws
                 forces.png, impulses.png, velocity_of_P.png and, for mdr and halfspace,
                 stick_fraction.png), [] when there are none.
    """
    folder = os.fspath(folder)
    summary_path = os.path.join(folder, "summary.json")
    if not os.path.isfile(summary_path):
        raise FileNotFoundError(f"{folder}: no summary.json; expected a run folder written by "
                                "`rebound lumped`, `rebound fem` or `rebound pair`")
    summary = _read_json(summary_path)
    solver = str(summary.get("solver", ""))
    kind = "fem" if solver == "fem" else "lumped" if solver.startswith("lumped") else solver
    history_path = os.path.join(folder, "history.csv")
    pvd = next((os.path.join(folder, name) for name in _PVD_NAMES
                if os.path.isfile(os.path.join(folder, name))), None)
    return {
        "path": folder,
        "kind": kind,
        "summary": summary,
        "history": read_csv(history_path) if os.path.isfile(history_path) else None,
        "pvd": pvd,
        "plots": sorted(glob.glob(os.path.join(folder, "plots", "*.png"))),
    }


def read_results(folder):
    """A result folder as a dict.

    Given a run folder (it has summary.json), the dict of :func:`read_run`. Given a case folder
    ``DIR`` (``rebound lumped|fem|pair|sweep CASE -o DIR``): ``path``; one entry per run
    subfolder, named as the folder (``lumped``, ``fem``, ``lumped-exact``, ...), each a
    :func:`read_run` dict; ``comparison`` (comparison.json as a dict, None when absent);
    ``report`` (report.md's text or None); ``sweep``, ``sweep_fem``, ``refinement`` (the CSV
    tables as dicts of numpy arrays, when present); ``plots`` (the PNG paths under the folder's
    plots/: those of ``rebound pair`` and ``rebound sweep``; a run's own, such as
    ``lumped/plots/*.png``, are in its entry's ``plots``); ``view`` (the ParaView state view.py,
    or None). Raises FileNotFoundError when the folder holds none of these.
    """
    folder = os.fspath(folder)
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{folder}: no such folder")
    if os.path.isfile(os.path.join(folder, "summary.json")):
        return read_run(folder)
    result = {"path": folder}
    for entry in sorted(os.listdir(folder)):
        if os.path.isfile(os.path.join(folder, entry, "summary.json")):
            result[entry] = read_run(os.path.join(folder, entry))
    comparison = os.path.join(folder, "comparison.json")
    result["comparison"] = _read_json(comparison) if os.path.isfile(comparison) else None
    report = os.path.join(folder, "report.md")
    if os.path.isfile(report):
        with open(report) as stream:
            result["report"] = stream.read()
    else:
        result["report"] = None
    for key, name in _TABLES.items():
        if os.path.isfile(os.path.join(folder, name)):
            result[key] = read_csv(os.path.join(folder, name))
    result["plots"] = sorted(glob.glob(os.path.join(folder, "plots", "*.png")))
    view = os.path.join(folder, "view.py")
    result["view"] = view if os.path.isfile(view) else None
    found = [key for key in result if key not in ("path", "plots", "comparison", "report",
                                                  "view")]
    if not found and result["comparison"] is None and result["report"] is None:
        raise FileNotFoundError(
            f"{folder}: no result files; expected summary.json (a run folder) or lumped/, fem/, "
            "comparison.json, sweep.csv (a folder written by rebound lumped|fem|pair|sweep -o)")
    return result
