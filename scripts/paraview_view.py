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
# The view opens at the FEM frame of largest von Mises stress (the contact), with the rigid plane
# y = 0 drawn translucent under the bodies (when the case's target is the rigid plane; a deformable
# target is in the FEM's frames, a socket is not drawn) and von Mises coloured on a log scale over
# the range it takes in the contact region of that frame (see contact_region_range). It prints
# that range.
# Exit status: 0 ok, 2 nothing to show or bad arguments, 1 a ParaView error.
import json
import os
import sys

import math

from paraview import servermanager
from paraview.simple import (CSVReader, ColorBy, CreateView, GetActiveViewOrCreate,
                             GetAnimationScene, GetColorTransferFunction, GetLayout,
                             GetScalarBar, PVDReader, Plane, Render, ResetCamera, SaveScreenshot,
                             SaveState, Show, Transform, UpdatePipeline)

# The von Mises colour range is taken over the points within this many contact radii of the
# contact centre (see contact_region_range).
CONTACT_REGION_RADII = 10.0

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


def target_type():
    """The case's target.type, from a summary.json's provenance ("rigid_plane" when none says)."""
    for part in ("fem", "lumped"):
        summary = path(part, "summary.json")
        if summary:
            try:
                with open(summary) as f:
                    return json.load(f)["provenance"]["case"]["target"]["type"]
            except (OSError, ValueError, KeyError, TypeError):
                pass
    return "rigid_plane"


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


def point_sets(data):
    """The vtkDataSet pieces of fetched data (a data set, or the leaves of a composite)."""
    if data is None:
        return []
    if data.IsA("vtkCompositeDataSet"):
        pieces, it = [], data.NewIterator()
        it.InitTraversal()
        while not it.IsDoneWithTraversal():
            pieces.extend(point_sets(it.GetCurrentDataObject()))
            it.GoToNextItem()
        return pieces
    return [data] if data.IsA("vtkDataSet") else []


