#!/usr/bin/env python3
"""PNG plots of a rebound result folder, drawn without a display (matplotlib's Agg backend).

Usage: python3 scripts/plots.py DIR [--title TEXT] [--mode pair|lumped|sweep|refinement]

`rebound lumped`, `sweep`, `pair` and `refine` run this script themselves with the first of
$REBOUND_PYTHON, /usr/bin/python3 and the python3 on PATH that has matplotlib
(docs/USAGE.md, "Plots").
Exit status 3 when this interpreter has no (working) matplotlib: the caller then tries the next.

Reads DIR/lumped/history.csv and, when present, DIR/fem/history.csv (the common columns of both
solvers; their headers carry the units: time_s, normal_force_N, ...) and writes into DIR/plots/:
  normal_force.png        normal contact force vs time          (as Lai 1999, Figs. 5.4, 6.19)
  tangential_force.png    tangential contact force vs time      (as Lai 1999, Fig. 6.20)
  impulse_path.png        normal vs tangential impulse          (as Lai 1999, Fig. 6.18)
  tangential_velocity.png rigid-body tangential velocity of P    (as Lai 1999, Fig. 6.10)
  energy_budget.png       FEM energies: rigid / vibration kinetic, internal, friction (FEM only)
Prints the files written. Exit status 2 when DIR has no history at all.

Other modes (--mode):
  lumped      DIR/history.csv of `rebound lumped` (DIR is its lumped/ folder) -> DIR/plots/:
              forces.png (normal and tangential contact force vs time), impulses.png (normal and
              tangential impulse vs time), velocity_of_P.png (normal and tangential rigid-body
              velocity of the contact point P vs time), and stick_fraction.png (the part of the
              contact that sticks) for the models that have one (mdr, halfspace); stick phases
              shaded. Nothing is drawn for a history without rows (the rigid-body laws).
  refinement  DIR/refinement.json (rebound refine) -> DIR/plots/refinement_<quantity>.png: each
              quantity vs the cell size h (log scale, finer to the right) per series, with the lumped
              model's value, Hertz's (normal impacts) and the Richardson value +- its estimate
  sweep       DIR/sweep.csv and DIR/sweep_fem.csv (rebound sweep --fem) -> DIR/plots/
              psi2_vs_psi1.png: one lumped curve per model (sweep.csv's model column), the FEM
              points, the gross-slip line Psi2 = Psi1 - G of an elastic normal contact
              (--gross-slip G, as `rebound check` prints it; --chi X draws G = 4 X, the line at
              theta = 0) and reference points (--reference CSV with psi1,psi2); --no-fem
              leaves sweep_fem.csv out (rebound sweep passes it when it ran no FEM);
              e_vs_<variable>.png: e_newton, e_poisson, e_stronge and the tangential coefficient
              vs the swept variable (the incidence angle in degrees), FEM points when present;
              with several models e_newton and the tangential coefficient per model;
              for an incidence sweep also tangential_cor_vs_incidence.png and
              spin_vs_incidence.png: the tangential coefficient and the final spin vs the
              incidence angle in degrees, one curve per model;
              a Monte Carlo sweep (rebound sweep --samples N: sweep.csv's sweep_sample column)
              draws histograms instead: restitution_histogram.png (each sample's drawn R with
              the density of the normal cut to [0, 1], Michalczyk 2008, eq. 4.1) and
              e_newton_histogram.png, psi2_histogram.png (when finite), one per model
"""
import argparse
import csv
import math
import os
import sys

# Exit status 3: this interpreter cannot draw; the rebound commands then try the next one.
NO_MATPLOTLIB = 3
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: E402
except Exception as error:  # ImportError, or a matplotlib broken by its numpy
    print(f"plots.py: {sys.executable} cannot import matplotlib: {type(error).__name__}: {error}",
          file=sys.stderr)
    sys.exit(NO_MATPLOTLIB)


