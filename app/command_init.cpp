// rebound init [--shape SHAPE] [NAME] [-o FILE] : write a new case file, commented, with every
// default shown (cases::case_template), checked by the parser before it is written.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli.h"
#include "app/commands.h"
#include "app/verbose.h"
#include "cases/case.h"
#include "cases/spelling.h"
#include "cases/template.h"
#include "observables/files.h"

namespace rebound::app {

const char* const kInitUsage = R"(Usage: rebound init [--shape SHAPE] [NAME] [-o FILE] [--force]
                    [-q|--quiet | -v|--verbose]

Writes a complete case file for an example body of SHAPE (sphere, capsule, disc,
shell, hoop or custom; default sphere): JSON with // comments, every key with
its default and its unit and range in the comment (keys that do not apply are
there, commented out). Edit it, then run `rebound check FILE`.

  NAME          the case name (the output folder results/NAME/); default: the
                name of FILE without .json, else my-SHAPE
  -o FILE       write to FILE (also --output FILE, -o=FILE); default: standard
                output
  --force       overwrite FILE if it exists
  -q, --quiet   no "written" line
  -v, --verbose on standard error: the case as parsed (every default filled)
                and its hash, the file written and its size, the time taken

Example: rebound init --shape capsule -o steel-rod.json
)";

int command_init(const std::vector<std::string>& arguments) {
  const Arguments args("init", arguments, {"--force", "--quiet"}, {"--shape", "-o"}, kInitUsage);
  if (args.help()) return 0;
  Verbose verbose(args, "init");
  if (args.positional().size() > 1) throw UsageError("takes at most one NAME");
  const std::string shape_name = args.option("--shape").value_or("sphere");
  const auto shape = cases::shape_from_string(shape_name);
  if (!shape)
    throw UsageError(
        "option --shape is '" + shape_name +
        "'; expected sphere, capsule, disc, shell, hoop or custom" +
        cases::did_you_mean(shape_name, {"sphere", "capsule", "disc", "shell", "hoop", "custom"}));
  const auto file = args.option("-o");
  std::string name = "my-" + shape_name;
  if (!args.positional().empty())
    name = args.positional().front();
  else if (file && std::filesystem::path(*file).extension() == ".json")
    name = std::filesystem::path(*file).stem().string();
  const std::string text = cases::case_template(*shape, name);
  // What init writes passes check (a bad NAME is reported as the case's "name", exit 2).
  const cases::Case parsed = cases::parse_case(text, file ? *file : "<rebound init>");
  verbose.resolved_case(parsed);
  verbose.stage("template for " + shape_name + " written and parsed");
  if (!file) {
    std::fputs(text.c_str(), stdout);
    verbose.say("written to standard output: " + observables::format_size(double(text.size())));
    verbose.total();
    return 0;
  }
  struct stat info {};
  if (::stat(file->c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw UsageError(*file + " is a directory; expected the path of the case file to write, e.g. " +
                     (std::filesystem::path(*file) / (name + ".json")).string());
  if (!args.flag("--force") && ::stat(file->c_str(), &info) == 0)
    throw UsageError(*file + " exists; not overwritten (--force overwrites it)");
  try {
    observables::write_file_atomically(*file, text);
  } catch (const std::exception& error) {
    throw RunError("cannot write " + *file + ": " + error.what());
  }
  if (!args.flag("--quiet"))
    std::printf("written %s (case \"%s\", %s); check it with: rebound check %s\n", file->c_str(),
                name.c_str(), shape_name.c_str(), file->c_str());
  verbose.say("file written:");
  verbose.file(*file);
  verbose.total();
  return 0;
}

}  // namespace rebound::app