def contact_region_range(source, time):
    """(low, high, radius, count) of von Mises over the contact region of source at time, or None.

    Why: the contact stress is concentrated. On the quick case (a 0.1 m sphere, Hertz contact
    radius a = 1.6 mm) von Mises spans 1.3e5-9.6e8 Pa over the body at the frame of largest
    stress, and its 99th percentile is still 8.7e8 Pa (the mesh is refined toward the contact, so
    most points are near it): a linear map over the field's range, or a percentile of it, shows
    the whole body in the colour of its minimum but for a dot. The stress falls off roughly as
    (a/r)^2 away from the contact: on the quick case to 0.7 % of its peak at 5 a and 0.12 % at
    10 a. So the range is the one von Mises takes over the points within CONTACT_REGION_RADII
    (10) contact radii of the contact centre (1.15e6-9.57e8 Pa there), and the map is
    logarithmic: colours resolve the stress from the peak down to ~0.1 % of it, and the body
    farther away takes the colour of the low end. The contact centre is the contact-force-weighted
    mean of the points with a non-zero contact_force, the contact radius a the largest distance
    of those points from it (the field's own contact patch, no case needed); without contact
    points (a frame out of contact), the point of largest von Mises and 5 % of the body's size.
    """
    UpdatePipeline(time=time, proxy=source)
    pieces = point_sets(servermanager.Fetch(source))
    points = []  # (x, y, z, von Mises, |contact force|)
    for piece in pieces:
        data = piece.GetPointData()
        stress, force = data.GetArray("von_mises"), data.GetArray("contact_force")
        if stress is None:
            continue
        for i in range(piece.GetNumberOfPoints()):
            f = force.GetTuple(i) if force is not None else (0.0,)
            points.append(piece.GetPoint(i) + (stress.GetTuple1(i),
                                               math.sqrt(sum(c * c for c in f))))
    if not points:
        return None
    touching = [p for p in points if p[4] > 0.0]
    if touching:
        weight = sum(p[4] for p in touching)
        centre = [sum(p[k] * p[4] for p in touching) / weight for k in range(3)]
        radius = max(math.dist(p[:3], centre) for p in touching)
    else:
        centre = list(max(points, key=lambda p: p[3])[:3])
        size = max(max(p[k] for p in points) - min(p[k] for p in points) for k in range(3))
        radius = 0.05 * size
    radius = max(radius, 1e-12)
    region = [p[3] for p in points if math.dist(p[:3], centre) <= CONTACT_REGION_RADII * radius]
    high = max(region)
    if not high > 0.0:
        return None
    low = max(min(region), 1e-6 * high)  # a log scale needs a positive low end
    return low, high, radius, len(region)


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
    shown = []  # the proxies drawn in the render view (the plane spans them)
    if fem_pvd:
        fem = PVDReader(registrationName="FEM", FileName=fem_pvd)
        UpdatePipeline(proxy=fem)
        fem_display = Show(fem, render)
        shown.append(fem)
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
        shown.append(moved)
        display.Opacity = 0.6
        if "velocity" in lumped.PointData.keys():
            ColorBy(display, ("POINTS", "velocity", "Magnitude"))
            # Over the whole impact: at one instant the rigid body's |v| barely varies.
            display.RescaleTransferFunctionToDataRangeOverTime()
            bar = GetScalarBar(GetColorTransferFunction("velocity"), render)
            bar.Title, bar.ComponentTitle = "lumped velocity", "magnitude [m/s]"
            bar.WindowLocation = "Lower Right Corner"
            bar.Orientation = "Horizontal"
            bar.ScalarBarLength = 0.3
            bar.TitleFontSize, bar.LabelFontSize = 13, 12
            bar.DrawTickLabels = 0
            bar.RangeLabelFormat = "%-#.3g"
            display.SetScalarBarVisibility(render, True)
        if time is None:
            time = contact_time(lumped, None)
    scene.UpdateAnimationUsingDataTimeSteps()
    if time is not None:
        scene.AnimationTime = time
    if fem_display is not None and fem_field:
        ColorBy(fem_display, ("POINTS", fem_field))
        fem_display.RescaleTransferFunctionToDataRange(False, True)
        lut = GetColorTransferFunction(fem_field)
        bar = GetScalarBar(lut, render)
        bar.WindowLocation = "Upper Left Corner"
        bar.Orientation = "Horizontal"
        bar.ScalarBarLength = 0.36
        bar.TitleFontSize, bar.LabelFontSize = 13, 12
        units = {"von_mises": ("von Mises stress", "[Pa]"),
                 "velocity": ("FEM velocity", "[m/s]"), "displacement": ("displacement", "[m]")}
        bar.Title, bar.ComponentTitle = units.get(fem_field, (fem_field, ""))
        if fem_field == "von_mises":
            found = contact_region_range(fem, time if time is not None else 0.0)
            if found:
                low, high, radius, count = found
                # The range chosen here stays (no automatic rescaling to the data of a frame).
                lut.AutomaticRescaleRangeMode = "Never"
                lut.UseLogScale = 1
                # A rainbow (as FE post-processors show stress) resolves the decades better
                # than the default blue-white-red.
                lut.ApplyPreset("Turbo", True) or lut.ApplyPreset("Jet", True)
                lut.RescaleTransferFunction(low, high)
                bar.ComponentTitle = "[Pa], log scale"
                bar.RangeLabelFormat = "%-#.3g"
                bar.DrawTickLabels = 0  # the range labels only: log ticks crowd a short bar
                print("von Mises colour range: %.3g - %.3g Pa (log; %d points within %g contact "
                      "radii of the contact centre, a = %.3g m, t = %.6g s)"
                      % (low, high, count, CONTACT_REGION_RADII, radius, time or 0.0))
        fem_display.SetScalarBarVisibility(render, True)
    # x = t, y = n (the plane is y = 0, the contact point at the origin): seen from the front
    # and a little from below, so that the contact zone shows.
    render.CameraPosition = [0.0, -0.9, 1.0]
    render.CameraFocalPoint = [0.0, 0.0, 0.0]
    render.CameraViewUp = [0.0, 1.0, 0.0]
    ResetCamera(render)
    # (The camera is set on the bodies alone, before the plane is added.)
    # The rigid plane y = 0 under both bodies: translucent, so that the contact zone seen from
    # below shows through it.
    bounds = [math.inf, -math.inf] * 3
    for proxy in shown:
        b = proxy.GetDataInformation().GetBounds()
        for k in range(3):
            bounds[2 * k] = min(bounds[2 * k], b[2 * k])
            bounds[2 * k + 1] = max(bounds[2 * k + 1], b[2 * k + 1])
    if shown and bounds[0] <= bounds[1] and target_type() == "rigid_plane":
        margin = 0.25 * max(bounds[1] - bounds[0], bounds[5] - bounds[4])
        x0, x1 = bounds[0] - margin, bounds[1] + margin
        z0, z1 = bounds[4] - margin, bounds[5] + margin
        plane = Plane(registrationName="rigid plane y = 0")
        plane.Origin = [x0, 0.0, z0]
        plane.Point1 = [x1, 0.0, z0]
        plane.Point2 = [x0, 0.0, z1]
        plane_display = Show(plane, render)
        plane_display.ColorArrayName = ["POINTS", ""]
        plane_display.AmbientColor = [0.55, 0.55, 0.6]
        plane_display.DiffuseColor = [0.55, 0.55, 0.6]
        plane_display.Opacity = 0.35

    chart = CreateView("XYChartView")
    layout.SplitHorizontal(0, 0.55)
    layout.AssignView(2, chart)
    # Normal force blue, tangential red; lumped solid, FEM dashed.
    # history.csv's headers carry the units (time_s, normal_force_N, ...).
    normal, tangential = "normal_force_N", "tangential_force_N"
    colours = {normal: ["0.12", "0.35", "0.75"], tangential: ["0.85", "0.2", "0.1"]}
    for name, label, style in (("lumped", "lumped", "1"), ("fem", "FEM", "2")):
        csv = path(name, "history.csv")
        if not csv:
            continue
        table = CSVReader(registrationName=label + " history", FileName=[csv])
        display = Show(table, chart)
        display.UseIndexForXAxis = 0
        display.XArrayName = "time_s"
        display.SeriesVisibility = [normal, tangential]
        display.SeriesLabel = [normal, label + " normal force [N]",
                               tangential, label + " tangential force [N]"]
        display.SeriesColor = [x for column in colours for x in [column] + colours[column]]
        display.SeriesLineStyle = [normal, style, tangential, style]
        display.SeriesLineThickness = [normal, "2", tangential, "2"]
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
