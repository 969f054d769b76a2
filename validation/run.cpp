#include "validation/run.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "observables/files.h"
#include "studies/errors.h"
#include "studies/plots.h"
#include "studies/stop.h"

namespace rebound::validation {
namespace {

namespace fs = std::filesystem;

std::string quoted_if_needed(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t'\"$\\") == std::string::npos) return word;
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

SectionsRun run_sections(const std::vector<SectionSpec>& specs, const Options& options,
                         const std::function<bool()>& stop_requested,
                         const std::function<void(const SectionResult&, bool interrupted)>& done) {
  SectionsRun run;
  for (const auto& spec : specs) {
    if (stop_requested()) break;
    run.results.push_back(run_section(spec, options));
    // Asked before the section started, the loop would have stopped: a stop seen now came while it
    // ran, and its rows (solves and sweeps cut short) are not checks that failed.
    run.last_interrupted = studies::StopOnSignal::requested();
    if (done) done(run.results.back(), run.last_interrupted);
  }
  return run;
}

void write_sections_json(const std::string& path, const std::vector<SectionResult>& results) {
  nlohmann::json data = {{"sections", nlohmann::json::array()}};
  for (const auto& r : results) data["sections"].push_back(to_json(r));
  observables::write_file_atomically(path, data.dump() + "\n");
}

std::vector<SectionResult> read_sections_json(const std::string& path) {
  std::vector<SectionResult> results;
  std::ifstream in(path);
  try {
    const nlohmann::json data = nlohmann::json::parse(in);
    for (const auto& section : data.at("sections")) results.push_back(section_from_json(section));
  } catch (const std::exception& error) {
    throw studies::StudyInputError("--merge " + path + ": not a `rebound validate --json` file (" +
                                   error.what() + ")");
  }
  return results;
}

std::string command_line(const std::vector<std::string>& arguments) {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string out;
  std::size_t start = 0;
  while (start < raw.size()) {
    const std::size_t end = raw.find('\0', start);
    const std::string word = raw.substr(start, end == std::string::npos ? end : end - start);
    out += (out.empty() ? "" : " ") + quoted_if_needed(word);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (!out.empty()) return out;
  out = "rebound validate";
  for (const auto& word : arguments) out += " " + quoted_if_needed(word);
  return out;
}

std::string machine_description() {
  std::string out;
  struct utsname name;
  if (::uname(&name) == 0)
    out = std::string(name.sysname) + " " + name.release + " " + name.machine;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 1);
      model.erase(0, model.find_first_not_of(' '));
      break;
    }
  out += ", " + std::to_string(std::thread::hardware_concurrency()) + " cores";
  if (!model.empty()) out += " (" + model + ")";
  double load[3];
  if (::getloadavg(load, 3) == 3) {
    char text[96];
    std::snprintf(text, sizeof text, ", load average %.2f at the start", load[0]);
    out += text;
  }
  return out;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return text;
}

std::string write_report(const std::vector<SectionResult>& results, ReportContext& context,
                         const std::string& directory, bool draw_plots,
                         std::chrono::steady_clock::time_point start,
                         const std::function<void(const std::string&)>& warning) {
  const fs::path image_directory = fs::path(directory) / "images" / "validation";
  // The rows of every section, machine-readable (section_from_json reads them back; the plot
  // data, megabytes in --full, is not kept).
  nlohmann::json rows = {{"sections", nlohmann::json::array()}};
  for (const auto& r : results) {
    nlohmann::json section = to_json(r);
    section.erase("plots");
    rows["sections"].push_back(section);
  }
  observables::write_file_atomically((image_directory / "validation.json").string(),
                                     rows.dump(1) + "\n");
  if (!draw_plots) {
    context.plot_problem = "not redrawn (--no-plots); the pictures may be from an earlier run";
  } else {
    const auto plot_start = std::chrono::steady_clock::now();
    const std::string data_path =
        (fs::temp_directory_path() / ("rebound-validate-" + std::to_string(::getpid()) + ".json"))
            .string();
    observables::write_file_atomically(data_path, plots_json(results).dump() + "\n");
    const studies::PlotOutcome plots =
        studies::run_python_plots("validation_plots.py", {data_path, image_directory.string()});
    std::error_code ignored;
    fs::remove(data_path, ignored);
    if (!plots.drawn) context.plot_problem = plots.problem;
    if (!plots.note.empty() && warning) warning(plots.note);
    context.plot_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - plot_start).count();
  }
  context.total_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string report_path = (fs::path(directory) / "VALIDATION.md").string();
  observables::write_file_atomically(report_path, markdown_report(results, context));
  return report_path;
}

}  // namespace rebound::validation
