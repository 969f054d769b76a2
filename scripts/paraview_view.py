# ParaView state of a rebound result folder: the FEM fields, the lumped rigid body beside them
# and both histories as overlaid line charts. `rebound pair` writes this file, with the folder
# filled in below, to DIR/view.py.
#
#   paraview --script=DIR/view.py                          (interactive)
#   pvbatch DIR/view.py --screenshot out.png [--state out.pvsm] [--size 1400x600]
#                                                          (no interaction: writes the files)
#   scripts/paraview-python.sh [--gui] DIR/view.py ...     (the same on Debian 12 without the
#                                                           python3-paraview package, and
#                                                           without a display: docs/PARAVIEW.md)
#
# The screenshot can also be asked for with REBOUND_VIEW_SCREENSHOT=out.png (also in the GUI).
# The view opens at the FEM frame of largest von Mises stress (the contact), coloured over that
# frame's range. Exit status: 0 ok, 2 nothing to show or bad arguments, 1 a ParaView error.
import os
import sys

from paraview.simple import (CSVReader, ColorBy, CreateView, GetActiveViewOrCreate,
                             GetAnimationScene, GetLayout, PVDReader, Render, ResetCamera,
                             SaveScreenshot, SaveState, Show, Transform, UpdatePipeline)

# The result folder. `rebound pair` writes it in below, because ParaView's GUI runs a --script
# file without __file__; pvbatch/pvpython have __file__ (the folder may then have been moved).
RESULT_DIRECTORY = None


def result_directory():
    if "__file__" in globals():
        return os.path.dirname(os.path.abspath(__file__))
    if RESULT_DIRECTORY and os.path.isdir(RESULT_DIRECTORY):
        return RESULT_DIRECTORY
    return os.getcwd()


HERE = result_directory()
USAGE = "usage: view.py [--screenshot FILE.png] [--state FILE.pvsm] [--size WIDTHxHEIGHT]"


def path(*parts):
    p = os.path.join(HERE, *parts)
    return p if os.path.exists(p) else None


def parse(argv):
    """The options after the script name; None on a bad command line."""
    options = {"screenshot": os.environ.get("REBOUND_VIEW_SCREENSHOT") or None, "state": None,
               "size": [1400, 600]}
    i = 1
    while i < len(argv):
        name = argv[i]
        if name in ("--screenshot", "--state", "--size"):
            if i + 1 >= len(argv):
                return None
            value = argv[i + 1]
            if name == "--size":
                try:
                    options["size"] = [int(x) for x in value.lower().split("x")]
                except ValueError:
                    return None
                if len(options["size"]) != 2 or min(options["size"]) < 16:
                    return None
            else:
                options[name[2:]] = os.path.abspath(value)
            i += 2
        elif name in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        else:
            return None
    return options


def contact_time(source, field):
    """The time step of source at which the largest |field| occurs (None without time steps)."""
    times = list(source.TimestepValues) if source.TimestepValues else []
    if not times:
        return None
    best, best_value = times[len(times) // 2], -1.0
    for t in times:
        UpdatePipeline(time=t, proxy=source)
        info = source.PointData.GetArray(field) if field else None
        value = info.GetRange(-1)[1] if info is not None else -1.0
        if value > best_value:
            best, best_value = t, value
    return best


def main(argv):
    options = parse(argv)
    if options is None:
        print(USAGE, file=sys.stderr)
        return 2
    fem_pvd = path("fem", "solution.pvd")
    lumped_pvd = path("lumped", "rigid_body.pvd")
    if not fem_pvd and not lumped_pvd:
        print("view.py: neither fem/solution.pvd nor lumped/rigid_body.pvd next to this script",
              file=sys.stderr)
        return 2
    render = GetActiveViewOrCreate("RenderView")
    layout = GetLayout(render)
    scene = GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    bounds_width = 0.0
    fem_display, fem_field, time = None, None, None
    if fem_pvd:
        fem = PVDReader(registrationName="FEM", FileName=fem_pvd)
        UpdatePipeline(proxy=fem)
        fem_display = Show(fem, render)
        names = fem.PointData.keys()
        fem_field = next((f for f in ("von_mises", "velocity", "displacement") if f in names),
                         None)
        b = fem.GetDataInformation().GetBounds()
        bounds_width = b[1] - b[0]
        time = contact_time(fem, fem_field)
    if lumped_pvd:
        lumped = PVDReader(registrationName="lumped rigid body", FileName=lumped_pvd)
        UpdatePipeline(proxy=lumped)
        b = lumped.GetDataInformation().GetBounds()
        shift = 1.5 * max(bounds_width, b[1] - b[0]) if fem_pvd else 0.0
        moved = Transform(registrationName="lumped (shifted along t)", Input=lumped)
        moved.Transform.Translate = [shift, 0.0, 0.0]
        display = Show(moved, render)
        display.Opacity = 0.6
        if "velocity" in lumped.PointData.keys():
            ColorBy(display, ("POINTS", "velocity", "Magnitude"))
            display.RescaleTransferFunctionToDataRange(True, False)
        if time is None:
            time = contact_time(lumped, None)
    scene.UpdateAnimationUsingDataTimeSteps()
    if time is not None:
        scene.AnimationTime = time
    if fem_display is not None and fem_field:
        ColorBy(fem_display, ("POINTS", fem_field))
        fem_display.RescaleTransferFunctionToDataRange(False, True)
        fem_display.SetScalarBarVisibility(render, True)
    # x = t, y = n (the plane is y = 0, the contact point at the origin): seen from the front
    # and a little from below, so that the contact zone shows.
    render.CameraPosition = [0.0, -0.8, 1.0]
    render.CameraFocalPoint = [0.0, 0.0, 0.0]
    render.CameraViewUp = [0.0, 1.0, 0.0]
    ResetCamera(render)

    chart = CreateView("XYChartView")
    layout.SplitHorizontal(0, 0.55)
    layout.AssignView(2, chart)
    # Normal force blue, tangential red; lumped solid, FEM dashed.
    colours = {"normal_force": ["0.12", "0.35", "0.75"], "tangential_force": ["0.85", "0.2", "0.1"]}
    for name, label, style in (("lumped", "lumped", "1"), ("fem", "FEM", "2")):
        csv = path(name, "history.csv")
        if not csv:
            continue
        table = CSVReader(registrationName=label + " history", FileName=[csv])
        display = Show(table, chart)
        display.UseIndexForXAxis = 0
        display.XArrayName = "time"
        display.SeriesVisibility = ["normal_force", "tangential_force"]
        display.SeriesLabel = ["normal_force", label + " normal force",
                               "tangential_force", label + " tangential force"]
        display.SeriesColor = [x for column in colours for x in [column] + colours[column]]
        display.SeriesLineStyle = ["normal_force", style, "tangential_force", style]
        display.SeriesLineThickness = ["normal_force", "2", "tangential_force", "2"]
    chart.LeftAxisTitle = "contact force [N]"
    chart.BottomAxisTitle = "time [s]"
    Render(render)
    Render(chart)
    if options["screenshot"]:
        if not SaveScreenshot(options["screenshot"], layout, ImageResolution=options["size"]):
            print("view.py: could not write " + options["screenshot"], file=sys.stderr)
            return 1
        print(options["screenshot"])
    if options["state"]:
        SaveState(options["state"])
        print(options["state"])
    return 0


if __name__ == "__main__":
    status = main(getattr(sys, "argv", [""]))
    if status:
        sys.exit(status)
