// The contact between two deformable bodies over one explicit step: a kinematic node-to-facet
// contact with Coulomb friction on the half-step velocities, in one pass (the body's nodes, body 0,
// against the target body's facets, body 1), the impulses shared between a node and the facet
// point it meets in proportion to the facet's interpolation weights. No deal.II: it acts on a
// replicated table of the contact surfaces' nodes (fem/solver.cpp fills it on every rank), so it
// can be tested on its own (tests/fem/test_two_body.cpp). The ranks share the search for the
// nodes' partners (PartnerSearchShare); the sweeps run on every rank alike.
//
// The method (Taylor & Flanagan 1989, PRONTO-3D; Carpenter, Taylor & Katona 1991, the forward
// increment Lagrange multipliers; Heinstein, Mello, Attaway & Laursen 2000; Belytschko, Liu &
// Moran, Nonlinear Finite Elements, sec. 10.4): at t_n every node s of the body finds its closest
// point on the target body's surface, a point f = sum_k c_k x_k of a
// bilinear facet (c_k the facet's shape functions at the projection, carried through hanging-node
// constraints onto their masters), and the contact normal n there (the interpolated nodal normals,
// pointing out of the facet's body). The c_k and n are then fixed for the step: the constraint is
// linear in the positions at t_{n+1}, x~ = x_n + dt v_{n+1/2}. If its gap
//     g = (x~_s - sum_k c_k x~_k) . n
// is negative, the normal impulse that closes it,
//     J_n = -g / (dt w),   w = 1/m_s + sum_k c_k^2 / m_k,
// acts on s (+J_n n) and on the facet's nodes (-c_k J_n n): the total momentum is unchanged to
// round-off. Coulomb's law then limits the impulse that stops the relative tangential velocity
// (stick) to mu J_n (slip). The nodes are swept as a projected Gauss-Seidel iteration on the
// accumulated impulses (J_n >= 0, |J_t| <= mu J_n) until no node penetrates by more than
// `tolerance`: one sweep for node-to-node contact (matching meshes), a few for non-matching ones.
// Fixing the geometry at t_n matters: the same contact with c_k and n taken at the predicted
// x~ (a projection, not a linear constraint) grows energy exponentially in frictionless sliding
// (docs/FEM.md, "Two elastic spheres").
// The works are those of the leapfrog energy balance, J . (v_{n-1/2} + v_{n+1/2}) / 2 per node, as
// for the rigid targets (fem/contact.h).
#pragma once

#include <Eigen/Dense>
#include <array>
#include <functional>
#include <utility>
#include <vector>

namespace rebound::fem {

// One node of a contact surface (an unconstrained FE node on the boundary).
struct SurfaceNode {
  int body = 0;                                 // 0: the body, 1: the target body
  Eigen::Vector3d X = Eigen::Vector3d::Zero();  // reference position, m
  double mass = 0, area = 0;                    // lumped mass (kg), nodal boundary area (m^2)
  Eigen::Vector3d u = Eigen::Vector3d::Zero();  // displacement u_n
  Eigen::Vector3d v = Eigen::Vector3d::Zero();  // v_{n+1/2} after the free step; corrected
  Eigen::Vector3d v_previous = Eigen::Vector3d::Zero();  // v_{n-1/2}
};

// A bilinear facet of a body's surface: corners in the order (0,0), (1,0), (0,1), (1,1) of its
// (xi, eta), so that dx/dxi x dx/deta points out of the body. Each corner is a combination of
// surface nodes (index into the node table, weight): one node with weight 1, or a hanging node's
// masters with its constraint's weights.
struct Facet {
  int body = 0;
  std::array<std::vector<std::pair<int, double>>, 4> corner;
};

struct TwoBodyContactOptions {
  double friction = 0;  // Coulomb coefficient mu between the two bodies
  // Stop the Gauss-Seidel sweeps when a sweep's largest correction of a node's motion over the
  // step, of its normal gap (the predicted penetration it removed) or of its tangential
  // displacement (|change of J_t| w dt), is below this share of the step's travel dt max|v|: a
  // tolerance relative to the motion, so that slow impacts converge as fast ones do.
  double tolerance = 1e-4;
  int max_sweeps = 200;  // ... or after this many sweeps (TwoBodyContactResult::sweeps)
  // The target's exact undeformed surface, when its facets should stand for it (a concave one):
  // the signed distance of a reference point from it, positive outside the target (Target::gap).
  // A facet point F (reference position) then lies surface_gap(F) outside the exact surface, and
  // the node's gap is measured from the exact surface, g + surface_gap(F). A bilinear facet of a
  // concave surface (an elastic socket's) is a chord that stands out of the target by up to
  // s^2 / (8 R1) for facets of size s, more than the conformal gap r^2 / (2 R_eff) to the ball
  // over most of the contact zone, so without it the bodies would overlap from the start. Empty:
  // the facets are the surface (flat faces; the convex sphere, whose chords lie inside it).
  std::function<double(const Eigen::Vector3d&)> surface_gap;
};

// How the MPI ranks share the search for the body's nodes' partners (fem/solver.cpp; the default,
// one rank, searches them all): this rank searches every ranks-th of the body's tabled nodes from
// the rank-th on, and gather returns every rank's rows (4 doubles each: node, facet, xi, eta)
// concatenated. The partners are then formed from the rows on every rank, in the table's order, so
// the result is the same to the last bit for any number of ranks.
struct PartnerSearchShare {
  int rank = 0, ranks = 1;
  std::function<std::vector<double>(const std::vector<double>&)> gather;
};

struct TwoBodyContactResult {
  // per node: the normal and the tangential impulse of this step, N s
  std::vector<Eigen::Vector3d> normal_impulse, friction_impulse;
  double normal_work = 0;    // sum over nodes of J_n . (v_{n-1/2} + v_{n+1/2}) / 2, J
  double friction_work = 0;  // minus the same of the tangential impulses (>= 0 in sum), J
  int sweeps = 0;
  double penetration = 0;  // the last sweep's largest predicted penetration removed, m
  double correction = 0;   // the last sweep's largest correction (options.tolerance), m
  // Whether the sweeps ended within the tolerance (false: options.max_sweeps ended them).
  bool converged = true;
  std::array<int, 2> contact_nodes{{0, 0}};  // nodes of each body with a normal impulse
  std::array<double, 2> contact_area{{0, 0}};
  std::array<Eigen::Vector3d, 2> impulse{{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()}};
  // The largest |X| (reference distance from P) of a node in contact, m: how far the contact
  // zone reached over the tables' surfaces.
  double reach = 0;
  // The largest distance a node moved in the step, dt |v_{n+1/2}| (before the contact), and the
  // smallest candidate margin of a facet: a node farther than the margin from a facet is not its
  // candidate, so the step is only trusted while travel < margin (the solver fails the run
  // otherwise).
  double travel = 0, margin = 0;
};

// Applies the contact to the nodes' v (v_{n+1/2}) in place. Deterministic: the same table in the
// same order gives the same bits on every rank.
TwoBodyContactResult two_body_contact(std::vector<SurfaceNode>& nodes,
                                      const std::vector<Facet>& facets, double dt,
                                      const TwoBodyContactOptions& options,
                                      const PartnerSearchShare& share = {});

// The closest point of the bilinear patch x(xi, eta) with corners x[0..3] (order above) to the
// point s: (xi, eta) in [0, 1]^2 (Newton on the squared distance, projected onto the square).
Eigen::Vector2d closest_point_on_bilinear(const std::array<Eigen::Vector3d, 4>& x,
                                          const Eigen::Vector3d& s);

}  // namespace rebound::fem
