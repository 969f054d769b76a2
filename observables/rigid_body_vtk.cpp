#include "observables/rigid_body_vtk.h"

#include <vtkAppendPolyData.h>
#include <vtkCellArray.h>
#include <vtkCylinderSource.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkParametricFunctionSource.h>
#include <vtkParametricTorus.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkXMLPolyDataWriter.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "observables/files.h"

namespace rebound::observables {
namespace {

vtkSmartPointer<vtkPolyData> transformed(vtkAlgorithm* source, vtkTransform* transform) {
  vtkNew<vtkTransformPolyDataFilter> filter;
  filter->SetInputConnection(source->GetOutputPort());
  filter->SetTransform(transform);
  filter->Update();
  vtkSmartPointer<vtkPolyData> out = vtkSmartPointer<vtkPolyData>::New();
  out->DeepCopy(filter->GetOutput());
  return out;
}

// Body surface in a frame centred at G, axes (t, n, b), in the configuration at first touch.
vtkSmartPointer<vtkPolyData> body_surface(const cases::Case& c, const cases::Derived& d) {
  const double R = c.body.radius;
  vtkNew<vtkTransform> identity;
  switch (c.body.shape) {
    case cases::Shape::capsule: {
      // vtkCylinderSource is along y; turn y onto the body axis (rotation about b).
      const double phi = std::atan2(-d.body.body_axis.x(), d.body.body_axis.y()) * 180.0 / M_PI;
      vtkNew<vtkAppendPolyData> append;
      vtkNew<vtkCylinderSource> cylinder;
      cylinder->SetRadius(R);
      cylinder->SetHeight(c.body.length);
      cylinder->SetResolution(48);
      cylinder->CappingOff();
      vtkNew<vtkTransform> rotate;
      rotate->RotateZ(phi);
      append->AddInputData(transformed(cylinder, rotate));
      for (const double side : {-0.5, 0.5}) {
        vtkNew<vtkSphereSource> cap;
        cap->SetRadius(R);
        cap->SetThetaResolution(48);
        cap->SetPhiResolution(24);
        cap->SetCenter(0, side * c.body.length, 0);
        append->AddInputData(transformed(cap, rotate));
      }
      append->Update();
      vtkSmartPointer<vtkPolyData> out = vtkSmartPointer<vtkPolyData>::New();
      out->DeepCopy(append->GetOutput());
      return out;
    }
    case cases::Shape::disc: {
      vtkNew<vtkCylinderSource> disc;  // axis along b = z
      disc->SetRadius(R);
      disc->SetHeight(c.body.thickness);
      disc->SetResolution(64);
      vtkNew<vtkTransform> rotate;
      rotate->RotateX(90);
      return transformed(disc, rotate);
    }
    case cases::Shape::hoop: {
      vtkNew<vtkParametricTorus> torus;  // in the (t, n) plane, around b
      torus->SetRingRadius(R - c.body.thickness / 2);
      torus->SetCrossSectionRadius(c.body.thickness / 2);
      vtkNew<vtkParametricFunctionSource> source;
      source->SetParametricFunction(torus);
      source->SetUResolution(64);
      source->SetVResolution(16);
      return transformed(source, identity);
    }
    default: {
      // Sphere, shell; a custom body is drawn as the sphere of radius |PG| around G.
      vtkNew<vtkSphereSource> sphere;
      sphere->SetRadius(c.body.shape == cases::Shape::custom ? std::max(d.body.contact_offset, R)
                                                             : R);
      sphere->SetThetaResolution(48);
      sphere->SetPhiResolution(24);
      return transformed(sphere, identity);
    }
  }
}

// Column `name` of the history at `time`, held constant outside the history's time range.
double at_time(const History& h, const std::string& name, double time) {
  const auto& t = h.column("time");
  const auto& y = h.column(name);
  if (time <= t.front()) return y.front();
  if (time >= t.back()) return y.back();
  return interpolate(t, y, time);
}

}  // namespace

int write_rigid_body_frames(const std::string& directory, const cases::Case& c,
                            const cases::Derived& d, const History& history, int frames) {
  for (const char* column : {"time", "tangential_force", "normal_force", "center_velocity_t",
                             "center_velocity_n", "spin"})
    if (!history.has(column))
      throw FileError(std::string("rigid_body.pvd: the history has no column ") + column);
  const std::vector<double>& time_of = history.column("time");
  const std::vector<double>& vt = history.column("center_velocity_t");
  const std::vector<double>& vn = history.column("center_velocity_n");
  const std::vector<double>& spin_of = history.column("spin");
  const std::size_t rows = history.rows();
  std::filesystem::create_directories(directory);
  const vtkSmartPointer<vtkPolyData> surface = body_surface(c, d);
  const Eigen::Vector3d g0 = d.body.centre_of_mass;  // P is the origin

  // Rigid-body position of G and rotation angle by trapezoidal integration of the history.
  std::vector<Eigen::Vector2d> centre(rows, Eigen::Vector2d(g0.x(), g0.y()));
  std::vector<double> angle(rows, 0.0);
  for (std::size_t i = 1; i < rows; ++i) {
    const double dt = time_of[i] - time_of[i - 1];
    centre[i] = centre[i - 1] + 0.5 * dt * Eigen::Vector2d(vt[i] + vt[i - 1], vn[i] + vn[i - 1]);
    angle[i] = angle[i - 1] + 0.5 * dt * (spin_of[i] + spin_of[i - 1]);
  }
  const int count = rows < 2 ? 1 : std::max(frames, 2);
  const double end_time = rows == 0 ? 0.0 : time_of.back();
  std::string collection =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (int frame = 0; frame < count; ++frame) {
    const double time = count == 1 ? 0.0 : end_time * frame / (count - 1);
    double gx = g0.x(), gy = g0.y(), phi = 0, ft = 0, fn = 0, vgt = d.centre_velocity.x(),
           vgn = d.centre_velocity.y(), spin = d.spin;
    if (rows > 0) {
      // Linear interpolation of the integrated motion.
      std::size_t i = 1;
      while (i < rows && time_of[i] < time) ++i;
      if (i >= rows) i = rows - 1;
      const double span = i > 0 ? time_of[i] - time_of[i - 1] : 0;
      const double s =
          i > 0 && span > 0 ? std::clamp((time - time_of[i - 1]) / span, 0.0, 1.0) : 1.0;
      const std::size_t j = i > 0 ? i - 1 : 0;
      gx = (1 - s) * centre[j].x() + s * centre[i].x();
      gy = (1 - s) * centre[j].y() + s * centre[i].y();
      phi = (1 - s) * angle[j] + s * angle[i];
      ft = at_time(history, "tangential_force", time);
      fn = at_time(history, "normal_force", time);
      vgt = at_time(history, "center_velocity_t", time);
      vgn = at_time(history, "center_velocity_n", time);
      spin = at_time(history, "spin", time);
    }
    vtkNew<vtkTransform> motion;
    motion->PostMultiply();
    motion->RotateZ(phi * 180.0 / M_PI);
    motion->Translate(gx, gy, 0.0);
    vtkNew<vtkPolyData> moved;
    {
      vtkNew<vtkTransformPolyDataFilter> filter;
      filter->SetInputData(surface);
      filter->SetTransform(motion);
      filter->Update();
      moved->DeepCopy(filter->GetOutput());
    }
    // The sources' normals would be one tuple short once P is added: only our arrays remain.
    moved->GetPointData()->Initialize();
    // The material point P, moved rigidly, carries the contact force as a vertex.
    const Eigen::Vector2d p_rel(-g0.x(), -g0.y());
    const double cphi = std::cos(phi), sphi = std::sin(phi);
    const double px = gx + cphi * p_rel.x() - sphi * p_rel.y();
    const double py = gy + sphi * p_rel.x() + cphi * p_rel.y();
    const vtkIdType p_id = moved->GetPoints()->InsertNextPoint(px, py, 0.0);
    vtkNew<vtkCellArray> vertices;
    vertices->InsertNextCell(1, &p_id);
    moved->SetVerts(vertices);

    vtkNew<vtkDoubleArray> force;
    force->SetName("contact_force");
    force->SetNumberOfComponents(3);
    vtkNew<vtkDoubleArray> velocity;
    velocity->SetName("velocity");
    velocity->SetNumberOfComponents(3);
    const vtkIdType n_points = moved->GetNumberOfPoints();
    for (vtkIdType k = 0; k < n_points; ++k) {
      double x[3];
      moved->GetPoint(k, x);
      const double rx = x[0] - gx, ry = x[1] - gy;
      velocity->InsertNextTuple3(vgt - spin * ry, vgn + spin * rx, 0.0);
      if (k == p_id)
        force->InsertNextTuple3(ft, fn, 0.0);
      else
        force->InsertNextTuple3(0.0, 0.0, 0.0);
    }
    moved->GetPointData()->AddArray(force);
    moved->GetPointData()->AddArray(velocity);

    char name[64];
    std::snprintf(name, sizeof name, "rigid_body_%04d.vtp", frame);
    // VTK writes into memory; the file goes through write_file_atomically (unique temporary,
    // every write checked with errno's text, renamed into place).
    vtkNew<vtkXMLPolyDataWriter> writer;
    writer->WriteToOutputStringOn();
    writer->SetInputData(moved);
    writer->SetDataModeToBinary();
    const std::string path = (std::filesystem::path(directory) / name).string();
    if (writer->Write() != 1) throw FileError("cannot encode " + path + " (VTK XML writer)");
    write_file_atomically(path, writer->GetOutputString());
    char entry[256];
    std::snprintf(entry, sizeof entry, "    <DataSet timestep=\"%.10e\" part=\"0\" file=\"%s\"/>\n",
                  time, name);
    collection += entry;
  }
  collection += "  </Collection>\n</VTKFile>\n";
  write_file_atomically((std::filesystem::path(directory) / "rigid_body.pvd").string(), collection);
  return count;
}

}  // namespace rebound::observables
