// The FEM halves of validation sections 1-3 (compiled into rebound-fem only): Hertz impacts, the
// eight Table 6.1 spheres paired with Lai's model, and the rod case a refinement study.
#include <deal.II/base/mpi.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "cases/derived.h"
#include "cases/json_numbers.h"
#include "fem/fem.h"
#include "lumped/halfspace.h"
#include "lumped/solve.h"
#include "lumped/summary.h"
#include "studies/fem_run.h"
#include "studies/refinement.h"
#include "validation/validation.h"

namespace rebound::validation {
namespace {

namespace fs = std::filesystem;

std::string text(const char* pattern, double a, double b = 0, double c = 0) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

bool root() {
  return dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
}

// The mesh of a depth: quick runs the test-sized meshes of tests/fem, full the case's defaults.
struct Mesh {
  int degree, refinement;
  double contact_resolution;
  std::string describe() const {
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "p = %d, fem.refinement %d, contact_resolution %g", degree,
                  refinement, contact_resolution);
    return buffer;
  }
};

cases::Case meshed(cases::Case c, const Mesh& m) {
  c.fem.degree = m.degree;
  c.fem.refinement = m.refinement;
  c.fem.contact_resolution = m.contact_resolution;
  return c;
}

// One FEM run without frames, with one progress line; a run that does not complete throws.
fem::RunResult run_fem(const Options& validation, const cases::Case& c, const std::string& label) {
  const auto say = [&](const std::string& line) {
    if (root() && validation.report) validation.report(line);
  };
  say(studies::format("    FEM %s (%s) ...", c.name.c_str(), label.c_str()));
  fem::RunOptions options;
  options.frames = 0;
  options.interrupt = studies::StopOnSignal::flag();  // Ctrl-C under `rebound validate`
  fem::RunResult r = fem::run(c, options, MPI_COMM_WORLD);
  say(studies::format(" %s, %llu dofs, %.0f s\n", r.status.c_str(), r.info.dofs, r.wall_time));
  if (r.status != "completed")
    throw std::runtime_error(c.name + " (" + label + "): FEM run " + r.status + ": " + r.message);
  return r;
}

double number(const nlohmann::json& j, const char* key) {
  return cases::number_or_nan(j, key);
}

// ----- Section 1: Hertz ------------------------------------------------------------------------

void fem_hertz(const Options& options, SectionResult& r) {
  const bool full = options.depth == Depth::full;
  // Quick: the Hertz test mesh of tests/fem (2 global levels, contact cells a_max / 2) with its
  // 5 % tolerance. Full: p = 2 at the case default (refinement 1, contact_resolution 3) against
  // issue 5's 2 %, and p = 1 on 2 global levels at contact_resolution 3 against 5 %, the bound
  // of the p = 1 unit test: the Q1 sphere's straight-sided cells miss 1.6 % of the mass there
  // (t_c ∝ m^(2/5): −0.6 %) and facet the contact surface; at the default refinement 1 its t_c
  // came out 4 % short.
  std::vector<Mesh> meshes = {{1, 2, 2}};
  if (full) meshes = {{1, 2, 3}, {2, 1, 3}};
  const auto tolerance_of = [&](const Mesh& m) { return full && m.degree == 2 ? 0.02 : 0.05; };
  r.text =
      "The FEM on the same three Hertz cases (frictionless, so the contact is normal only), "
      "contact duration (first to last step with a contact force) and peak normal force "
      "against Hertz's analytic values. " +
      std::string(full ? "Full mode: p = 2 at the default resolution (fem.refinement 1, "
                         "contact_resolution 3) against the 2 % target for the default "
                         "resolution; p = 1 on 2 global levels "
                         "at contact_resolution 3 against 5 %, the bound of the p = 1 unit test "
                         "(the Q1 sphere's faceted geometry: at the default fem.refinement 1 its "
                         "contact duration comes out about 4 % short)."
                       : "Quick mode: p = 1 on the test-sized mesh of tests/fem (2 global levels, "
                         "contact cells a_max/2), tolerance 5 % as in the unit test; "
                         "`rebound validate --full` runs p = 1 and 2 at the default resolution "
                         "against 2 %.") +
      " The energy balance error (max over the run of |E_kin + E_int + D − E_0| / E_0) is "
      "checked against the 0.5 % of the frictionless unit test.";
  Plot plot;
  plot.name = "s1-fem-hertz-force";
  plot.title = "FEM normal force in Hertz units";
  plot.caption = "F/F_max(Hertz) against t/t_c(Hertz) for every FEM run of the section.";
  Panel panel;
  panel.xlabel = "t / t_c (Hertz)";
  panel.ylabel = "F_n / F_max (Hertz)";
  for (const cases::Case& base : hertz_cases(options)) {
    const cases::Derived d = cases::derive(base);
    for (const Mesh& m : meshes) {
      const cases::Case c = meshed(base, m);
      const std::string tag = text("FEM p = %.0f", m.degree);
      const fem::RunResult run = run_fem(options, c, m.describe());
      const auto& s = run.summary;
      const std::string note = m.describe() + text(", %.0f dofs", double(run.info.dofs));
      r.rows.push_back(check("1", c.name, tag + ": contact duration t_c [s]",
                             number(s, "contact_duration"), d.hertz.duration,
                             Tolerance::relative(tolerance_of(m)), note));
      r.rows.push_back(check("1", c.name, tag + ": peak normal force F_max [N]",
                             number(s, "peak_normal_force"), d.hertz.peak_force,
                             Tolerance::relative(tolerance_of(m)), note));
      r.rows.push_back(check("1", c.name, tag + ": energy balance error",
                             number(s, "energy_balance_error"), 5e-3, Tolerance::at_most(),
                             "≤ 0.5 %"));
      Series series;
      series.label = c.name + " (p = " + std::to_string(m.degree) + ")";
      const std::size_t stride = std::max<std::size_t>(1, run.history.size() / 400);
      for (std::size_t k = 0; k < run.history.size(); k += stride) {
        series.x.push_back(run.history[k].time / d.hertz.duration);
        series.y.push_back(run.history[k].normal_force_smoothed / d.hertz.peak_force);
      }
      panel.series.push_back(series);
    }
  }
  // Hertz's force history, F/F_max = (delta/delta_max)^{3/2}, from the lumped model at mu = 0
  // (section 1's lumped half checks it against the closed form).
  cases::Case hertz = hertz_cases(options).front();
  const cases::Derived d = cases::derive(hertz);
  const lumped::Outcome o = lumped::solve(hertz, d);
  Series analytic;
  analytic.label = "Hertz";
  analytic.style = "dashed";
  const double peak = o.peak_normal_force;
  for (const auto& sample : o.history) {
    analytic.x.push_back(sample.tau / o.duration);
    analytic.y.push_back(sample.force.y() / peak);
  }
  panel.series.push_back(analytic);
  plot.panels.push_back(panel);
  r.plots.push_back(plot);
}

// ----- Section 2: the Table 6.1 spheres ----------------------------------------------------------

void fem_spheres(const Options& options, SectionResult& r) {
  const bool full = options.depth == Depth::full;
  const Mesh mesh = full ? Mesh{2, 1, 3} : Mesh{1, 0, 2};
  r.text =
      "The eight Table 6.1 spheres paired as `rebound pair` pairs them: the FEM (" +
      mesh.describe() +
      ") and Lai's model given the FE body's own mass, λ and θ (its lumped nodal masses). e and "
      "the normal impulse are checked against Lai's model to 2 % (the FEM's validation target). "
      "Ψ₂ and the tangential impulse are compare rows: below the gross-slip range the FEM's "
      "Ψ₂ lies 0.4–0.8 below Lai's. Section 7 measures the two pieces of physics Lai's one-spring "
      "model leaves out, partial slip and the normal–tangential coupling of an elastic body on a "
      "rigid plane, with quasi-static models of their own; together they account for most of the "
      "difference (docs/FEM.md). The FEM's own convergence in Ψ₂ is not yet shown with error "
      "bars at p = 2.";
  if (!full)
    r.text +=
        " Quick mode uses the coarse mesh of cases/sphere-lai-psi2-quick.json; `--full` "
        "runs p = 2 at the default resolution (a few minutes per case on 2 cores).";
  Series fem_points, lumped_points;
  fem_points.label = "FEM";
  fem_points.style = "points";
  lumped_points.label = "Lai, FE body's λ";
  lumped_points.style = "points";
  double chi = kNaN;
  for (const double psi1 : {0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0}) {
    char file[64];
    std::snprintf(file, sizeof file, "/sphere-lai-psi%g.json", psi1);
    const cases::Case c = meshed(cases::load_case(options.cases_directory + file), mesh);
    const fem::RunResult run = run_fem(options, c, mesh.describe());
    const cases::Derived d = cases::derive(c, run.info.mesh_mass_properties);
    chi = cases::derive(c).chi;
    const nlohmann::json lumped = lumped::summary_json(c, d, lumped::solve(c, d));
    const auto& s = run.summary;
    const std::string name = c.name;
    r.rows.push_back(compare("2", name, "Ψ₂: FEM vs Lai", number(s, "psi2"), number(lumped, "psi2"),
                             "model difference (docs/FEM.md)"));
    r.rows.push_back(check("2", name, "e (Newton): FEM vs Lai", number(s, "e_newton"),
                           number(lumped, "e_newton"), Tolerance::relative(0.02)));
    r.rows.push_back(check("2", name, "normal impulse [N s]: FEM vs Lai",
                           number(s, "normal_impulse"), number(lumped, "normal_impulse"),
                           Tolerance::relative(0.02)));
    r.rows.push_back(compare("2", name, "tangential impulse [N s]: FEM vs Lai",
                             number(s, "tangential_impulse"),
                             number(lumped, "tangential_impulse")));
    r.rows.push_back(compare("2", name, "tangential COR: FEM vs Lai", number(s, "tangential_cor"),
                             number(lumped, "tangential_cor")));
    fem_points.x.push_back(number(s, "psi1"));
    fem_points.y.push_back(number(s, "psi2"));
    lumped_points.x.push_back(number(lumped, "psi1"));
    lumped_points.y.push_back(number(lumped, "psi2"));
  }
  // Lai's curve with the exact geometry and the rigid-body gross-slip line.
  cases::Case base = cases::load_case(options.cases_directory + "/sphere-lai-psi2.json");
  Series curve, gross;
  curve.label = "Lai (exact geometry)";
  gross.label = "gross slip Ψ₂ = Ψ₁ − 4χ";
  gross.style = "dotted";
  const double scale = cases::psi_scale(base.material.poisson_ratio, base.contact.friction);
  for (int k = 0; k <= 80; ++k) {
    const double psi1 = 8.0 * k / 80;
    cases::Case c = base;
    c.impact.tangential_speed = c.impact.normal_speed * psi1 / scale;
    const cases::Derived d = cases::derive(c);
    const nlohmann::json s = lumped::summary_json(c, d, lumped::solve(c, d, false));
    curve.x.push_back(psi1);
    curve.y.push_back(number(s, "psi2"));
  }
  gross.x = {4 * chi, 8.0};
  gross.y = {0.0, 8.0 - 4 * chi};
  Plot plot;
  plot.name = "s2-fem-psi2";
  plot.title = "Table 6.1 spheres: Ψ₂ vs Ψ₁, FEM and Lai's model";
  plot.caption = "FEM (" + mesh.describe() + ") against Lai's model (Lai 1999, Figs. 5.14, 6.x).";
  Panel panel;
  panel.xlabel = "Ψ₁";
  panel.ylabel = "Ψ₂";
  panel.series = {curve, gross, lumped_points, fem_points};
  plot.panels.push_back(panel);
  r.plots.push_back(plot);
}

// ----- Section 3: the Table 5.2 rods ------------------------------------------------------------

// One FEM run of a rod as the section uses it: its summary, impulse path and FE body.
struct RodRun {
  nlohmann::json summary;
  Series path;                 // gamma_n-gamma_t path in N s (tangential, normal)
  cases::MassProperties body;  // the FE body's own (lumped nodal masses)
};

Series fem_path(const std::vector<double>& tangential, const std::vector<double>& normal) {
  Series path;
  path.label = "FEM";
  const std::size_t stride = std::max<std::size_t>(1, tangential.size() / 500);
  for (std::size_t k = 0; k < tangential.size(); k += stride) {
    path.x.push_back(tangential[k]);
    path.y.push_back(normal[k]);
  }
  return path;
}

RodRun rod_run(const fem::RunResult& r) {
  RodRun run;
  run.summary = r.summary;
  std::vector<double> tangential, normal;
  for (const auto& row : r.history) {
    tangential.push_back(row.tangential_impulse);
    normal.push_back(row.normal_impulse);
  }
  run.path = fem_path(tangential, normal);
  run.body = r.info.mesh_mass_properties;
  return run;
}

// A run made by the refinement study (kept in memory by the study).
RodRun rod_run(const studies::RefinementRun& study_run) {
  RodRun run;
  run.summary = study_run.summary;
  if (!run.summary.is_object() || study_run.history.rows() == 0)
    throw std::runtime_error(study_run.directory + ": the study kept no result of this run");
  run.body =
      cases::mass_properties_from_json(run.summary.value("mesh_mass_properties", nlohmann::json()),
                                       study_run.directory + " mesh_mass_properties");
  run.path = fem_path(study_run.history.column("tangential_impulse"),
                      study_run.history.column("normal_impulse"));
  return run;
}

// Lai's model on a body: its summary and impulse path.
struct LaiRun {
  nlohmann::json summary;
  Series path;
};

LaiRun lai(const cases::Case& c, const cases::Derived& d, const std::string& label) {
  const lumped::Outcome o = lumped::solve(c, d);
  LaiRun run;
  run.summary = lumped::summary_json(c, d, o);
  run.path.label = label;
  run.path.style = "dashed";
  const double impulse_scale = d.effective_mass * d.approach_speed;
  for (const auto& sample : o.history) {
    run.path.x.push_back(sample.impulse.x() * impulse_scale);
    run.path.y.push_back(sample.impulse.y() * impulse_scale);
  }
  return run;
}

// The three bodies Lai's model is given: the case (Table 5.2's lambda, theta), the exact
// capsule geometry (Lai's eqs. 5.76-5.79; docs/THEORY.md sec. 12) and the FE body of a run (what
// `rebound pair` uses).
struct LaiBodies {
  LaiRun table, geometry, fe_body;
};

LaiBodies lai_bodies(const cases::Case& c, const cases::MassProperties& fe_body) {
  const cases::Case own = cases::without_lumped_overrides(c);
  return {lai(c, cases::derive(c), "Lai, table λ"), lai(own, cases::derive(own), "Lai, geometry λ"),
          lai(own, cases::derive(own, fe_body), "Lai, FE body")};
}

const char* const kRodQuantities[] = {"psi2", "e_newton", "normal_impulse", "tangential_impulse"};

std::string rod_label(const std::string& name) {
  return "rod case " + name.substr(name.size() - 1);
}

cases::Case at_speed(cases::Case c, double scale) {
  c.impact.normal_speed *= scale;
  c.impact.tangential_speed *= scale;
  c.impact.spin *= scale;
  return c;
}

void fem_rod(const Options& options, SectionResult& r) {
  const bool full = options.depth == Depth::full;
  // The study's middle mesh: the four cases' runs and the speed series use it.
  const Mesh mesh = full ? Mesh{1, 2, 2} : Mesh{1, 1, 1};
  cases::Case rod_a = cases::load_case(options.cases_directory + "/rod-lai-a.json");
  rod_a = meshed(rod_a, mesh);
  studies::RefinementOptions study_options;
  // The body's mesh (fem.refinement), not the contact zone, limits these coarse runs: refining
  // only the contact converges to the coarse body's own limit (docs/PAIR.md).
  study_options.refinements = full ? std::vector<int>{0, 1, 2, 3} : std::vector<int>{0, 1, 2};
  study_options.report = options.report;
  study_options.frames = 0;
  const fs::path directory =
      fs::temp_directory_path() / ("rebound-validate-rod-" + std::to_string(::getpid()));
  study_options.directory = directory.string();

  // ---- 3a: refinement study of rod case a at 1 m/s.
  if (root() && options.report)
    options.report(studies::format("    FEM refinement study of %s in %s\n", rod_a.name.c_str(),
                                   directory.c_str()));
  const studies::RefinementStudy study = studies::run_refinement_study(rod_a, study_options);
  // Every rank holds the study's runs in memory (the FEM runs are collective).
  if (study.interrupted) throw std::runtime_error("interrupted");
  if (study.series.empty()) throw std::runtime_error("the refinement study has no series");
  const studies::RefinementSeries& series = study.series.front();
  RodRun a_on_mesh;
  for (std::size_t k : series.runs) {
    const studies::RefinementRun& run = study.runs[k];
    if (run.status != "completed")
      throw std::runtime_error(rod_a.name + ": refinement run " + std::to_string(run.refinement) +
                               " " + run.status + ": " + run.message);
    const RodRun fem = rod_run(run);
    if (run.refinement == mesh.refinement) a_on_mesh = fem;
    const LaiRun same_body = lai_bodies(rod_a, fem.body).fe_body;
    const std::string label = text("fem.refinement %.0f, h_max = %.3g mm, %.0f dofs",
                                   run.refinement, 1e3 * run.h_max, run.dofs);
    for (const char* q : kRodQuantities)
      r.rows.push_back(compare("3", rod_a.name, std::string(q) + " (" + label + ")",
                               number(fem.summary, q), number(same_body.summary, q),
                               "reference: Lai on this FE body"));
  }
  const LaiBodies a_lai = lai_bodies(rod_a, a_on_mesh.body);
  std::map<std::string, studies::Convergence> converged;
  for (const char* q : {"psi2", "normal_impulse", "e_newton", "tangential_impulse"}) {
    const auto it = series.convergence.find(q);
    if (it == series.convergence.end()) continue;
    const studies::Convergence& conv = it->second;
    converged[q] = conv;
    const std::string note = conv.status + (std::isfinite(conv.error_estimate)
                                                ? text(", Richardson %.6g ± %.2g",
                                                       conv.extrapolated, conv.error_estimate)
                                                : std::string());
    const bool checked = std::string(q) == "psi2" || std::string(q) == "normal_impulse";
    r.rows.push_back(checked ? check("3", rod_a.name, std::string(q) + ": observed order",
                                     conv.order, 0.5, Tolerance::at_least(), note)
                             : compare("3", rod_a.name, std::string(q) + ": observed order",
                                       conv.order, kNaN, note));
    r.rows.push_back(compare(
        "3", rod_a.name, std::string(q) + ": Richardson value vs Lai (table λ)", conv.extrapolated,
        number(a_lai.table.summary, q), text("error bar ± %.2g", conv.error_estimate)));
    r.rows.push_back(compare("3", rod_a.name,
                             std::string(q) + ": Richardson value vs Lai (geometry λ)",
                             conv.extrapolated, number(a_lai.geometry.summary, q)));
  }

  // ---- 3b: the four cases on `mesh`, against Lai on the same FE body; energy at the end.
  Plot paths;
  paths.name = "s3-fem-rod-impulse-paths";
  paths.title = "Table 5.2 rods: normal vs tangential impulse, FEM and Lai's model";
  paths.caption =
      "γ_n–γ_t paths in N s (Lai 1999, Figs. 5.23, 5.27, 5.31, 5.35, 6.25, 6.26): "
      "the FEM (" +
      mesh.describe() +
      ") and Lai's model with the table's λ and "
      "with the FE body's.";
  std::map<std::string, double> wave_energy;  // per case, fraction of E0 at the end
  for (const char* letter : {"a", "b", "c", "d"}) {
    const cases::Case c =
        meshed(cases::load_case(options.cases_directory + "/rod-lai-" + letter + ".json"), mesh);
    const RodRun fem =
        std::string(letter) == "a" ? a_on_mesh : rod_run(run_fem(options, c, mesh.describe()));
    const LaiBodies bodies = lai_bodies(c, fem.body);
    const auto& s = fem.summary;
    for (const char* q : kRodQuantities)
      r.rows.push_back(
          compare("3", c.name, std::string(q) + ": FEM vs Lai (FE body)", number(s, q),
                  number(bodies.fe_body.summary, q),
                  text("Lai: table λ %.4g, geometry λ %.4g", number(bodies.table.summary, q),
                       number(bodies.geometry.summary, q))));
    const double e0 = number(s, "kinetic_energy_initial");
    const double waves =
        (number(s, "vibration_kinetic_energy_final") + number(s, "internal_energy_final")) / e0;
    wave_energy[c.name] = waves;
    r.rows.push_back(compare("3", c.name, "wave energy left at the end / E₀", waves, kNaN,
                             "vibration kinetic + strain energy"));
    r.rows.push_back(compare("3", c.name, "frictional dissipation / E₀: FEM vs Lai (FE body)",
                             number(s, "frictional_dissipation") / e0,
                             number(bodies.fe_body.summary, "kinetic_energy_loss_fraction")));
    r.rows.push_back(check("3", c.name, "energy balance error", number(s, "energy_balance_error"),
                           5e-3, Tolerance::at_most(), "≤ 0.5 %, as in section 1"));
    Panel panel;
    panel.title = rod_label(c.name);
    panel.xlabel = "tangential impulse [N s]";
    panel.ylabel = "normal impulse [N s]";
    panel.series = {fem.path, bodies.table.path, bodies.fe_body.path};
    paths.panels.push_back(panel);
  }

  // ---- 3c: rod case a at lower speeds. Lai's model is rate-independent in Hertz's scaling (Ψ₂
  // and e do not depend on the speed, J_n is proportional to it); the elastic rod is not: the
  // contact lasts t_c ∝ v^(-1/5) against the rod's fixed vibration periods T, and the contact
  // radius a ∝ v^(2/5) against its length. Both first corrections, (T/t_c)² and a/L, scale
  // as v^(2/5), so FEM − Lai should shrink toward a rate-independent remainder as v falls.
  const std::vector<double> speeds =
      full ? std::vector<double>{1.0, 0.1, 0.01} : std::vector<double>{1.0, 0.2, 0.04};
  const double slowest = speeds.back();
  std::map<std::string, std::vector<double>> gaps;  // FEM - Lai (FE body), per speed
  std::map<std::string, double> slow_fem;           // FEM at the slowest speed (J_n per v)
  Plot speed_plot;
  speed_plot.name = "s3-fem-rod-a-speed";
  speed_plot.title = "Rod case a: FEM − Lai (FE body) against (v/v₀)^(2/5)";
  speed_plot.caption = text("The case's velocities scaled by 1, %g and %g (", speeds[1], slowest) +
                       mesh.describe() +
                       ", contact cells scaled with a_max); the dashed line is c + A v^p "
                       "through the three runs when p is near 2/5.";
  std::vector<Panel> speed_panels(3);
  const char* const speed_quantities[] = {"e_newton", "psi2", "normal_impulse"};
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const cases::Case c = at_speed(rod_a, speeds[i]);
    const RodRun fem =
        i == 0 ? a_on_mesh
               : rod_run(run_fem(options, c, mesh.describe() + text(", v × %g", speeds[i])));
    const LaiRun same_body = lai_bodies(c, fem.body).fe_body;
    for (const char* q : speed_quantities) {
      const double f = number(fem.summary, q), l = number(same_body.summary, q);
      // J_n relative to Lai's (it scales with v); e and Psi2 absolute.
      const bool impulse = std::string(q) == "normal_impulse";
      gaps[q].push_back(impulse ? (f - l) / l : f - l);
      if (i + 1 == speeds.size()) slow_fem[q] = impulse ? f / speeds[i] : f;
      r.rows.push_back(
          compare("3", rod_a.name, q + text(" at v × %g: FEM vs Lai (FE body)", speeds[i]), f, l));
    }
  }
  std::map<std::string, studies::Convergence> rate_fit;
  for (std::size_t j = 0; j < 3; ++j) {
    const std::string q = speed_quantities[j];
    const auto& g = gaps[q];
    const studies::Convergence conv = studies::observed_convergence(speeds, g);
    rate_fit[q] = conv;
    const bool power_law = conv.status == "ok" && std::abs(conv.order - 0.4) <= 0.2;
    const std::string what =
        q == "normal_impulse" ? "(J_n,FEM − J_n,Lai)/J_n,Lai" : q + ": FEM − Lai";
    // The claim of the explanation: the gap is a rate effect, so it shrinks as v falls.
    r.rows.push_back(check("3", rod_a.name, what + text(": |gap| at v × %g", slowest),
                           std::abs(g.back()), std::abs(g.front()), Tolerance::at_most(),
                           "reference: |gap| at v₀ (a rate effect shrinks as v falls)"));
    r.rows.push_back(compare("3", rod_a.name, what + ": exponent p of c + A v^p", conv.order, 0.4,
                             conv.status + "; reference: the first rate correction, 2/5"));
    if (power_law)
      r.rows.push_back(compare("3", rod_a.name, what + ": c, the limit v → 0", conv.extrapolated,
                               g.front(),
                               text("± %.2g; reference: the gap at v₀", conv.error_estimate)));
    Panel& panel = speed_panels[j];
    panel.xlabel = "(v / v₀)^(2/5)";
    panel.ylabel = what;
    Series points, fit;
    points.label = "FEM (" + mesh.describe() + ")";
    points.style = "points";
    fit.label = text("c + A v^p, p = %.2f", conv.order);
    fit.style = "dashed";
    for (std::size_t i = 0; i < speeds.size(); ++i) {
      points.x.push_back(std::pow(speeds[i], 0.4));
      points.y.push_back(g[i]);
    }
    Series zero;
    zero.label = "Lai's model (rate-independent): gap 0";
    zero.style = "dotted";
    zero.x = {0.0, 1.0};
    zero.y = {0.0, 0.0};
    panel.series = {zero, points};
    if (power_law) {
      const double amplitude = g.front() - conv.extrapolated;  // at v / v0 = 1
      for (int k = 0; k <= 50; ++k) {
        const double v = std::pow(k / 50.0, 1 / 0.4);
        fit.x.push_back(std::pow(v, 0.4));
        fit.y.push_back(conv.extrapolated + amplitude * std::pow(v, conv.order));
      }
      panel.series.insert(panel.series.begin() + 1, fit);
    }
  }
  speed_plot.panels = speed_panels;

