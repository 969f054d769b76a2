#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <map>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/json_numbers.h"
#include "lumped/lai.h"
#include "lumped/normal_laws.h"
#include "lumped/rigid_laws.h"
#include "lumped/summary.h"
#include "lumped/sweep.h"
#include "lumped/uncoupled.h"
#include "studies/progress.h"
#include "validation/validation.h"

namespace rebound::validation {

// ---------------------------------------------------------------------------------------------
// Checks, tables, report
// ---------------------------------------------------------------------------------------------

namespace {

using studies::format;

// Table cells must not contain a bare '|' or a line break.
std::string cell(std::string text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|')
      out += "\\|";
    else if (ch == '\n')
      out += ' ';
    else
      out += ch;
  }
  return out;
}

const char* kind_name(Tolerance::Kind kind) {
  switch (kind) {
    case Tolerance::Kind::absolute:
      return "absolute";
    case Tolerance::Kind::relative:
      return "relative";
    case Tolerance::Kind::at_most:
      return "at_most";
    case Tolerance::Kind::at_least:
      return "at_least";
    case Tolerance::Kind::none:
      return "none";
  }
  return "none";
}

Tolerance::Kind kind_of(const std::string& name) {
  for (Tolerance::Kind kind :
       {Tolerance::Kind::absolute, Tolerance::Kind::relative, Tolerance::Kind::at_most,
        Tolerance::Kind::at_least, Tolerance::Kind::none})
    if (name == kind_name(kind)) return kind;
  throw std::invalid_argument("unknown tolerance kind '" + name + "'");
}

using cases::finite_or_null;
double number_of(const nlohmann::json& value) {
  return cases::number_or_nan(value);
}

}  // namespace

std::string section_title(const std::string& id) {
  static const std::map<std::string, std::string> titles = {
      {"1", "Hertz normal impact (analytic)"},
      {"2", "Lai 1999, Table 6.1: the eight sphere cases"},
      {"3", "Lai 1999, Table 5.2: rod cases a-d"},
      {"4", "Lai 1999, Table 5.1 objects and §5.3-5.4"},
      {"5", "Uncoupled springs (Predicting Rebound thesis): sphere thresholds, disks, rods"},
      {"6", "Dissipative normal laws (Hunt & Crossley, Lankarani & Nikravesh, Flores, Michalczyk)"},
      {"7", "Partial slip and normal-tangential coupling (Lai, MDR, half-space)"}};
  return titles.at(id);
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass:
      return "PASS";
    case Verdict::fail:
      return "FAIL";
    case Verdict::compare:
      return "compare";
  }
  return "?";
}

std::string Tolerance::describe() const {
  switch (kind) {
    case Kind::absolute:
      return format("± %.3g", amount);
    case Kind::relative:
      return amount >= 1e-3 ? format("± %.3g %%", 100 * amount) : format("± %.3g rel.", amount);
    case Kind::at_most:
      return amount == 0 ? "≤ ref" : format("≤ ref + %.3g", amount);
    case Kind::at_least:
      return amount == 0 ? "≥ ref" : format("≥ ref − %.3g", amount);
    case Kind::none:
      return "—";
  }
  return "—";
}

Verdict judge(double value, double reference, const Tolerance& tolerance) {
  if (tolerance.kind == Tolerance::Kind::none) return Verdict::compare;
  if (!std::isfinite(value) || !std::isfinite(reference) || !std::isfinite(tolerance.amount))
    return Verdict::fail;
  bool ok = false;
  switch (tolerance.kind) {
    case Tolerance::Kind::absolute:
      ok = std::abs(value - reference) <= tolerance.amount;
      break;
    case Tolerance::Kind::relative:
      ok = std::abs(value - reference) <= tolerance.amount * std::abs(reference);
      break;
    case Tolerance::Kind::at_most:
      ok = value <= reference + tolerance.amount;
      break;
    case Tolerance::Kind::at_least:
      ok = value >= reference - tolerance.amount;
      break;
    case Tolerance::Kind::none:
      break;
  }
  return ok ? Verdict::pass : Verdict::fail;
}

