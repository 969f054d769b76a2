#include "lumped/summary.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "cases/warnings.h"
#include "lumped/normal_laws.h"
#include "lumped/random_restitution.h"
#include "lumped/solve.h"
#include "observables/provenance.h"

namespace rebound::lumped {
namespace {

using observables::finite_or_null;

// Body velocity change from the impulse g at P: du = m^-1 l g (Lai 1999, eq. 3.21) with the
// generalized speeds of eqs. 3.37-3.38 (centre velocity along t, n and spin about b).
struct BodyVelocity {
  Eigen::Vector2d centre;
  double spin;
};
BodyVelocity body_velocity(const cases::Derived& d, const Eigen::Vector2d& impulse) {
  const double mass = d.body.mass, k2 = d.body.radius_of_gyration * d.body.radius_of_gyration;
  const double b = d.body.contact_offset, theta = d.body_geometry.theta;  // its own lever arm
  return {
      d.centre_velocity + impulse / mass,
      d.spin + b * (std::cos(theta) * impulse.x() + std::sin(theta) * impulse.y()) / (mass * k2)};
}

// The target's state under the impulse -g at P: a free sphere at rest before, its centre at
// (0, -R2) from P (cases::target_mass_properties), so r2 = P - C2 = (0, R2) and its spin about b
// is (r2 x -g)_b / I2 = R2 g_t / I2; a fixed target stays at rest.
BodyVelocity target_velocity(const cases::Derived& d, const Eigen::Vector2d& impulse) {
  if (!d.target_body) return {Eigen::Vector2d::Zero(), 0.0};
  const cases::MassProperties& t = *d.target_body;
  const Eigen::Vector2d r = -t.centre_of_mass.head<2>(), j = -impulse;
  return {j / t.mass, (r.x() * j.y() - r.y() * j.x()) / t.central_inertia(2, 2)};
}

double body_kinetic_energy(const cases::Derived& d, const BodyVelocity& v) {
  const double k2 = d.body.radius_of_gyration * d.body.radius_of_gyration;
  return 0.5 * d.body.mass * (v.centre.squaredNorm() + k2 * v.spin * v.spin);
}

// What the dissipative normal law did with the prescribed restitution: restitution_calibration,
// the damping D (normal_laws.h) and, for the viscous laws, the hysteresis damping factor
// D / v_n (s/m) of F = K x^{3/2} (1 + chi xdot) in the multibody codes' form; the e_N of the
// frictionless central normal impact with that D; notes when the impact's e_N differs.
void add_restitution_calibration(nlohmann::json& j, std::vector<std::string>& notes,
                                 const cases::Case& c, const cases::Derived& d, const Outcome& o) {
  const NormalLaw law = parse_normal_law(c.lumped.normal_law);
  const RestitutionCalibration calibration =
      parse_restitution_calibration(*o.restitution_calibration);
  const double prescribed = *o.prescribed_restitution, damping = *o.normal_law_damping;
  // Wang & Gao's law is not scale-free: its normal impact is this case's (speed, geometry).
  const bool wang_gao = law == NormalLaw::wang_gao;
  const NormalSpring spring = wang_gao ? normal_spring(configuration_of(c, d))
                                       : make_normal_spring(law, prescribed, 1.0, calibration);
  const double normal_impact = achieved_restitution(spring);
  j["restitution_calibration"] = *o.restitution_calibration;
  j["normal_law_damping"] = damping;
  if (wang_gao)  // chi of F = K delta + chi delta^{3/2} delta' (eq. 29), N s / m^{5/2}
    j["wang_gao_chi"] =
        4.0 / 3.0 * damping * d.contact_modulus * std::sqrt(d.hertz.radius) / c.impact.normal_speed;
  else if (law != NormalLaw::michalczyk)
    j["hysteresis_damping_factor"] = damping / c.impact.normal_speed;
  j["normal_impact_restitution"] = normal_impact;
  char text[600];
  if (calibration == RestitutionCalibration::exact)
    std::snprintf(text, sizeof text,
                  "restitution_calibration \"exact\": the damping D = %.10g of normal_law \"%s\" "
                  "is calibrated so that a frictionless central normal impact achieves Newton's "
                  "e_N = %.10g (it gives %.10g)",
                  damping, c.lumped.normal_law.c_str(), prescribed, normal_impact);
  else
    std::snprintf(text, sizeof text,
                  "restitution_calibration \"published\": the damping D = %.10g is %s's closed "
                  "form for c_r = %.10g; a frictionless central normal impact with it achieves "
                  "e_N = %.10g",
                  damping, c.lumped.normal_law.c_str(), prescribed, normal_impact);
  notes.push_back(text);
  if (!o.achieved_restitution) return;
  const double achieved = *o.achieved_restitution;
  if (std::abs(achieved - normal_impact) > 1e-6) {
    std::snprintf(text, sizeof text,
                  "this impact's e_N = %.10g differs from the %.10g of the frictionless central "
                  "normal impact: friction, the tangential spring's coupling and the inertia "
                  "coupling (lambda = %.6g) act on the normal rebound of an oblique or eccentric "
                  "impact",
                  achieved, normal_impact, d.lambda);
    notes.push_back(text);
  }
  if (calibration == RestitutionCalibration::published &&
      std::abs(normal_impact - prescribed) > 1e-6) {
    std::snprintf(text, sizeof text,
                  "the closed form of %s does not achieve the prescribed %.10g even in the "
                  "frictionless normal impact (%.10g); restitution_calibration \"exact\" does",
                  c.lumped.normal_law.c_str(), prescribed, normal_impact);
    notes.push_back(text);
  }
}

// The laws with a material constant (thornton, viscoelastic; docs/THEORY.md sec. 7), whose e
// depends on the impact: the e of this case's frictionless normal impact x'' = -(m N)_nn F,
// x'(0) = cos alpha (its normal speed and normal mass), and the law's own scale: Thornton's yield
// velocity V_y of that impact (1/2 m_n V_y^2 = (8/15) E* sqrt(R) delta_y^{5/2}, m_n = 1/N_nn) or
// the viscoelastic v* = beta^{1/2} v_n^{1/10}, beta = (3/2) A ((4/3) E* sqrt(R) / m_n)^{2/5}.
void add_material_law(nlohmann::json& j, std::vector<std::string>& notes, const cases::Case& c,
                      const cases::Derived& d) {
  const NormalLaw law = parse_normal_law(c.lumped.normal_law);
  if (law != NormalLaw::thornton && law != NormalLaw::viscoelastic) return;
  const Configuration k = configuration_of(c, d);
  NormalSpring spring = normal_spring(k);
  spring.normal_compliance = 1 - k.lambda * std::cos(2 * k.theta);
  const double e = achieved_restitution(spring);
  j["normal_impact_restitution"] = e;
  const double mass = d.hertz.normal_mass, v_n = c.impact.normal_speed;
  const double stiffness = d.contact_modulus * std::sqrt(d.hertz.radius);  // E* sqrt(R)
  char text[600];
  if (law == NormalLaw::thornton) {
    const double yield_velocity = d.thornton.yield_speed;  // cases::ThorntonScales
    j["yield_velocity"] = yield_velocity;
    std::snprintf(text, sizeof text,
                  "normal_law \"thornton\": the contact yields (p_y = 1.6 Y) above the normal "
                  "speed V_y = %.6g m/s; at v_n / V_y = %.6g the frictionless normal impact "
                  "restitutes e_N = %.10g (Thornton 1997's closed form for a sphere%s)",
                  yield_velocity, v_n / yield_velocity, e,
                  v_n > yield_velocity ? "" : ": 1 below V_y");
  } else {
    const double beta =
        1.5 * *c.lumped.dissipative_constant * std::pow(4.0 / 3.0 * stiffness / mass, 0.4);
    const double v_star = std::sqrt(beta) * std::pow(v_n, 0.1);
    j["viscoelastic_v_star"] = v_star;
    std::snprintf(text, sizeof text,
                  "normal_law \"viscoelastic\": v* = beta^{1/2} v_n^{1/10} = %.6g; the "
                  "frictionless normal impact restitutes e_N = %.10g (Mueller & Poeschel 2011's "
                  "Pade approximant in v*)",
                  v_star, e);
  }
  notes.push_back(text);
}

}  // namespace

std::vector<HistoryRow> history_rows(const cases::Case& c, const cases::Derived& d,
                                     const Outcome& outcome) {
  (void)c;
  std::vector<HistoryRow> rows;
  rows.reserve(outcome.history.size());
  const double m = d.effective_mass, v = d.approach_speed, eta = d.length_scale;
  const double impulse_scale = m * v, force_scale = m * v * v / eta, time_scale = eta / v;
  const Eigen::Vector2d v0 = incident_velocity(d.incidence_angle);
  const double kinetic_initial = body_kinetic_energy(d, body_velocity(d, Eigen::Vector2d::Zero()));
  for (const Sample& s : outcome.history) {
    HistoryRow r{};
    r.tau = s.tau;
    r.time = s.tau * time_scale;
    r.normal_force = s.force.y() * force_scale;
    r.tangential_force = s.force.x() * force_scale;
    r.normal_impulse = s.impulse.y() * impulse_scale;
    r.tangential_impulse = s.impulse.x() * impulse_scale;
    r.normal_velocity = s.velocity.y() * v;
    r.tangential_velocity = s.velocity.x() * v;
    r.normal_displacement = s.displacement.y() * eta;
    r.tangential_displacement = s.displacement.x() * eta;
    // Kinetic energy from the work of the contact force on P (Lai 1999, eq. 5.70).
    r.kinetic_energy = kinetic_initial + m * v * v * 0.5 * (v0 + s.velocity).dot(s.impulse);
    r.tangential_spring_extension = s.spring_extension * eta;
    r.dissipation = s.dissipation * m * v * v;
    r.mode = s.mode;
    r.gamma_t = s.impulse.x();
    r.gamma_n = s.impulse.y();
    r.delta_t = s.displacement.x();
    r.delta_n = s.displacement.y();
    r.epsilon = s.spring_extension;
    const BodyVelocity body = body_velocity(d, s.impulse * impulse_scale);
    r.centre_velocity_t = body.centre.x();
    r.centre_velocity_n = body.centre.y();
    r.spin = body.spin;
    r.stick_fraction = s.stick_fraction;
    const BodyVelocity target = target_velocity(d, s.impulse * impulse_scale);
    const double none = std::numeric_limits<double>::quiet_NaN();
    r.target_centre_velocity_t = d.target_body ? target.centre.x() : none;
    r.target_centre_velocity_n = d.target_body ? target.centre.y() : none;
    r.target_spin = d.target_body ? target.spin : none;
    rows.push_back(r);
  }
  return rows;
}

observables::History history_table(const std::vector<HistoryRow>& rows) {
  using R = HistoryRow;
  observables::History h = observables::contact_point_history(rows);
  observables::add_fields<R, double R::*>(
      h, rows, {{"tangential_spring_extension", &R::tangential_spring_extension}});
  std::vector<std::string> modes;
  for (const HistoryRow& r : rows) modes.emplace_back(to_string(r.mode));
  h.add_labels("mode", std::move(modes));
  observables::add_fields<R, double R::*>(h, rows,
                                          {{"dissipation", &R::dissipation},
                                           {"gamma_t", &R::gamma_t},
                                           {"gamma_n", &R::gamma_n},
                                           {"delta_t", &R::delta_t},
                                           {"delta_n", &R::delta_n},
                                           {"epsilon", &R::epsilon},
                                           {"tau", &R::tau},
                                           {"center_velocity_t", &R::centre_velocity_t},
                                           {"center_velocity_n", &R::centre_velocity_n},
                                           {"spin", &R::spin},
                                           {"stick_fraction", &R::stick_fraction}});
  // A free target's state (its rows are all finite or all NaN: cases::Derived::target_body).
  if (!rows.empty() && std::isfinite(rows.front().target_spin))
    observables::add_fields<R, double R::*>(
        h, rows,
        {{"target_center_velocity_t", &R::target_centre_velocity_t},
         {"target_center_velocity_n", &R::target_centre_velocity_n},
         {"target_spin", &R::target_spin}});
  return h;
}

std::string history_csv(const std::vector<HistoryRow>& rows) {
  return observables::to_csv(history_table(rows));
}

observables::ReboundQuantities rebound_quantities(const cases::Case& c, const cases::Derived& d,
                                                  const Outcome& o) {
  const double m = d.effective_mass, v = d.approach_speed, eta = d.length_scale;
  const double impulse_scale = m * v, time_scale = eta / v, force_scale = m * v * v / eta;
  const double nu = d.pair.poisson_ratio, mu = c.contact.friction;
  const Eigen::Vector2d w = o.separation_velocity * v;  // separation velocity of P, m/s
  const Eigen::Vector2d g = o.impulse * impulse_scale;  // impulse on the body at P, N s
  // The normal works of the contact force on P over m v^2 (Lai 1999, eqs. 5.74-5.75), J.
  const double work_scale = m * v * v;
  const BodyVelocity before = body_velocity(d, Eigen::Vector2d::Zero());
  const BodyVelocity after = body_velocity(d, g);
  const Eigen::Vector2d v0 = incident_velocity(d.incidence_angle);
  const double kinetic_change = m * v * v * 0.5 * (v0 + o.separation_velocity).dot(o.impulse);

  observables::ReboundQuantities r;
  r.psi1 = d.psi1;
  r.psi2 = observables::rebound_psi(w, nu, mu);
  r.incidence_angle = d.incidence_angle;
  r.rebound_angle = observables::rebound_angle(w);
  r.e_newton = observables::newton_restitution(w.y(), c.impact.normal_speed);
  r.e_poisson =
      observables::poisson_restitution(g.y(), o.compression_normal_impulse * impulse_scale);
  r.e_stronge = observables::stronge_restitution(o.normal_work_compression * work_scale,
                                                 o.normal_work_restitution * work_scale);
  // The target's state (at rest before; zero for a fixed target): e_t of the relative motion.
  const BodyVelocity target_before = target_velocity(d, Eigen::Vector2d::Zero());
  const BodyVelocity target_after = target_velocity(d, g);
  r.tangential_cor = observables::tangential_restitution(
      before.centre.x() - target_before.centre.x(), after.centre.x() - target_after.centre.x());
  if (d.target_body) {
    r.target_center_velocity_final = target_after.centre;
    r.target_spin_final = target_after.spin;
  }
  r.spin_final = after.spin;
  r.normal_impulse = g.y();
  r.tangential_impulse = g.x();
  r.contact_duration = o.duration * time_scale;
  r.peak_normal_force = o.peak_normal_force * force_scale;
  r.kinetic_energy_initial = body_kinetic_energy(d, before);
  r.kinetic_energy_loss = -kinetic_change;
  r.kinetic_energy_loss_fraction = -kinetic_change / r.kinetic_energy_initial;
  r.lambda = d.lambda;
  r.theta = d.theta;
  r.center_velocity_initial = before.centre;
  r.center_velocity_final = after.centre;
  r.spin_initial = before.spin;
  r.contact_point_velocity_initial = v0 * v;
  r.contact_point_velocity_final = w;
  return r;
}

observables::Summary summary(const cases::Case& c, const cases::Derived& d, const Outcome& o) {
  const double m = d.effective_mass, v = d.approach_speed, eta = d.length_scale;
  const double impulse_scale = m * v, time_scale = eta / v;
  observables::Summary summary;
  summary.case_name = c.name;
  summary.solver = "lumped:" + o.model;
  summary.quantities = rebound_quantities(c, d, o);
  summary.effective_mass = m;
  summary.energy_flux_density = d.energy_flux_density;
  summary.reduced_mass = d.hertz.normal_mass;
  summary.warnings = cases::physical_warnings(c, d);
  summary.provenance = observables::provenance(c);
  nlohmann::json& j = summary.details;
  j["model"] = o.model;
  j["normal_law"] = c.lumped.normal_law;
  j["creates_energy"] = o.creates_energy;
  j["eta"] = eta;
  nlohmann::json phases = nlohmann::json::array();
  for (const Phase& p : o.phases) {
    // Rigid-body laws have no time: their phases are in normal impulse (N s).
    const double scale = std::isnan(o.duration) ? impulse_scale : time_scale;
    phases.push_back(
        {{"mode", to_string(p.mode)}, {"start", p.start * scale}, {"end", p.end * scale}});
  }
  j["stick_slip_phases"] = phases;
  j["stick_slip_phases_axis"] = std::isnan(o.duration) ? "normal_impulse" : "time";
  j["non_dimensional"] = {
      {"gamma_t", o.impulse.x()},
      {"gamma_n", o.impulse.y()},
      {"tau_end", finite_or_null(o.duration)},
      {"separation_velocity", {o.separation_velocity.x(), o.separation_velocity.y()}}};
  if (c.lumped.restitution_table) {
    // The table's value at this impact's Phi (impact 0 of lumped.seed; Michalczyk 2008, sec. 4).
    const RestitutionDraw draw = draw_restitution(c, d, 0);
    j["restitution_draw"] = {
        {"flux_density", draw.flux_density}, {"mean", draw.mean},     {"std", draw.sigma},
        {"beyond_table", draw.beyond},       {"random", draw.random}, {"value", draw.value}};
    if (draw.random) {
      j["restitution_draw"]["seed"] = draw.seed;
      j["restitution_draw"]["impact"] = draw.impact;
    }
  }
  if (o.prescribed_restitution) j["prescribed_restitution"] = *o.prescribed_restitution;
  if (o.achieved_restitution) j["achieved_restitution"] = *o.achieved_restitution;
  std::vector<std::string> notes = o.notes;
  if (d.target_body)
    notes.push_back(
        "target.type \"sphere\": the model solved the pair as one body of the compliance "
        "N1 + N2 at P on a rigid plane; psi2, the rebound angle, e_newton, e_poisson, e_stronge, "
        "tangential_cor and contact_point_velocity_* are of the contact points' relative motion, "
        "the kinetic energies of both bodies; center_velocity_* and spin_* are the body's own, "
        "target_center_velocity_final and target_spin_final the target sphere's (at rest "
        "before)");
  if (o.restitution_calibration && o.normal_law_damping && o.prescribed_restitution)
    add_restitution_calibration(j, notes, c, d, o);
  add_material_law(j, notes, c, d);
  j["notes"] = notes;
  return summary;
}

nlohmann::json summary_json(const cases::Case& c, const cases::Derived& d, const Outcome& o) {
  return observables::to_json(summary(c, d, o));
}

}  // namespace rebound::lumped
