"""rebound: how a solid body rebounds after striking its target (docs/PYTHON.md).

The functions call the same C++ libraries as the `rebound` command line, so they give the same
numbers: ``lumped`` returns what ``rebound lumped`` writes to summary.json (plus history.csv's
columns), ``sweep`` the columns of ``rebound sweep``'s sweep.csv, on all cores. SI units, angles
in radians; tables (history, sweep) are keyed by the CSV headers, which carry the unit of each
column: ``time_s``, ``normal_force_N``, ``spin_final_rad_per_s`` (``csv_column``, ``UNITS``).

    import rebound
    case = rebound.load_case("cases/sphere-lai-psi2.json")
    result = rebound.lumped(case)            # dict: summary keys + "history" (time_s, ...)
    table = rebound.sweep(case, psi1="0:8:81", models=["lai", "mdr"])
    run = rebound.read_results("results/sphere-lai-psi2")
"""

import math
import operator

import numpy as np

from . import _rebound
from ._rebound import Case, CaseError, SolveError
from .results import read_csv, read_results, read_run

__all__ = [
    "Case",
    "CaseError",
    "SolveError",
    "UNITS",
    "csv_column",
    "load_case",
    "lumped",
    "normal_law",
    "halfspace_static",
    "zener_plate",
    "sweep",
    "sweep_values",
    "read_results",
    "read_run",
    "read_csv",
    "SWEEP_VARIABLES",
]

__version__ = _rebound.__version__

# The unit of every output quantity and CSV column ("1": dimensionless, "": text), from the same
# table as summary.json's "units" and the CSV headers (observables/units.h).
UNITS = _rebound.units()


def csv_column(name):
    """The CSV header (and key of the history and sweep tables) of a quantity: its name, "_" and
    its unit, e.g. ``normal_force`` -> ``normal_force_N``, ``spin_final`` ->
    ``spin_final_rad_per_s``; dimensionless quantities keep their name (``psi2``). KeyError for an
    unknown name."""
    return _rebound.csv_column(name)

# Keyword of rebound.sweep -> (variable of the C++ sweep, factor to its unit).
SWEEP_VARIABLES = {
    "psi1": ("psi1", 1.0),
    "incidence": ("incidence_angle", 1.0),
    "incidence_deg": ("incidence_angle", math.pi / 180.0),
    "friction": ("friction", 1.0),
}


def load_case(source):
    """A validated :class:`Case` from a path (str or os.PathLike), JSON text, a dict, or a Case.

    Raises :class:`CaseError` (a ValueError) naming the file and the key path, as
    ``rebound check`` does. ``case.with_changes({...})`` makes a modified, re-validated copy.
    """
    return _rebound.load_case(source)


def lumped(case, history=True):
    """Solve a case with the lumped model of its "lumped" section (like ``rebound lumped``).

    ``case``: a Case, or anything :func:`load_case` accepts. Returns a dict with the keys of
    ``DIR/lumped/summary.json`` (SI; None where the file has null) and, unless
    ``history=False``, ``"history"``: a dict of numpy arrays, one per history.csv column and
    named as its header (``time_s``, ``normal_force_N``, ...; the ``mode`` column as strings), at
    full double precision. The solve runs without the GIL.

    Raises :class:`CaseError` (a ValueError) for a bad case and :class:`SolveError` (a
    RuntimeError) when the solve fails (the integrator gave up, or the result is not physical),
    as ``rebound lumped`` exits with status 2 and 1.
    """
    return _rebound.lumped(case, bool(history))


def normal_law(case, approaches):
    """F(delta): the elastic part of the case's ``lumped.normal_law`` at each rigid approach.

    ``approaches``: a number or a 1-D array, m. Returns a numpy array of forces, N, from the same
    C++ laws the lumped solve integrates (``lumped/normal_laws.h``, ``cases/socket.h``): on a
    spherical socket ``hertz`` (with R_eff = R1 R2 / dR; also the Hertz-type dissipative laws'
    elastic part), ``liu`` and ``wang-gao`` with ``lumped.polynomial_index``; on a plane Hertz's
    (4/3) E* sqrt(R) delta^{3/2}. E* is the pair's (the ball's alone on a rigid socket). Change
    the law with ``case.with_changes({"lumped": {"normal_law": "liu"}})``.

    Raises ValueError for an approach that is negative, not finite or beyond the body (2 R2 on
    a socket, 2 R on a plane), or a socket law on a plane.
    """
    return _rebound.normal_law(case, np.atleast_1d(np.asarray(approaches, dtype=float)))


