// The FEM halves of validation sections 1-3 (compiled into rebound-fem only): Hertz impacts, the
// eight Table 6.1 spheres paired with Lai's model, and the rod case a refinement study.
#include <deal.II/base/mpi.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "app/comparison.h"
#include "app/refinement.h"
#include "app/validation.h"
#include "cases/derived.h"
#include "fem/fem.h"
#include "lumped/summary.h"

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
fem::RunResult run_fem(const cases::Case& c, const std::string& label) {
  if (root()) {
    std::printf("    FEM %s (%s) ...", c.name.c_str(), label.c_str());
    std::fflush(stdout);
  }
  fem::RunOptions options;
  options.frames = 0;
  fem::RunResult r = fem::run(c, options, MPI_COMM_WORLD);
  if (root()) {
    std::printf(" %s, %llu dofs, %.0f s\n", r.status.c_str(), r.info.dofs, r.wall_time);
    std::fflush(stdout);
  }
  if (r.status != "completed")
    throw std::runtime_error(c.name + " (" + label + "): FEM run " + r.status + ": " + r.message);
  return r;
}

double number(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : kNaN;
}

// ----- Section 1: Hertz ------------------------------------------------------------------------

void fem_hertz(const Options& options, SectionResult& r) {
  const bool full = options.depth == Depth::full;
  // Quick: the Hertz test mesh of tests/fem (2 global levels, contact cells a_max / 2) with its
  // 5 % tolerance; full: p = 1 and 2 at the case default (refinement 1, contact_resolution 3)
  // with issue 5's 2 %.
  std::vector<Mesh> meshes = {{1, 2, 2}};
  if (full) meshes = {{1, 1, 3}, {2, 1, 3}};
  const double tolerance = full ? 0.02 : 0.05;
  r.text =
      "The FEM on the same three Hertz cases (frictionless, so the contact is normal only), "
      "contact duration (first to last step with a contact force) and peak normal force "
      "against Hertz's analytic values. " +
      std::string(full ? "Full mode: p = 1 and p = 2 at the default resolution, tolerance 2 % "
                         "(issue 5's validation target)."
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
      const fem::RunResult run = run_fem(c, m.describe());
      const auto& s = run.summary;
      const std::string note = m.describe() + text(", %.0f dofs", double(run.info.dofs));
      r.rows.push_back(check("1", c.name, tag + ": contact duration t_c [s]",
                             number(s, "contact_duration"), d.hertz.duration,
                             Tolerance::relative(tolerance), note));
      r.rows.push_back(check("1", c.name, tag + ": peak normal force F_max [N]",
                             number(s, "peak_normal_force"), d.hertz.peak_force,
                             Tolerance::relative(tolerance), note));
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
      "the normal impulse are checked against Lai's model to 2 % (issue 5's target). Ψ₂ and the "
      "tangential impulse are compare rows: the FEM's Ψ₂ is converged but differs from Lai's "
      "model because Lai's tangential spring is secant (F_t = K_t(a) δ_t) where a stuck, growing "
      "contact follows Mindlin–Deresiewicz's incremental law; docs/FEM.md shows the refinement "
      "study and the test that the FEM follows the incremental law to 0.9 %.";
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
    const fem::RunResult run = run_fem(c, mesh.describe());
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
  plot.caption = "FEM (" + mesh.describe() + ") against Lai's model (seed 000 Figs. 5.14, 6.x).";
  Panel panel;
  panel.xlabel = "Ψ₁";
  panel.ylabel = "Ψ₂";
  panel.series = {curve, gross, lumped_points, fem_points};
  plot.panels.push_back(panel);
  r.plots.push_back(plot);
}

// ----- Section 3: rod case a, refinement study ---------------------------------------------------

void fem_rod(const Options& options, SectionResult& r) {
  const bool full = options.depth == Depth::full;
  cases::Case c = cases::load_case(options.cases_directory + "/rod-lai-a.json");
  c.fem.degree = 1;
  c.fem.refinement = 0;
  app::RefinementOptions study_options;
  // The body's mesh (fem.refinement), not the contact zone, limits these coarse runs: refining
  // only the contact converges to the coarse body's own limit (docs/PAIR.md).
  if (full) {
    c.fem.contact_resolution = 2;
    study_options.refinements = {0, 1, 2, 3};
  } else {
    c.fem.contact_resolution = 1;
    study_options.refinements = {0, 1, 2};
  }
  study_options.quiet = false;
  study_options.frames = 0;
  const fs::path directory =
      fs::temp_directory_path() / ("rebound-validate-rod-" + std::to_string(::getpid()));
  study_options.directory = directory.string();
  if (root())
    std::printf("    FEM refinement study of %s in %s\n", c.name.c_str(), directory.c_str());
  const app::RefinementStudy study = app::run_refinement_study(c, study_options);
  if (study.interrupted) throw std::runtime_error("interrupted");
  if (study.series.empty()) throw std::runtime_error("the refinement study has no series");
  const app::RefinementSeries& series = study.series.front();

  // The lumped references: the table's lambda/theta (the case) and the geometry's.
  const cases::Derived table = cases::derive(c);
  const nlohmann::json lumped_table = lumped::summary_json(c, table, lumped::solve(c, table));
  cases::Case geometric = c;
  geometric.lumped.lambda.reset();
  geometric.lumped.theta.reset();
  const cases::Derived geometry = cases::derive(geometric);
  const nlohmann::json lumped_geometry =
      lumped::summary_json(geometric, geometry, lumped::solve(geometric, geometry));

  r.text =
      "Seed 000 Table 5.2 rod case a (capsule L/R = 5, θ = 0.270, μ = 0.5) by the FEM (p = 1), "
      "refined " +
      std::string(full ? "by fem.refinement 0-3 (global levels of the coarse mesh) at "
                         "contact_resolution 2"
                       : "by fem.refinement 0, 1, 2 at contact_resolution 1") +
      " (the `rebound refine` machinery). The observed order of convergence and the "
      "Richardson value come from the last three runs; Lai's model is shown with the table's "
      "λ = 0.639 and with the geometry's λ (PHYSICS §2 erratum: 0.621).";
  r.text +=
      " Issue 7 asks for an observed order > 0.5 in the normal impulse and Ψ₂ (checked); "
      "the other orders are compare rows.";
  for (std::size_t k : series.runs) {
    const app::RefinementRun& run = study.runs[k];
    const std::string label = text("fem.refinement %.0f, h_max = %.3g mm, %.0f dofs",
                                   run.refinement, 1e3 * run.h_max, run.dofs);
    for (const char* q : {"psi2", "e_newton", "normal_impulse", "tangential_impulse"}) {
      const auto it = run.values.find(q);
      r.rows.push_back(compare("3", c.name, std::string(q) + " (" + label + ")",
                               it == run.values.end() ? kNaN : it->second,
                               number(lumped_geometry, q), "reference: Lai, geometry λ"));
    }
  }
  for (const char* q : {"psi2", "normal_impulse", "e_newton", "tangential_impulse"}) {
    const auto it = series.convergence.find(q);
    if (it == series.convergence.end()) continue;
    const app::Convergence& conv = it->second;
    const std::string note = conv.status + (std::isfinite(conv.error_estimate)
                                                ? text(", Richardson %.6g ± %.2g",
                                                       conv.extrapolated, conv.error_estimate)
                                                : std::string());
    const bool checked = std::string(q) == "psi2" || std::string(q) == "normal_impulse";
    r.rows.push_back(checked ? check("3", c.name, std::string(q) + ": observed order", conv.order,
                                     0.5, Tolerance::at_least(), note)
                             : compare("3", c.name, std::string(q) + ": observed order", conv.order,
                                       kNaN, note));
    r.rows.push_back(compare("3", c.name, std::string(q) + ": Richardson value vs Lai (table λ)",
                             conv.extrapolated, number(lumped_table, q),
                             text("error bar ± %.2g", conv.error_estimate)));
    r.rows.push_back(compare("3", c.name, std::string(q) + ": Richardson value vs Lai (geometry λ)",
                             conv.extrapolated, number(lumped_geometry, q)));
  }
  // Impulse paths (seed Figs. 5.23 and 6.25): the finest FEM run and both lumped solves.
  Plot plot;
  plot.name = "s3-fem-rod-a-impulse-path";
  plot.title = "Rod case a: normal vs tangential impulse, FEM and Lai's model";
  plot.caption = "γ_n–γ_t path in N s (seed 000 Figs. 5.23, 6.25).";
  Panel panel;
  panel.xlabel = "tangential impulse [N s]";
  panel.ylabel = "normal impulse [N s]";
  const app::RefinementRun& finest = study.runs[series.runs.back()];
  const auto history = app::read_csv(finest.directory + "/history.csv");
  Series fem_path;
  fem_path.label = "FEM (finest)";
  const auto& jt = history.values.at("tangential_impulse");
  const auto& jn = history.values.at("normal_impulse");
  const std::size_t stride = std::max<std::size_t>(1, jt.size() / 500);
  for (std::size_t k = 0; k < jt.size(); k += stride) {
    fem_path.x.push_back(jt[k]);
    fem_path.y.push_back(jn[k]);
  }
  panel.series.push_back(fem_path);
  for (const auto& [label, cc, dd] :
       {std::tuple<std::string, const cases::Case*, const cases::Derived*>{"Lai, table λ", &c,
                                                                           &table},
        {"Lai, geometry λ", &geometric, &geometry}}) {
    const lumped::Outcome o = lumped::solve(*cc, *dd);
    const double impulse_scale = dd->effective_mass * dd->approach_speed;
    Series s;
    s.label = label;
    s.style = "dashed";
    for (const auto& sample : o.history) {
      s.x.push_back(sample.impulse.x() * impulse_scale);
      s.y.push_back(sample.impulse.y() * impulse_scale);
    }
    panel.series.push_back(s);
  }
  plot.panels.push_back(panel);
  r.plots.push_back(plot);
  std::error_code ignored;
  if (root()) fs::remove_all(directory, ignored);
}

}  // namespace

std::vector<SectionSpec> fem_sections() {
  return {
      {"1", "FEM", "Hertz normal impact (analytic)", 60, 3600, fem_hertz},
      {"2", "FEM", "Seed 000 Table 6.1: the eight sphere cases", 240, 2400, fem_spheres},
      {"3", "FEM", "Seed 000 Table 5.2: rod cases a-d", 180, 14400, fem_rod},
  };
}

}  // namespace rebound::validation
