// The FE body's quasi-static normal contact law, and the impact it gives without inertia.
//
// The explicit FEM (fem/fem.h) solves M u'' + K u = f_contact. When the body's inertia plays no
// part beyond its rigid-body deceleration, every node decelerates alike, u'' = -b e_n, and what is
// left is the static problem
//
//     K u = f_contact - b M 1_n,     gap_i = g_i + u_n,i >= 0,  f_i >= 0,  f_i gap_i = 0,
//
// the body under the uniform body force of its own deceleration (b per unit mass, the lumped
// masses of the explicit FEM) pressed frictionlessly on its rigid target (the plane y = 0, or the
// spherical socket; gap_i its gap and u_n,i the displacement along its normal at node i) at the
// same candidate nodes as the explicit contact. Its force F = m b against the approach of the
// centroid delta = -(sum_i m_i u_n,i)/m is the contact law of the FE body; Hertz's is F = (4/3) E*
// sqrt(R) delta^(3/2). Integrating m delta'' = -F(delta) from the impact speed gives the
// quasi-static impact's duration and peak force: the FEM's answer with its inertia (waves, the
// contact region's mass) taken out, and its mesh, elements and contact nodes kept.
//
// Method. K is assembled (same FE space, geometry and quadrature as the explicit operator) and
// factorised once (CHOLMOD's supernodal Cholesky) with the six rigid modes held by a statically
// determinate support: the node farthest from the plane fixed, the node at P held laterally, one
// more node held in b. The loads below are in equilibrium, so that support carries nothing and the
// solution is the free body's up to a rigid motion. One solve per candidate node gives the
// influence (compliance) matrix W of the candidates' normal displacements, one more the body
// force's. For each body force the contact problem is then a small one: the nodal forces f >= 0 and
// the rigid approach c with W f + b w + y + c >= 0, complementarity and the force balance with the
// body force, the minimum of the complementary energy solved by the primal-dual active-set method
// (Hintermueller, Ito & Kunisch 2002), each body force from the previous one's contact, with a
// primal active-set method (Lawson & Hanson's NNLS with the balance as an equality) behind it. The
// moment about n is left to the support; the law reports the offset of the contact force's line
// from the centroid's. Serial (one process; the influence solves use the BLAS's threads).
#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/case.h"

namespace rebound::fem {

struct StaticLawOptions {
  int extra_levels = 0;  // --level K: global refinements added to the case's mesh
  // Body forces as multiples of Hertz's peak force of the case's impact, increasing, > 0.
  std::vector<double> force_fractions;
  // Candidate nodes: unconstrained boundary nodes within this distance of P, m (0: 1.3 times
  // the target's contact radius at the largest force, fem::Target::contact_radius: Hertz's on
  // the plane). A law whose contact reaches the outermost
  // candidates is refused.
  double candidate_radius = 0;
  // Called after each influence solve with (solves done, solves in all); the solves are nearly all
  // of the time.
  std::function<void(int, int)> progress;
  // Checked before each solve: when set, the law throws QuasiStaticInterrupted.
  const std::atomic<bool>* stop = nullptr;
};

// The stop flag ended the law before it was complete (nothing of it is kept).
class QuasiStaticInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The default body forces: 40 points from 1e-3 to 1.3 of Hertz's peak force, evenly in log.
std::vector<double> default_force_fractions();

struct StaticLawPoint {
  double force = 0;           // N: the contact force, m b
  double approach = 0;        // m: delta, the centroid's approach to the plane
  double hertz_approach = 0;  // m: Hertz's delta at this force, (9 F^2 / (16 E*^2 R))^(1/3)
  int contact_nodes = 0;      // candidates in contact
  double contact_radius = 0;  // m: the largest distance from P of a node in contact
  // m: distance between the contact force's line of action and the centroid's (the moment the
  // support takes, over F; small against the contact radius for a symmetric mesh)
  double load_offset = 0;
  double max_penetration = 0;  // m: the largest -gap over the candidates (round-off)
  double balance_error = 0;    // |sum f - m b| / (m b)
  int active_set_iterations = 0;
};

struct StaticLaw {
  int degree = 0;
  unsigned long long dofs = 0, cells = 0;
  int candidates = 0;
  double candidate_radius = 0;  // m
  double mass = 0;              // kg: the sum of the lumped nodal masses
  // Maxwell-Betti reciprocity of the influence solves (relative; round-off): the asymmetry of the
  // candidates' compliance and |w_j + m mean_j| (the body force's displacement at j against the
  // mean displacement of a unit force at j)
  double reciprocity_error = 0;
  double h_contact = 0;  // m: the mesh's contact cell diameter
  // s: the mesh, K and its factorisation; the influence solves; the contact problems
  double setup_seconds = 0, influence_seconds = 0, law_seconds = 0;
  std::vector<StaticLawPoint> points;
};

// Collective over nothing: builds the mesh on MPI_COMM_SELF. Throws std::runtime_error when the
// active set does not settle or the contact reaches the outermost candidates.
StaticLaw static_contact_law(const cases::Case& c, const StaticLawOptions& options);

struct QuasiStaticImpact {
  double contact_duration = 0;  // s
  double peak_force = 0;        // N
  double max_approach = 0;      // m
};

// m delta'' = -F(delta) from delta = 0, delta' = speed, with F the law's points joined by power
// laws (Hertz's 3/2 below the first point) until delta returns to 0: for an elastic law the
// return is the mirror image of the approach, so the duration is twice the time to the turning
// point. Throws std::invalid_argument when the law's largest force is below the peak.
// The mass is the law's (the FE body's lumped mass), the speed the normal approach speed.
QuasiStaticImpact quasi_static_impact(const StaticLaw& law, double speed);

}  // namespace rebound::fem