def zener_plate(case):
    """Zener's (1941) normal impact of the case's sphere on its elastic plate
    (``target.type "elastic_plate"``), the plate taken as infinite: Hertz's contact in series
    with the plate's point admittance 1/(8 sqrt(D rho h)) (``lumped/zener_plate.h``). Returns a
    dict: ``inelasticity`` (Lambda, proportional to his parameter), ``restitution`` (e), ``contact_duration``
    (s), ``peak_force`` (N) and ``plate_energy`` (the share of the impact energy the plate
    carries away, 1 - e^2). The FEM's plate is compared with it in docs/FEM.md; no lumped model
    takes a plate. Raises ValueError for another target.
    """
    return _rebound.zener_plate(case)


def halfspace_static(case, approaches, cells=40, domain=1.25):
    """The half-space model's static contact at each rigid approach (no dynamics).

    The body's profile (the paraboloid on a plane, the exact gap of the two spheres on a
    socket) pressed into the elastic half-space by ``approaches`` (m), frictionless, on a grid
    of ``cells`` across Hertz's contact diameter 2 sqrt(R delta) at each approach, ``domain``
    times that diameter wide (``lumped/halfspace.h``, ``halfspace_static_contact``). Returns a
    dict of numpy arrays: ``approach_m``, ``normal_force_N``, ``contact_radius_m`` (sqrt of the
    contact area over pi), ``max_pressure_Pa``, ``edge_pressure_Pa`` (the largest pressure on the
    grid's outer ring: 0), ``grid_cells`` (M of the M x M grid), ``cell_size_m``,
    ``grid_half_width_m``, ``iterations``.

    Raises ValueError for a bad approach (as :func:`normal_law`) or option, and RuntimeError
    when the contact reaches the grid's edge (the grid is too small: enlarge ``domain``); never
    returns a truncated contact. Ctrl-C stops it (KeyboardInterrupt).
    """
    return _rebound.halfspace_static(case, np.atleast_1d(np.asarray(approaches, dtype=float)),
                                     int(cells), float(domain))


def sweep_values(spec):
    """The values of a ``"START:STOP:COUNT"`` range, computed as ``rebound sweep`` computes them
    (so a sweep over them reproduces the command line's rows exactly)."""
    parts = spec.split(":")
    if len(parts) != 3:
        raise ValueError(f"range '{spec}': expected START:STOP:COUNT, e.g. 0:8:81")
    try:
        start, stop, count = float(parts[0]), float(parts[1]), int(parts[2])
    except ValueError:
        raise ValueError(f"range '{spec}': expected START:STOP:COUNT, e.g. 0:8:81") from None
    return _rebound.sweep_values(start, stop, count)


def _thread_count(threads):
    """sweep's ``threads`` as the compiled sweep takes it (0: every core), checked as ``rebound
    sweep --threads N`` checks N: an integer in [1, MAX_THREADS] (app/command_sweep.cpp)."""
    if threads is None:
        return 0  # every core (std::thread::hardware_concurrency, as the command line)
    expected = f"expected an integer in [1, {_rebound.MAX_THREADS}] (or None: every core)"
    try:
        if isinstance(threads, bool):  # an int to Python, but not a count
            raise TypeError
        count = operator.index(threads)  # int and numpy integers; no float, str, ...
    except TypeError:
        raise TypeError(f"threads is {threads!r}; {expected}") from None
    if not 1 <= count <= _rebound.MAX_THREADS:
        raise ValueError(f"threads is {count}; {expected}")
    return count


def _shortest(value):
    """A float as Python writes it, without a trailing ".0": 95.0 -> "95", 90.25 -> "90.25"."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _check_degrees(values, base):
    """incidence_deg's values as the command line checks ``--incidence`` (degrees, in [0, 90)):
    a CaseError named in degrees, under the argument's name, before they become radians."""
    for value in values:
        if not math.isfinite(value):
            problem = "value is not finite"
        elif not 0 <= value < 90:
            problem = f"value {_shortest(value)} outside [0, 90) degrees"
        else:
            continue
        key = "sweep incidence_deg"
        error = CaseError(f"{base.source}: {key} {problem}")
        error.file, error.key = base.source, key
        raise error


def _pandas_or_none():
    try:
        import pandas
    except ImportError:
        return None
    return pandas


