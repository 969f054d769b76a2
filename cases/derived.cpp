#include "cases/derived.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cases/json_numbers.h"
#include "cases/socket.h"
#include "cases/warnings.h"

namespace rebound::cases {
namespace {

// Central inertia of a body of revolution with axis `axis`: I_axial along it, I_transverse across.
Eigen::Matrix3d axisymmetric_inertia(const Eigen::Vector3d& axis, double axial, double transverse) {
  const Eigen::Matrix3d projector = axis * axis.transpose();
  return axial * projector + transverse * (Eigen::Matrix3d::Identity() - projector);
}

}  // namespace

double capsule_transverse_gyration_squared(double radius, double length) {
  const double R = radius, L = length;
  return (8.0 / 15.0 * R * R * R + 0.75 * R * R * L + R * L * L / 3.0 + L * L * L / 12.0) /
         (4.0 / 3.0 * R + L);
}

double capsule_axis_angle(double radius, double length, double theta) {
  return theta + std::asin(radius * std::sin(theta) / (length / 2.0));
}

double capsule_theta_limit(double radius, double length) {
  return std::atan(length / (2.0 * radius));
}

double capsule_theta_for_axis_angle(double radius, double length, double axis_angle) {
  // phi(theta) = theta + asin(2R sin(theta)/L) rises monotonically from 0 to pi/2 on
  // [0, capsule_theta_limit]: bisection to the last bit.
  double low = 0, high = capsule_theta_limit(radius, length);
  for (int i = 0; i < 200 && high - low > 0; ++i) {
    const double middle = 0.5 * (low + high);
    if (middle <= low || middle >= high) break;
    (capsule_axis_angle(radius, length, middle) < axis_angle ? low : high) = middle;
  }
  return low;
}

double mesh_contact_radius_limit(double radius, double axis_angle) {
  return radius * (0.5 * M_PI - std::abs(axis_angle)) / 6.0;
}

double body_axis_angle(const Body& body, double theta) {
  return body.shape == Shape::capsule ? capsule_axis_angle(body.radius, body.length, theta) : 0.0;
}

MassProperties mass_properties(const Body& body, const Material& material, double theta) {
  MassProperties p;
  const double R = body.radius, rho = material.density;
  const Eigen::Vector3d b_axis = Eigen::Vector3d::UnitZ();
  p.body_axis = b_axis;
  p.contact_radius = R;
  switch (body.shape) {
    case Shape::sphere: {
      p.volume = 4.0 / 3.0 * M_PI * R * R * R;
      p.mass = rho * p.volume;
      p.radius_of_gyration = std::sqrt(0.4) * R;
      p.contact_offset = R;
      p.central_inertia = p.mass * 0.4 * R * R * Eigen::Matrix3d::Identity();
      break;
    }
    case Shape::capsule: {
      const double L = body.length;
      const double cylinder = M_PI * R * R * L, caps = 4.0 / 3.0 * M_PI * R * R * R;
      p.volume = cylinder + caps;
      p.mass = rho * p.volume;
      const double k2 = capsule_transverse_gyration_squared(R, L);
      p.radius_of_gyration = std::sqrt(k2);
      const double phi = capsule_axis_angle(R, L, theta);
      p.contact_offset = std::sqrt(L * L / 4.0 + L * R * std::cos(phi) + R * R);  // (5.76)
      // Axis from the cap touching at P towards the other cap: G = C + (L/2) a, on the -t side
      // of P for theta > 0.
      p.body_axis = Eigen::Vector3d(-std::sin(phi), std::cos(phi), 0.0);
      const double axial = rho * (cylinder * R * R / 2.0 + caps * 0.4 * R * R);
      p.central_inertia = axisymmetric_inertia(p.body_axis, axial, p.mass * k2);
      break;
    }
    case Shape::disc: {
      // Solid disc struck on its rim, rotating in its own plane (about b = its axis).
      const double h = body.thickness;
      p.volume = M_PI * R * R * h;
      p.mass = rho * p.volume;
      p.radius_of_gyration = R / std::sqrt(2.0);
      p.contact_offset = R;
      p.central_inertia =
          axisymmetric_inertia(b_axis, p.mass * R * R / 2.0, p.mass * (R * R / 4.0 + h * h / 12.0));
      break;
    }
    case Shape::shell: {
      // Spherical shell, outer radius R, wall thickness h (exact thick-walled formulas).
      const double r = R - body.thickness;
      p.volume = 4.0 / 3.0 * M_PI * (R * R * R - r * r * r);
      p.mass = rho * p.volume;
      const double k2 = 0.4 * (std::pow(R, 5) - std::pow(r, 5)) / (R * R * R - r * r * r);
      p.radius_of_gyration = std::sqrt(k2);
      p.contact_offset = R;
      p.central_inertia = p.mass * k2 * Eigen::Matrix3d::Identity();
      break;
    }
    case Shape::hoop: {
      // Torus: outer radius R (the rim that touches), wire diameter d, centre-line radius R - d/2.
      const double a = body.thickness / 2.0, Rc = R - a;
      p.volume = M_PI * a * a * 2.0 * M_PI * Rc;
      p.mass = rho * p.volume;
      const double axial = p.mass * (Rc * Rc + 0.75 * a * a);
      const double diametral = p.mass * (Rc * Rc / 2.0 + 0.625 * a * a);
      p.radius_of_gyration = std::sqrt(axial / p.mass);
      p.contact_offset = R;
      p.central_inertia = axisymmetric_inertia(b_axis, axial, diametral);
      break;
    }
    case Shape::custom: {
      p.mass = body.mass;
      p.volume = body.mass / rho;
      p.radius_of_gyration = body.radius_of_gyration;
      p.contact_offset = body.contact_offset;
      p.central_inertia =
          p.mass * body.radius_of_gyration * body.radius_of_gyration * Eigen::Matrix3d::Identity();
      break;
    }
  }
  p.centre_of_mass = p.contact_offset * Eigen::Vector3d(-std::sin(theta), std::cos(theta), 0.0);
  return p;
}

Eigen::Matrix2d inverse_inertia_generalized(double body_mass, double gyration, double offset,
                                            double theta) {
  // Generalized speeds u1, u2 (velocity of G along t, n) and u3 (spin about b); the partial
  // velocities of P (3.41-3.43) form l, the mass matrix is m = diag(m_B, m_B, m_B k^2) (3.47).
  Eigen::Matrix<double, 3, 2> l;
  l << 1.0, 0.0, 0.0, 1.0, offset * std::cos(theta), offset * std::sin(theta);
  Eigen::Matrix3d m_inverse =
      Eigen::Vector3d(1.0 / body_mass, 1.0 / body_mass, 1.0 / (body_mass * gyration * gyration))
          .asDiagonal();
  return l.transpose() * m_inverse * l;
}

Eigen::Matrix2d inverse_inertia_at(double mass, double moment_of_inertia,
                                   const Eigen::Vector2d& centre) {
  const Eigen::Vector2d s(centre.y(), -centre.x());  // b x r, r = P - G = -centre
  return Eigen::Matrix2d::Identity() / mass + s * s.transpose() / moment_of_inertia;
}

MassProperties target_mass_properties(const Target& target) {
  Body sphere;
  sphere.shape = Shape::sphere;
  sphere.radius = target.radius;
  Material material;
  material.young_modulus = target.young_modulus;
  material.poisson_ratio = target.poisson_ratio;
  material.density = target.density.value_or(0.0);
  MassProperties p = mass_properties(sphere, material, 0.0);
  p.centre_of_mass = Eigen::Vector3d(0.0, -target.radius, 0.0);
  return p;
}

Eigen::Matrix2d inverse_inertia_closed_form(double body_mass, double gyration, double offset,
                                            double theta) {
  const double k2 = gyration * gyration, b2 = offset * offset;
  const double s = std::sin(theta), c = std::cos(theta);
  Eigen::Matrix2d M;
  M << k2 + b2 * s * s, -b2 * c * s, -b2 * c * s, k2 + b2 * c * c;
  M *= body_mass / (k2 + b2);
  return M.inverse();
}

Eigen::Matrix2d inverse_inertia_principal(double effective_mass, double lambda, double theta) {
  Eigen::Matrix2d N;
  const double c = std::cos(2 * theta), s = std::sin(2 * theta);
  N << 1 + lambda * c, lambda * s, lambda * s, 1 - lambda * c;
  return N / effective_mass;
}

PlanarInertia planar_inertia(const Eigen::Matrix2d& N) {
  PlanarInertia p;
  const double trace = N(0, 0) + N(1, 1);
  p.effective_mass = 2.0 / trace;
  p.lambda = std::hypot(N(0, 0) - N(1, 1), 2.0 * N(0, 1)) / trace;
  // theta: angle between n and the principal direction of the larger eigenvalue N1, in
  // (-pi/2, pi/2] (3.31-3.33).
  p.theta = 0.5 * std::atan2(2.0 * N(0, 1), N(0, 0) - N(1, 1));
  if (p.lambda == 0) p.theta = 0;
  return p;
}

double hertz_duration_constant() {
  return 2 * std::sqrt(M_PI) * std::tgamma(1.4) / std::tgamma(0.9);
}

HertzScales hertz_scales(double contact_modulus, double radius, double normal_mass,
                         double normal_speed) {
  HertzScales h;
  h.contact_modulus = contact_modulus;
  h.radius = radius;
  h.normal_mass = normal_mass;
  h.normal_speed = normal_speed;
  h.max_compression = std::pow(15.0 * normal_mass * normal_speed * normal_speed /
                                   (16.0 * contact_modulus * std::sqrt(radius)),
                               0.4);
  h.duration = hertz_duration_constant() * h.max_compression / normal_speed;
  h.peak_force = 4.0 / 3.0 * contact_modulus * std::sqrt(radius) * std::pow(h.max_compression, 1.5);
  h.contact_radius = std::sqrt(radius * h.max_compression);
  return h;
}

ThorntonScales thornton_scales(const HertzScales& h, double yield_stress) {
  ThorntonScales t;
  const double E = h.contact_modulus, R = h.radius, m = h.normal_mass, v = h.normal_speed;
  t.limiting_pressure = kYieldPressureFactor * yield_stress;
  t.yield_approach = std::pow(M_PI * t.limiting_pressure / (2 * E), 2) * R;
  t.yield_force = 4.0 / 3.0 * E * std::sqrt(R) * std::pow(t.yield_approach, 1.5);
  const double yield_energy = 0.4 * t.yield_force * t.yield_approach;
  t.yield_speed = std::sqrt(2 * yield_energy / m);
  const double energy = 0.5 * m * v * v;
  if (energy <= yield_energy) {
    t.max_compression = h.max_compression;
  } else {  // (1/2) k x^2 + F_y x = energy - (2/5) F_y delta_y, k = pi p_y R, x = delta - delta_y
    const double k = M_PI * t.limiting_pressure * R, F = t.yield_force;
    t.max_compression =
        t.yield_approach + (std::sqrt(F * F + 2 * k * (energy - yield_energy)) - F) / k;
  }
  t.contact_zone_radius = energy <= yield_energy
                              ? h.contact_radius
                              : std::sqrt(R * (2 * t.max_compression - t.yield_approach));
  return t;
}

double kappa_of(double poisson_ratio) {
  return (2.0 - poisson_ratio) / (3.0 * (1.0 - poisson_ratio));
}

double gross_slip_tan(double friction, double lambda, double stick_limit) {
  if (!std::isfinite(stick_limit)) return stick_limit;
  return std::max(stick_limit, 2 * friction * (1 + lambda) / (1 - lambda) - stick_limit);
}

double stick_limit(double kappa, double friction) {
  if (friction <= 0) return 0.0;
  const double discriminant = 1.0 - kappa * friction * friction;
  if (discriminant <= 0) return std::numeric_limits<double>::infinity();
  return 2.0 / friction * (1.0 - std::sqrt(discriminant));
}

ContactPair contact_pair(const Material& body, const Target& target) {
  // Compliances of each body: (1 - nu^2)/E = (1 - nu)/(2G), (2 - nu)/(4G), and Dundurs'
  // (1 - 2nu)/G and (1 - nu)/G; a rigid target adds nothing.
  struct Compliance {
    double normal = 0, tangential = 0, dundurs_numerator = 0, dundurs_denominator = 0;
  };
  const auto of = [](double E, double nu) {
    const double G = E / (2 * (1 + nu));
    return Compliance{(1 - nu * nu) / E, (2 - nu) / (4 * G), (1 - 2 * nu) / G, (1 - nu) / G};
  };
  const Compliance one = of(body.young_modulus, body.poisson_ratio);
  const Compliance two =
      target.rigid() ? Compliance{} : of(target.young_modulus, target.poisson_ratio);
  ContactPair p;
  // On the rigid plane E/(1 - nu^2) as computed before the elastic target (the same bits).
  p.contact_modulus = target.rigid()
                          ? body.young_modulus / (1 - body.poisson_ratio * body.poisson_ratio)
                          : 1 / (one.normal + two.normal);
  p.shear_modulus = 1 / (one.tangential + two.tangential);
  p.stiffness_ratio = p.shear_modulus / p.contact_modulus;
  // k = 2(1 - nu)/(2 - nu)  <=>  nu = 2(1 - k)/(2 - k).
  p.poisson_ratio =
      target.rigid() ? body.poisson_ratio : 2 * (1 - p.stiffness_ratio) / (2 - p.stiffness_ratio);
  p.dundurs_beta = target.rigid() ? rigid_plane_dundurs_beta(body.poisson_ratio)
                                  : 0.5 * (one.dundurs_numerator - two.dundurs_numerator) /
                                        (one.dundurs_denominator + two.dundurs_denominator);
  return p;
}

double rigid_plane_dundurs_beta(double poisson_ratio) {
  return (1 - 2 * poisson_ratio) / (2 * (1 - poisson_ratio));
}

Derived derive(const Case& c) {
  return derive(c, mass_properties(c.body, c.material, c.impact.theta));
}

Derived derive(const Case& c, const MassProperties& body) {
  Derived d;
  d.body = body;
  // The angle of PG from n, from where the body's centre of mass is (equal to the case's theta
  // for the exact geometry; the mesh's own for a discretised body).
  const double theta_geometry = std::atan2(-body.centre_of_mass.x(), body.centre_of_mass.y());
  d.body_inverse_inertia = inverse_inertia_generalized(d.body.mass, d.body.radius_of_gyration,
                                                       d.body.contact_offset, theta_geometry);
  d.body_geometry = planar_inertia(d.body_inverse_inertia);
  d.geometry = d.body_geometry;
  if (c.target.moves()) {
    // The pair's compliance at P: N1 + N2 (docs/THEORY.md §2).
    d.target_body = target_mass_properties(c.target);
    const MassProperties& t = *d.target_body;
    d.target_inverse_inertia =
        inverse_inertia_at(t.mass, t.central_inertia(2, 2), t.centre_of_mass.head<2>());
    d.geometry = planar_inertia(d.body_inverse_inertia + d.target_inverse_inertia);
  }
  // A body with PG along n has a degenerate principal direction only when lambda = 0; otherwise
  // theta from N equals the case's theta (tested). The pair's principal direction is N1 + N2's.
  d.effective_mass = d.geometry.effective_mass;
  d.lambda = c.lumped.lambda.value_or(d.geometry.lambda);
  d.theta = c.lumped.theta.value_or(c.target.moves() ? d.geometry.theta : theta_geometry);
  d.lambda_overridden = c.lumped.lambda.has_value();
  d.theta_overridden = c.lumped.theta.has_value();
  d.inverse_inertia = inverse_inertia_principal(d.effective_mass, d.lambda, d.theta);

  d.approach_speed = approach_speed(c.impact);
  d.incidence_angle = incidence_angle(c.impact);
  d.contact_point_velocity = Eigen::Vector2d(c.impact.tangential_speed, -c.impact.normal_speed);
  d.spin = c.impact.spin;
  // v_G = v_P - omega x r_GP, omega x r_GP = omega |PG| (cos theta, sin theta) (3.40).
  d.centre_velocity = d.contact_point_velocity -
                      d.spin * d.body.contact_offset *
                          Eigen::Vector2d(std::cos(theta_geometry), std::sin(theta_geometry));

  d.pair = contact_pair(c.material, c.target);
  const double nu = d.pair.poisson_ratio, mu = c.contact.friction;
  d.psi1 = mu > 0 ? psi_scale(nu, mu) * std::tan(d.incidence_angle)
                  : std::numeric_limits<double>::quiet_NaN();
  d.contact_modulus = d.pair.contact_modulus;
  d.kappa = kappa_of(nu);
  d.stick_limit = stick_limit(d.kappa, mu);
  d.always_stick = mu > 0 && d.kappa * mu * mu >= 1.0;
  d.chi = (1 - nu) * (1 + d.lambda) / ((2 - nu) * (1 - d.lambda));
  {
    // Gross slip, gamma_t = -mu gamma_n, over m v: delta_n' = -cos a + (1 - l c - mu l s) gamma_n
    // ends at e_N cos a, delta_t' = sin a + (l s - mu (1 + l c)) gamma_n (c = cos 2 theta,
    // s = sin 2 theta); with e_N = 1, tan a2 = tan a - 2 (mu (1 + l c) - l s) / (1 - l c - mu l s).
    const double l = d.lambda, c2 = std::cos(2 * d.theta), s2 = std::sin(2 * d.theta);
    const double normal = 1 - l * c2 - mu * l * s2;
    d.gross_slip_offset = mu > 0 && normal > 0
                              ? psi_scale(nu, mu) * 2 * (mu * (1 + l * c2) - l * s2) / normal
                              : std::numeric_limits<double>::quiet_NaN();
  }

  // Hertz's radius: the body's radius of curvature at P on a plane, R1 R2 / dR in a socket,
  // R1 R2 / (R1 + R2) on a target sphere (Johnson 1985, sec. 4.2).
  const double R1 = d.body.contact_radius;
  const double m = d.effective_mass, v = d.approach_speed, E = d.contact_modulus,
               R = c.target.socket()  ? effective_radius(socket_geometry(c))
                   : c.target.moves() ? R1 * c.target.radius / (R1 + c.target.radius)
                                      : R1;
  d.length_scale = std::pow(m * m * std::pow(v, 4) / (E * E * R), 0.2);
  d.time_scale = d.length_scale / v;
  d.impulse_scale = m * v;
  d.force_scale = m * v * v / d.length_scale;
  d.hertz = hertz_scales(E, R, 1.0 / d.inverse_inertia(1, 1), c.impact.normal_speed);
  if (c.material.yield_stress) d.thornton = thornton_scales(d.hertz, *c.material.yield_stress);
  d.energy_flux_density =
      energy_flux_density(d.hertz.normal_mass, c.impact.normal_speed, d.hertz.radius);
  return d;
}

RestitutionAt restitution_at(const RestitutionTable& table, double flux_density) {
  const std::vector<double>& x = table.flux_density;
  const auto at = [](const std::vector<double>& y, std::size_t i, std::size_t j, double w) {
    return y.empty() ? 0.0 : y[i] + w * (y[j] - y[i]);  // no std: deterministic
  };
  RestitutionAt r;
  std::size_t i = 0, j = 0;
  double w = 0;
  if (flux_density <= x.front()) {
    r.beyond = flux_density < x.front();
  } else if (flux_density >= x.back()) {
    i = j = x.size() - 1;
    r.beyond = flux_density > x.back();
  } else {  // x.front() < Phi < x.back(): the nodes x[i] <= Phi < x[j]
    j = std::size_t(std::upper_bound(x.begin(), x.end(), flux_density) - x.begin());
    i = j - 1;
    w = (flux_density - x[i]) / (x[j] - x[i]);
  }
  r.mean = at(table.mean, i, j, w);
  r.sigma = at(table.sigma, i, j, w);
  return r;
}

double energy_flux_density(double reduced_mass, double normal_speed, double reduced_radius) {
  return reduced_mass * normal_speed * normal_speed /
         (2 * reduced_radius * reduced_radius * reduced_radius);
}

std::vector<DerivedValue> derived_values(const Case& c, const Derived& d) {
  std::vector<DerivedValue> v = {
      {"volume", "m^3", d.body.volume, true},
      {"mass", "kg", d.body.mass, true},
      {"radius of gyration", "m", d.body.radius_of_gyration, true},
      {"|PG|", "m", d.body.contact_offset, false},
      {"contact radius of curvature", "m", d.body.contact_radius, true},
      {"effective mass m", "kg", d.effective_mass, true},
      {"lambda", "", d.lambda, false},
      {"theta", "rad", d.theta, false},
      {"approach speed", "m/s", d.approach_speed, true},
      {"tan(incidence angle)", "", std::tan(d.incidence_angle), false},
      {"contact modulus E*", "Pa", d.contact_modulus, true},
      {"contact shear modulus G*", "Pa", d.pair.shear_modulus, true},
      {"contact Poisson ratio nu*", "", d.pair.poisson_ratio, false},
      {"Dundurs beta", "", d.pair.dundurs_beta, false},
      {"chi", "", d.chi, false},
      {"length scale eta", "m", d.length_scale, true},
      {"time scale eta/v", "s", d.time_scale, true},
      {"impulse scale m v", "N s", d.impulse_scale, true},
      {"force scale m v^2/eta", "N", d.force_scale, true},
      {"Hertz normal mass", "kg", d.hertz.normal_mass, true},
      {"Hertz max compression", "m", d.hertz.max_compression, true},
      {"Hertz contact duration", "s", d.hertz.duration, true},
      {"Hertz peak force", "N", d.hertz.peak_force, true},
      {"Hertz contact radius a_max", "m", d.hertz.contact_radius, true},
      {"energy-flux density Phi", "J/m^3", d.energy_flux_density, true},
  };
  if (c.target.socket())
    v.push_back({"socket's effective radius R1 R2/dR", "m", d.hertz.radius, true});
  if (d.target_body) {
    v.push_back({"target sphere's mass", "kg", d.target_body->mass, true});
    v.push_back({"target sphere's moment of inertia", "kg m^2",
                 d.target_body->central_inertia(2, 2), true});
    v.push_back({"effective radius R1 R2/(R1 + R2)", "m", d.hertz.radius, true});
  }
  if (c.material.yield_stress) {
    v.push_back({"Thornton limiting pressure p_y", "Pa", d.thornton.limiting_pressure, true});
    v.push_back({"Thornton yield speed V_y", "m/s", d.thornton.yield_speed, true});
    v.push_back({"Thornton max compression", "m", d.thornton.max_compression, true});
  }
  for (int i = 0; i < 3; ++i) {
    v.push_back({"centre of mass", "m", d.body.centre_of_mass[i], false});
    for (int j = 0; j < 3; ++j)
      v.push_back({"central inertia", "kg m^2", d.body.central_inertia(i, j), false});
  }
  for (int i = 0; i < 2; ++i) {
    v.push_back({"centre velocity", "m/s", d.centre_velocity[i], false});
    v.push_back({"velocity of P", "m/s", d.contact_point_velocity[i], false});
    for (int j = 0; j < 2; ++j)
      v.push_back({"inverse inertia N", "1/kg", d.inverse_inertia(i, j), false});
  }
  // Kinetic energy at first touch, which every model's energy balance starts from.
  const double energy = 0.5 * d.body.mass *
                        (d.centre_velocity.squaredNorm() +
                         d.body.radius_of_gyration * d.body.radius_of_gyration * d.spin * d.spin);
  v.push_back({"kinetic energy", "J", energy, true});
  // Psi1 is undefined (NaN) without friction, and the stick limit infinite when the contact
  // always sticks; otherwise both are numbers.
  if (c.contact.friction > 0) v.push_back({"Maw's Psi1", "", d.psi1, false});
  if (!d.always_stick) v.push_back({"stick limit C", "", d.stick_limit, false});
  return v;
}

Case without_lumped_overrides(Case c) {
  c.lumped.lambda.reset();
  c.lumped.theta.reset();
  return c;
}

}  // namespace rebound::cases

