// rebound check CASE... : validate case files and print their derived quantities.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/commands.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "cases/warnings.h"

namespace rebound::app {
namespace {

void line(const char* label, double value, const char* unit) {
  std::printf("  %-34s %-14.6g %s\n", label, value, unit);
}

void print_table(const cases::Case& c, const cases::Derived& d) {
  std::printf("%s  (%s)  OK\n", c.name.c_str(), c.source.c_str());
  if (!c.description.empty()) std::printf("  %s\n", c.description.c_str());
  std::printf("  body: %s, material E = %.4g Pa, nu = %.4g, rho = %.4g kg/m^3, mu = %.4g\n",
              cases::to_string(c.body.shape), c.material.young_modulus, c.material.poisson_ratio,
              c.material.density, c.contact.friction);
  if (c.target.rigid())
    std::printf("  target: rigid plane\n");
  else
    std::printf(
        "  target: elastic half-space, E = %.4g Pa, nu = %.4g (lumped and half-space "
        "models only; not the FEM)\n",
        c.target.young_modulus, c.target.poisson_ratio);
  std::printf(" Mass properties\n");
  line("mass m_B", d.body.mass, "kg");
  line("volume", d.body.volume, "m^3");
  line("central radius of gyration k (b)", d.body.radius_of_gyration, "m");
  line("|PG|", d.body.contact_offset, "m");
  std::printf("  %-34s (%.6g, %.6g, %.6g) m\n", "centre of mass G - P (t, n, b)",
              d.body.centre_of_mass.x(), d.body.centre_of_mass.y(), d.body.centre_of_mass.z());
  const auto& I = d.body.central_inertia;
  std::printf("  %-34s [[%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g], [%.5g, %.5g, %.5g]] kg m^2\n",
              "central inertia (t, n, b)", I(0, 0), I(0, 1), I(0, 2), I(1, 0), I(1, 1), I(1, 2),
              I(2, 0), I(2, 1), I(2, 2));
  std::printf(" Planar inertia (Lai 1999, eqs. 3.34-3.36; docs/THEORY.md sec. 2)\n");
  line("effective mass m", d.effective_mass, "kg");
  line(d.lambda_overridden ? "lambda (case override)" : "lambda", d.lambda, "");
  line(d.theta_overridden ? "theta (case override)" : "theta", d.theta, "rad");
  if (d.lambda_overridden || d.theta_overridden) {
    line("lambda of the geometry", d.geometry.lambda, "");
    line("theta of the geometry", d.geometry.theta, "rad");
  }
  std::printf("  %-34s [[%.6g, %.6g], [%.6g, %.6g]] 1/kg\n", "N (t, n)", d.inverse_inertia(0, 0),
              d.inverse_inertia(0, 1), d.inverse_inertia(1, 0), d.inverse_inertia(1, 1));
  std::printf(" Impact\n");
  line("approach speed |v_P|", d.approach_speed, "m/s");
  std::printf("  %-34s (%.6g, %.6g) m/s\n", "velocity of P (t, n)", d.contact_point_velocity.x(),
              d.contact_point_velocity.y());
  std::printf("  %-34s (%.6g, %.6g) m/s\n", "velocity of G (t, n)", d.centre_velocity.x(),
              d.centre_velocity.y());
  line("spin", d.spin, "rad/s");
  line("incidence angle alpha", d.incidence_angle, "rad");
  line("tan alpha", std::tan(d.incidence_angle), "");
  if (std::isfinite(d.psi1)) line("Psi1", d.psi1, "");
  std::printf(" Lai's model (Lai 1999, sec. 5.1; docs/THEORY.md sec. 5)\n");
  line(c.target.rigid() ? "contact modulus E* = E/(1-nu^2)" : "contact modulus E* (pair)",
       d.contact_modulus, "Pa");
  line("contact shear modulus G*", d.pair.shear_modulus, "Pa");
  if (!c.target.rigid()) line("contact Poisson ratio nu* (pair)", d.pair.poisson_ratio, "");
  line("Dundurs beta", d.pair.dundurs_beta, "");
  line("kappa", d.kappa, "");
  if (d.always_stick)
    std::printf("  %-34s %s\n", "stick limit C", "none: kappa mu^2 >= 1, always sticks");
  else
    line("stick limit C", d.stick_limit, "");
  line("chi", d.chi, "");
  if (std::isfinite(d.gross_slip_offset))
    line("gross slip: Psi2 = Psi1 - G, G", d.gross_slip_offset, "");
  line("length scale eta", d.length_scale, "m");
  line("time scale eta/v", d.time_scale, "s");
  line("force scale m v^2/eta", d.force_scale, "N");
  std::printf(" Hertz normal impact (docs/THEORY.md sec. 3)\n");
  line("max compression delta_max", d.hertz.max_compression, "m");
  line("contact duration t_c", d.hertz.duration, "s");
  line("peak force F_max", d.hertz.peak_force, "N");
  line("contact radius a_max", d.hertz.contact_radius, "m");
}

}  // namespace

const char* const kCheckUsage = R"(Usage: rebound check CASE... [--json] [-q|--quiet | -v|--verbose]

Validates each case file and prints its derived quantities (mass properties,
N, lambda, theta, Psi1, Lai's and Hertz scales). --json prints one JSON array.
Every problem of a file is reported, one line each with the file and the key;
beyond the keys, check runs every validation the other commands run (finite
derived quantities, a capsule touching with its cap, a Hertz contact zone the
FEM can mesh), so a case it accepts is not rejected later. The physical
warnings the solvers print and write into summary.json (a Hertz contact too
large for a << R, a speed beyond the elastic or quasi-static range, p0 beyond
the yield stress, an option the model ignores) go to standard error, one line
"rebound check: warning: FILE: ..." each, and into --json as "warnings"; they
do not reject the case. A JSON Schema among the files (cases/case.schema.json)
is skipped.
-q prints only the problems and warnings (an accepted case without warnings
prints nothing; --json still prints); -v adds, on standard error, each case as read with every default
filled and its hash, and the time each took.
Exit status 2 if any case is rejected (every case is still checked).
)";

int command_check(const std::vector<std::string>& arguments) {
  const Arguments args("check", arguments, {"--json", "--quiet"}, {}, kCheckUsage);
  if (args.help()) return 0;
  if (args.positional().empty()) throw UsageError("needs at least one CASE file");
  Verbose verbose(args, "check");
  int status = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& path : args.positional()) {
    try {
      const cases::Case c = cases::load_case(path);
      verbose.resolved_case(c);
      const cases::Derived d = cases::derive(c);
      verbose.stage(path + ": read, validated and derived");
      // The physical warnings every solver would print and write into its summary.json.
      const std::vector<std::string> warnings = cases::physical_warnings(c, d);
      if (args.flag("--json")) {
        nlohmann::json entry = cases::to_json(c, d);
        entry["warnings"] = warnings;
        all.push_back(entry);
      } else if (!args.flag("--quiet")) {
        print_table(c, d);
      }
      for (const std::string& warning : warnings)
        std::fprintf(stderr, "rebound check: warning: %s: %s\n", path.c_str(), warning.c_str());
    } catch (const cases::CaseError& error) {
      verbose.stage(path + ": rejected");
      if (cases::is_json_schema_file(path)) {
        // cases/case.schema.json beside the cases: `rebound check cases/*.json` still works.
        std::fprintf(stderr, "rebound check: %s is a JSON Schema, not a case: skipped\n",
                     path.c_str());
        continue;
      }
      print_case_error("check", error);
      status = 2;
    }
  }
  if (args.flag("--json")) std::cout << all.dump(2) << "\n";
  verbose.total();
  return status;
}

}  // namespace rebound::app
