#!/usr/bin/env python3
"""PNG plots of the validation report, drawn without a display (matplotlib's Agg backend).

Usage: python3 scripts/validation_plots.py DATA.json OUTDIR
(`rebound validate` runs it with the first of $REBOUND_PYTHON, /usr/bin/python3 and the python3
on PATH that has matplotlib; exit status 3 when this interpreter cannot import matplotlib.)

DATA.json is what `rebound validate` writes (DIR/images/validation/validation.json):
{"plots": [{"name", "title", "caption", "panels": [{"title", "xlabel", "ylabel", "equal_axes",
"series": [{"label", "style", "x", "y"}], "ylim"}]}]}, style one of line | dashed | dashdot |
dotted | points | linepoints (dotted lines are reference lines, drawn grey). Writes OUTDIR/<name>.png for every
plot and removes the other PNGs of OUTDIR (plots of an earlier run that no longer exist).
Prints the files written. Exit status 2 when DATA.json cannot be read.
"""
import json
import math
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: E402
except Exception as error:  # ImportError, or a matplotlib broken by its numpy
    print(f"validation_plots.py: {sys.executable} cannot import matplotlib: "
          f"{type(error).__name__}: {error}", file=sys.stderr)
    sys.exit(3)  # the rebound commands then try the next interpreter


def numbers(values):
    return [float("nan") if v is None else float(v) for v in values]


def draw_series(axes, series):
    x, y = numbers(series.get("x", [])), numbers(series.get("y", []))
    label = series.get("label") or None
    style = series.get("style", "line")
    if style == "points":
        axes.plot(x, y, "o", markersize=5, label=label, zorder=3)
    elif style == "linepoints":
        axes.plot(x, y, "-o", markersize=3, linewidth=1.2, label=label)
    elif style == "dashed":
        axes.plot(x, y, "--", linewidth=1.4, label=label)
    elif style == "dashdot":
        axes.plot(x, y, "-.", linewidth=1.4, label=label)
    elif style == "dotted":
        axes.plot(x, y, ":", color="0.45", linewidth=1.1, label=label)
    else:
        axes.plot(x, y, "-", linewidth=1.4, label=label)


def draw(plot, path):
    panels = plot.get("panels", [])
    count = max(1, len(panels))
    columns = 1 if count == 1 else 2
    rows = math.ceil(count / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(6.4 * columns, 4.4 * rows), squeeze=False)
    for index, panel in enumerate(panels):
        ax = axes[index // columns][index % columns]
        for series in panel.get("series", []):
            draw_series(ax, series)
        ax.set_title(panel.get("title", ""), fontsize=10)
        ax.set_xlabel(panel.get("xlabel", ""))
        ax.set_ylabel(panel.get("ylabel", ""))
        ax.grid(True, alpha=0.3)
        if len(panel.get("ylim") or []) == 2:
            ax.set_ylim(*panel["ylim"])
        if panel.get("equal_axes"):
            ax.set_aspect("equal", adjustable="datalim")
        if any(s.get("label") for s in panel.get("series", [])):
            ax.legend(fontsize=8, loc="best")
    for index in range(len(panels), rows * columns):
        axes[index // columns][index % columns].set_visible(False)
    figure.suptitle(plot.get("title", ""), fontsize=12)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, out = sys.argv[1], sys.argv[2]
    try:
        with open(source) as f:
            data = json.load(f)
    except (OSError, ValueError) as error:
        print(f"validation_plots.py: cannot read {source}: {error}", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    written = set()
    for plot in data.get("plots", []):
        name = plot["name"] + ".png"
        draw(plot, os.path.join(out, name))
        written.add(name)
        print(os.path.join(out, name))
    for name in os.listdir(out):
        if name.endswith(".png") and name not in written:
            os.remove(os.path.join(out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
