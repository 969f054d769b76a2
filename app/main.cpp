// rebound: predicts how solid bodies rebound after a collision with their target.
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/commands.h"
#include "app/executable.h"
#include "cases/case.h"
#include "cases/spelling.h"
#include "observables/provenance.h"
#include "rebound/git_commit.h"
#include "rebound/version.h"
#include "studies/errors.h"

namespace {

struct Entry {
  const char* name;
  const char* summary;
  rebound::app::Command run;  // none: handed over to rebound-fem (app/executable.h)
};

const std::vector<Entry>& commands() {
  using namespace rebound::app;
  static const std::vector<Entry> table = [] {
    std::vector<Entry> entries = {
        {"init", "write a new case file, commented, with every default shown", command_init},
        {"check", "validate case files and print their derived quantities", command_check},
        {"lumped", "solve a case with a lumped contact model (Lai's model by default)",
         command_lumped},
        {"sweep", "lumped model over a range of Psi1, incidence or friction (--fem K: FEM points)",
         command_sweep},
        // With the FEM built, rebound-fem runs the lumped and the FEM sections.
        {"validate", "run the validation checks and regenerate docs/VALIDATION.md",
         fem_available() ? fem_command("validate") : command_validate}};
    // In rebound these are run by the sibling executable rebound-fem (linked with deal.II), so
    // that the light commands start in milliseconds.
    if (fem_available())
      for (const Entry& entry : std::vector<Entry>{
               {"mesh", "build the FEM mesh of a case, refined toward the contact", nullptr},
               {"fem", "solve a case with the explicit 3-D FEM (also under mpirun)", nullptr},
               {"pair", "solve a case with the FEM and the lumped model and compare them", nullptr},
               {"refine", "FEM mesh-refinement study: observed order, Richardson extrapolation",
                nullptr}})
        entries.push_back({entry.name, entry.summary, fem_command(entry.name)});
    return entries;
  }();
  return table;
}

void print_help(std::ostream& out) {
  out << "rebound " REBOUND_VERSION
         " - rebound of solid bodies after impact on a plane (rigid or an elastic\n"
         "half-space), a free sphere, an elastic plate or in a spherical socket\n\n"
         "Usage: rebound COMMAND [ARGS...]\n"
         "       rebound COMMAND --help\n\n"
         "Commands:\n";
  for (const auto& entry : commands()) {
    std::string name = entry.name;
    name.resize(10, ' ');
    out << "  " << name << entry.summary << "\n";
  }
  out << "\nOptions:\n"
         "  --help      show this help\n"
         "  --version   print the version and the git commit it was built from\n"
         "Every command also takes:\n"
         "  -q, --quiet     print nothing but warnings and errors\n"
         "  -v, --verbose   also print, on standard error, the case as read (defaults filled)\n"
         "                  and its hash, the derived quantities, each stage's wall time and\n"
         "                  the files written with their sizes (not together with -q)\n\n"
         "Case files are JSON with // comments (see cases/README.md; `rebound init` writes one).\n"
         "Outputs go to results/<case name>/ unless -o DIR (--output DIR) is given.\n"
         "Exit status: 0 ok, 2 bad input, 1 run failure, 130 interrupted.\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> arguments(argv + 1, argv + argc);
  {
    // For the provenance of every result file (observables/provenance.h); MPI ranks are added by
    // the FEM runs, which know them.
    std::string command_line = "rebound";
    for (const auto& argument : arguments)
      command_line += " " + (argument.find_first_of(" \t\"'") == std::string::npos
                                 ? argument
                                 : nlohmann::json(argument).dump());
    rebound::observables::set_invocation({command_line, 1});
  }
  if (arguments.empty()) {
    print_help(std::cerr);
    return 2;
  }
  const std::string& first = arguments.front();
  if (first == "--help" || first == "-h" || first == "help") {
    print_help(std::cout);
    return 0;
  }
  if (first == "--version") {
    std::cout << "rebound " REBOUND_VERSION " (commit " REBOUND_GIT_COMMIT ")\n";
    return 0;
  }
  for (const auto& entry : commands()) {
    if (first != entry.name) continue;
    if (entry.run == nullptr) {
      // Hand over to rebound-fem next to this executable (same arguments, same MPI environment).
      try {
        rebound::app::run_fem_executable(first, {arguments.begin() + 1, arguments.end()});
      } catch (const std::exception& error) {
        std::cerr << "rebound " << first << ": " << error.what() << "\n";
        return 1;
      }
    }
    try {
      return entry.run({arguments.begin() + 1, arguments.end()});
    } catch (const rebound::cases::CaseError& error) {
      std::cout.flush();
      rebound::app::print_case_error(first, error);
      return 2;
    } catch (const rebound::studies::StudyInputError& error) {
      // Options a study cannot take (a level out of range, a results table of another case).
      std::cerr << "rebound " << first << ": " << error.what() << "\n"
                << "Try 'rebound " << first << " --help'.\n";
      return 2;
    } catch (const rebound::app::UsageError& error) {
      std::cerr << "rebound " << first << ": " << error.what() << "\n"
                << "Try 'rebound " << first << " --help'.\n";
      return 2;
    } catch (const std::exception& error) {
      std::cerr << "rebound " << first << ": run failed: " << error.what() << "\n";
      return 1;
    }
  }
  std::vector<std::string> names = {"help"};
  for (const auto& entry : commands()) names.push_back(entry.name);
  const std::string guess = rebound::cases::closest_word(first, names);
  if (!guess.empty()) {
    std::cerr << "rebound: unknown command '" << first << "' (did you mean '" << guess << "'?)\n"
              << "Try 'rebound --help'.\n";
    return 2;
  }
  std::cerr << "rebound: unknown command '" << first << "'\n";
  print_help(std::cerr);
  return 2;
}
