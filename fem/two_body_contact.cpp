// The two-body kinematic contact (fem/two_body_contact.h). The facets near a node are found with
// Boost.Geometry's R-tree (packed from the facets' bounding boxes at t_n once per step).
#include "fem/two_body_contact.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <iterator>
#include <limits>

namespace rebound::fem {
namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using BoxPoint = bg::model::point<double, 3, bg::cs::cartesian>;
using Box = bg::model::box<BoxPoint>;
using Entry = std::pair<Box, int>;  // a facet's box and its index

// The bilinear shape functions at (xi, eta), corners in the order (0,0), (1,0), (0,1), (1,1).
std::array<double, 4> shape(double xi, double eta) {
  return {{(1 - xi) * (1 - eta), xi * (1 - eta), (1 - xi) * eta, xi * eta}};
}

// The share of a node's penetration at t_n that one step removes (see the gap it aims at).
constexpr double kPenetrationRecovery = 0.1;

// How far from a facet (a share of its size) a node is a candidate to meet it. A node's nearest
// facet point lies within this of the facet's box when the node is within it of the surface;
// nodes farther away cannot reach the surface within a step. A quarter of the facet keeps the
// candidates to the facets under the node and its neighbours' (a margin of the whole facet gave
// about nine per node, the projection then most of the contact's time: docs/PERFORMANCE.md).
constexpr double kCandidateMargin = 0.25;

// One slave node's state over a step: the accumulated normal and tangential impulses.
struct Slave {
  double normal = 0;                                     // J_n >= 0
  Eigen::Vector3d tangential = Eigen::Vector3d::Zero();  // J_t, |J_t| <= mu J_n
};

}  // namespace

Eigen::Vector2d closest_point_on_bilinear(const std::array<Eigen::Vector3d, 4>& x,
                                          const Eigen::Vector3d& s) {
  // x(xi, eta) = a + b xi + c eta + d xi eta
  const Eigen::Vector3d a = x[0], b = x[1] - x[0], c = x[2] - x[0], d = x[3] - x[1] - x[2] + x[0];
  Eigen::Vector2d q(0.5, 0.5);
  for (int k = 0; k < 20; ++k) {
    const Eigen::Vector3d r = a + b * q[0] + c * q[1] + d * q[0] * q[1] - s;
    const Eigen::Vector3d t0 = b + d * q[1], t1 = c + d * q[0];
    const Eigen::Vector2d gradient(r.dot(t0), r.dot(t1));
    // The symmetric 2 x 2 Hessian [h00 h01; h01 h11], solved by Cramer's rule (a singular one,
    // a degenerate patch, ends the iteration where it is).
    const double h00 = t0.dot(t0), h01 = t0.dot(t1) + r.dot(d), h11 = t1.dot(t1);
    const double determinant = h00 * h11 - h01 * h01;
    if (!(std::abs(determinant) > 1e-300)) break;
    const Eigen::Vector2d step((h11 * gradient[0] - h01 * gradient[1]) / determinant,
                               (h00 * gradient[1] - h01 * gradient[0]) / determinant);
    if (!step.allFinite()) break;
    const Eigen::Vector2d next = (q - step).cwiseMax(0.0).cwiseMin(1.0);
    const double moved = (next - q).cwiseAbs().maxCoeff();
    q = next;
    if (moved < 1e-12) break;
  }
  return q;
}

namespace {

using Tree = bgi::rtree<Entry, bgi::quadratic<16>>;
// (node, coefficient c_k): four corners, a hanging one through up to four masters (no allocation
// up to 16 terms: one per contact node and step otherwise).
using Combination = boost::container::small_vector<std::pair<int, double>, 16>;

Eigen::Vector3d position(const SurfaceNode& node) {
  return node.X + node.u;
}

Eigen::Vector3d corner_position(const std::vector<SurfaceNode>& nodes, const Facet& f, int c) {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  for (const auto& [k, w] : f.corner[c]) x += w * position(nodes[k]);
  return x;
}

// The corners of the target body's facets (body 1's) at t_n, by facet index (body 0's left empty):
// formed once per step for the R-tree, the nodal normals and the projections.
using Corners = std::array<Eigen::Vector3d, 4>;
std::vector<Corners> target_corners(const std::vector<SurfaceNode>& nodes,
                                    const std::vector<Facet>& facets) {
  std::vector<Corners> corners(facets.size());
  for (std::size_t i = 0; i < facets.size(); ++i)
    if (facets[i].body == 1)
      for (int c = 0; c < 4; ++c) corners[i][c] = corner_position(nodes, facets[i], c);
  return corners;
}

// The target body's facets (body 1's) in an R-tree of their boxes at t_n, grown by
// kCandidateMargin of the facet's size: the largest distance a node may be from a facet and still
// touch it this step. A step moves a node by far less (two_body_contact checks it:
// TwoBodyContactResult::travel), and a node deeper than the margin is on the far side, not in
// contact.
Tree target_facet_tree(const std::vector<Facet>& facets, const std::vector<Corners>& corners,
                       double& margin) {
  margin = std::numeric_limits<double>::max();
  std::vector<Entry> entries;
  for (int i = 0; i < int(facets.size()); ++i) {
    if (facets[i].body != 1) continue;
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::max());
    Eigen::Vector3d hi = -lo;
    for (int c = 0; c < 4; ++c) {
      const Eigen::Vector3d& x = corners[i][c];
      lo = lo.cwiseMin(x);
      hi = hi.cwiseMax(x);
    }
    const double grow = kCandidateMargin * (hi - lo).maxCoeff();
    margin = std::min(margin, grow);
    lo.array() -= grow;
    hi.array() += grow;
    entries.emplace_back(Box(BoxPoint(lo[0], lo[1], lo[2]), BoxPoint(hi[0], hi[1], hi[2])), i);
  }
  return Tree(entries.begin(), entries.end());
}