def read(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    table = {}
    for key in rows[0]:
        values = []
        for row in rows:
            try:
                values.append(float(row[key]))
            except (TypeError, ValueError):
                values.append(float("nan"))
        table[key] = values
    return table


def text_column(path, key):
    """The cells of one column of a CSV as text (None when the file or the column is missing)."""
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or key not in rows[0]:
        return None
    return [row[key] for row in rows]


def by_model(table, models):
    """[(model, table)] of sweep.csv: one table per model in file order. A sweep.csv written
    before the model column (or of one model) is one table; its name is None when unknown."""
    if not models:
        return [(None, table)]
    names = list(dict.fromkeys(models))
    return [(name, {key: [v for v, m in zip(values, models) if m == name]
                    for key, values in table.items()}) for name in names]


def finite(values):
    return [v for v in values if v is not None and v == v and abs(v) != float("inf")]


def save(fig, ax, path, title, written):
    ax.set_title(title)
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    written.append(path)


def refinement_plots(directory, title):
    import json

    path = os.path.join(directory, "refinement.json")
    if not os.path.exists(path):
        print(f"plots.py: no {path}", file=sys.stderr)
        return 2
    with open(path) as f:
        study = json.load(f)
    out = os.path.join(directory, "plots")
    os.makedirs(out, exist_ok=True)
    reference = study.get("reference") or {}
    lumped = reference.get("lumped") or {}
    hertz = reference.get("hertz") or {}
    written = []
    for quantity in study.get("quantities", []):
        fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
        drawn = 0
        for series in study.get("series", []):
            conv = (series.get("convergence") or {}).get(quantity) or {}
            points = [(h, q) for h, q in zip(series.get("h", []), conv.get("values", []))
                      if h is not None and q is not None]
            if not points:
                continue
            varied = {"level": "levels", "refinement": "fem.refinement",
                      "contact_resolution": "contact resolutions"}.get(series.get("varied"), "?")
            fixed = [f"{name} {series[key]:g}" for key, name in
                     (("level", "level"), ("refinement", "ref."), ("contact_resolution", "res."))
                     if series.get(key) is not None]
            label = f"{varied} vs {series.get('h_measure', 'h')} ({', '.join(fixed)})"
            line = ax.plot([p[0] for p in points], [p[1] for p in points], "o-", label=label,
                           linewidth=1.6)[0]
            drawn += 1
            if conv.get("status") == "ok" and conv.get("extrapolated") is not None:
                q_r, error = conv["extrapolated"], conv.get("error_estimate") or 0.0
                ax.axhline(q_r, color=line.get_color(), linewidth=0.9,
                           label=f"Richardson {q_r:.6g} (p = {conv['order']:.2f})")
                ax.axhspan(q_r - error, q_r + error, color=line.get_color(), alpha=0.12)
        if drawn == 0:
            plt.close(fig)
            continue
        if lumped.get(quantity) is not None:
            ax.axhline(lumped[quantity], color="black", linestyle="--", linewidth=1.2,
                       label=f"lumped model ({lumped.get('model', '?')}) {lumped[quantity]:.6g}")
        if hertz.get(quantity) is not None:
            ax.axhline(hertz[quantity], color="tab:red", linestyle=":", linewidth=1.6,
                       label=f"Hertz {hertz[quantity]:.6g}")
        ax.set_xscale("log")
        ax.invert_xaxis()
        ax.set_xlabel("cell size h [m]: h_contact, or h_max along fem.refinement (finer to the right)")
        ax.set_ylabel(quantity)
        save(fig, ax, os.path.join(out, f"refinement_{quantity}.png"), title, written)
    for p in written:
        print(p)
    return 0 if written else 2


def stick_intervals(times, modes):
    """[(start, end)] of the runs of rows whose mode is stick (times in the plot's unit)."""
    spans, start = [], None
    for i, (t, mode) in enumerate(zip(times, modes)):
        if mode == "stick" and start is None:
            start = t
        elif mode != "stick" and start is not None:
            spans.append((start, t))
            start = None
    if start is not None:
        spans.append((start, times[-1]))
    return spans


def lumped_plots(directory, title):
    """DIR/plots/*.png of a `rebound lumped` folder (DIR/history.csv)."""
    path = os.path.join(directory, "history.csv")
    table = read(path)
    if table is None:
        if os.path.exists(path):  # only the header: a rigid-body law (an instantaneous impulse)
            print(f"plots.py: {path} has no rows (a rigid-body law): nothing to plot",
                  file=sys.stderr)
            return 0
        print(f"plots.py: no {path}", file=sys.stderr)
        return 2
    with open(path, newline="") as f:
        modes = [row.get("mode", "") for row in csv.DictReader(f)]
    out = os.path.join(directory, "plots")
    os.makedirs(out, exist_ok=True)
    time = [1e3 * t for t in table["time_s"]]
    sticks = stick_intervals(time, modes)
    written = []

    def figure(name, ylabel, series):
        fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
        for index, (start, end) in enumerate(sticks):
            ax.axvspan(start, end, color="tab:green", alpha=0.12, linewidth=0,
                       label="stick" if index == 0 else None)
        for column, label, style in series:
            ax.plot(time, table[column], style, label=label, linewidth=1.6)
        ax.axhline(0.0, color="black", linewidth=0.6)
        ax.set_xlabel("time [ms]")
        ax.set_ylabel(ylabel)
        save(fig, ax, os.path.join(out, name), title, written)

    figure("forces.png", "contact force [N]",
           [("normal_force_N", "normal force", "-"),
            ("tangential_force_N", "tangential force", "-")])
    figure("impulses.png", "impulse [N s]",
           [("normal_impulse_N_s", "normal impulse", "-"),
            ("tangential_impulse_N_s", "tangential impulse", "-")])
    figure("velocity_of_P.png", "rigid-body velocity of the contact point P [m/s]",
           [("normal_velocity_m_per_s", "normal velocity of P", "-"),
            ("tangential_velocity_m_per_s", "tangential velocity of P", "-")])
    if finite(table.get("stick_fraction", [])):
        figure("stick_fraction.png", "stick fraction (sticking part of the contact) [-]",
               [("stick_fraction", "stick fraction", "-")])
    for p in written:
        print(p)
    return 0


def cut_normal_density(r, mean, std):
    """The density of N(mean, std^2) cut to [0, 1] and renormalised (Michalczyk 2008, eq. 4.1)."""
    def cdf(x):
        return 0.5 * math.erfc(-x / math.sqrt(2))
    mass = cdf((1 - mean) / std) - cdf(-mean / std)
    return math.exp(-0.5 * ((r - mean) / std) ** 2) / (std * math.sqrt(2 * math.pi) * mass)


def samples_plots(directory, models, title):
    """Histograms of a Monte Carlo sweep (sweep.csv with sweep_sample): the drawn R against the
    cut normal's density, and the rebound quantities."""
    out = os.path.join(directory, "plots")
    for column, name, label in (("restitution", "restitution_histogram.png",
                                 "restitution R drawn [-]"),
                                ("e_newton", "e_newton_histogram.png", "Newton's e [-]"),
                                ("psi2", "psi2_histogram.png", "Psi2 (rebound of P)")):
        fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
        drawn = False
        for model, table in models:
            values = finite(table.get(column, []))
            if not values:
                continue
            ax.hist(values, bins=min(60, max(10, int(math.sqrt(len(values))))), density=True,
                    alpha=0.5 if len(models) > 1 else 0.8,
                    label=f"{model or 'lumped'}: {len(values)} samples")
            drawn = True
            means, stds = finite(table.get("restitution_mean", [])), finite(
                table.get("restitution_std", []))
            if column == "restitution" and means and stds and stds[0] > 0:
                xs = [i / 400 for i in range(401)]
                ax.plot(xs, [cut_normal_density(x, means[0], stds[0]) for x in xs], "-",
                        color="black", linewidth=1.4,
                        label=f"eq. 4.1: R0 = {means[0]:.4g}, sigma = {stds[0]:.4g}, cut to [0, 1]")
        if not drawn:
            plt.close(fig)
            continue
        ax.set_xlabel(label)
        ax.set_ylabel("probability density")
        path = os.path.join(out, name)
        save(fig, ax, path, title, [])
        print(path)
    return 0


def sweep_plot(directory, title, gross_slip, reference_path, fem_points=True):
    out = os.path.join(directory, "plots")
    lumped = read(os.path.join(directory, "sweep.csv"))
    if lumped is None:
        print(f"plots.py: no {directory}/sweep.csv", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    models = by_model(lumped, text_column(os.path.join(directory, "sweep.csv"), "model"))
    if "sweep_sample" in lumped:
        return samples_plots(directory, models, title)
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    xs = []
    for name, table in models:
        pairs = sorted((x, y) for x, y in zip(table["psi1"], table["psi2"])
                       if finite([x, y]) == [x, y])
        xs += [p[0] for p in pairs]
        if pairs:
            ax.plot([p[0] for p in pairs], [p[1] for p in pairs], "-", linewidth=1.6,
                    label=name if name and len(models) > 1 else
                    f"lumped model ({name})" if name else "lumped model")
    fem = read(os.path.join(directory, "sweep_fem.csv")) if fem_points else None
    status = []
    if fem is not None and "psi1" in fem:
        with open(os.path.join(directory, "sweep_fem.csv"), newline="") as f:
            status = [row.get("status") for row in csv.DictReader(f)]
        points = [(x, y) for x, y, s in zip(fem["psi1"], fem["psi2"], status)
                  if s == "completed" and finite([x, y]) == [x, y]]
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], "o", markersize=7,
                    label="FEM (rigid-body average)")
            xs += [p[0] for p in points]
    if reference_path:
        ref = read(reference_path)
        if ref is None or "psi1" not in ref or "psi2" not in ref:
            print(f"plots.py: {reference_path} has no psi1,psi2 columns", file=sys.stderr)
            return 2
        points = [(x, y) for x, y in zip(ref["psi1"], ref["psi2"]) if finite([x, y]) == [x, y]]
        ax.plot([p[0] for p in points], [p[1] for p in points], "s", color="black", markersize=5,
                fillstyle="none", label=f"reference ({os.path.basename(reference_path)})")
        xs += [p[0] for p in points]
    ys = [v for line in ax.get_lines() for v in line.get_ydata()]
    if gross_slip is not None and xs:
        lo, hi = min(xs), max(xs)
        if ys:  # the line is drawn where the data are, not down to Psi1 = 0
            span = max(ys) - min(ys) or 1.0
            ax.set_ylim(min(ys) - 0.1 * span, max(ys) + 0.1 * span)
        ax.plot([lo, hi], [lo - gross_slip, hi - gross_slip], ":", color="tab:red",
                linewidth=1.4, label=f"gross slip, e_N = 1: Psi2 = Psi1 - {gross_slip:.4g}")
    ax.set_xlabel("Psi1 (incidence)")
    ax.set_ylabel("Psi2 (rebound of P)")
    path = os.path.join(out, "psi2_vs_psi1.png")
    save(fig, ax, path, title, [])
    print(path)
    for path in (restitution_plot(models, fem if status else None, status, out, title),
                 incidence_plot(models, fem if status else None, status, out, title,
                                "tangential_cor", "tangential coefficient of restitution e_t [-]",
                                "tangential_cor_vs_incidence.png"),
                 incidence_plot(models, fem if status else None, status, out, title,
                                "spin_final_rad_per_s", "final spin [rad/s]",
                                "spin_vs_incidence.png")):
        if path:
            print(path)
    return 0


