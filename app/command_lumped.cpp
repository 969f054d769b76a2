// rebound lumped CASE [-o DIR] : solve a case with a lumped model and write summary, history
// and ParaView frames into DIR/lumped/.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli.h"
#include "app/commands.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/summary.h"
#include "studies/lumped_run.h"

namespace rebound::app {
namespace {

void print_summary(const nlohmann::json& s, const std::string& directory) {
  std::printf("%s  solved by %s\n", s["case"].get<std::string>().c_str(),
              s["solver"].get<std::string>().c_str());
  std::printf("  lambda = %s, theta = %s rad, effective mass = %s kg\n",
              format_number(s["lambda"]).c_str(), format_number(s["theta"]).c_str(),
              format_number(s["effective_mass"]).c_str());
  print_rebound_quantities(s);
  std::printf("  contact duration    %-12s s     peak force      %s N\n",
              format_number(s["contact_duration"]).c_str(),
              format_number(s["peak_normal_force"]).c_str());
  std::string phases;
  for (const auto& p : s["stick_slip_phases"])
    phases += (phases.empty() ? "" : " -> ") + p["mode"].get<std::string>();
  if (!phases.empty()) std::printf("  phases              %s\n", phases.c_str());
  for (const auto& note : s["notes"]) std::printf("  note: %s\n", note.get<std::string>().c_str());
  if (s["creates_energy"].get<bool>())
    std::printf("  WARNING: this law creates kinetic energy for this configuration\n");
  std::printf("  written to %s/ (summary.json, history.csv, rigid_body.pvd)\n", directory.c_str());
}

}  // namespace

const char* const kLumpedUsage = R"(Usage: rebound lumped CASE [-o DIR] [--quiet]

Solves the case with the lumped model of its "lumped" section (default: Lai's
coupled-conservative model) and writes into DIR/lumped/ (default DIR:
results/<case name>):
  summary.json    rebound quantities (SI), the keys shared with the FEM
  history.csv     forces, impulses, rigid-body velocity/displacement of P, ...
  rigid_body.pvd  the body moved by the lumped motion, for ParaView
)";

int command_lumped(const std::vector<std::string>& arguments) {
  const Arguments args("lumped", arguments, {"--quiet"}, {"-o"}, kLumpedUsage);
  if (args.help()) return 0;
  const cases::Case c = cases::load_case(args.case_file());
  const cases::Derived d = cases::derive(c);
  const std::string directory =
      (std::filesystem::path(output_directory(args.option("-o"), c.name)) / "lumped").string();
  const studies::LumpedSolution solution =
      studies::solve_lumped_into(c, d, directory, c.lumped.frames);
  const nlohmann::json summary = observables::to_json(solution.summary);
  if (!args.flag("--quiet")) print_summary(summary, directory);
  print_warnings(summary, "lumped");
  return 0;
}

}  // namespace rebound::app
