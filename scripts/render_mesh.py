#!/usr/bin/env python3
"""Render a `rebound mesh` output (mesh.vtu or mesh.pvtu) to a PNG without a display.

    xvfb-run -a /usr/bin/python3 scripts/render_mesh.py DIR/mesh/mesh.vtu out.png \
        [--view surface|section|zoom] [--zoom RADIUS] [--size 1200x900]

Needs VTK's Python bindings (Debian: python3-vtk9). VTK renders offscreen; Debian's VTK
uses X for its OpenGL context, hence xvfb-run.

Views (frame of rebound: P at the origin, plane y = 0, body above it, z = b):
  surface  the body's surface seen from below and aside, coloured by refinement level, with edges;
  section  the cells with z <= 0 (whole cells: a crinkle cut), looked at from +z: the mesh on the
           plane of motion, cut through P;
  zoom     the section around P within RADIUS (default: 4 a_max, read from summary.json next to
           the mesh), with the circle of radius a_max and the plane drawn.
"""
import argparse
import json
import math
import os
import sys

from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPlane, vtkPolyData, vtkPolyLine
from vtkmodules.vtkFiltersCore import vtkPointDataToCellData
from vtkmodules.vtkFiltersExtraction import vtkExtractGeometry
from vtkmodules.vtkFiltersGeometry import vtkDataSetSurfaceFilter
from vtkmodules.vtkIOImage import vtkPNGWriter
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader, vtkXMLUnstructuredGridReader
from vtkmodules.vtkRenderingCore import (vtkActor, vtkColorTransferFunction, vtkPolyDataMapper,
                                         vtkRenderer, vtkRenderWindow, vtkWindowToImageFilter)
from vtkmodules.vtkRenderingAnnotation import vtkScalarBarActor
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL backend)
import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text of the scalar bar)


def read(path):
    reader = vtkXMLPUnstructuredGridReader() if path.endswith(".pvtu") else vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    # deal.II writes cell data as discontinuous point data: back to cell data
    to_cells = vtkPointDataToCellData()
    to_cells.SetInputConnection(reader.GetOutputPort())
    to_cells.Update()
    return to_cells


def level_colours(low, high):
    lut = vtkColorTransferFunction()
    # viridis-like ramp over the refinement levels
    stops = [(0.0, (0.267, 0.005, 0.329)), (0.25, (0.229, 0.322, 0.546)),
             (0.5, (0.128, 0.567, 0.551)), (0.75, (0.369, 0.789, 0.383)),
             (1.0, (0.993, 0.906, 0.144))]
    for t, (r, g, b) in stops:
        lut.AddRGBPoint(low + t * max(high - low, 1e-9), r, g, b)
    return lut


def mesh_actor(port, levels):
    surface = vtkDataSetSurfaceFilter()
    surface.SetInputConnection(port)
    mapper = vtkPolyDataMapper()
    mapper.SetInputConnection(surface.GetOutputPort())
    mapper.SetScalarModeToUseCellFieldData()
    mapper.SelectColorArray("level")
    mapper.SetLookupTable(level_colours(*levels))
    mapper.SetScalarRange(*levels)
    mapper.ScalarVisibilityOn()
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().EdgeVisibilityOn()
    actor.GetProperty().SetEdgeColor(0.1, 0.1, 0.1)
    actor.GetProperty().SetLineWidth(1.0)
    actor.GetProperty().SetAmbient(0.35)
    actor.GetProperty().SetDiffuse(0.7)
    return actor, mapper