def sweep(case, *, psi1=None, incidence=None, incidence_deg=None, friction=None, samples=None,
          seed=None, models=None, threads=None, as_frame=None):
    """Sweep one variable of a case with one or more lumped models (like ``rebound sweep``).

    Give exactly one of ``psi1`` (Maw's incidence; the normal speed is kept), ``incidence``
    (rad) or ``incidence_deg`` (degrees; the approach speed is kept) or ``friction`` (the
    velocity is kept): an array of values, or a ``"START:STOP:COUNT"`` string as on the command
    line. ``models``: lumped model names (default: the case's own), as ``rebound sweep --models``:
    any lumped.model and ``halfspace-beta0`` (the half-space model with dundurs_coupling false);
    each is set into the case's "lumped" section (the other models' options dropped) and
    validated (CaseError names the key; ValueError for an unknown name). ``threads``: worker
    threads, an integer in [1, 256] as ``rebound sweep --threads`` takes (default None: every
    core; ValueError outside the range, TypeError for a non-integer). Every point is solved
    exactly as by the serial solver. Values outside the variable's range raise CaseError before
    anything runs (``incidence_deg`` in degrees, key ``sweep incidence_deg``).

    Returns a pandas DataFrame (if pandas imports and ``as_frame`` is not False) or a dict of
    numpy arrays: ``model``, then sweep.csv's columns, named as its header: ``sweep_psi1``,
    ``sweep_incidence_angle_rad`` or ``sweep_friction``, the summary scalars with their units
    (psi1, psi2, incidence_angle_rad, ..., e_newton, ..., spin_final_rad_per_s,
    normal_impulse_N_s, ...; NaN where undefined or failed), ``phases`` and ``error`` (empty
    unless that point failed).

    ``samples=N`` instead of a variable: the Monte Carlo of a random restitution (the case's
    lumped.restitution a table with ``std``; Michalczyk 2008, sec. 4), as ``rebound sweep
    --samples N [--seed S]``: sample k is impact k of the seed (``seed`` overrides lumped.seed).
    When the case's restitution is a table, the columns ``energy_flux_density_J_per_m3``,
    ``restitution_mean``, ``restitution_std`` and ``restitution`` (the R of each point's
    impact) follow ``error``; with a free target sphere, its velocity and spin after the impact
    (``target_center_velocity_final_t_m_per_s``, ``..._n_m_per_s``, ``target_spin_final_rad_per_s``)
    come last.
    """
    given = {key: value for key, value in (("psi1", psi1), ("incidence", incidence),
                                           ("incidence_deg", incidence_deg),
                                           ("friction", friction), ("samples", samples))
             if value is not None}
    if len(given) != 1:
        raise TypeError("sweep needs exactly one of psi1=, incidence=, incidence_deg=, "
                        "friction=, samples=")
    (keyword, spec), = given.items()
    threads = _thread_count(threads)
    if keyword == "samples":
        count = operator.index(spec)
        if not 1 <= count <= 10_000_000:
            raise ValueError(f"samples is {count}; expected an integer in [1, 10000000]")
        variable, factor, values = "sample", 1.0, np.arange(count, dtype=float)
    else:
        variable, factor = SWEEP_VARIABLES[keyword]
        if isinstance(spec, str):
            values = sweep_values(spec)
        else:
            values = np.atleast_1d(np.asarray(spec, dtype=float)).ravel()
    base = load_case(case)
    if seed is not None:
        table = base.lumped.restitution_table
        if table is None or not any(s > 0 for s in table.get("std", [])):
            raise ValueError("seed is given, but the case's lumped.restitution is not a table "
                             "with a std > 0 (nothing is drawn)")
        base = base.with_changes({"lumped": {"seed": operator.index(seed)}})
    if keyword == "incidence_deg":
        _check_degrees(values, base)
    if factor != 1.0:
        values = values * factor
    own = models is None
    if own:
        models = [_rebound.sweep_model_name(base)]
    elif isinstance(models, str):
        models = [models]
    if len(models) == 0:
        raise ValueError("models is empty; give at least one lumped model name")
    parts = []
    for model in models:
        model_case = base if own else _rebound.case_with_model(base, model)
        columns = _rebound.sweep(model_case, variable, values, threads)
        columns["phases"] = np.asarray(columns["phases"], dtype=str)
        columns["error"] = np.asarray(columns["error"], dtype=str)
        parts.append({"model": np.full(len(values), model), **columns})
    names = list(dict.fromkeys(name for part in parts for name in part))
    table = {name: np.concatenate([part[name] if name in part else
                                   np.full(len(part["model"]), np.nan) for part in parts])
             for name in names}
    pandas = _pandas_or_none() if as_frame is not False else None
    if as_frame and pandas is None:
        raise ImportError("as_frame=True needs pandas (apt-get install python3-pandas)")
    return pandas.DataFrame(table) if pandas is not None else table
