// An elastic plate (fem/targets/elastic_plate.h): its mesh fills the slab with cells about its
// thickness wide, its faces carry the boundary ids its edge condition reads, clamped edges hold
// every node on them, and a plate thinner or narrower than the contact zone is refused. Its
// impact against Zener's model: FemLong.PlateAgainstZener below and scripts/zener_plate.py
// (docs/FEM.md "An elastic plate").
#include <deal.II/base/mpi.h>
#include <gtest/gtest.h>

#include <cmath>

#include "cases/case.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "fem/targets/elastic_plate.h"
#include "meshes/meshes.h"
#include "tests/fem/fem_cases.h"

namespace {

using rebound::cases::Case;
namespace ids = rebound::meshes::boundary_ids;

// cases/sphere-plate-steel.json: R = 5 mm steel on a steel plate h = 5 mm, L = 70 mm.
Case plate(int degree, int refinement) {
  Case c = rebound::test::load("sphere-plate-steel");
  c.fem.degree = degree;
  c.fem.refinement = refinement;
  c.fem.contact_resolution = 2;
  return c;
}

}  // namespace

// The slab [-L, L] x [-h, 0] x [-L, L] exactly (flat cells), 2n x 2n columns of coarse cells of
// width L/n about h (n = round(L/h) = 14), one per refinement level across h; its top face is the
// contact surface (id 13), its bottom id 14 and its four edges id 15, which a clamped plate holds.
TEST(ElasticPlate, MeshFillsTheSlabWithCellsAboutItsThickness) {
  const Case c = plate(1, 0);
  const double L = c.target.half_width, h = c.target.thickness;
  const auto options = rebound::fem::mesh_options(c, 0);
  ASSERT_EQ(options.target_block, L);
  ASSERT_EQ(options.target_block_depth, h);
  const rebound::meshes::Mesh mesh = rebound::meshes::build_mesh(c, options, MPI_COMM_SELF);
  double volume = 0, widest = 0, smallest = 1e300;
  int faces[16] = {};
  for (const auto& cell : mesh.triangulation->active_cell_iterators()) {
    if (cell->material_id() != rebound::meshes::body_ids::target) continue;
    volume += cell->measure();
    widest = std::max(widest, cell->extent_in_direction(0));
    EXPECT_LE(cell->extent_in_direction(1), h * (1 + 1e-12));
    if (cell->center().norm() < options.contact_radius)
      smallest = std::min(smallest, cell->diameter());
    for (const auto& face : cell->face_iterators()) {
      if (!face->at_boundary()) continue;
      const auto x = face->center();
      const auto id = face->boundary_id();
      ++faces[id];
      if (id == ids::target_block_surface) {
        EXPECT_NEAR(x[1], 0.0, 1e-12);
      } else if (id == ids::target_block_bottom) {
        EXPECT_NEAR(x[1], -h, 1e-12);
      } else if (id == ids::target_block_edges) {
        EXPECT_NEAR(std::max(std::abs(x[0]), std::abs(x[2])), L, 1e-12);
      }
    }
  }
  EXPECT_NEAR(volume, 4 * L * L * h, 1e-9 * L * L * h);
  EXPECT_NEAR(widest, L / 14, 1e-12);  // the coarse cells far from P
  EXPECT_LE(smallest, options.contact_radius / options.contact_resolution);
  EXPECT_EQ(faces[ids::target_block_edges], 4 * 28);  // unrefined at the edges
  EXPECT_GT(faces[ids::target_block_surface], 4 * 14 * 14);
}

// Clamped edges add a zero-displacement constraint on every node of the four edge faces: for
// degree 2 and refinement r, 2n 2^r cells along an edge and 2^r across h, the faces hold 4 (4n 2^r
// + 1)(2^(r+1) + 1) support points less the 4 (2^(r+1) + 1) of the corner lines counted twice, 3
// dofs each. The free plate has none of them.
TEST(ElasticPlate, ClampedEdgesHoldEveryNodeOnThem) {
  rebound::fem::RunOptions options;
  options.frames = 0;
  options.max_steps = 2;
  for (const int r : {0, 1}) {
    Case free = plate(2, r), clamped = free;
    clamped.target.edge = rebound::cases::PlateEdge::clamped;
    const auto a = rebound::fem::run(free, options, MPI_COMM_SELF);
    const auto b = rebound::fem::run(clamped, options, MPI_COMM_SELF);
    const long long n = 14, along = 4 * n * (1LL << r) + 1, across = (2LL << r) + 1;
    const long long nodes = 4 * along * across - 4 * across;
    EXPECT_EQ(a.info.dofs, b.info.dofs);
    EXPECT_EQ(b.info.constrained_dofs - a.info.constrained_dofs, 3 * nodes) << "refinement " << r;
  }
}

// The contact zone must fit in the plate: at least 3 Hertz contact radii thick, 10 wide; each
// refusal names its key.
TEST(ElasticPlate, RefusesAPlateTooThinOrTooNarrowForTheContactZone) {
  Case c = plate(1, 0);
  const double a = rebound::cases::derive(c).hertz.contact_radius;
  EXPECT_NO_THROW(rebound::fem::ElasticPlate{c});
  Case thin = c, narrow = c;
  thin.target.thickness = 2.9 * a;
  narrow.target.half_width = 9.9 * a;
  for (const auto& [bad, key] :
       {std::pair{thin, "target.thickness"}, std::pair{narrow, "target.half_width"}}) {
    try {
      rebound::fem::ElasticPlate{bad};
      ADD_FAILURE() << key << " accepted";
    } catch (const rebound::cases::CaseError& error) {
      EXPECT_EQ(error.key(), key);
    }
  }
}
