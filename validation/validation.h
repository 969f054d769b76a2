// The validation report (`rebound validate`, docs/VALIDATION.md): a registry of sections, each a
// list of checks. A check is one table row {section, case, quantity, value, reference,
// tolerance, verdict, note}; a section also carries generated text and plot data (drawn by
// scripts/validation_plots.py). This file is compiled into both executables: the light
// `rebound` runs the lumped sections itself; sections that need the FEM are registered by code
// compiled only into rebound-fem (see SectionSpec and `lumped_sections()`), and their results
// travel as JSON (to_json / section_from_json) so one report can merge both.
#pragma once

#include <atomic>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cases/case.h"
#include "studies/progress.h"

namespace rebound::validation {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// pass / fail against a tolerance, or "compare": a tabulated value with no pass/fail criterion
// (the publication gives only a figure, or the row pairs two models).
enum class Verdict { pass, fail, compare };
const char* to_string(Verdict verdict);  // "PASS", "FAIL", "compare"

// How a value is judged against its reference.
struct Tolerance {
  enum class Kind { absolute, relative, at_most, at_least, none };
  Kind kind = Kind::none;
  double amount = 0;

  static Tolerance absolute(double amount) { return {Kind::absolute, amount}; }    // |v - r| <= a
  static Tolerance relative(double amount) { return {Kind::relative, amount}; }    // <= a |r|
  static Tolerance at_most(double slack = 0) { return {Kind::at_most, slack}; }    // v <= r + a
  static Tolerance at_least(double slack = 0) { return {Kind::at_least, slack}; }  // v >= r - a
  static Tolerance none() { return {Kind::none, 0}; }
  // For the table: "± 1e-06", "± 2.5 %", "≤ ref + 1e-09", "≥ ref", "—".
  std::string describe() const;
};

// The verdict of value against reference: a non-finite value or reference fails (unless the
// tolerance is none, which gives compare).
Verdict judge(double value, double reference, const Tolerance& tolerance);

struct Row {
  std::string section;    // "4"
  std::string case_name;  // "sphere", "rod-lai-a", ...
  std::string quantity;   // "Psi2", "e (Newton)", ...
  double value = kNaN;
  double reference = kNaN;  // NaN: none (compare rows may have none)
  Tolerance tolerance;
  Verdict verdict = Verdict::compare;
  std::string note;
};

// A row judged now (verdict from judge()).
Row check(const std::string& section, const std::string& case_name, const std::string& quantity,
          double value, double reference, const Tolerance& tolerance, const std::string& note = "");
// A compare row (no pass/fail); reference may be NaN.
Row compare(const std::string& section, const std::string& case_name, const std::string& quantity,
            double value, double reference = kNaN, const std::string& note = "");

// Plot data for scripts/validation_plots.py: a figure of one or more panels (axes).
struct Series {
  std::string label;
  std::vector<double> x, y;
  std::string style = "line";  // line, dashed, dashdot, dotted (reference), points, linepoints
};
struct Panel {
  std::string title, xlabel, ylabel;
  std::vector<Series> series;
  bool equal_axes = false;
  std::vector<double> ylim;  // {low, high}, empty: automatic
};
struct Plot {
  std::string name;  // file stem: images/validation/<name>.png
  std::string title;
  std::string caption;  // one line under the picture in the report
  std::vector<Panel> panels;
};

struct SectionResult {
  std::string id;     // "1" ... "6": the numbering (sorts the report)
  std::string part;   // "lumped" | "FEM": halves of one section
  std::string title;  // "Lai 1999, Table 6.1: the eight sphere cases"
  std::string text;   // markdown paragraphs shown before the table (generated, may hold numbers)
  std::vector<Row> rows;
  std::vector<Plot> plots;
  double wall_seconds = 0;
  std::string error;  // the section threw: reported as one failed check
};

enum class Depth { quick, full };

struct Options {
  Depth depth = Depth::quick;
  std::string cases_directory;  // the shipped cases/ folder
  int threads = 1;              // sweep worker threads
  studies::Report report;       // progress of the long (FEM) sections; empty: silent
  // When *stop becomes true (studies::StopOnSignal's flag under `rebound validate`), the long
  // lumped solves (section 7's half-space and MDR) and the sweeps end at their next check: the
  // section then reports lumped::Interrupted as its error.
  const std::atomic<bool>* stop = nullptr;
};

// One registered section. `run` fills rows, plots and text of `result` (id, part, title are
// set by run_section). Estimated seconds are what the command announces before running.
struct SectionSpec {
  std::string id, part, title;
  double estimated_seconds_quick = 1, estimated_seconds_full = 1;
  std::function<void(const Options&, SectionResult& result)> run;
};

// The title of section `id` ("1" ... "7"), shared by its lumped and FEM halves.
std::string section_title(const std::string& id);

// The lumped sections (1-7, in order). FEM sections: write `std::vector<SectionSpec>
// fem_sections()` in a file compiled only into rebound-fem, with part = "FEM" and the same
// ids; the report merges halves with equal ids (lumped first).
std::vector<SectionSpec> lumped_sections();

// The FEM halves of sections 1-3 (validation/sections_fem.cpp, in validation_fem).
std::vector<SectionSpec> fem_sections();

// Section 1's three Hertz cases: the shipped steel sphere, Lai's (1999) aluminium sphere and a
// glass bead (frictionless normal impacts).
std::vector<cases::Case> hertz_cases(const Options& options);

// Runs one section, timing it; an exception becomes result.error.
SectionResult run_section(const SectionSpec& spec, const Options& options);

struct Counts {
  int checks = 0;  // pass + fail rows (+1 per section error)
  int passed = 0;
  int failed = 0;
  int compared = 0;  // compare rows
};
Counts count(const SectionResult& section);
Counts count(const std::vector<SectionResult>& sections);

// Numbers in the tables: %.7g, "—" for NaN.
std::string format_value(double value);

// The rows of one section as a markdown table (case, quantity, value, reference, difference,
// tolerance, result, note). FAIL rows are marked in bold.
std::string markdown_table(const std::vector<Row>& rows);

struct ReportContext {
  std::string command;  // exact command line
  std::string machine;  // uname and cores
  std::string date;     // UTC, ISO 8601
  std::string version;  // rebound version
  Depth depth = Depth::quick;
  double total_seconds = 0;  // whole command
  double plot_seconds = 0;
  std::string plot_problem;                           // non-empty when the plots could not be drawn
  std::string image_directory = "images/validation";  // relative to the markdown file
};

// The whole docs/VALIDATION.md.
std::string markdown_report(const std::vector<SectionResult>& sections,
                            const ReportContext& context);

// Sections sorted by id, lumped half first (stable).
void sort_sections(std::vector<SectionResult>& sections);

nlohmann::json to_json(const SectionResult& section);
SectionResult section_from_json(const nlohmann::json& json);
// {"plots": [...]} for scripts/validation_plots.py.
nlohmann::json plots_json(const std::vector<SectionResult>& sections);

}  // namespace rebound::validation