  // ---- 3d: rod case a, Table 5.2's Lai numbers to the converged FEM in steps. e and Psi2
  // absolute, J_n in N s at the case's speed (the slow run's J_n scaled back by 1/v).
  const nlohmann::json& fem_a = a_on_mesh.summary;
  const std::string slow_label = text("v × %g", slowest);
  for (const char* q : {"e_newton", "psi2", "normal_impulse"}) {
    const double table = number(a_lai.table.summary, q),
                 geometry = number(a_lai.geometry.summary, q),
                 fe_body = number(a_lai.fe_body.summary, q), on_mesh = number(fem_a, q),
                 slow = slow_fem[q];
    const double refined = converged.count(q) ? converged[q].extrapolated : kNaN;
    const std::string Q = q;
    r.rows.push_back(compare("3", rod_a.name, Q + ": [1] Lai, table λ (Lai 1999)", table));
    r.rows.push_back(compare("3", rod_a.name, Q + ": [2] − [1] table λ → geometry λ (erratum)",
                             geometry - table));
    r.rows.push_back(compare("3", rod_a.name,
                             Q + ": [3] − [2] geometry → FE body (" + mesh.describe() + ")",
                             fe_body - geometry));
    r.rows.push_back(compare(
        "3", rod_a.name,
        Q + ": [4] − [3] Lai → FEM at " + slow_label + " (contact law and the rate effect left)",
        slow - fe_body));
    r.rows.push_back(compare("3", rod_a.name,
                             Q + ": [5] − [4] " + slow_label + " → v₀ (rate effect: rod dynamics)",
                             on_mesh - slow));
    r.rows.push_back(compare(
        "3", rod_a.name, Q + ": [6] − [5] mesh → converged (Richardson over fem.refinement)",
        refined - on_mesh, kNaN,
        text("error bar ± %.2g", converged.count(q) ? converged[q].error_estimate : kNaN)));
    r.rows.push_back(compare("3", rod_a.name, Q + ": [6] FEM converged vs [1]", refined, table));
  }

