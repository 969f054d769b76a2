// rebound lumped CASE [-o DIR] : solve a case with a lumped model and write summary, history
// and ParaView frames into DIR/lumped/.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli.h"
#include "app/commands.h"
#include "app/rigid_body_vtk.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "lumped/summary.h"

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

int command_lumped(const std::vector<std::string>& arguments) {
  const Arguments args("lumped", arguments, {"--quiet"}, {"-o"});
  if (args.help()) {
    std::cout << "Usage: rebound lumped CASE [-o DIR] [--quiet]\n\n"
                 "Solves the case with the lumped model of its \"lumped\" section (default: Lai's\n"
                 "coupled-conservative model) and writes into DIR/lumped/ (default DIR:\n"
                 "results/<case name>):\n"
                 "  summary.json    rebound quantities (SI), the keys shared with the FEM\n"
                 "  history.csv     forces, impulses, rigid-body velocity/displacement of P, ...\n"
                 "  rigid_body.pvd  the body moved by the lumped motion, for ParaView\n";
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("needs exactly one CASE file");
  const cases::Case c = cases::load_case(args.positional().front());
  const cases::Derived d = cases::derive(c);
  const std::string directory =
      (std::filesystem::path(output_directory(args.option("-o"), c.name)) / "lumped").string();
  const lumped::Outcome outcome = lumped::solve(c, d);
  const nlohmann::json summary = lumped::summary_json(c, d, outcome);
  const auto rows = lumped::history_rows(c, d, outcome);
  write_file_atomically(directory + "/history.csv", lumped::history_csv(rows));
  write_rigid_body_frames(directory, c, d, rows, c.lumped.frames);
  write_file_atomically(directory + "/summary.json", summary.dump(2) + "\n");
  if (!args.flag("--quiet")) print_summary(summary, directory);
  return 0;
}

}  // namespace rebound::app