def swept_column(table):
    """sweep.csv's swept column, the variable's name and the factor to its plotted unit (the
    incidence angle in degrees); None when the table has no sweep_ column."""
    swept = next((k for k in table if k.startswith("sweep_")), None)
    if swept is None:
        return None
    # sweep_psi1, sweep_friction, sweep_incidence_angle_rad (the headers carry their unit).
    variable = swept[len("sweep_"):]
    if variable.endswith("_rad"):
        variable = variable[:-len("_rad")]
    scale = 180.0 / 3.141592653589793 if variable == "incidence_angle" else 1.0
    return swept, variable, scale


def incidence_plot(models, fem, status, out, title, column, label, name):
    """One quantity of an incidence sweep vs the incidence angle in degrees, one curve per model
    (FEM points when present); None for a sweep of another variable."""
    swept = swept_column(models[0][1])
    if swept is None or swept[1] != "incidence_angle":
        return None
    swept, _, scale = swept
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    for model, table in models:
        if column not in table:
            continue
        pairs = sorted((scale * x, y) for x, y in zip(table[swept], table[column])
                       if finite([x, y]) == [x, y])
        if pairs:
            ax.plot([p[0] for p in pairs], [p[1] for p in pairs], "-", linewidth=1.6,
                    label=model or "lumped model")
    if fem is not None and column in fem and swept in fem:
        points = [(scale * x, y) for x, y, s in zip(fem[swept], fem[column], status)
                  if s == "completed" and finite([x, y]) == [x, y]]
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], "o", color="black",
                    markersize=6, label="FEM")
    if not ax.get_lines():
        plt.close(fig)
        return None
    ax.set_xlabel("incidence angle [deg]")
    ax.set_ylabel(label)
    path = os.path.join(out, name)
    save(fig, ax, path, title, [])
    return path