  // ---- Text with the numbers.
  const auto& ge = gaps["e_newton"];
  const auto& gp = gaps["psi2"];
  r.text =
      "Lai 1999, Table 5.2 rods (capsule L/R = 5, steel) by the FEM (p = 1). **Rod case a** is "
      "refined " +
      std::string(full ? "by fem.refinement 0-3 at contact_resolution 2"
                       : "by fem.refinement 0, 1, 2 at contact_resolution 1") +
      " (the `rebound refine` machinery): the observed order and the Richardson value come from "
      "the last three runs, and an order > 0.5 is required in the normal impulse and Ψ₂ "
      "(checked). Every run is compared with Lai's model on the same FE body (its lumped nodal "
      "masses, as `rebound pair` does); the Richardson values also with the table's λ = 0.639 "
      "and the geometry's (Lai's eqs. 5.76-5.79: 0.621). **Cases a-d** run on " +
      mesh.describe() + ".";
  r.text += text(
      "\n\n**Why the FEM differs from Lai's model on the rod.** Not by wave energy left in the "
      "rod: at the end of the run it holds %.2f %% of E₀ in vibration (kinetic + strain) for "
      "case a, %.2f %% at most over a-d. ",
      100 * wave_energy[rod_a.name],
      100 * std::max({wave_energy["rod-lai-a"], wave_energy["rod-lai-b"], wave_energy["rod-lai-c"],
                      wave_energy["rod-lai-d"]}));
  r.text += text(
      "The FEM even dissipates less by friction than Lai's model (%.1f %% against %.1f %% of "
      "E₀ for case a): the difference is in how the impulse is shared, and it is a rate effect. "
      "Lai's model is rate-independent (Ψ₂ and e do not depend on the speed); the elastic rod "
      "is not: the contact lasts t_c ∝ v^(−1/5) against the rod's fixed vibration periods T, "
      "so its inertia acts through (T/t_c)² ∝ v^(2/5). ",
      100 * number(fem_a, "frictional_dissipation") / number(fem_a, "kinetic_energy_initial"),
      100 * number(a_lai.fe_body.summary, "kinetic_energy_loss_fraction"));
  r.text += text("With the velocities scaled by %g (section 3c), the e gap goes from %+.4f to ",
                 slowest, ge.front());
  r.text += text("%+.4f and the Ψ₂ gap from %+.3f to ", ge.back(), gp.front());
  r.text += text(
      "%+.3f (checked: both shrink). The step table for case a (rows [1]-[6]) takes Lai's "
      "table numbers to the converged FEM: table λ → geometry λ → FE body → FEM at the "
      "slowest speed (what remains there is the contact law on a nearly quasi-static rod: "
      "partial slip and normal–tangential coupling, which Lai's one spring leaves out, as "
      "section 7 measures for the sphere, plus the rate effect not yet gone) → FEM at the "
      "case's speed → converged mesh. ",
      gp.back());
  if (!full) r.text += "`--full` scales by 0.1 and 0.01 on the finer mesh.";
  r.plots.push_back(paths);
  r.plots.push_back(speed_plot);
  std::error_code ignored;
  MPI_Barrier(MPI_COMM_WORLD);  // every rank is done with the study before its folder goes
  if (root()) fs::remove_all(directory, ignored);
}