// The nodal normals of the target body's surface at t_n: the area-weighted facet normals at each
// node (a hanging corner's carried onto its masters), normalised. The contact normal at a facet
// point is their interpolation, continuous across the facets' edges, so that a node passing from
// one facet to the next is not kicked by the jump of the facet normals (and at P of two
// mirror-image meshes it is the line of centres).
std::vector<Eigen::Vector3d> nodal_normals(const std::vector<SurfaceNode>& nodes,
                                           const std::vector<Facet>& facets,
                                           const std::vector<Corners>& corners) {
  std::vector<Eigen::Vector3d> normal(nodes.size(), Eigen::Vector3d::Zero());
  for (std::size_t i = 0; i < facets.size(); ++i) {
    const Facet& f = facets[i];
    if (f.body != 1) continue;
    const Corners& x = corners[i];
    const std::array<Eigen::Vector3d, 4> corner_normal = {
        {(x[1] - x[0]).cross(x[2] - x[0]), (x[1] - x[0]).cross(x[3] - x[1]),
         (x[3] - x[2]).cross(x[2] - x[0]), (x[3] - x[2]).cross(x[3] - x[1])}};
    for (int c = 0; c < 4; ++c)
      for (const auto& [k, w] : f.corner[c]) normal[k] += w * corner_normal[c];
  }
  for (Eigen::Vector3d& n : normal)
    if (n.squaredNorm() > 0) n.normalize();
  return normal;
}

// The facet point as one combination of nodes: sum over corners of N_c times the corner's terms, a
// node reached through several corners (a hanging corner's masters include the facet's own
// corners) counted once with the sum of its coefficients, so that the effective mass
// sum c_k^2 / m_k is that of the point's motion.
Combination combine(const Facet& f, const std::array<double, 4>& N) {
  Combination point;
  for (int c = 0; c < 4; ++c)
    for (const auto& [k, w] : f.corner[c]) {
      auto found = std::find_if(point.begin(), point.end(),
                                [k = k](const std::pair<int, double>& e) { return e.first == k; });
      if (found == point.end())
        point.emplace_back(k, N[c] * w);
      else
        found->second += N[c] * w;
    }
  return point;
}

// A node's partner over the step: the closest point of the target body's surface at t_n, as a
// combination of that body's nodes, with the contact normal there and the node's inverse
// effective mass against it, w = 1/m_s + sum c_k^2 / m_k.
struct Partner {
  std::size_t node = 0;  // the node s
  Combination point;
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
  double size = 0;  // the facet's size
  double w = 0;
  double offset = 0;  // the facet point's distance outside the exact surface (surface_gap)
};

// The closest point to node s of the target's surface: (facet, (xi, eta)). candidates: (the
// squared distance from the node to the facet's corner box, the facet), in increasing order: the
// patch lies in its corners' box, so a facet whose box is not nearer than the nearest point found
// so far has none nearer, and nor has any after it.
std::pair<int, Eigen::Vector2d> closest_facet_point(
    const std::vector<SurfaceNode>& nodes, const std::vector<Corners>& corner_positions,
    const std::vector<std::pair<double, int>>& candidates, std::size_t s) {
  const Eigen::Vector3d x = position(nodes[s]);
  double best = std::numeric_limits<double>::max();
  int facet = -1;
  Eigen::Vector2d at = Eigen::Vector2d::Zero();
  for (const auto& [box_distance, i] : candidates) {
    if (box_distance >= best) break;
    const Corners& corners = corner_positions[i];
    const Eigen::Vector2d q = closest_point_on_bilinear(corners, x);
    const std::array<double, 4> N = shape(q[0], q[1]);
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    for (int c = 0; c < 4; ++c) point += N[c] * corners[c];
    const double distance = (x - point).squaredNorm();
    if (distance < best) best = distance, facet = i, at = q;
  }
  return {facet, at};
}