namespace rebound::cases {
namespace {
nlohmann::json vector_json(const Eigen::VectorXd& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}
nlohmann::json matrix_json(const Eigen::MatrixXd& m) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) a.push_back(vector_json(m.row(i).transpose()));
  return a;
}
}  // namespace

nlohmann::json to_json(const Case& c, const Derived& d) {
  nlohmann::json j;
  j["case"] = c.name;
  j["file"] = c.source;
  j["shape"] = to_string(c.body.shape);
  j.update(to_json(d.body));
  j["inverse_inertia"] = matrix_json(d.inverse_inertia);
  j["effective_mass"] = d.effective_mass;
  j["lambda"] = d.lambda;
  j["theta"] = d.theta;
  j["lambda_geometry"] = d.geometry.lambda;
  j["theta_geometry"] = d.geometry.theta;
  j["lambda_overridden"] = d.lambda_overridden;
  j["theta_overridden"] = d.theta_overridden;
  j["approach_speed"] = d.approach_speed;
  j["incidence_angle"] = d.incidence_angle;
  j["tan_incidence"] = std::tan(d.incidence_angle);
  j["psi1"] = finite_or_null(d.psi1);
  j["contact_point_velocity"] = vector_json(d.contact_point_velocity);
  j["center_velocity"] = vector_json(d.centre_velocity);
  j["spin"] = d.spin;
  j["contact_modulus"] = d.contact_modulus;
  j["target"] = to_string(c.target.type);
  j["shear_modulus"] = d.pair.shear_modulus;
  j["contact_poisson_ratio"] = d.pair.poisson_ratio;
  j["dundurs_beta"] = d.pair.dundurs_beta;
  j["kappa"] = d.kappa;
  j["stick_limit"] = finite_or_null(d.stick_limit);
  j["always_stick"] = d.always_stick;
  j["chi"] = d.chi;
  j["gross_slip_offset"] = finite_or_null(d.gross_slip_offset);
  j["eta"] = d.length_scale;
  j["time_scale"] = d.time_scale;
  j["impulse_scale"] = d.impulse_scale;
  j["force_scale"] = d.force_scale;
  j["hertz"] = {
      {"contact_modulus", d.hertz.contact_modulus}, {"radius", d.hertz.radius},
      {"normal_mass", d.hertz.normal_mass},         {"normal_speed", d.hertz.normal_speed},
      {"max_compression", d.hertz.max_compression}, {"duration", d.hertz.duration},
      {"peak_force", d.hertz.peak_force},           {"contact_radius", d.hertz.contact_radius}};
  if (c.material.yield_stress)
    j["thornton"] = {{"limiting_pressure", d.thornton.limiting_pressure},
                     {"yield_approach", d.thornton.yield_approach},
                     {"yield_force", d.thornton.yield_force},
                     {"yield_speed", d.thornton.yield_speed},
                     {"max_compression", d.thornton.max_compression},
                     {"contact_zone_radius", d.thornton.contact_zone_radius}};
  // Michalczyk (2008), eqs. 3.1 and 3.10: Phi and the reduced mass m_w at P.
  j["energy_flux_density"] = d.energy_flux_density;
  j["reduced_mass"] = d.hertz.normal_mass;
  if (d.target_body) {  // the free target sphere and the two compliances N1, N2 (N = N1 + N2)
    j["target_body"] = to_json(*d.target_body);
    j["inverse_inertia_body"] = matrix_json(d.body_inverse_inertia);
    j["inverse_inertia_target"] = matrix_json(d.target_inverse_inertia);
  }
  return j;
}

