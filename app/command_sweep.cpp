// rebound sweep CASE --psi1 START:STOP:COUNT | --incidence ... | --friction ... [-o DIR]
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include "app/cli.h"
#include "app/commands.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"

namespace rebound::app {
namespace {

lumped::SweepRange parse_range(const std::string& option, const std::string& text) {
  lumped::SweepRange range;
  std::stringstream in(text);
  std::string a, b, c;
  const std::string expected = "expected START:STOP:COUNT, e.g. 0:8:81";
  if (!std::getline(in, a, ':') || !std::getline(in, b, ':') || !std::getline(in, c) ||
      in.rdbuf()->in_avail() > 0)
    throw UsageError("option " + option + " is '" + text + "'; " + expected);
  try {
    std::size_t used_a = 0, used_b = 0, used_c = 0;
    range.start = std::stod(a, &used_a);
    range.stop = std::stod(b, &used_b);
    const long count = std::stol(c, &used_c);
    if (used_a != a.size() || used_b != b.size() || used_c != c.size())
      throw std::invalid_argument("");
    if (count < 1 || count > 10'000'000) throw std::out_of_range("");
    range.count = int(count);
  } catch (const std::exception&) {
    throw UsageError("option " + option + " is '" + text + "'; " + expected +
                     " (COUNT an integer in [1, 10000000])");
  }
  return range;
}

}  // namespace

int command_sweep(const std::vector<std::string>& arguments) {
  const Arguments args("sweep", arguments, {"--quiet"},
                       {"--psi1", "--incidence", "--friction", "-o", "--threads"});
  if (args.help()) {
    std::cout
        << "Usage: rebound sweep CASE (--psi1 | --incidence | --friction) START:STOP:COUNT\n"
           "                     [-o DIR] [--threads N] [--quiet]\n\n"
           "Runs the case's lumped model at COUNT evenly spaced values of one variable (the\n"
           "rest of the case unchanged: the normal speed is kept for --psi1, the approach\n"
           "speed for --incidence (radians), the velocity for --friction) on all cores, writes\n"
           "DIR/sweep.csv (default DIR: results/<case name>) and prints a table. This redraws\n"
           "seed 000 Figs. 5.13-5.20 and seed 003 Figs. F5.16-F5.23.\n";
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("needs exactly one CASE file");
  int given = 0;
  lumped::SweepRange range;
  for (const auto& [option, variable] :
       {std::pair{"--psi1", lumped::SweepVariable::psi1},
        std::pair{"--incidence", lumped::SweepVariable::incidence_angle},
        std::pair{"--friction", lumped::SweepVariable::friction}}) {
    if (const auto text = args.option(option)) {
      range = parse_range(option, *text);
      range.variable = variable;
      ++given;
    }
  }
  if (given != 1) throw UsageError("needs exactly one of --psi1, --incidence, --friction");
  const int threads = args.integer("--threads", 1, 256)
                          .value_or(std::max(1, int(std::thread::hardware_concurrency())));
  const cases::Case base = cases::load_case(args.positional().front());
  // Validate both ends before running (bad ranges are bad input, exit 2).
  lumped::case_at(base, range.variable, range.start);
  lumped::case_at(base, range.variable, range.stop);

  const auto rows = lumped::run_sweep(base, range, threads);
  const std::string directory = output_directory(args.option("-o"), base.name);
  const std::string path = (std::filesystem::path(directory) / "sweep.csv").string();
  write_file_atomically(path, lumped::sweep_csv(range, rows));
  int failures = 0;
  for (const auto& row : rows) failures += !row.error.empty();
  if (!args.flag("--quiet")) {
    std::printf("%s: %s sweep, %d points, model %s, %d threads\n", base.name.c_str(),
                lumped::to_string(range.variable), range.count, base.lumped.model.c_str(), threads);
    std::printf("  %12s %10s %10s %10s %12s %12s %s\n", lumped::to_string(range.variable), "Psi1",
                "Psi2", "e", "gamma_t", "gamma_n", "phases");
    const int shown = std::min(range.count, 25);
    for (int k = 0; k < shown; ++k) {
      const int i = shown == 1 ? 0 : int(std::lround(double(k) * (range.count - 1) / (shown - 1)));
      const auto& row = rows[i];
      if (!row.error.empty()) {
        std::printf("  %12.6g  error: %s\n", row.value, row.error.c_str());
        continue;
      }
      std::printf("  %12.6g %10.5f %10.5f %10.6f %12.6g %12.6g %s\n", row.value, row.scalars[0],
                  row.scalars[1], row.scalars[4], row.gamma_t, row.gamma_n, row.phases.c_str());
    }
    if (shown < range.count) std::printf("  (%d of %d rows shown)\n", shown, range.count);
    std::printf("  written to %s\n", path.c_str());
  }
  if (failures > 0) {
    std::fprintf(stderr, "rebound sweep: %d of %d points failed (see the error column)\n", failures,
                 range.count);
    return 1;
  }
  return 0;
}

}  // namespace rebound::app