// Node s's partner at the point (xi, eta) = at of the facet.
Partner partner_at(const std::vector<SurfaceNode>& nodes, const std::vector<Facet>& facets,
                   const std::vector<Corners>& corner_positions,
                   const std::vector<Eigen::Vector3d>& normal, std::size_t s, int facet,
                   const Eigen::Vector2d& at,
                   const std::function<double(const Eigen::Vector3d&)>& surface_gap) {
  const Facet& f = facets[facet];
  const Corners& corners = corner_positions[facet];
  Partner partner;
  partner.node = s;
  partner.point = combine(f, shape(at[0], at[1]));
  for (const auto& [k, c] : partner.point) partner.normal += c * normal[k];
  partner.normal.normalize();
  const Eigen::Vector3d tangent_xi =
      (1 - at[1]) * (corners[1] - corners[0]) + at[1] * (corners[3] - corners[2]);
  const Eigen::Vector3d tangent_eta =
      (1 - at[0]) * (corners[2] - corners[0]) + at[0] * (corners[3] - corners[1]);
  partner.size = std::max(tangent_xi.norm(), tangent_eta.norm());
  partner.w = 1 / nodes[s].mass;
  for (const auto& [k, c] : partner.point) partner.w += c * c / nodes[k].mass;
  if (surface_gap) {
    Eigen::Vector3d reference = Eigen::Vector3d::Zero();
    for (const auto& [k, c] : partner.point) reference += c * nodes[k].X;
    partner.offset = surface_gap(reference);
  }
  return partner;
}

// The step's partners of the body's nodes (body 0's): found once, at t_n, and fixed over the
// step's sweeps. A node with no facet of the target near it has none: the list holds the nodes
// that have one, in the table's order. The search (the R-tree query and the projections, most of
// the contact's time) is shared between the ranks (PartnerSearchShare).
std::vector<Partner> partners(const std::vector<SurfaceNode>& nodes,
                              const std::vector<Facet>& facets, double& margin,
                              const PartnerSearchShare& share,
                              const std::function<double(const Eigen::Vector3d&)>& surface_gap) {
  const std::vector<Corners> corners = target_corners(nodes, facets);
  const Tree tree = target_facet_tree(facets, corners, margin);
  const std::vector<Eigen::Vector3d> normal = nodal_normals(nodes, facets, corners);
  std::vector<double> rows;  // node, facet, xi, eta
  std::vector<Entry> found;
  std::vector<std::pair<double, int>> candidates;
  int body_node = -1;
  for (std::size_t s = 0; s < nodes.size(); ++s) {
    if (nodes[s].body == 1) continue;
    if (++body_node % share.ranks != share.rank) continue;
    const Eigen::Vector3d x = position(nodes[s]);
    found.clear();
    tree.query(bgi::intersects(BoxPoint(x[0], x[1], x[2])), std::back_inserter(found));
    if (found.empty()) continue;
    candidates.clear();
    for (const Entry& e : found) {
      const Corners& c = corners[e.second];
      Eigen::Vector3d lo = c[0], hi = c[0];
      for (int k = 1; k < 4; ++k) lo = lo.cwiseMin(c[k]), hi = hi.cwiseMax(c[k]);
      candidates.emplace_back((x - x.cwiseMax(lo).cwiseMin(hi)).squaredNorm(), e.second);
    }
    // nearest box first (ties by index: the R-tree's order is not ours)
    std::sort(candidates.begin(), candidates.end());
    const auto [facet, at] = closest_facet_point(nodes, corners, candidates, s);
    rows.insert(rows.end(), {double(s), double(facet), at[0], at[1]});
  }
  if (share.ranks > 1) rows = share.gather(rows);
  std::vector<std::array<double, 4>> found_points(rows.size() / 4);
  for (std::size_t k = 0; k < found_points.size(); ++k)
    std::copy(rows.begin() + 4 * k, rows.begin() + 4 * k + 4, found_points[k].begin());
  std::sort(found_points.begin(), found_points.end());  // the table's order (nodes are unique)
  std::vector<Partner> result;
  result.reserve(found_points.size());
  for (const auto& [s, facet, xi, eta] : found_points)
    result.push_back(partner_at(nodes, facets, corners, normal, std::size_t(s), int(facet),
                                Eigen::Vector2d(xi, eta), surface_gap));
  return result;
}

}  // namespace