Row check(const std::string& section, const std::string& case_name, const std::string& quantity,
          double value, double reference, const Tolerance& tolerance, const std::string& note) {
  Row row;
  row.section = section;
  row.case_name = case_name;
  row.quantity = quantity;
  row.value = value;
  row.reference = reference;
  row.tolerance = tolerance;
  row.verdict = judge(value, reference, tolerance);
  row.note = note;
  return row;
}

Row compare(const std::string& section, const std::string& case_name, const std::string& quantity,
            double value, double reference, const std::string& note) {
  return check(section, case_name, quantity, value, reference, Tolerance::none(), note);
}

SectionResult run_section(const SectionSpec& spec, const Options& options) {
  SectionResult result;
  result.id = spec.id;
  result.part = spec.part;
  result.title = spec.title;
  const auto start = std::chrono::steady_clock::now();
  try {
    spec.run(options, result);
  } catch (const std::exception& error) {
    result.error = error.what();
  }
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

Counts count(const SectionResult& section) {
  Counts c;
  for (const Row& row : section.rows) {
    switch (row.verdict) {
      case Verdict::pass:
        ++c.checks, ++c.passed;
        break;
      case Verdict::fail:
        ++c.checks, ++c.failed;
        break;
      case Verdict::compare:
        ++c.compared;
        break;
    }
  }
  if (!section.error.empty()) ++c.checks, ++c.failed;
  return c;
}

Counts count(const std::vector<SectionResult>& sections) {
  Counts total;
  for (const SectionResult& s : sections) {
    const Counts c = count(s);
    total.checks += c.checks;
    total.passed += c.passed;
    total.failed += c.failed;
    total.compared += c.compared;
  }
  return total;
}

std::string format_value(double value) {
  if (std::isnan(value)) return "—";
  if (std::isinf(value)) return value > 0 ? "∞" : "−∞";
  return format("%.7g", value);
}

std::string markdown_table(const std::vector<Row>& rows) {
  std::string out =
      "| case | quantity | value | reference | difference | tolerance | result | note |\n"
      "|---|---|---:|---:|---:|---|---|---|\n";
  for (const Row& row : rows) {
    const std::string difference = std::isfinite(row.value) && std::isfinite(row.reference)
                                       ? format("%+.3g", row.value - row.reference)
                                       : "—";
    const std::string result =
        row.verdict == Verdict::fail ? "**FAIL**" : std::string(to_string(row.verdict));
    out += "| " + cell(row.case_name) + " | " + cell(row.quantity) + " | " +
           format_value(row.value) + " | " + format_value(row.reference) + " | " + difference +
           " | " + row.tolerance.describe() + " | " + result + " | " + cell(row.note) + " |\n";
  }
  return out;
}

void sort_sections(std::vector<SectionResult>& sections) {
  auto key = [](const SectionResult& s) {
    // Numeric ids sort as numbers ("10" after "9"); the lumped half comes first.
    char* end = nullptr;
    const double number = std::strtod(s.id.c_str(), &end);
    return std::make_tuple(end != s.id.c_str() ? number : 1e9, s.id, s.part == "lumped" ? 0 : 1);
  };
  std::stable_sort(sections.begin(), sections.end(),
                   [&](const SectionResult& a, const SectionResult& b) { return key(a) < key(b); });
}

std::string markdown_report(const std::vector<SectionResult>& unsorted,
                            const ReportContext& context) {
  std::vector<SectionResult> sections = unsorted;
  sort_sections(sections);
  const Counts total = count(sections);
  double section_seconds = 0;
  for (const SectionResult& s : sections) section_seconds += s.wall_seconds;

  std::string out = "# Validation report\n\n";
  out +=
      "Generated by `rebound validate` (app/command_validate.cpp, validation/, "
      "scripts/validation_plots.py). Do not edit: every number on this page, tables and plots, "
      "comes from that command.\n\n";
  out += "| | |\n|---|---|\n";
  out += "| command | `" + cell(context.command) + "` |\n";
  out += "| mode | " + std::string(context.depth == Depth::full ? "full" : "quick") + " |\n";
  out += "| rebound | " + cell(context.version) + " |\n";
  out += "| machine | " + cell(context.machine) + " |\n";
  out += "| date | " + cell(context.date) + " |\n";
  out += format("| wall time | %.2f s in total: sections %.2f s, plots %.2f s |\n",
                context.total_seconds, section_seconds, context.plot_seconds);
  if (!context.plot_problem.empty())
    out += "| plots | **not drawn**: " + cell(context.plot_problem) + " |\n";
  out += "\n## Summary\n\n";
  out += "| section | part | title | checks | passed | failed | compare rows | wall time |\n";
  out += "|---|---|---|---:|---:|---:|---:|---:|\n";
  for (const SectionResult& s : sections) {
    const Counts c = count(s);
    out +=
        format("| %s | %s | %s | %d | %d | %s | %d | %.3f s |\n", s.id.c_str(), s.part.c_str(),
               cell(s.title).c_str(), c.checks, c.passed,
               c.failed > 0 ? format("**%d**", c.failed).c_str() : "0", c.compared, s.wall_seconds);
  }
  out += format("| **total** | | | %d | %d | %s | %d | %.3f s |\n\n", total.checks, total.passed,
                total.failed > 0 ? format("**%d**", total.failed).c_str() : "0", total.compared,
                section_seconds);
  out +=
      "A check passes when its value is within the stated tolerance of its reference (the "
      "tolerance column: ± absolute, ± relative %, or a one-sided bound on the value). "
      "\"compare\" rows tabulate a value with no pass/fail criterion: the publication gives only a "
      "figure, or the row pairs two models (value − reference is the difference). The command "
      "exits with status 1 when any check fails.\n\n";
  if (total.failed == 0) {
    out += format("All %d checks pass.\n\n", total.checks);
  } else {
    out += format("**%d of %d checks fail:**\n\n", total.failed, total.checks);
    for (const SectionResult& s : sections) {
      if (!s.error.empty())
        out += "- section " + s.id + " (" + s.part + "): did not run: " + s.error + "\n";
      for (const Row& row : s.rows)
        if (row.verdict == Verdict::fail)
          out += "- section " + s.id + " (" + s.part + "), " + row.case_name + ", " + row.quantity +
                 ": " + format_value(row.value) + " vs " + format_value(row.reference) + " (" +
                 row.tolerance.describe() + ")" + (row.note.empty() ? "" : ": " + row.note) + "\n";
    }
    out += "\n";
  }

  std::string current;
  for (const SectionResult& s : sections) {
    if (s.id != current) {
      current = s.id;
      std::string title = s.title;
      out += "## " + s.id + ". " + title + "\n\n";
    }
    out += "### " + std::string(s.part == "lumped" ? "Lumped models" : s.part) + "\n\n";
    if (!s.error.empty()) out += "**This part did not run: " + s.error + "** (counted as FAIL)\n\n";
    if (!s.text.empty()) out += s.text + "\n\n";
    const Counts c = count(s);
    out += format("%d checks, %d passed, %d failed, %d compare rows; %.3f s.\n\n", c.checks,
                  c.passed, c.failed, c.compared, s.wall_seconds);
    if (!s.rows.empty()) out += markdown_table(s.rows) + "\n";
    for (const Plot& plot : s.plots) {
      out +=
          "![" + cell(plot.title) + "](" + context.image_directory + "/" + plot.name + ".png)\n\n";
      if (!plot.caption.empty()) out += "*" + plot.caption + "*\n\n";
    }
  }
  return out;
}

nlohmann::json to_json(const SectionResult& s) {
  nlohmann::json j;
  j["id"] = s.id;
  j["part"] = s.part;
  j["title"] = s.title;
  j["text"] = s.text;
  j["wall_seconds"] = s.wall_seconds;
  j["error"] = s.error;
  j["rows"] = nlohmann::json::array();
  for (const Row& row : s.rows)
    j["rows"].push_back(
        {{"section", row.section},
         {"case", row.case_name},
         {"quantity", row.quantity},
         {"value", finite_or_null(row.value)},
         {"reference", finite_or_null(row.reference)},
         {"tolerance", {{"kind", kind_name(row.tolerance.kind)}, {"amount", row.tolerance.amount}}},
         {"verdict", to_string(row.verdict)},
         {"note", row.note}});
  j["plots"] = nlohmann::json::array();
  for (const Plot& plot : s.plots) {
    nlohmann::json p = {{"name", plot.name}, {"title", plot.title}, {"caption", plot.caption}};
    p["panels"] = nlohmann::json::array();
    for (const Panel& panel : plot.panels) {
      nlohmann::json q = {{"title", panel.title},
                          {"xlabel", panel.xlabel},
                          {"ylabel", panel.ylabel},
                          {"equal_axes", panel.equal_axes},
                          {"ylim", panel.ylim}};
      q["series"] = nlohmann::json::array();
      for (const Series& series : panel.series) {
        nlohmann::json x = nlohmann::json::array(), y = nlohmann::json::array();
        for (double v : series.x) x.push_back(finite_or_null(v));
        for (double v : series.y) y.push_back(finite_or_null(v));
        q["series"].push_back(
            {{"label", series.label}, {"style", series.style}, {"x", x}, {"y", y}});
      }
      p["panels"].push_back(q);
    }
    j["plots"].push_back(p);
  }
  return j;
}

SectionResult section_from_json(const nlohmann::json& j) {
  SectionResult s;
  s.id = j.at("id").get<std::string>();
  s.part = j.at("part").get<std::string>();
  s.title = j.at("title").get<std::string>();
  s.text = j.value("text", "");
  s.wall_seconds = j.value("wall_seconds", 0.0);
  s.error = j.value("error", "");
  for (const auto& r : j.at("rows")) {
    Row row;
    row.section = r.at("section").get<std::string>();
    row.case_name = r.at("case").get<std::string>();
    row.quantity = r.at("quantity").get<std::string>();
    row.value = number_of(r.at("value"));
    row.reference = number_of(r.at("reference"));
    row.tolerance.kind = kind_of(r.at("tolerance").at("kind").get<std::string>());
    row.tolerance.amount = r.at("tolerance").at("amount").get<double>();
    // The verdict is recomputed, never trusted from the file.
    row.verdict = judge(row.value, row.reference, row.tolerance);
    row.note = r.value("note", "");
    s.rows.push_back(row);
  }
  for (const auto& p : j.value("plots", nlohmann::json::array())) {
    Plot plot;
    plot.name = p.at("name").get<std::string>();
    plot.title = p.value("title", "");
    plot.caption = p.value("caption", "");
    for (const auto& q : p.at("panels")) {
      Panel panel;
      panel.title = q.value("title", "");
      panel.xlabel = q.value("xlabel", "");
      panel.ylabel = q.value("ylabel", "");
      panel.equal_axes = q.value("equal_axes", false);
      panel.ylim = q.value("ylim", std::vector<double>{});
      for (const auto& x : q.at("series")) {
        Series series;
        series.label = x.value("label", "");
        series.style = x.value("style", "line");
        for (const auto& v : x.at("x")) series.x.push_back(number_of(v));
        for (const auto& v : x.at("y")) series.y.push_back(number_of(v));
        panel.series.push_back(series);
      }
      plot.panels.push_back(panel);
    }
    s.plots.push_back(plot);
  }
  return s;
}

nlohmann::json plots_json(const std::vector<SectionResult>& sections) {
  nlohmann::json plots = nlohmann::json::array();
  for (const SectionResult& s : sections) {
    const nlohmann::json section = to_json(s);
    for (const auto& p : section["plots"]) plots.push_back(p);
  }
  return {{"plots", plots}};
}

}  // namespace rebound::validation