def polyline_actor(points, colour, width):
    vtk_points = vtkPoints()
    line = vtkPolyLine()
    line.GetPointIds().SetNumberOfIds(len(points))
    for i, p in enumerate(points):
        vtk_points.InsertNextPoint(*p)
        line.GetPointIds().SetId(i, i)
    cells = vtkCellArray()
    cells.InsertNextCell(line)
    data = vtkPolyData()
    data.SetPoints(vtk_points)
    data.SetLines(cells)
    mapper = vtkPolyDataMapper()
    mapper.SetInputData(data)
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetColor(*colour)
    actor.GetProperty().SetLineWidth(width)
    return actor


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mesh")
    parser.add_argument("png")
    parser.add_argument("--view", choices=["surface", "section", "zoom"], default="surface")
    parser.add_argument("--zoom", type=float, help="radius of the zoom view around P, m")
    parser.add_argument("--size", default="1200x900")
    args = parser.parse_args(argv)

    summary_path = os.path.join(os.path.dirname(os.path.abspath(args.mesh)), "summary.json")
    summary = json.load(open(summary_path)) if os.path.exists(summary_path) else {}
    source = read(args.mesh)
    grid = source.GetOutput()
    levels = grid.GetCellData().GetArray("level").GetRange()
    x0, x1, y0, y1, z0, z1 = grid.GetBounds()
    size = max(x1 - x0, y1 - y0, z1 - z0)

    renderer = vtkRenderer()
    renderer.SetBackground(1, 1, 1)
    port = source.GetOutputPort()
    if args.view in ("section", "zoom"):
        plane = vtkPlane()
        plane.SetOrigin(0, 0, 0)
        plane.SetNormal(0, 0, 1)
        cut = vtkExtractGeometry()  # whole cells with z <= 0 (crinkle cut)
        cut.SetInputConnection(port)
        cut.SetImplicitFunction(plane)
        cut.ExtractInsideOn()
        cut.ExtractBoundaryCellsOn()
        port = cut.GetOutputPort()
    actor, mapper = mesh_actor(port, levels)
    renderer.AddActor(actor)

    bar = vtkScalarBarActor()
    bar.SetLookupTable(mapper.GetLookupTable())
    bar.SetTitle("level")
    bar.SetNumberOfLabels(int(levels[1] - levels[0]) + 1)
    bar.SetLabelFormat("%.0f")
    bar.SetWidth(0.08)
    bar.SetHeight(0.5)
    bar.SetPosition(0.9, 0.25)
    for text in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty()):
        text.SetColor(0, 0, 0)
        text.ItalicOff()
        text.ShadowOff()
    renderer.AddActor2D(bar)

    camera = renderer.GetActiveCamera()
    centre = ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2)
    if args.view == "surface":
        direction = (0.55, -0.9, 1.0)  # from below the plane's level, aside
        norm = math.sqrt(sum(d * d for d in direction))
        camera.SetFocalPoint(*centre)
        camera.SetPosition(*(c + 3 * size * d / norm for c, d in zip(centre, direction)))
        camera.SetViewUp(0, 1, 0)
        renderer.ResetCamera()
        camera.Zoom(1.25)
    else:
        a_max = summary.get("a_max")
        radius = args.zoom or (4 * a_max if (args.view == "zoom" and a_max) else None)
        focus = (0, 0, 0) if args.view == "zoom" else centre
        extent = radius if args.view == "zoom" and radius else 0.55 * max(x1 - x0, y1 - y0)
        camera.ParallelProjectionOn()
        camera.SetFocalPoint(focus[0], focus[1] + (0.8 * extent if args.view == "zoom" else 0), 0)
        camera.SetPosition(focus[0], focus[1] + (0.8 * extent if args.view == "zoom" else 0),
                           10 * size)
        camera.SetViewUp(0, 1, 0)
        camera.SetParallelScale(extent)
        # the rigid plane y = 0, and (zoom) the Hertz contact radius around P
        span = 1.2 * (extent if args.view == "zoom" else size)
        renderer.AddActor(polyline_actor([(-span, 0, 0.01 * size), (span, 0, 0.01 * size)],
                                         (0.8, 0.1, 0.1), 3.0))
        if args.view == "zoom" and a_max:
            circle = [(a_max * math.cos(t), a_max * math.sin(t), 0.01 * size)
                      for t in (2 * math.pi * i / 200 for i in range(201))]
            renderer.AddActor(polyline_actor(circle, (0.9, 0.2, 0.2), 2.5))
        renderer.ResetCameraClippingRange()

    width, height = (int(v) for v in args.size.split("x"))
    window = vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetSize(width, height)
    window.AddRenderer(renderer)
    window.Render()
    image = vtkWindowToImageFilter()
    image.SetInput(window)
    image.ReadFrontBufferOff()
    image.Update()
    writer = vtkPNGWriter()
    writer.SetFileName(args.png)
    writer.SetInputConnection(image.GetOutputPort())
    writer.Write()
    print(f"render_mesh: wrote {args.png} ({grid.GetNumberOfCells()} cells, view {args.view})")


if __name__ == "__main__":
    main(sys.argv[1:])
