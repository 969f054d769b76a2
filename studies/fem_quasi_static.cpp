#include "studies/fem_quasi_static.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cases/derived.h"
#include "cases/format.h"
#include "observables/files.h"
#include "observables/output_folder.h"
#include "studies/stop.h"

namespace rebound::studies {

FemQuasiStatic run_quasi_static_into(const cases::Case& c, const std::string& directory,
                                     int extra_levels,
                                     const std::function<void(int, int)>& progress) {
  // The static law holds the body on its rigid target (fem/quasi_static.h): a deformable one (a
  // half-space's block, a target sphere) would be meshed without its own constants or support.
  if (!c.target.rigid() && c.target.socket())
    throw cases::CaseError(c.source, "target.material",
                           "is given: the socket is elastic; rebound fem --quasi-static presses "
                           "the body on a rigid target: expected no target.material (a rigid "
                           "socket; the explicit run, rebound fem without --quasi-static, takes "
                           "this one)");
  if (!c.target.rigid())
    throw cases::CaseError(c.source, "target.type",
                           std::string("is \"") + cases::to_string(c.target.type) +
                               "\"; rebound fem --quasi-static presses the body on a rigid "
                               "target: expected \"rigid_plane\" or \"spherical_socket\" (the "
                               "explicit run, rebound fem without --quasi-static, takes this one)");
  // The static law factorises the elastic stiffness once (fem/quasi_static.h): no plasticity.
  if (c.material.model != cases::MaterialModel::elastic)
    throw cases::CaseError(c.source, "material.model",
                           std::string("is \"") + cases::to_string(c.material.model) +
                               "\"; rebound fem --quasi-static solves the elastic body's contact "
                               "law (one factorised stiffness): expected \"elastic\" (the "
                               "explicit run, rebound fem without --quasi-static, takes "
                               "\"elastic-plastic\" and \"viscoelastic\")");
  observables::OutputFolder folder(directory, {"static_law.csv", "summary.json"},
                                   "rebound fem --quasi-static");
  const cases::Derived d = cases::derive(c);
  fem::StaticLawOptions options;
  options.extra_levels = extra_levels;
  options.force_fractions = fem::default_force_fractions();
  options.progress = progress;
  const StopOnSignal signals;
  options.stop = StopOnSignal::flag();
  FemQuasiStatic r;
  try {
    r.law = fem::static_contact_law(c, options);
  } catch (const fem::QuasiStaticInterrupted&) {
    folder.finish("interrupted");
    throw;
  }
  r.impact = fem::quasi_static_impact(r.law, d.hertz.normal_speed);
  const double hertz_factor = 4.0 / 3.0 * d.hertz.contact_modulus * std::sqrt(d.hertz.radius);
  // Hertz's impact on the FE body's own mass (t_c ~ m^(2/5), F_max ~ m^(3/5)).
  const double mass_ratio = r.law.mass / d.hertz.normal_mass;

  std::string csv =
      "force_N,approach_m,hertz_approach_m,force_over_hertz_at_approach,contact_nodes,"
      "contact_radius_m,load_offset_m,max_penetration_m,balance_error,active_set_iterations\n";
  for (const fem::StaticLawPoint& p : r.law.points) {
    char line[512];
    std::snprintf(line, sizeof line, "%.10g,%.10g,%.10g,%.10g,%d,%.10g,%.6g,%.6g,%.6g,%d\n",
                  p.force, p.approach, p.hertz_approach,
                  p.force / (hertz_factor * std::pow(p.approach, 1.5)), p.contact_nodes,
                  p.contact_radius, p.load_offset, p.max_penetration, p.balance_error,
                  p.active_set_iterations);
    csv += line;
  }
  r.summary = {{"case", c.name},
               {"model", "fem quasi-static (no inertia)"},
               {"degree", r.law.degree},
               {"dofs", r.law.dofs},
               {"cells", r.law.cells},
               {"h_contact", r.law.h_contact},
               {"candidate_nodes", r.law.candidates},
               {"candidate_radius", r.law.candidate_radius},
               {"mass", r.law.mass},
               {"reciprocity_error", r.law.reciprocity_error},
               {"normal_speed", d.hertz.normal_speed},
               {"contact_duration", r.impact.contact_duration},
               {"peak_normal_force", r.impact.peak_force},
               {"max_approach", r.impact.max_approach},
               {"hertz_contact_radius", d.hertz.contact_radius},
               {"hertz_radius", d.hertz.radius},
               {"hertz_contact_duration", d.hertz.duration},
               {"hertz_peak_force", d.hertz.peak_force},
               {"hertz_contact_duration_body_mass", d.hertz.duration * std::pow(mass_ratio, 0.4)},
               {"hertz_peak_force_body_mass", d.hertz.peak_force * std::pow(mass_ratio, 0.6)},
               {"setup_seconds", r.law.setup_seconds},
               {"influence_seconds", r.law.influence_seconds},
               {"law_seconds", r.law.law_seconds}};
  nlohmann::json units = nlohmann::json::object();
  for (const char* key :
       {"h_contact", "candidate_radius", "max_approach", "hertz_contact_radius", "hertz_radius"})
    units[key] = "m";
  for (const char* key :
       {"contact_duration", "hertz_contact_duration", "hertz_contact_duration_body_mass",
        "setup_seconds", "influence_seconds", "law_seconds"})
    units[key] = "s";
  for (const char* key : {"peak_normal_force", "hertz_peak_force", "hertz_peak_force_body_mass"})
    units[key] = "N";
  units["mass"] = "kg";
  units["normal_speed"] = "m/s";
  r.summary["units"] = units;
  r.law_file = (std::filesystem::path(directory) / "static_law.csv").string();
  r.summary_file = (std::filesystem::path(directory) / "summary.json").string();
  observables::write_file_atomically(r.law_file, csv);
  observables::write_file_atomically(r.summary_file, r.summary.dump(2) + "\n");
  folder.finish("completed");
  return r;
}

std::string quasi_static_text(const FemQuasiStatic& r, const std::string& case_name) {
  std::string out;
  const fem::StaticLaw& law = r.law;
  const nlohmann::json& s = r.summary;
  out += cases::format(
      "%s  quasi-static contact law of the FE body (FE_Q(%d), %llu dofs, %llu cells, "
      "h_contact %.3g m; %d candidate nodes within %.3g m of P)\n",
      case_name.c_str(), law.degree, law.dofs, law.cells, law.h_contact, law.candidates,
      law.candidate_radius);
  out += cases::format(
      "  mesh, K and its factorisation %.1f s, influence of the candidates %.1f s, law %.2f s\n",
      law.setup_seconds, law.influence_seconds, law.law_seconds);
  out += cases::format("  %12s %14s %14s %12s %8s %12s\n", "F [N]", "approach [m]", "Hertz's [m]",
                       "F/F_Hertz", "nodes", "radius [m]");
  for (std::size_t k = 0; k < law.points.size(); k += 3) {
    const fem::StaticLawPoint& p = law.points[k];
    out += cases::format("  %12.6g %14.6g %14.6g %12.6f %8d %12.4g\n", p.force, p.approach,
                         p.hertz_approach, std::pow(p.hertz_approach / p.approach, 1.5),
                         p.contact_nodes, p.contact_radius);
  }
  const auto percent = [](double value, double reference) { return 100 * (value / reference - 1); };
  out +=
      cases::format(" Quasi-static impact at %.6g m/s on this law (m = %.8g kg, the FE body's):\n",
                    double(s["normal_speed"]), law.mass);
  out += cases::format(
      "  contact duration  %.6g s   Hertz %.6g s (%+.3f %%), on the FE body's mass %+.3f %%\n",
      r.impact.contact_duration, double(s["hertz_contact_duration"]),
      percent(r.impact.contact_duration, s["hertz_contact_duration"]),
      percent(r.impact.contact_duration, s["hertz_contact_duration_body_mass"]));
  out += cases::format(
      "  peak force        %.6g N   Hertz %.6g N (%+.3f %%), on the FE body's mass %+.3f %%\n",
      r.impact.peak_force, double(s["hertz_peak_force"]),
      percent(r.impact.peak_force, s["hertz_peak_force"]),
      percent(r.impact.peak_force, s["hertz_peak_force_body_mass"]));
  out += cases::format("  written to %s, %s\n", r.law_file.c_str(), r.summary_file.c_str());
  return out;
}

}  // namespace rebound::studies
