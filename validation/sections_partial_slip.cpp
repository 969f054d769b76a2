// Section 7 of the validation report: partial slip and normal-tangential coupling, the physics
// that Lai's one-spring model leaves out (docs/THEORY.md sec. 9-10). Three lumped-level models of
// the same sphere impact, each adding one piece of physics:
//   Lai (one tangential spring, one stick/slip state)
//   -> the MDR spring bed (partial slip: a stick zone and slip annuli; Mindlin-Deresiewicz)
//   -> the half-space model without coupling (beta = 0: the same physics in 3-D, a cross-check)
//   -> the half-space model with Dundurs' beta of the elastic body on the rigid plane.
// The experiments that separate them: Psi2(Psi1) and its step table; a friction scan at fixed
// Psi1 (Maw's scaling says Psi2 depends on Psi1 only; coupling breaks it); a normal impact with
// and without friction (coupling makes friction dissipate even at normal incidence).
#include <cmath>
#include <vector>

#include "cases/case.h"
#include "lumped/halfspace.h"
#include "lumped/lai.h"
#include "lumped/mdr.h"
#include "studies/progress.h"
#include "validation/validation.h"

namespace rebound::validation {
namespace {

using studies::format;

constexpr double kNu = 0.3, kMu = 0.1, kLambda = 5.0 / 9.0;

lumped::Configuration sphere(double psi1, double mu) {
  lumped::Configuration c;
  c.lambda = kLambda;
  c.theta = 0;
  c.friction = mu;
  c.poisson_ratio = kNu;
  c.incidence_angle = std::atan(psi1 / cases::psi_scale(kNu, mu));
  return c;
}

struct Rebound {
  double psi2 = 0, e = 0;
};

Rebound rebound_of(const lumped::Configuration& c, const lumped::Outcome& o) {
  const Eigen::Vector2d w = o.separation_velocity;
  return {c.friction > 0 ? cases::psi_scale(c.poisson_ratio, c.friction) * w.x() / w.y() : NAN,
          w.y() / std::cos(c.incidence_angle)};
}

// The four models of this section on one configuration.
struct Models {
  Rebound lai, mdr, halfspace_uncoupled, halfspace;
};

Models solve_all(const lumped::Configuration& c, const std::atomic<bool>* stop) {
  lumped::LaiOptions lai;
  lai.record_history = false;
  lumped::MdrOptions mdr;
  mdr.record_history = false;
  mdr.control.stop = stop;
  lumped::HalfspaceOptions off, on;
  off.record_history = on.record_history = false;
  off.control.stop = on.control.stop = stop;
  off.dundurs_coupling = false;
  return {rebound_of(c, lumped::solve_lai(c, lai)), rebound_of(c, lumped::solve_mdr(c, mdr)),
          rebound_of(c, lumped::solve_halfspace(c, off)),
          rebound_of(c, lumped::solve_halfspace(c, on))};
}

}  // namespace

void section_partial_slip(const Options& options, SectionResult& r) {
  const bool full = options.depth == Depth::full;
  const double beta = (1 - 2 * kNu) / (2 * (1 - kNu));
  const lumped::HalfspaceOptions defaults;
  const lumped::MdrOptions mdr_defaults;

  // ---- Psi2(Psi1): the curves and the step table.
  Plot plot;
  plot.name = "s7-partial-slip";
  plot.title = "Ψ₂ vs Ψ₁: Lai, partial slip (MDR, half-space β = 0), coupling (half-space β)";
  plot.caption = format(
      "Sphere, ν = %g, μ = %g, λ = 5/9, θ = 0. Left: Ψ₂(Ψ₁); dotted: gross slip Ψ₂ = Ψ₁ − 4χ. "
      "Right: Newton's e.",
      kNu, kMu);
  Panel curves, restitution;
  curves.xlabel = restitution.xlabel = "Ψ₁";
  curves.ylabel = "Ψ₂";
  restitution.ylabel = "e (Newton)";
  const auto line = [](const std::string& label, const char* style) {
    Series s;
    s.label = label;
    s.style = style;
    return s;
  };
  Series lai = line("Lai (one spring)", "line"), mdr = line("MDR bed (partial slip)", "dashed"),
         off = line("half-space, β = 0", "dotted"),
         on = line(format("half-space, β = %.3f", beta), "line");
  Series e_lai = line("Lai", "line"), e_on = line(format("half-space, β = %.3f", beta), "line");
  const int points = full ? 33 : 17;
  for (int i = 0; i < points; ++i) {
    const double psi1 = 8.0 * i / (points - 1);
    if (psi1 == 0) continue;  // alpha = 0: Psi2 = 0 for every model
    const Models m = solve_all(sphere(psi1, kMu), options.stop);
    for (auto [s, y] :
         {std::pair{&lai, m.lai.psi2}, std::pair{&mdr, m.mdr.psi2},
          std::pair{&off, m.halfspace_uncoupled.psi2}, std::pair{&on, m.halfspace.psi2},
          std::pair{&e_lai, m.lai.e}, std::pair{&e_on, m.halfspace.e}}) {
      s->x.push_back(psi1);
      s->y.push_back(y);
    }
  }
  const double chi = (1 - kNu) * (1 + kLambda) / ((2 - kNu) * (1 - kLambda));
  Series gross = line("gross slip Ψ₁ − 4χ", "dotted");
  gross.x = {4 * chi, 8};
  gross.y = {0, 8 - 4 * chi};
  curves.series = {lai, mdr, off, on, gross};
  restitution.series = {e_lai, e_on};
  plot.panels = {curves, restitution};
  r.plots.push_back(plot);

  std::string table =
      "| Ψ₁ | Lai | + partial slip (MDR − Lai) | MDR | half-space β = 0 − MDR | + coupling "
      "(β − β = 0) | half-space β | e, half-space β |\n|---|---|---|---|---|---|---|---|\n";
  double largest_cross = 0;
  for (const double psi1 : {0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0}) {
    const Models m = solve_all(sphere(psi1, kMu), options.stop);
    const std::string at = format("Ψ₁ = %g", psi1);
    r.rows.push_back(compare(r.id, at, "Ψ₂ Lai", m.lai.psi2));
    r.rows.push_back(compare(r.id, at, "Ψ₂: + partial slip (MDR − Lai)", m.mdr.psi2 - m.lai.psi2));
    r.rows.push_back(check(r.id, at, "Ψ₂: half-space β = 0 vs MDR", m.halfspace_uncoupled.psi2,
                           m.mdr.psi2, Tolerance::absolute(0.01),
                           "same physics, independent methods"));
    r.rows.push_back(compare(r.id, at, "Ψ₂: + coupling (half-space β − β = 0)",
                             m.halfspace.psi2 - m.halfspace_uncoupled.psi2));
    r.rows.push_back(compare(r.id, at, "Ψ₂ half-space β", m.halfspace.psi2, NAN,
                             format("e = %.5f", m.halfspace.e)));
    largest_cross = std::max(largest_cross, std::abs(m.halfspace_uncoupled.psi2 - m.mdr.psi2));
    table +=
        format("| %g | %+.4f | %+.4f | %+.4f | %+.4f | %+.4f | %+.4f | %.5f |\n", psi1, m.lai.psi2,
               m.mdr.psi2 - m.lai.psi2, m.mdr.psi2, m.halfspace_uncoupled.psi2 - m.mdr.psi2,
               m.halfspace.psi2 - m.halfspace_uncoupled.psi2, m.halfspace.psi2, m.halfspace.e);
  }

  // ---- Friction scan at fixed Psi1 = 2: Maw's scaling (Psi2 a function of Psi1 only) holds
  // for the uncoupled partial-slip models; Lai's C(mu) departs from it at O(kappa mu^2); the
  // coupling breaks it (beta / mu is a second parameter).
  const double psi1_scan = 2;
  const Models reference = solve_all(sphere(psi1_scan, kMu), options.stop);
  std::string scan =
      "| μ | Lai | MDR | half-space β = 0 | half-space β | e, half-space β |\n"
      "|---|---|---|---|---|---|\n";
  for (const double mu : {0.05, 0.1, 0.2, 0.4}) {
    const Models m = solve_all(sphere(psi1_scan, mu), options.stop);
    const std::string at = format("Ψ₁ = 2, μ = %g", mu);
    r.rows.push_back(check(r.id, at, "Ψ₂ MDR vs MDR at μ = 0.1", m.mdr.psi2, reference.mdr.psi2,
                           Tolerance::absolute(1e-4),
                           "Maw's scaling: Ψ₂(Ψ₁) only (bed discretisation ~1e-5)"));
    r.rows.push_back(check(r.id, at, "Ψ₂ half-space β = 0 vs μ = 0.1", m.halfspace_uncoupled.psi2,
                           reference.halfspace_uncoupled.psi2, Tolerance::absolute(5e-3),
                           "Maw's scaling (grid and solver tolerances)"));
    r.rows.push_back(compare(r.id, at, "Ψ₂ Lai", m.lai.psi2, reference.lai.psi2,
                             "C(μ)/μ = κ(1 + κμ²/4 + …): weakly μ-dependent"));
    r.rows.push_back(compare(r.id, at, "Ψ₂ half-space β", m.halfspace.psi2,
                             reference.halfspace.psi2, "β/μ is a second parameter"));
    scan += format("| %g | %+.4f | %+.4f | %+.4f | %+.4f | %.5f |\n", mu, m.lai.psi2, m.mdr.psi2,
                   m.halfspace_uncoupled.psi2, m.halfspace.psi2, m.halfspace.e);
  }

  // ---- Normal impact (alpha = 0): frictionless, all elastic; with friction, the coupling's
  // radial slip annulus dissipates.
  lumped::Configuration normal = sphere(0, kMu);
  normal.incidence_angle = 0;
  const Models with_friction = solve_all(normal, options.stop);
  normal.friction = 0;
  lumped::HalfspaceOptions coupled;
  coupled.record_history = false;
  coupled.control.stop = options.stop;
  const double e_frictionless = rebound_of(normal, lumped::solve_halfspace(normal, coupled)).e;
  r.rows.push_back(check(r.id, "normal impact", "e, half-space β, μ = 0", e_frictionless, 1.0,
                         Tolerance::absolute(2e-4), "elastic (time-stepping energy error)"));
  r.rows.push_back(check(r.id, "normal impact", "e, half-space β = 0, μ = 0.1",
                         with_friction.halfspace_uncoupled.e, 1.0, Tolerance::absolute(2e-4),
                         "no tangential load without coupling"));
  r.rows.push_back(check(r.id, "normal impact", "e, MDR, μ = 0.1", with_friction.mdr.e, 1.0,
                         Tolerance::absolute(1e-8), "no tangential load without coupling"));
  r.rows.push_back(check(r.id, "normal impact", "1 − e, half-space β, μ = 0.1",
                         1 - with_friction.halfspace.e, 1e-3, Tolerance::at_least(0),
                         "coupling + friction dissipate at normal incidence"));

  r.text = format(
      "Lai's model lumps the contact into one tangential spring with one stick/slip state. Two "
      "pieces of physics it leaves out are added one at a time, on the sphere of Lai 1999, Table "
      "6.1 (ν = %g, μ = %g, λ = 5/9, θ = 0): **partial slip** (a stick zone with slip annuli "
      "that grow and recede, Mindlin & Deresiewicz 1953; Maw, Barber & Fawcett 1976), by the "
      "method of dimensionality reduction (Popov & Heß 2015: a bed of independent springs, "
      "`lumped.model = \"mdr\"`, %d springs) and, independently, by the quasi-static half-space "
      "model with β = 0 (Boussinesq–Cerruti influence coefficients on a grid, Kalker-type "
      "Coulomb per cell, `lumped.model = \"halfspace\"`, %d cells across the Hertz diameter, %d "
      "steps per Hertz duration); and **normal–tangential coupling**, the half-space model with "
      "Dundurs' β = (1−2ν)/(2(1−ν)) = %.4f of the elastic body on the rigid plane (β > μ: the "
      "normal load alone makes the outer annulus slip radially). All are quasi-static: no "
      "waves. The two partial-slip models agree within %.4f in Ψ₂ (checked at 0.01).\n\n"
      "Step table (Ψ₂ at each Ψ₁; each column adds one piece of physics):\n\n%s\n"
      "Friction scan at fixed Ψ₁ = 2 (Maw's scaling says Ψ₂ depends on Ψ₁ only; Lai's cone C(μ) "
      "departs from it at O(κμ²), the coupling breaks it because β/μ is a second parameter):\n\n"
      "%s\nNormal impact (α = 0): with μ = 0 every model is elastic; with μ = %g the coupled "
      "half-space model gives e = %.5f (β = 0: %.6f; MDR: %.6f).",
      kNu, kMu, mdr_defaults.springs, defaults.cells, defaults.time_steps, beta, largest_cross,
      table.c_str(), scan.c_str(), kMu, with_friction.halfspace.e,
      with_friction.halfspace_uncoupled.e, with_friction.mdr.e);
}

}  // namespace rebound::validation
