#include "observables/rigid_body_vtk.h"

#include <vtkAppendPolyData.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCylinderSource.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
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

// A sphere's surface about its centre, as drawn for a sphere body and a free target sphere.
vtkSmartPointer<vtkPolyData> sphere_surface(double radius) {
  vtkNew<vtkSphereSource> sphere;
  sphere->SetRadius(radius);
  sphere->SetThetaResolution(48);
  sphere->SetPhiResolution(24);
  vtkNew<vtkTransform> identity;
  return transformed(sphere, identity);
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
      return sphere_surface(
          c.body.shape == cases::Shape::custom ? std::max(d.body.contact_offset, R) : R);
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

// One rigid body's motion from the history: its centre G and rotation angle (trapezoidal
// integration of the velocity and spin columns from G0 at rest angle 0).
struct RigidMotion {
  std::vector<Eigen::Vector2d> centre;
  std::vector<double> angle;
};
RigidMotion integrate_motion(const History& history, const Eigen::Vector2d& g0, const char* vt,
                             const char* vn, const char* spin) {
  const std::vector<double>&t = history.column("time"), &u = history.column(vt),
        &w = history.column(vn), &omega = history.column(spin);
  RigidMotion m{std::vector<Eigen::Vector2d>(history.rows(), g0),
                std::vector<double>(history.rows(), 0.0)};
  for (std::size_t i = 1; i < history.rows(); ++i) {
    const double dt = t[i] - t[i - 1];
    m.centre[i] = m.centre[i - 1] + 0.5 * dt * Eigen::Vector2d(u[i] + u[i - 1], w[i] + w[i - 1]);
    m.angle[i] = m.angle[i - 1] + 0.5 * dt * (omega[i] + omega[i - 1]);
  }
  return m;
}

// The body's surface moved to G = g, turned by phi, with the point arrays velocity (rigid, from
// G's velocity vg and the spin) and contact_force (`force` on the vertex at the material point P,
// p_rel from G at rest; zero elsewhere) and the cell array body (`id`: 0 the body, 1 the target
// sphere, as the FEM's frames).
vtkSmartPointer<vtkPolyData> placed(vtkPolyData* surface, const Eigen::Vector2d& g, double phi,
                                    const Eigen::Vector2d& vg, double spin,
                                    const Eigen::Vector2d& force, const Eigen::Vector2d& p_rel,
                                    int id) {
  vtkNew<vtkTransform> motion;
  motion->PostMultiply();
  motion->RotateZ(phi * 180.0 / M_PI);
  motion->Translate(g.x(), g.y(), 0.0);
  auto moved = vtkSmartPointer<vtkPolyData>::New();
  {
    vtkNew<vtkTransformPolyDataFilter> filter;
    filter->SetInputData(surface);
    filter->SetTransform(motion);
    filter->Update();
    moved->DeepCopy(filter->GetOutput());
  }
  // The sources' normals would be one tuple short once P is added: only our arrays remain.
  moved->GetPointData()->Initialize();
  moved->GetCellData()->Initialize();
  // The material point P, moved rigidly, carries the contact force as a vertex.
  const double c = std::cos(phi), s = std::sin(phi);
  const vtkIdType p_id = moved->GetPoints()->InsertNextPoint(
      g.x() + c * p_rel.x() - s * p_rel.y(), g.y() + s * p_rel.x() + c * p_rel.y(), 0.0);
  vtkNew<vtkCellArray> vertices;
  vertices->InsertNextCell(1, &p_id);
  moved->SetVerts(vertices);

  vtkNew<vtkDoubleArray> contact_force;
  contact_force->SetName("contact_force");
  contact_force->SetNumberOfComponents(3);
  vtkNew<vtkDoubleArray> velocity;
  velocity->SetName("velocity");
  velocity->SetNumberOfComponents(3);
  for (vtkIdType k = 0; k < moved->GetNumberOfPoints(); ++k) {
    double x[3];
    moved->GetPoint(k, x);
    velocity->InsertNextTuple3(vg.x() - spin * (x[1] - g.y()), vg.y() + spin * (x[0] - g.x()), 0.0);
    contact_force->InsertNextTuple3(k == p_id ? force.x() : 0.0, k == p_id ? force.y() : 0.0, 0.0);
  }
  moved->GetPointData()->AddArray(contact_force);
  moved->GetPointData()->AddArray(velocity);
  vtkNew<vtkIntArray> body;
  body->SetName("body");
  for (vtkIdType k = 0; k < moved->GetNumberOfCells(); ++k) body->InsertNextValue(id);
  moved->GetCellData()->AddArray(body);
  return moved;
}

}  // namespace

