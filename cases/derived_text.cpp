#include "cases/derived_text.h"

#include <cmath>

#include "cases/format.h"
#include "cases/socket.h"

namespace rebound::cases {

namespace {

// The ball in the socket: clearance, Hertz's R_eff and each law's elastic normal impact.
std::string socket_table(const Case& c, const Derived& d) {
  const SocketGeometry g = socket_geometry(c);
  const int n = c.lumped.polynomial_index;
  std::string out = format(
      " Ball in a spherical socket (Wang & Gao 2023; docs/THEORY.md sec. 7)\n"
      "  %-34s %-14.6g %s\n  %-34s %-14.6g %s\n  %-34s %-14d %s\n",
      "clearance dR = R1 - R2", g.clearance, "m", "effective radius R_eff = R1 R2/dR",
      effective_radius(g), "m", "polynomial index n", n, "(liu, wang-gao)");
  out += format("  elastic normal impact by each law (energy balance at v_n = %.6g m/s):\n",
                d.hertz.normal_speed);
  out += format("    %-10s %-13s %-13s %-13s %-13s %s\n", "law", "F/F_hertz(0)", "delta_max m",
                "F_max N", "a_max m", "a_max/R2");
  for (const SocketImpactEstimate& e :
       socket_impact_estimates(d.contact_modulus, g, n, d.hertz.normal_mass, d.hertz.normal_speed))
    out += format("    %-10s %-13.6g %-13.6g %-13.6g %-13.6g %.4g\n", to_string(e.law),
                  e.light_load_ratio, e.max_approach, e.peak_force, e.contact_radius,
                  e.contact_radius / g.ball_radius);
  return out;
}

}  // namespace

std::string derived_table(const Case& c, const Derived& d) {
  std::string out;
  const auto line = [&out](const char* label, double value, const char* unit) {
    out += format("  %-34s %-14.6g %s\n", label, value, unit);
  };
  out += format("%s  (%s)  OK\n", c.name.c_str(), c.source.c_str());
  if (!c.description.empty()) out += format("  %s\n", c.description.c_str());
  out += format("  body: %s, material E = %.4g Pa, nu = %.4g, rho = %.4g kg/m^3, mu = %.4g\n",
                to_string(c.body.shape), c.material.young_modulus, c.material.poisson_ratio,
                c.material.density, c.contact.friction);
  // Which models take the case's target: the FEM's refusal (require_fem_target) in its own words.
  std::string models = "every model, the FEM included";
  try {
    require_fem_target(c);
  } catch (const CaseError& error) {
    const Problem& p = error.problems().front();
    models = "lumped and half-space models only; not the FEM: " + p.key + " " + p.message;
  }
  if (c.target.socket() && c.target.rigid())
    out += format("  target: rigid spherical socket, radius R1 = %.6g m (%s)\n", c.target.radius,
                  models.c_str());
  else if (c.target.socket())
    out += format(
        "  target: elastic spherical socket, radius R1 = %.6g m, outer radius %.6g m held, "
        "E = %.4g Pa, nu = %.4g, rho = %.4g kg/m^3 (%s)\n",
        c.target.radius, c.target.outer_radius, c.target.young_modulus, c.target.poisson_ratio,
        *c.target.density, models.c_str());
  else if (c.target.rigid())
    out += format("  target: rigid plane\n");
  else if (c.target.moves())
    out += format(
        "  target: free solid sphere at rest, R2 = %.6g m, E = %.4g Pa, nu = %.4g, rho = %.4g "
        "kg/m^3 (%s)\n",
        c.target.radius, c.target.young_modulus, c.target.poisson_ratio, *c.target.density,
        models.c_str());
  else if (c.target.type == TargetType::elastic_plate)
    out += format(
        "  target: elastic plate, thickness h = %.6g m, half-width L = %.6g m, edges %s, E = %.4g "
        "Pa, nu = %.4g, rho = %.4g kg/m^3 (%s)\n",
        c.target.thickness, c.target.half_width, to_string(c.target.edge), c.target.young_modulus,
        c.target.poisson_ratio, *c.target.density,
        models == "every model, the FEM included"
            ? "the FEM only: no lumped or half-space model has its flexure"
            : ("no model: " + models.substr(models.find("not the FEM: "))).c_str());
  else
    out += format("  target: elastic half-space, E = %.4g Pa, nu = %.4g%s (%s)\n",
                  c.target.young_modulus, c.target.poisson_ratio,
                  c.target.density ? format(", rho = %.4g kg/m^3", *c.target.density).c_str() : "",
                  models.c_str());
  out += format(" Mass properties\n");
  line("mass m_B", d.body.mass, "kg");
  line("volume", d.body.volume, "m^3");
  line("central radius of gyration k (b)", d.body.radius_of_gyration, "m");
  line("|PG|", d.body.contact_offset, "m");
  out += format("  %-34s (%.6g, %.6g, %.6g) m\n", "centre of mass G - P (t, n, b)",
                d.body.centre_of_mass.x(), d.body.centre_of_mass.y(), d.body.centre_of_mass.z());
  const auto& I = d.body.central_inertia;
  out += format("  %-34s [[%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g]] kg m^2\n",
                "central inertia (t, n, b)", I(0, 0), I(0, 1), I(0, 2), I(1, 0), I(1, 1), I(1, 2),
                I(2, 0), I(2, 1), I(2, 2));
  if (d.target_body) {
    const MassProperties& t = *d.target_body;
    out += format(" Target sphere (centre at (0, -R2, 0) from P; docs/THEORY.md sec. 2)\n");
    line("mass m2", t.mass, "kg");
    line("moment of inertia I2", t.central_inertia(2, 2), "kg m^2");
    line("reduced mass m1 m2/(m1 + m2)", d.body.mass * t.mass / (d.body.mass + t.mass), "kg");
    const auto matrix = [&out](const char* label, const Eigen::Matrix2d& N) {
      out += format("  %-34s [[%.6g, %.6g], [%.6g, %.6g]] 1/kg\n", label, N(0, 0), N(0, 1), N(1, 0),
                    N(1, 1));
    };
    matrix("N1, the body's at P (t, n)", d.body_inverse_inertia);
    matrix("N2, the target's at P (t, n)", d.target_inverse_inertia);
  }
  out +=
      format(d.target_body ? " Planar inertia of the pair, N = N1 + N2 (Lai 1999, eqs. 3.34-3.36)\n"
                           : " Planar inertia (Lai 1999, eqs. 3.34-3.36; docs/THEORY.md sec. 2)\n");
  line("effective mass m", d.effective_mass, "kg");
  line(d.lambda_overridden ? "lambda (case override)" : "lambda", d.lambda, "");
  line(d.theta_overridden ? "theta (case override)" : "theta", d.theta, "rad");
  if (d.lambda_overridden || d.theta_overridden) {
    line("lambda of the geometry", d.geometry.lambda, "");
    line("theta of the geometry", d.geometry.theta, "rad");
  }
  out += format("  %-34s [[%.6g, %.6g], [%.6g, %.6g]] 1/kg\n", "N (t, n)", d.inverse_inertia(0, 0),
                d.inverse_inertia(0, 1), d.inverse_inertia(1, 0), d.inverse_inertia(1, 1));
  out += format(" Impact\n");
  line("approach speed |v_P|", d.approach_speed, "m/s");
  out += format("  %-34s (%.6g, %.6g) m/s\n", "velocity of P (t, n)", d.contact_point_velocity.x(),
                d.contact_point_velocity.y());
  out += format("  %-34s (%.6g, %.6g) m/s\n", "velocity of G (t, n)", d.centre_velocity.x(),
                d.centre_velocity.y());
  line("spin", d.spin, "rad/s");
  line("incidence angle alpha", d.incidence_angle, "rad");
  line("tan alpha", std::tan(d.incidence_angle), "");
  if (std::isfinite(d.psi1)) line("Psi1", d.psi1, "");
  out += format(" Lai's model (Lai 1999, sec. 5.1; docs/THEORY.md sec. 5)\n");
  line(c.target.rigid() ? "contact modulus E* = E/(1-nu^2)" : "contact modulus E* (pair)",
       d.contact_modulus, "Pa");
  line("contact shear modulus G*", d.pair.shear_modulus, "Pa");
  if (!c.target.rigid()) line("contact Poisson ratio nu* (pair)", d.pair.poisson_ratio, "");
  line("Dundurs beta", d.pair.dundurs_beta, "");
  line("kappa", d.kappa, "");
  if (d.always_stick)
    out += format("  %-34s %s\n", "stick limit C", "none: kappa mu^2 >= 1, always sticks");
  else
    line("stick limit C", d.stick_limit, "");
  line("chi", d.chi, "");
  if (std::isfinite(d.gross_slip_offset))
    line("gross slip: Psi2 = Psi1 - G, G", d.gross_slip_offset, "");
  line("length scale eta", d.length_scale, "m");
  line("time scale eta/v", d.time_scale, "s");
  line("force scale m v^2/eta", d.force_scale, "N");
  out += format(" Hertz normal impact (docs/THEORY.md sec. 3)\n");
  if (d.target_body) {
    line("effective radius R1 R2/(R1 + R2)", d.hertz.radius, "m");
    line("normal mass 1/N_nn", d.hertz.normal_mass, "kg");
  }
  line("max compression delta_max", d.hertz.max_compression, "m");
  line("contact duration t_c", d.hertz.duration, "s");
  line("peak force F_max", d.hertz.peak_force, "N");
  line("contact radius a_max", d.hertz.contact_radius, "m");
  if (c.target.socket()) out += socket_table(c, d);
  out += format(" Energy-flux density (Michalczyk 2008, sec. 3; docs/THEORY.md sec. 8)\n");
  line("reduced mass m_w at P", d.hertz.normal_mass, "kg");
  line("Phi = m_w v_n^2 / (2 R^3)", d.energy_flux_density, "J/m^3");
  if (const auto& table = c.lumped.restitution_table) {
    const RestitutionAt r = restitution_at(*table, d.energy_flux_density);
    line(r.beyond ? "R0(Phi) (end node: beyond table)" : "R0(Phi) (lumped.restitution)", r.mean,
         "");
    if (table->random()) line("sigma(Phi), cut to [0, 1]", r.sigma, "");
  }
  return out;
}

}  // namespace rebound::cases