// The step: the partners and normals at t_n, then projected Gauss-Seidel sweeps over the nodes,
// each closing its linearised gap at t_{n+1},
//     g = (x~_s - sum_k c_k x~_k) . n,   x~ = x_n + dt v_{n+1/2} (the current velocities),
// and limiting its tangential impulse to Coulomb's cone.
TwoBodyContactResult two_body_contact(std::vector<SurfaceNode>& nodes,
                                      const std::vector<Facet>& facets, double dt,
                                      const TwoBodyContactOptions& options,
                                      const PartnerSearchShare& share) {
  const std::size_t n = nodes.size();
  TwoBodyContactResult result;
  result.normal_impulse.assign(n, Eigen::Vector3d::Zero());
  result.friction_impulse.assign(n, Eigen::Vector3d::Zero());
  std::vector<Slave> slaves(n);
  const double mu = options.friction;
  const std::vector<Partner> partner =
      partners(nodes, facets, result.margin, share, options.surface_gap);
  for (const SurfaceNode& node : nodes) result.travel = std::max(result.travel, dt * node.v.norm());

  const auto apply = [&](std::size_t s, const Combination& point, const Eigen::Vector3d& impulse,
                         std::vector<Eigen::Vector3d>& record) {
    nodes[s].v += impulse / nodes[s].mass;
    record[s] += impulse;
    for (const auto& [k, c] : point) {
      nodes[k].v -= (c / nodes[k].mass) * impulse;
      record[k] -= c * impulse;
    }
  };
  const auto relative_velocity = [&](const Partner& p) {
    Eigen::Vector3d v = nodes[p.node].v;
    for (const auto& [k, c] : p.point) v -= c * nodes[k].v;
    return v;
  };

  const double tolerance = options.tolerance * result.travel;
  for (int sweep = 0; sweep < options.max_sweeps; ++sweep) {
    double penetration = 0, correction = 0;
    for (const Partner& p : partner) {
      const std::size_t s = p.node;
      Eigen::Vector3d apart = position(nodes[s]);
      for (const auto& [k, c] : p.point) apart -= c * position(nodes[k]);
      const double gap_now = apart.dot(p.normal) + p.offset;
      const double gap = gap_now + dt * relative_velocity(p).dot(p.normal);
      // The gap the step aims at: zero, or, where the node already penetrates at t_n (the
      // partners and normals of one step are not the next step's exactly), that penetration less
      // a tenth of it: pushing a penetration out within one step would give the node |g_n|/dt,
      // energy the contact would create.
      const double aim = gap_now < 0 ? (1 - kPenetrationRecovery) * gap_now : 0.0;
      Slave& slave = slaves[s];
      if (gap >= aim && slave.normal == 0) continue;       // apart, and not pressed this step
      if (gap_now < -kCandidateMargin * p.size) continue;  // the far side: not this surface
      // Normal: close the gap, the accumulated impulse kept >= 0 (a node pulled away is released).
      const double increment = std::max((aim - gap) / (dt * p.w), -slave.normal);
      slave.normal += increment;
      apply(s, p.point, increment * p.normal, result.normal_impulse);
      penetration = std::max(penetration, aim - gap);
      // Tangential: stop the relative tangential velocity, within Coulomb's cone mu J_n.
      const Eigen::Vector3d relative = relative_velocity(p);
      const Eigen::Vector3d slip = relative - relative.dot(p.normal) * p.normal;
      Eigen::Vector3d total = slave.tangential - slip / p.w;
      total -= total.dot(p.normal) * p.normal;
      const double limit = mu * slave.normal;
      if (total.norm() > limit) total *= limit / total.norm();
      const Eigen::Vector3d change = total - slave.tangential;
      slave.tangential = total;
      if (change.squaredNorm() > 0) apply(s, p.point, change, result.friction_impulse);
      correction = std::max({correction, std::abs(increment) * p.w * dt, change.norm() * p.w * dt});
    }
    result.sweeps = sweep + 1;
    result.penetration = penetration;
    result.correction = correction;
    result.converged = correction <= tolerance;
    if (result.converged) break;
  }

  for (std::size_t i = 0; i < n; ++i) {
    const SurfaceNode& s = nodes[i];
    const Eigen::Vector3d mean = 0.5 * (s.v_previous + s.v);
    result.normal_work += result.normal_impulse[i].dot(mean);
    result.friction_work -= result.friction_impulse[i].dot(mean);
    result.impulse[s.body] += result.normal_impulse[i] + result.friction_impulse[i];
    if (slaves[i].normal > 0) {
      result.contact_nodes[s.body] += 1;
      result.contact_area[s.body] += s.area;
      result.reach = std::max(result.reach, s.X.norm());
    }
  }
  return result;
}

}  // namespace rebound::fem