int write_rigid_body_frames(const std::string& directory, const cases::Case& c,
                            const cases::Derived& d, const History& history, int frames) {
  for (const char* column : {"time", "tangential_force", "normal_force", "center_velocity_t",
                             "center_velocity_n", "spin"})
    if (!history.has(column))
      throw FileError(std::string("rigid_body.pvd: the history has no column ") + column);
  // A free target sphere (target.type "sphere") is drawn beside the body, moved by its own columns.
  const bool target = d.target_body.has_value();
  if (target)
    for (const char* column :
         {"target_center_velocity_t", "target_center_velocity_n", "target_spin"})
      if (!history.has(column))
        throw FileError(std::string("rigid_body.pvd: the history has no column ") + column);
  const std::vector<double>& time_of = history.column("time");
  const std::size_t rows = history.rows();
  std::filesystem::create_directories(directory);
  const vtkSmartPointer<vtkPolyData> surface = body_surface(c, d);
  const Eigen::Vector2d g0 = d.body.centre_of_mass.head<2>();  // P is the origin
  const RigidMotion body =
      integrate_motion(history, g0, "center_velocity_t", "center_velocity_n", "spin");
  // The target sphere of radius R2 touches P from below: its centre at (0, -R2), at rest.
  vtkSmartPointer<vtkPolyData> target_surface;
  RigidMotion target_motion;
  const Eigen::Vector2d target_g0(0.0, -c.target.radius);
  if (target) {
    target_surface = sphere_surface(c.target.radius);
    target_motion = integrate_motion(history, target_g0, "target_center_velocity_t",
                                     "target_center_velocity_n", "target_spin");
  }
  const int count = rows < 2 ? 1 : std::max(frames, 2);
  const double end_time = rows == 0 ? 0.0 : time_of.back();
  std::string collection =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (int frame = 0; frame < count; ++frame) {
    const double time = count == 1 ? 0.0 : end_time * frame / (count - 1);
    // Linear interpolation of the integrated motion between the history's rows j and i.
    std::size_t i = 1, j = 0;
    double s = 1.0;
    if (rows > 0) {
      while (i < rows && time_of[i] < time) ++i;
      if (i >= rows) i = rows - 1;
      const double span = i > 0 ? time_of[i] - time_of[i - 1] : 0;
      s = i > 0 && span > 0 ? std::clamp((time - time_of[i - 1]) / span, 0.0, 1.0) : 1.0;
      j = i > 0 ? i - 1 : 0;
    }
    const auto at = [&](const RigidMotion& m, const Eigen::Vector2d& g_rest, double phi_rest,
                        const char* vt, const char* vn, const char* spin,
                        const Eigen::Vector2d& v_rest, double spin_rest) {
      struct State {
        Eigen::Vector2d g, v;
        double phi, spin;
      };
      if (rows == 0) return State{g_rest, v_rest, phi_rest, spin_rest};
      return State{(1 - s) * m.centre[j] + s * m.centre[i],
                   Eigen::Vector2d(at_time(history, vt, time), at_time(history, vn, time)),
                   (1 - s) * m.angle[j] + s * m.angle[i], at_time(history, spin, time)};
    };
    const Eigen::Vector2d force = rows == 0
                                      ? Eigen::Vector2d::Zero()
                                      : Eigen::Vector2d(at_time(history, "tangential_force", time),
                                                        at_time(history, "normal_force", time));
    const auto b = at(body, g0, 0.0, "center_velocity_t", "center_velocity_n", "spin",
                      d.centre_velocity.head<2>(), d.spin);
    vtkSmartPointer<vtkPolyData> moved = placed(surface, b.g, b.phi, b.v, b.spin, force, -g0, 0);
    if (target) {
      const auto t = at(target_motion, target_g0, 0.0, "target_center_velocity_t",
                        "target_center_velocity_n", "target_spin", Eigen::Vector2d::Zero(), 0.0);
      vtkNew<vtkAppendPolyData> both;
      both->AddInputData(moved);
      both->AddInputData(placed(target_surface, t.g, t.phi, t.v, t.spin, -force, -target_g0, 1));
      both->Update();
      moved = vtkSmartPointer<vtkPolyData>::New();
      moved->DeepCopy(both->GetOutput());
    }

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