nlohmann::json to_json(const MassProperties& body) {
  return {{"volume", body.volume},
          {"mass", body.mass},
          {"radius_of_gyration", body.radius_of_gyration},
          {"contact_offset", body.contact_offset},
          {"contact_radius", body.contact_radius},
          {"centre_of_mass", vector_json(body.centre_of_mass)},
          {"inertia_central", matrix_json(body.central_inertia)},
          {"body_axis", vector_json(body.body_axis)}};
}

MassProperties mass_properties_from_json(const nlohmann::json& j, const std::string& what) {
  const auto fail = [&](const std::string& key, const std::string& expected) {
    throw CaseError(what, key, "expected " + expected);
  };
  if (!j.is_object()) fail("(mass properties)", "an object");
  const auto number = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_number()) fail(key, "a number");
    return j[key].get<double>();
  };
  const auto vector = [&](const nlohmann::json& a, const std::string& key) {
    if (!a.is_array() || a.size() != 3) fail(key, "an array of 3 numbers");
    Eigen::Vector3d v;
    for (int i = 0; i < 3; ++i) {
      if (!a[i].is_number()) fail(key, "an array of 3 numbers");
      v[i] = a[i].get<double>();
    }
    return v;
  };
  MassProperties body;
  body.volume = number("volume");
  body.mass = number("mass");
  body.radius_of_gyration = number("radius_of_gyration");
  body.contact_offset = number("contact_offset");
  body.contact_radius = number("contact_radius");
  for (const char* key : {"centre_of_mass", "inertia_central", "body_axis"})
    if (!j.contains(key)) fail(key, "an array");
  body.centre_of_mass = vector(j["centre_of_mass"], "centre_of_mass");
  body.body_axis = vector(j["body_axis"], "body_axis");
  const nlohmann::json& rows = j["inertia_central"];
  if (!rows.is_array() || rows.size() != 3) fail("inertia_central", "a 3x3 array");
  for (int i = 0; i < 3; ++i)
    body.central_inertia.row(i) = vector(rows[i], "inertia_central").transpose();
  return body;
}

}  // namespace rebound::cases
