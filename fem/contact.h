// The contact of the FEM: a kinematic node-to-plane contact with Coulomb friction on the rigid
// plane y = 0, applied to the half-step velocity of the explicit (leapfrog) scheme. No deal.II:
// it acts on one node's state, so it can be tested on its own (tests/fem/test_contact.cpp).
//
// Predictor-corrector, per node of mass m at height y_n with velocity v_{n+1/2} after the free
// step (Carpenter, Taylor & Katona 1991; Belytschko, Liu & Moran, Nonlinear Finite Elements,
// sec. 10.4 for the explicit form):
//   normal: if y_n + dt v_y < 0, the node is put exactly on the plane at t_{n+1}: v_y := -y_n/dt,
//           with the normal impulse J_n = m (v_y,new - v_y) >= 0 (a node pulled away is released);
//   tangential (Coulomb, maximal dissipation): stick, v_t := 0, if the impulse that stops the
//           node, m |v_t|, is within mu J_n; else slip, J_t = -mu J_n v_t/|v_t|.
// The works are those of the leapfrog energy balance, J . (v_{n-1/2} + v_{n+1/2}) / 2.
#pragma once

#include <Eigen/Dense>
#include <cmath>

namespace rebound::fem {

struct NodeContact {
  bool active = false;  // the node touched the plane this step
  bool stick = false;   // ... and its tangential velocity was stopped (stick)
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();  // on the node (t, n, b), N s
  double friction_work = 0;                           // work dissipated by friction, >= 0, J
  double normal_work = 0;  // work of the normal impulse (<= 0: kinetic energy removed), J
};

// Applies the contact to one node: `velocity` (v_{n+1/2}) is corrected in place;
// `previous_velocity` is v_{n-1/2}; height y_n; mass m; step dt; friction mu.
inline NodeContact rigid_plane_contact(double height, Eigen::Vector3d& velocity,
                                       const Eigen::Vector3d& previous_velocity, double mass,
                                       double dt, double friction) {
  NodeContact c;
  if (height + dt * velocity.y() >= 0) return c;
  const double vy_new = -height / dt;
  const double jn = mass * (vy_new - velocity.y());
  if (!(jn > 0)) return c;
  velocity.y() = vy_new;
  const double speed = std::hypot(velocity.x(), velocity.z());
  double jx = 0, jz = 0;
  if (mass * speed <= friction * jn) {  // stick
    c.stick = true;
    jx = -mass * velocity.x();
    jz = -mass * velocity.z();
    velocity.x() = 0;
    velocity.z() = 0;
  } else if (speed > 0 && friction > 0) {  // slip against the predicted sliding direction
    const double j = friction * jn;
    jx = -j * velocity.x() / speed;
    jz = -j * velocity.z() / speed;
    velocity.x() += jx / mass;
    velocity.z() += jz / mass;
  }
  c.active = true;
  c.impulse = {jx, jn, jz};
  c.friction_work = -0.5 * (jx * (previous_velocity.x() + velocity.x()) +
                            jz * (previous_velocity.z() + velocity.z()));
  c.normal_work = 0.5 * jn * (previous_velocity.y() + velocity.y());
  return c;
}

// The same contact on a curved rigid surface, in the surface's local frame: the node's gap g_n
// (distance from the surface, positive outside) and the unit normal n there (out of the target,
// into the body). Normal: if g_n + dt v.n < 0, v.n := -g_n/dt, J_n = m (v.n,new - v.n) >= 0;
// tangential: as on the plane, in the plane normal to n (v_t = v - (v.n) n). The predictor is
// the surface's tangent plane at the node over one step: its error, a step's tangential travel
// squared over twice the surface's radius, is far below the displacement resolution. The
// impulse is returned in the case's frame (t, n, b).
inline NodeContact rigid_surface_contact(double gap, const Eigen::Vector3d& normal,
                                         Eigen::Vector3d& velocity,
                                         const Eigen::Vector3d& previous_velocity, double mass,
                                         double dt, double friction) {
  NodeContact c;
  const double vn = velocity.dot(normal);
  if (gap + dt * vn >= 0) return c;
  const double vn_new = -gap / dt;
  const double jn = mass * (vn_new - vn);
  if (!(jn > 0)) return c;
  velocity += (vn_new - vn) * normal;
  const Eigen::Vector3d vt = velocity - velocity.dot(normal) * normal;
  const double speed = vt.norm();
  Eigen::Vector3d jt = Eigen::Vector3d::Zero();
  if (mass * speed <= friction * jn) {  // stick
    c.stick = true;
    jt = -mass * vt;
    velocity -= vt;
  } else if (speed > 0 && friction > 0) {  // slip against the predicted sliding direction
    jt = -(friction * jn / speed) * vt;
    velocity += jt / mass;
  }
  c.active = true;
  c.impulse = jn * normal + jt;
  c.friction_work = -0.5 * jt.dot(previous_velocity + velocity);
  c.normal_work = 0.5 * jn * normal.dot(previous_velocity + velocity);
  return c;
}

}  // namespace rebound::fem