def restitution_plot(models, fem, status, out, title):
    """e_vs_<variable>.png: the coefficients of restitution vs the swept variable of sweep.csv
    (its sweep_<variable> column; the incidence angle drawn in degrees), with the completed FEM
    runs of sweep_fem.csv (fem, and its status column) as points. One model: e_newton, e_poisson,
    e_stronge and the tangential coefficient; several: e_newton (solid) and the tangential
    coefficient (dashed) of each model."""
    swept = swept_column(models[0][1])
    if swept is None:
        return None
    swept, variable, scale = swept
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    columns = (("e_newton", "e Newton (velocity)", "tab:blue"),
               ("e_poisson", "e Poisson (impulse)", "tab:orange"),
               ("e_stronge", "e Stronge (energy)", "tab:green"),
               ("tangential_cor", "tangential coefficient", "tab:purple"))
    if len(models) > 1:
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for i, (model, table) in enumerate(models):
            for column, label, style in (("e_newton", "e Newton", "-"),
                                         ("tangential_cor", "tangential", "--")):
                pairs = sorted((scale * x, y) for x, y in zip(table[swept], table[column])
                               if finite([x, y]) == [x, y]) if column in table else []
                if pairs:
                    ax.plot([p[0] for p in pairs], [p[1] for p in pairs], style,
                            color=colours[i % len(colours)], linewidth=1.6,
                            label=f"{label} ({model})")
        for column, label, marker in (("e_newton", "e Newton (FEM)", "o"),
                                      ("tangential_cor", "tangential (FEM)", "s")):
            if fem is not None and column in fem and swept in fem:
                points = [(scale * x, y) for x, y, s in zip(fem[swept], fem[column], status)
                          if s == "completed" and finite([x, y]) == [x, y]]
                if points:
                    ax.plot([p[0] for p in points], [p[1] for p in points], marker,
                            color="black", markersize=6, label=label)
        columns = ()
    lumped = models[0][1]
    for column, label, colour in columns:
        if column not in lumped:
            continue
        pairs = sorted((scale * x, y) for x, y in zip(lumped[swept], lumped[column])
                       if finite([x, y]) == [x, y])
        if pairs:
            ax.plot([p[0] for p in pairs], [p[1] for p in pairs], "-", color=colour,
                    linewidth=1.6, label=label)
        if fem is not None and column in fem and swept in fem:
            points = [(scale * x, y) for x, y, s in zip(fem[swept], fem[column], status)
                      if s == "completed" and finite([x, y]) == [x, y]]
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], "o", color=colour,
                        markersize=6, label=label + " (FEM)")
    if not ax.get_lines():
        plt.close(fig)
        return None
    names = {"psi1": "Psi1 (incidence)", "incidence_angle": "incidence angle [deg]",
             "friction": "Coulomb friction mu"}
    ax.set_xlabel(names.get(variable, variable))
    ax.set_ylabel("coefficient of restitution [-]")
    path = os.path.join(out, f"e_vs_{variable}.png")
    save(fig, ax, path, title, [])
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--title", default=None)
    parser.add_argument("--mode", choices=("pair", "lumped", "refinement", "sweep"),
                        default="pair")
    line = parser.add_mutually_exclusive_group()
    line.add_argument("--gross-slip", type=float, default=None,
                      help="sweep mode: G of the gross-slip line Psi2 = Psi1 - G")
    line.add_argument("--chi", type=float, default=None,
                      help="sweep mode: chi of the case (the line with G = 4 chi, theta = 0)")
    parser.add_argument("--reference", default=None, help="sweep mode: CSV with psi1,psi2")
    parser.add_argument("--no-fem", action="store_true",
                        help="sweep mode: leave out DIR/sweep_fem.csv (another run's FEM points)")
    args = parser.parse_args()
    if args.mode == "refinement":
        return refinement_plots(args.directory, args.title or os.path.basename(
            os.path.normpath(args.directory)))
    if args.mode == "lumped":
        return lumped_plots(args.directory, args.title or os.path.basename(
            os.path.dirname(os.path.normpath(os.path.abspath(args.directory)))))
    if args.mode == "sweep":
        return sweep_plot(args.directory, args.title or os.path.basename(
            os.path.normpath(args.directory)),
                          args.gross_slip if args.chi is None else 4 * args.chi, args.reference,
                          not args.no_fem)
    solutions = {}
    for name, label, style in (("lumped", "lumped model", "-"), ("fem", "FEM (rigid-body average)", "--")):
        table = read(os.path.join(args.directory, name, "history.csv"))
        if table is not None:
            solutions[name] = (label, style, table)
    if not solutions:
        print(f"plots.py: no history.csv under {args.directory}/lumped or /fem", file=sys.stderr)
        return 2
    out = os.path.join(args.directory, "plots")
    os.makedirs(out, exist_ok=True)
    title = args.title or os.path.basename(os.path.normpath(args.directory))
    written = []

    def figure(name, xlabel, ylabel, series):
        fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
        drawn = 0
        for label, style, x, y in series:
            if x and y:
                ax.plot(x, y, style, label=label, linewidth=1.6)
                drawn += 1
        if drawn == 0:
            plt.close(fig)
            return
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out, name)
        fig.savefig(path)
        plt.close(fig)
        written.append(path)

    def ms(t):
        return [1e3 * v for v in t]

    for column, name, ylabel in (
        ("normal_force_N", "normal_force.png", "normal force [N]"),
        ("tangential_force_N", "tangential_force.png", "tangential force [N]"),
        ("tangential_velocity_m_per_s", "tangential_velocity.png",
         "tangential velocity of P [m/s]"),
    ):
        figure(name, "time [ms]", ylabel,
               [(label, style, ms(t["time_s"]), t.get(column))
                for label, style, t in solutions.values()])
    figure("impulse_path.png", "tangential impulse [N s]", "normal impulse [N s]",
           [(label, style, t.get("tangential_impulse_N_s"), t.get("normal_impulse_N_s"))
            for label, style, t in solutions.values()])
    if "fem" in solutions:
        fem = solutions["fem"][2]
        series = []
        for column, label in (("rigid_kinetic_energy_J", "rigid-body kinetic"),
                              ("vibration_kinetic_energy_J", "vibration kinetic"),
                              ("internal_energy_J", "internal (strain)"),
                              ("frictional_dissipation_J", "frictional dissipation"),
                              ("total_energy_J", "total")):
            if column in fem:
                series.append((label, "-", ms(fem["time_s"]), fem[column]))
        figure("energy_budget.png", "time [ms]", "energy [J]", series)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
