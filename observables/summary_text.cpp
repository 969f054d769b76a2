#include "observables/summary_text.h"

#include <filesystem>

#include "cases/format.h"

namespace rebound::observables {

std::string value_text(const nlohmann::json& value, const char* pattern) {
  return value.is_number() ? cases::format_number(value.get<double>(), pattern) : "-";
}

std::string rebound_quantities_text(const nlohmann::json& s) {
  std::string out;
  auto n = [](const nlohmann::json& value) { return value_text(value); };
  out += cases::format("  incidence angle     %-12s rad   Psi1            %s\n",
                       n(s["incidence_angle"]).c_str(), n(s["psi1"]).c_str());
  out += cases::format("  rebound angle (P)   %-12s rad   Psi2            %s\n",
                       n(s["rebound_angle"]).c_str(), n(s["psi2"]).c_str());
  out += cases::format("  e (Newton)          %-12s       e (Poisson)     %s\n",
                       n(s["e_newton"]).c_str(), n(s["e_poisson"]).c_str());
  out += cases::format("  e (Stronge)         %-12s       tangential COR  %s\n",
                       n(s["e_stronge"]).c_str(), n(s["tangential_cor"]).c_str());
  out += cases::format("  normal impulse      %-12s N s   tangential      %s N s\n",
                       n(s["normal_impulse"]).c_str(), n(s["tangential_impulse"]).c_str());
  out += cases::format("  centre velocity     (%s, %s) m/s   spin %s rad/s\n",
                       n(s["center_velocity_final"][0]).c_str(),
                       n(s["center_velocity_final"][1]).c_str(), n(s["spin_final"]).c_str());
  if (s.contains("target_center_velocity_final"))  // a free target sphere
    out += cases::format("  target velocity     (%s, %s) m/s   spin %s rad/s\n",
                         n(s["target_center_velocity_final"][0]).c_str(),
                         n(s["target_center_velocity_final"][1]).c_str(),
                         n(s["target_spin_final"]).c_str());
  out += cases::format("  kinetic energy loss %-12s J     fraction        %s\n",
                       n(s["kinetic_energy_loss"]).c_str(),
                       n(s["kinetic_energy_loss_fraction"]).c_str());
  return out;
}

std::string lumped_summary_text(const nlohmann::json& s, const std::string& directory,
                                bool frames) {
  std::string out;
  out += cases::format("%s  solved by %s\n", s["case"].get<std::string>().c_str(),
                       s["solver"].get<std::string>().c_str());
  out += cases::format("  lambda = %s, theta = %s rad, effective mass = %s kg\n",
                       value_text(s["lambda"]).c_str(), value_text(s["theta"]).c_str(),
                       value_text(s["effective_mass"]).c_str());
  out += rebound_quantities_text(s);
  if (s.contains("restitution_draw")) {  // a restitution table (Michalczyk 2008, sec. 3-4)
    const nlohmann::json& r = s["restitution_draw"];
    out += cases::format(
        "  restitution         R = %s at Phi = %s J/m^3 (table: R0 = %s, sigma = %s%s)\n",
        value_text(r["value"], "%.10g").c_str(), value_text(r["flux_density"]).c_str(),
        value_text(r["mean"]).c_str(), value_text(r["std"]).c_str(),
        r.value("random", false)
            ? (", drawn: seed " + r["seed"].dump() + ", impact " + r["impact"].dump()).c_str()
            : "");
  }
  out += cases::format("  contact duration    %-12s s     peak force      %s N\n",
                       value_text(s["contact_duration"]).c_str(),
                       value_text(s["peak_normal_force"]).c_str());
  std::string phases;
  for (const auto& p : s["stick_slip_phases"])
    phases += (phases.empty() ? "" : " -> ") + p["mode"].get<std::string>();
  if (!phases.empty()) out += cases::format("  phases              %s\n", phases.c_str());
  for (const auto& note : s["notes"])
    out += cases::format("  note: %s\n", note.get<std::string>().c_str());
  if (s["creates_energy"].get<bool>())
    out += cases::format("  WARNING: this law creates kinetic energy for this configuration\n");
  out += cases::format("  written to %s/ (summary.json, history.csv%s)\n", directory.c_str(),
                       frames ? ", rigid_body.pvd" : "");
  return out;
}

std::string fem_summary_text(const nlohmann::json& s, const std::string& directory) {
  std::string out;
  out +=
      cases::format("%s  solved by the FEM (p = %s, %s dofs, %s cells, %s rank%s)\n",
                    s["case"].get<std::string>().c_str(), value_text(s["degree"]).c_str(),
                    value_text(s["dofs"], "%.0f").c_str(), value_text(s["cells"], "%.0f").c_str(),
                    value_text(s["mpi_ranks"]).c_str(), s["mpi_ranks"].get<int>() == 1 ? "" : "s");
  out += cases::format("  time step           %-12s s     steps           %s (end %s s)\n",
                       value_text(s["time_step"]).c_str(), value_text(s["steps"], "%.0f").c_str(),
                       value_text(s["end_time"]).c_str());
  out += cases::format("  lambda (case/mesh)  %s / %s   theta (case/mesh) %s / %s rad\n",
                       value_text(s["lambda"]).c_str(), value_text(s["lambda_mesh"]).c_str(),
                       value_text(s["theta"]).c_str(), value_text(s["theta_mesh"]).c_str());
  // A run that stopped before the bodies separated (interrupted, failed, or the contact not ended
  // at fem.end_time): its numbers are the state when it stopped, not the rebound; say so first.
  const std::string status = s["status"].get<std::string>();
  if (status != "completed")
    out += cases::format(
        "  NOT A REBOUND (status %s%s%s): the numbers below are the bodies' state when "
        "the run stopped\n",
        status.c_str(), s.contains("message") ? ": " : "",
        s.contains("message") ? s["message"].get<std::string>().c_str() : "");
  out += rebound_quantities_text(s);
  if (s.contains("hertz")) {
    out += cases::format("  contact duration    %-12s s     Hertz           %s s\n",
                         value_text(s["contact_duration"]).c_str(),
                         value_text(s["hertz"]["duration"]).c_str());
    out += cases::format("  peak force          %-12s N     Hertz           %s N\n",
                         value_text(s["peak_normal_force"]).c_str(),
                         value_text(s["hertz"]["peak_force"]).c_str());
  }
  out += cases::format("  energy balance err  %-12s       DoF-steps/s     %s\n",
                       value_text(s["energy_balance_error"]).c_str(),
                       value_text(s["dof_steps_per_second"], "%.3g").c_str());
  out += cases::format("  status              %s, %s s wall\n", status.c_str(),
                       value_text(s["wall_time"], "%.1f").c_str());
  // solution.pvd only when frames were written (--frames 0 writes none; a failed run may stop
  // before the first).
  const bool frames = std::filesystem::exists(std::filesystem::path(directory) / "solution.pvd");
  out += cases::format("  written to %s/ (summary.json, history.csv%s)\n", directory.c_str(),
                       frames ? ", solution.pvd" : "; no frames");
  return out;
}

}  // namespace rebound::observables
