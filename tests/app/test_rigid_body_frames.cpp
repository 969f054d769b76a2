// The lumped run's ParaView frames (observables/rigid_body_vtk.h) of a free target sphere: both
// spheres, told apart by the cell field `body` as in the FEM's frames, each moved by its own
// columns of the history, so that the pair's centre of mass moves uniformly (no external force).
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "observables/rigid_body_vtk.h"

namespace fs = std::filesystem;
using namespace rebound;

namespace {

// The centroid of each body's surface points (vertex cells, P, left out): its centre, as the
// sphere sources' points are symmetric about it.
std::array<Eigen::Vector2d, 2> centres(vtkPolyData* frame) {
  vtkDataArray* body = frame->GetCellData()->GetArray("body");
  EXPECT_NE(body, nullptr);
  std::array<std::set<vtkIdType>, 2> points;
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < frame->GetNumberOfCells(); ++c) {
    frame->GetCellPoints(c, ids);
    if (ids->GetNumberOfIds() < 3) continue;
    for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k)
      points[int(body->GetTuple1(c))].insert(ids->GetId(k));
  }
  std::array<Eigen::Vector2d, 2> centre;
  for (int b = 0; b < 2; ++b) {
    EXPECT_GT(points[b].size(), 100u) << "body " << b;
    centre[b].setZero();
    for (const vtkIdType p : points[b]) {
      double x[3];
      frame->GetPoint(p, x);
      centre[b] += Eigen::Vector2d(x[0], x[1]) / double(points[b].size());
    }
  }
  return centre;
}

}  // namespace

TEST(RigidBodyFrames, AFreeTargetSphereIsDrawnAndThePairsCentreOfMassMovesUniformly) {
  // Steel (R1 = 5 mm) obliquely on glass (R2 = 8 mm) at rest, Lai's model.
  const nlohmann::json document = {
      {"name", "two-spheres"},
      {"body", {{"shape", "sphere"}, {"radius", 0.005}}},
      {"material", {{"young_modulus", 210e9}, {"poisson_ratio", 0.3}, {"density", 7850}}},
      {"target",
       {{"type", "sphere"},
        {"radius", 0.008},
        {"material", {{"young_modulus", 70e9}, {"poisson_ratio", 0.22}, {"density", 2500}}}}},
      {"contact", {{"friction", 0.3}}},
      {"impact", {{"normal_speed", 1.0}, {"tangential_speed", 0.4}}},
      {"lumped", {{"model", "lai"}}}};
  const cases::Case c = cases::parse_case(document, "two-spheres.json");
  const cases::Derived d = cases::derive(c);
  const lumped::Outcome o = lumped::solve(c, d);
  const observables::History h = lumped::history_table(lumped::history_rows(c, d, o));
  const fs::path dir = fs::temp_directory_path() / "rebound-rigid-body-frames";
  fs::remove_all(dir);
  const int frames = observables::write_rigid_body_frames(dir.string(), c, d, h, 5);
  ASSERT_EQ(frames, 5);
  const double m1 = d.body.mass, m2 = d.target_body->mass;
  const Eigen::Vector2d v0 = d.centre_velocity.head<2>();
  const double end = h.column("time").back();
  for (int frame = 0; frame < frames; ++frame) {
    vtkNew<vtkXMLPolyDataReader> reader;
    char name[32];
    std::snprintf(name, sizeof name, "rigid_body_%04d.vtp", frame);
    reader->SetFileName((dir / name).c_str());
    reader->Update();
    vtkPolyData* data = reader->GetOutput();
    const auto [g1, g2] = centres(data);
    // Newton's third law on the two P vertices: the forces drawn sum to zero, and during the
    // contact each body's is the contact force, non-zero (a sign error on the target's fails).
    vtkDataArray* force = data->GetPointData()->GetArray("contact_force");
    ASSERT_NE(force, nullptr);
    Eigen::Vector2d sum = Eigen::Vector2d::Zero();
    double largest = 0;
    for (vtkIdType k = 0; k < force->GetNumberOfTuples(); ++k) {
      const Eigen::Vector2d f(force->GetComponent(k, 0), force->GetComponent(k, 1));
      sum += f;
      largest = std::max(largest, f.norm());
    }
    if (frame > 0 && frame < frames - 1) {
      EXPECT_GT(largest, 0.0) << "frame " << frame;
    }
    EXPECT_LE(sum.norm(), 1e-12 * largest) << "frame " << frame;
    const double t = end * frame / (frames - 1);
    // At rest before: the body's centre at G0, the target's at (0, -R2), touching at P.
    const Eigen::Vector2d expected =
        (m1 * (d.body.centre_of_mass.head<2>() + v0 * t) + m2 * Eigen::Vector2d(0, -0.008)) /
        (m1 + m2);
    const Eigen::Vector2d centre_of_mass = (m1 * g1 + m2 * g2) / (m1 + m2);
    // Float32 points (~1e-9 m here) and the history's trapezoidal integration, against the
    // displacement |v0| t of up to ~1e-4 m.
    EXPECT_LT((centre_of_mass - expected).norm(), 1e-8 + 1e-4 * v0.norm() * t)
        << "frame " << frame << " t " << t;
    if (frame == frames - 1) {  // the target was struck: it moved away from its place at rest
      EXPECT_LT(g2.y(), -0.008 - 1e-3 * v0.norm() * t * m1 / (m1 + m2));
    }
  }
  fs::remove_all(dir);
}