// ----- Section 7: the coupling's signature in the FEM -------------------------------------------

// Psi2 of the coupled half-space model on a given body (lambda, theta of the FE body).
double coupled_halfspace_psi2(double lambda, double theta, double mu, double nu, double alpha) {
  lumped::Configuration c;
  c.lambda = lambda;
  c.theta = theta;
  c.friction = mu;
  c.poisson_ratio = nu;
  c.incidence_angle = alpha;
  lumped::HalfspaceOptions coupled;
  coupled.record_history = false;
  const lumped::Outcome o = lumped::solve_halfspace(c, coupled);
  return cases::psi_scale(nu, mu) * o.separation_velocity.x() / o.separation_velocity.y();
}

// The friction scan at fixed Psi1 = 2 of the lumped half, by the FEM: without the
// normal-tangential coupling Psi2 depends on Psi1 only (Maw's scaling; Lai's model moves by
// -0.03 from mu = 0.05 to 0.4 through its cone C(mu)); the coupled half-space model rises by
// +0.27. The FEM has the coupling: its rise is the signature checked here.
void fem_partial_slip(const Options& options, SectionResult& r) {
  const bool full = options.depth == Depth::full;
  const Mesh mesh = full ? Mesh{2, 1, 3} : Mesh{1, 0, 2};
  const cases::Case base =
      meshed(cases::load_case(options.cases_directory + "/sphere-lai-psi2.json"), mesh);
  const double psi1 = 2, nu = base.material.poisson_ratio;
  std::string table =
      "| μ | FEM Ψ₂ | half-space β (FE body) | FEM − half-space β | FEM e "
      "|\n|---|---|---|---|---|\n";
  std::vector<double> fem_psi2;
  const std::vector<double> frictions = {0.05, 0.1, 0.2, 0.4};
  for (const double mu : frictions) {
    cases::Case c = base;
    c.name = studies::format("sphere-lai-psi2, mu = %g", mu);
    c.contact.friction = mu;
    // Psi1 fixed: tan(alpha) = Psi1 / psi_scale(nu, mu), v_t = v_n tan(alpha).
    c.impact.tangential_speed = c.impact.normal_speed * psi1 / cases::psi_scale(nu, mu);
    const fem::RunResult run = run_fem(options, c, mesh.describe());
    const double psi2 = number(run.summary, "psi2"), e = number(run.summary, "e_newton");
    const double reference = coupled_halfspace_psi2(run.info.lambda_mesh, run.info.theta_mesh, mu,
                                                    nu, std::atan(psi1 / cases::psi_scale(nu, mu)));
    fem_psi2.push_back(psi2);
    r.rows.push_back(compare(r.id, studies::format("Ψ₁ = 2, μ = %g", mu),
                             "Ψ₂: FEM vs half-space β (FE body)", psi2, reference,
                             studies::format("e = %.6f", e)));
    table += studies::format("| %g | %+.4f | %+.4f | %+.4f | %.6f |\n", mu, psi2, reference,
                             psi2 - reference, e);
  }
  const double rise = fem_psi2.back() - fem_psi2.front();
  r.rows.push_back(check(r.id, "Ψ₁ = 2", "Ψ₂(μ = 0.4) − Ψ₂(μ = 0.05), FEM", rise, 0.1,
                         Tolerance::at_least(0),
                         "coupling: half-space β +0.27; Lai −0.03; Maw's scaling 0"));
  r.text = "The friction scan at fixed Ψ₁ = 2 by the FEM (" + mesh.describe() +
           "), against the coupled half-space model on the FE body's own λ and θ:\n\n" + table +
           studies::format(
               "\nThe FEM's Ψ₂ rises by %+.3f from μ = 0.05 to 0.4 at fixed Ψ₁ (checked: more "
               "than 0.1). Without the coupling Ψ₂ would not move (Maw's scaling; the MDR and the "
               "uncoupled half-space model above), and Lai's model moves by −0.03: the FEM breaks "
               "Maw's scaling as the normal–tangential coupling does.",
               rise);
  if (!full) r.text += " Quick mode: the coarse p = 1 mesh; `--full` runs p = 2.";
}

}  // namespace

// Quick estimates: the quick run of 2026-11-25 (docs/VALIDATION.md: 10, 31, 25, 18 s) with a
// third more for a slower or busier machine.
std::vector<SectionSpec> fem_sections() {
  return {
      {"1", "FEM", section_title("1"), 15, 1250, fem_hertz},
      {"2", "FEM", section_title("2"), 45, 2400, fem_spheres},
      {"3", "FEM", section_title("3"), 35, 4300, fem_rod},
      {"7", "FEM", section_title("7"), 24, 400, fem_partial_slip},
  };
}

}  // namespace rebound::validation
