// rebound check CASE... : validate case files and print their derived quantities.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/commands.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/derived.h"
#include "cases/derived_text.h"
#include "cases/warnings.h"

namespace rebound::app {
const char* const kCheckUsage = R"(Usage: rebound check CASE... [--json] [-q|--quiet | -v|--verbose]

Validates each case file and prints its derived quantities (mass properties,
N, lambda, theta, Psi1, Lai's and Hertz scales). --json prints one JSON array.
Every problem of a file is reported, one line each with the file and the key;
beyond the keys, check runs every validation the other commands run (finite
derived quantities, a capsule touching with its cap, a Hertz contact zone the
FEM can mesh), so a case it accepts is not rejected later, but for a target the
FEM does not take: the target line says so and why. The physical
warnings the solvers print and write into summary.json (a Hertz contact too
large for a << R, a speed beyond the elastic or quasi-static range, p0 beyond
the yield stress, an option the model ignores) go to standard error, one line
"rebound check: warning: FILE: ..." each, and into --json as "warnings"; they
do not reject the case (--json: "fem_target_refusal" is null, or the key and
message of the FEM refusing the case's target). A JSON Schema among the files (cases/case.schema.json)
is skipped.
-q prints only the problems and warnings (an accepted case without warnings
prints nothing; --json still prints); -v adds, on standard error, each case as read with every default
filled and its hash, and the time each took.
Exit status 2 if any case is rejected (every case is still checked).
)";

int command_check(const std::vector<std::string>& arguments) {
  const Arguments args("check", arguments, {"--json", "--quiet"}, {}, kCheckUsage);
  if (args.help()) return 0;
  if (args.positional().empty()) throw UsageError("needs at least one CASE file");
  Verbose verbose(args, "check");
  int status = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& path : args.positional()) {
    try {
      const cases::Case c = cases::load_case(path);
      verbose.resolved_case(c);
      const cases::Derived d = cases::derive(c);
      verbose.stage(path + ": read, validated and derived");
      // The physical warnings every solver would print and write into its summary.json.
      const std::vector<std::string> warnings = cases::physical_warnings(c, d);
      if (args.flag("--json")) {
        nlohmann::json entry = cases::to_json(c, d);
        entry["warnings"] = warnings;
        entry["fem_target_refusal"] =
            nullptr;  // or what the FEM commands would say, as check's table
        try {
          cases::require_fem_target(c);
        } catch (const cases::CaseError& refusal) {
          entry["fem_target_refusal"] = {{"key", refusal.key()},
                                         {"message", refusal.problems()[0].message}};
        }
        all.push_back(entry);
      } else if (!args.flag("--quiet")) {
        std::fputs(cases::derived_table(c, d).c_str(), stdout);
      }
      for (const std::string& warning : warnings)
        std::fprintf(stderr, "rebound check: warning: %s: %s\n", path.c_str(), warning.c_str());
    } catch (const cases::CaseError& error) {
      verbose.stage(path + ": rejected");
      if (cases::is_json_schema_file(path)) {
        // cases/case.schema.json beside the cases: `rebound check cases/*.json` still works.
        std::fprintf(stderr, "rebound check: %s is a JSON Schema, not a case: skipped\n",
                     path.c_str());
        continue;
      }
      print_case_error("check", error);
      status = 2;
    }
  }
  if (args.flag("--json")) std::cout << all.dump(2) << "\n";
  verbose.total();
  return status;
}

}  // namespace rebound::app
