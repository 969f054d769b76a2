# ParaView state of a rebound result folder: the FEM fields, the lumped rigid body beside them
# and both histories as overlaid line charts. `rebound pair` copies this file to DIR/view.py.
#
#   paraview --script=DIR/view.py                  (interactive)
#   pvpython DIR/view.py --screenshot out.png      (no display needed with offscreen builds;
#                                                   otherwise run under xvfb-run)
import os
import sys

from paraview.simple import (CSVReader, ColorBy, CreateView, GetActiveViewOrCreate, GetLayout,
                             Hide, PVDReader, Render, ResetCamera, SaveScreenshot, Show,
                             Transform, UpdatePipeline)

HERE = os.path.dirname(os.path.abspath(__file__))


def path(*parts):
    p = os.path.join(HERE, *parts)
    return p if os.path.exists(p) else None


def main(argv):
    screenshot = None
    if "--screenshot" in argv:
        screenshot = argv[argv.index("--screenshot") + 1]
    fem_pvd = path("fem", "solution.pvd")
    lumped_pvd = path("lumped", "rigid_body.pvd")
    if not fem_pvd and not lumped_pvd:
        print("view.py: neither fem/solution.pvd nor lumped/rigid_body.pvd next to this script",
              file=sys.stderr)
        return 2
    render = GetActiveViewOrCreate("RenderView")
    layout = GetLayout(render)
    bounds_width = 0.0
    if fem_pvd:
        fem = PVDReader(registrationName="FEM", FileName=fem_pvd)
        UpdatePipeline(proxy=fem)
        display = Show(fem, render)
        names = fem.PointData.keys()
        for field in ("von_mises", "velocity", "displacement"):
            if field in names:
                ColorBy(display, ("POINTS", field))
                display.RescaleTransferFunctionToDataRange(True, False)
                display.SetScalarBarVisibility(render, True)
                break
        b = fem.GetDataInformation().GetBounds()
        bounds_width = b[1] - b[0]
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
    render.CameraPosition = [0.0, 0.0, 1.0]
    render.CameraViewUp = [0.0, 1.0, 0.0]
    ResetCamera(render)

    chart = CreateView("XYChartView")
    layout.SplitHorizontal(0, 0.55)
    layout.AssignView(2, chart)
    for name, label in (("lumped", "lumped"), ("fem", "FEM")):
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
    chart.LeftAxisTitle = "contact force [N]"
    chart.BottomAxisTitle = "time [s]"
    Render(render)
    Render(chart)
    if screenshot:
        SaveScreenshot(screenshot, layout, ImageResolution=[1400, 600])
        print(screenshot)
    return 0


if __name__ == "__main__":
    status = main(sys.argv)
    if status:
        sys.exit(status)
