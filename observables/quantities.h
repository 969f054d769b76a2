// The rebound quantities (Lai 1999, ch. 2 and sec. 5.2-5.4; docs/THEORY.md sec. 4 and 5): one
// definition of each, shared by every lumped model, the half-space model and the FEM. Every
// formula takes the physical quantities it is defined from, in SI, so that a solver only has to
// supply them:
//   w    separation velocity of the contact point P (t, n), m/s (rigid-body velocity for the FEM)
//   v0   approach velocity of P (t, n), m/s, v0.y() < 0
//   J    impulse on the body at P (t, n), N s; J_c its normal part at the end of compression
//   W_c, W_r  work of the normal contact force on P's normal velocity during compression (<= 0)
//        and restitution (>= 0), J
#pragma once

#include <Eigen/Dense>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cases/json_numbers.h"

namespace rebound::observables {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- One formula per quantity -------------------------------------------------------------

// Psi_2 of the rebound: 2(1 - nu) / (mu (2 - nu)) w_t / w_n (Lai 1999, eq. 5.64, the factor is
// cases::psi_scale); NaN when mu = 0 (Maw's angle is undefined without friction).
double rebound_psi(const Eigen::Vector2d& separation_velocity, double poisson_ratio,
                   double friction);
// Rebound angle of P from the normal, atan2(w_t, w_n), rad.
double rebound_angle(const Eigen::Vector2d& separation_velocity);
// Newton's (kinematic) coefficient e = w_n / |v_n| (5.69).
double newton_restitution(double separation_normal_velocity, double approach_normal_speed);
// Poisson's (kinetic) coefficient c = (J_n - J_c) / J_c (5.68); NaN without compression.
double poisson_restitution(double normal_impulse, double compression_normal_impulse);
// Stronge's (energetic) coefficient d = sqrt(W_r / -W_c) (5.74); NaN without compression work.
double stronge_restitution(double work_compression, double work_restitution);
// Tangential coefficient of restitution of the centre: u_t(after) / u_t(before); NaN if 0.
double tangential_restitution(double centre_velocity_t_before, double centre_velocity_t_after);

// ---- The typed summary ----------------------------------------------------------------------

// The rebound quantities of one solution, SI (angles in rad). NaN: undefined for this solution.
struct ReboundQuantities {
  double psi1 = kNaN, psi2 = kNaN, incidence_angle = kNaN, rebound_angle = kNaN;
  double e_newton = kNaN, e_poisson = kNaN, e_stronge = kNaN, tangential_cor = kNaN;
  double spin_final = kNaN, normal_impulse = kNaN, tangential_impulse = kNaN;
  double contact_duration = kNaN, peak_normal_force = kNaN;
  double kinetic_energy_loss = kNaN, kinetic_energy_loss_fraction = kNaN;
  double lambda = kNaN, theta = kNaN;
  // The rigid-body state before and after (centre velocity (t, n), spin about b, velocity of P).
  double kinetic_energy_initial = kNaN, spin_initial = kNaN;
  Eigen::Vector2d center_velocity_initial = Eigen::Vector2d::Constant(kNaN);
  Eigen::Vector2d center_velocity_final = Eigen::Vector2d::Constant(kNaN);
  Eigen::Vector2d contact_point_velocity_initial = Eigen::Vector2d::Constant(kNaN);
  Eigen::Vector2d contact_point_velocity_final = Eigen::Vector2d::Constant(kNaN);
  // A free target (target.type "sphere", at rest before the impact): its centre velocity (t, n)
  // and spin about b after it; NaN for a fixed target (and then left out of summary.json). With
  // it, the contact-point velocities, psi2, the rebound angle, e and tangential_cor are those of
  // the relative motion (body less target; Stronge 2000), the kinetic energies those of both
  // bodies, and center_velocity_* and spin_* the body's own.
  Eigen::Vector2d target_center_velocity_final = Eigen::Vector2d::Constant(kNaN);
  double target_spin_final = kNaN;

  // The scalars in the order of summary_scalar_keys().
  std::vector<double> scalars() const;
  // The scalar of a key of summary_scalar_keys() (NaN for another key).
  double scalar(const std::string& key) const;
};

// The scalar keys every summary.json carries, in a fixed order (sweep.csv columns).
const std::vector<std::string>& summary_scalar_keys();

using cases::finite_or_null;  // cases/json_numbers.h

// One solution's summary: the rebound quantities and what the solver adds of its own (the
// lumped model's phases and notes, the FEM's mesh and run statistics) as JSON.
struct Summary {
  std::string case_name;
  std::string solver;  // "lumped:<model>", "fem", ...
  ReboundQuantities quantities;
  double effective_mass = kNaN;  // m of Lai 1999, eq. 3.35, kg
  // Michalczyk 2008, eqs. 3.1 and 3.10: Bagrejev's energy-flux density Phi (J/m^3) and the
  // reduced mass m_w at P (kg) of the impact (cases::Derived::energy_flux_density).
  double energy_flux_density = kNaN;
  double reduced_mass = kNaN;
  // "completed"; the FEM also "incomplete" (the contact had not ended), "failed", "interrupted".
  std::string status = "completed";
  std::string message;                // why, when not completed
  std::vector<std::string> warnings;  // cases/warnings.h and the solver's own
  nlohmann::json provenance;          // observables/provenance.h (null: not written)
  nlohmann::json details = nlohmann::json::object();
};

// summary.json: "case", "solver", "status", "message" (when not empty), "warnings", the scalar
// keys, the vectors (center_velocity_initial/final,
// contact_point_velocity_initial/final, spin_initial, kinetic_energy_initial), with a free target
// target_center_velocity_final and target_spin_final, "effective_mass",
// "energy_flux_density", "reduced_mass", then the details.
nlohmann::json to_json(const Summary& summary);
// The unit of every rebound quantity of a summary.json ("1": dimensionless), written under "units".
const nlohmann::json& summary_units();
// The numbers of a summary by name: a top-level key ("contact_duration"), or the dotted path of
// one inside an object ("hertz.duration", "mesh.stable_time_step_estimate.p1") or in the objects
// of an array ("stick_slip_phases.start"); a name stands for a number or an array of numbers
// (vectors, matrices). "units" and "provenance" (the case as read: cases/README.md gives its
// units) are left out.
std::vector<std::string> number_names(const nlohmann::json& summary);
// Adds to summary["units"] the unit of every number of `summary` (number_names) the unit table
// knows (to_json does it; a solver that adds numbers to a summary afterwards calls it again). The
// phases' start and end are in N s when "stick_slip_phases_axis" is "normal_impulse" (the
// rigid-body laws), else in s.
void list_units(nlohmann::json& summary);
// The rebound quantities back from a summary.json (missing or null keys: NaN).
ReboundQuantities quantities_from_json(const nlohmann::json& summary);

}  // namespace rebound::observables
