// `rebound pair` end to end (issue 6 acceptance): every file is written, comparison.json holds
// exactly the values of the two summaries it came from (difference = FEM - lumped) and the
// histories resampled as documented, every PNG in plots/ decodes and is not blank, and the
// ParaView state view.py renders a non-blank screenshot in real ParaView (pvbatch through
// scripts/paraview-python.sh).
//
// Each fixture runs `rebound pair` once (SetUpTestSuite) into the build tree and its checks share
// that run, so each suite is registered as one CTest test (tests/CMakeLists.txt), not one per
// TEST. The outputs stay on disk for inspection: REBOUND_PAIR_WORK_DIR/<case>/. PairParaView
// renders PairQuick's output (a CTest fixture orders them) and runs the pair itself only when
// that output is missing.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPNGReader.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridReader.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "shell.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kCases = REBOUND_SOURCE_DIR "/cases/";

using rebound::test::Invocation;
using rebound::test::shell;

std::string shell_quote(const fs::path& path) {
  return "'" + path.string() + "'";
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return json::parse(in);
}

// A pair run: where it wrote, how it ended.
struct PairRun {
  fs::path dir;
  Invocation invocation;
};

PairRun run_pair(const std::string& case_file, const std::string& name) {
  PairRun run;
  run.dir = fs::path(REBOUND_PAIR_WORK_DIR) / name;
  fs::remove_all(run.dir);
  fs::create_directories(run.dir.parent_path());
  run.invocation = shell(std::string(REBOUND_BINARY) + " pair " + shell_quote(fs::path(case_file)) +
                         " -o " + shell_quote(run.dir) + " --quiet");
  std::printf("[pair] %s: exit %d in %.1f s -> %s\n", name.c_str(), run.invocation.status,
              run.invocation.seconds, run.dir.c_str());
  return run;
}

// --- comparison.json against the summaries -------------------------------------------------

// The value as the comparison reads it (it converts every number with get<double>()).
double number(const json& value) {
  return value.get<double>();
}

// Checks one comparison.summary section: for every key both summaries hold as a number (or as
// arrays of numbers of one length), the entry exists with both values exactly as parsed,
// difference = second - first and relative_difference = difference / |first| (null when first
// is 0); and nothing else is in it. Returns the number of keys checked.
int expect_summary_section(const json& section, const std::string& first_name, const json& first,
                           const std::string& second_name, const json& second) {
  std::set<std::string> expected;
  for (const auto& item : first.items()) {
    const std::string& key = item.key();
    if (!second.contains(key)) continue;
    const json& a = item.value();
    const json& b = second[key];
    if (a.is_number() && b.is_number()) {
      expected.insert(key);
      SCOPED_TRACE("summary key " + key);
      if (!section.contains(key)) {
        ADD_FAILURE() << "missing";
        continue;
      }
      const json& row = section[key];
      if (!row.contains(first_name) || !row.contains(second_name) || !row.contains("difference") ||
          !row.contains("relative_difference")) {
        ADD_FAILURE() << "incomplete: " << row.dump();
        continue;
      }
      const double x = number(a), y = number(b);
      // Exact: comparison.json is written with round-trip precision from the same doubles.
      EXPECT_EQ(number(row[first_name]), x);
      EXPECT_EQ(number(row[second_name]), y);
      EXPECT_EQ(number(row["difference"]), y - x)
          << "difference must be " << second_name << " - " << first_name;
      // Order-one quantities at round-off of zero (theta 2.6e-17 against 0) have no relative
      // difference (studies/comparison.cpp).
      const bool round_off = std::set<std::string>{"theta",
                                                   "lambda",
                                                   "psi1",
                                                   "psi2",
                                                   "e_newton",
                                                   "e_poisson",
                                                   "e_stronge",
                                                   "tangential_cor",
                                                   "incidence_angle",
                                                   "rebound_angle",
                                                   "kinetic_energy_loss_fraction"}
                                     .count(key) > 0 &&
                             std::max(std::abs(x), std::abs(y)) < 1e-12;
      if (x != 0 && !round_off) {
        if (!row["relative_difference"].is_number()) {
          ADD_FAILURE() << "relative_difference is not a number";
          continue;
        }
        const double relative = number(row["relative_difference"]);
        EXPECT_EQ(relative, (y - x) / std::abs(x));
        // Consistent with the two values whatever their sign.
        EXPECT_NEAR(x + relative * std::abs(x), y, 1e-12 * std::max(std::abs(x), std::abs(y)));
      } else {
        EXPECT_TRUE(row["relative_difference"].is_null());
      }
    } else if (a.is_array() && b.is_array() && a.size() == b.size() && !a.empty() &&
               a[0].is_number()) {
      expected.insert(key);
      SCOPED_TRACE("summary key " + key + " (array)");
      if (!section.contains(key)) {
        ADD_FAILURE() << "missing";
        continue;
      }
      const json& row = section[key];
      EXPECT_EQ(row[first_name], a);
      EXPECT_EQ(row[second_name], b);
      if (!row["difference"].is_array() || row["difference"].size() != a.size()) {
        ADD_FAILURE() << "difference is not an array of " << a.size() << ": " << row.dump();
        continue;
      }
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].is_number() && b[i].is_number())
          EXPECT_EQ(number(row["difference"][i]), number(b[i]) - number(a[i])) << "[" << i << "]";
        else
          EXPECT_TRUE(row["difference"][i].is_null()) << "[" << i << "]";
      }
    }
  }
  for (const auto& item : section.items())
    EXPECT_TRUE(expected.count(item.key()))
        << item.key() << " is in the comparison but not a number in both summaries";
  return static_cast<int>(expected.size());
}

// A CSV history as the comparison reads it: numeric cells, NaN otherwise.
std::map<std::string, std::vector<double>> read_history(const fs::path& path) {
  std::ifstream in(path);
  std::map<std::string, std::vector<double>> table;
  std::string line;
  if (!std::getline(in, line)) return table;
  std::vector<std::string> columns;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');) columns.push_back(name);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream cells(line);
    std::string cell;
    for (const auto& name : columns) {
      if (!std::getline(cells, cell, ',')) cell.clear();
      char* end = nullptr;
      const double value = std::strtod(cell.c_str(), &end);
      table[name].push_back(end != cell.c_str() && *end == '\0' ? value : std::nan(""));
    }
  }
  return table;
}

// Linear interpolation over increasing x (NaN outside), written independently of the app's.
double interpolate(const std::vector<double>& x, const std::vector<double>& y, double x0) {
  if (x.empty() || x0 < x.front() || x0 > x.back()) return std::nan("");
  const auto it = std::lower_bound(x.begin(), x.end(), x0);
  const std::size_t hi = std::max<std::size_t>(1, it - x.begin());
  if (hi >= x.size()) return y.back();
  const double span = x[hi] - x[hi - 1];
  const double s = span > 0 ? (x0 - x[hi - 1]) / span : 1.0;
  return (1 - s) * y[hi - 1] + s * y[hi];
}

// `required`: summary keys the comparison must hold for this case (the report's quantities that
// are defined for it: Psi1, Psi2 and the tangential COR are null in a frictionless normal impact).
void expect_comparison_matches_summaries(const PairRun& run,
                                         const std::vector<std::string>& required) {
  const json comparison = read_json(run.dir / "comparison.json");
  const json fem = read_json(run.dir / "fem" / "summary.json");
  const json lumped = read_json(run.dir / "lumped" / "summary.json");
  const json exact = read_json(run.dir / "lumped-exact" / "summary.json");
  EXPECT_EQ(comparison["first"], "lumped");
  EXPECT_EQ(comparison["second"], "fem");

  // lambda and theta are compared for the body both ran: the FEM's are its mesh's (lambda_mesh,
  // theta_mesh), not the case's exact geometry that its summary's lambda and theta hold.
  json fem_body = fem;
  fem_body["lambda"] = fem["lambda_mesh"];
  fem_body["theta"] = fem["theta_mesh"];
  const int keys = expect_summary_section(comparison["summary"], "lumped", lumped, "fem", fem_body);
  EXPECT_GE(keys, 15);
  for (const auto& key : required) EXPECT_TRUE(comparison["summary"].contains(key)) << key;
  // The geometry section: exact-geometry lumped run vs the mesh's.
  EXPECT_GE(expect_summary_section(comparison["geometry"], "exact", exact, "mesh", lumped), 15);

  // Histories: both resampled on t / contact duration, L2 and max differences of the stored
  // samples.
  const json& histories = comparison["histories"];
  const auto& axis = histories["normalized_time"];
  ASSERT_GE(axis.size(), 101u);
  EXPECT_EQ(number(axis.front()), 0.0);
  EXPECT_EQ(number(axis.back()), 1.0);
  EXPECT_EQ(number(histories["contact_duration"]["lumped"]), number(lumped["contact_duration"]));
  EXPECT_EQ(number(histories["contact_duration"]["fem"]), number(fem["contact_duration"]));
  const auto lumped_history = read_history(run.dir / "lumped" / "history.csv");
  const auto fem_history = read_history(run.dir / "fem" / "history.csv");
  int columns = 0;
  // comparison.json names the quantities, history.csv's header carries their units too.
  for (const auto& [column, header] :
       {std::pair{"normal_force", "normal_force_N"},
        std::pair{"tangential_force", "tangential_force_N"},
        std::pair{"normal_impulse", "normal_impulse_N_s"},
        std::pair{"tangential_impulse", "tangential_impulse_N_s"},
        std::pair{"normal_velocity", "normal_velocity_m_per_s"},
        std::pair{"tangential_velocity", "tangential_velocity_m_per_s"}}) {
    SCOPED_TRACE(std::string("history column ") + column);
    ASSERT_TRUE(histories.contains(column));
    ++columns;
    const json& h = histories[column];
    ASSERT_EQ(h["lumped"].size(), axis.size());
    ASSERT_EQ(h["fem"].size(), axis.size());
    double peak = 0;
    for (const auto* history : {&lumped_history, &fem_history})
      for (double v : history->at(header))
        if (std::isfinite(v)) peak = std::max(peak, std::abs(v));
    // The comparison resamples the histories in memory; history.csv keeps 11 significant digits
    // (%.10e), so the two agree to a few 1e-11 of the peak (1e-9: a margin of 20).
    const double tolerance = 1e-9 * std::max(peak, 1e-300);
    double sum_squares = 0, max_difference = 0;
    int count = 0;
    for (std::size_t i = 0; i < axis.size(); ++i) {
      double values[2];
      int k = 0;
      for (const auto& [name, history, summary] : {std::tuple{"lumped", &lumped_history, &lumped},
                                                   std::tuple{"fem", &fem_history, &fem}}) {
        std::vector<double> t;
        for (double time : history->at("time_s"))
          t.push_back(time / number((*summary)["contact_duration"]));
        // history.csv's times are rounded to 11 digits: an axis point at the very end of the
        // history (t / t_c = 1) may fall 1e-11 outside it in the file but not in memory.
        const double x = std::clamp(number(axis[i]), t.front(),
                                    std::abs(number(axis[i]) - t.back()) < 1e-9 ? t.back() : 2.0);
        const double expected = interpolate(t, history->at(header), x);
        const json& stored = h[name][i];
        if (std::isfinite(expected)) {
          ASSERT_TRUE(stored.is_number()) << name << " sample " << i;
          EXPECT_NEAR(number(stored), expected, tolerance) << name << " sample " << i;
          values[k] = number(stored);
        } else {
          EXPECT_TRUE(stored.is_null()) << name << " sample " << i;
          values[k] = std::nan("");
        }
        ++k;
      }
      if (std::isfinite(values[0]) && std::isfinite(values[1])) {
        const double d = values[1] - values[0];
        sum_squares += d * d;
        max_difference = std::max(max_difference, std::abs(d));
        ++count;
      }
    }
    ASSERT_GT(count, 0);
    EXPECT_NEAR(number(h["l2_difference"]), std::sqrt(sum_squares / count), tolerance);
    EXPECT_NEAR(number(h["max_difference"]), max_difference, tolerance);
  }
  EXPECT_EQ(columns, 6);
}

// --- images ------------------------------------------------------------------------------------

struct ImageStats {
  bool decoded = false;
  int width = 0, height = 0, components = 0;
  std::size_t distinct_colours = 0;
  double foreground_fraction = 0;  // pixels that are not the most frequent colour
};

// Decodes a PNG with VTK and counts its colours over the columns [x0, x1) of the width.
ImageStats image_stats(const fs::path& path, double x0 = 0, double x1 = 1) {
  ImageStats stats;
  vtkNew<vtkPNGReader> reader;
  if (!reader->CanReadFile(path.c_str())) return stats;
  reader->SetFileName(path.c_str());
  reader->Update();
  vtkImageData* image = reader->GetOutput();
  int dims[3];
  image->GetDimensions(dims);
  vtkDataArray* scalars = image->GetPointData()->GetScalars();
  if (!scalars || dims[0] <= 0 || dims[1] <= 0) return stats;
  stats.decoded = true;
  stats.width = dims[0];
  stats.height = dims[1];
  stats.components = scalars->GetNumberOfComponents();
  std::map<std::uint32_t, std::size_t> histogram;
  const int begin = static_cast<int>(x0 * dims[0]), end = static_cast<int>(x1 * dims[0]);
  std::size_t pixels = 0;
  for (int y = 0; y < dims[1]; ++y)
    for (int x = begin; x < end; ++x) {
      const vtkIdType id = static_cast<vtkIdType>(y) * dims[0] + x;
      std::uint32_t colour = 0;
      for (int c = 0; c < std::min(stats.components, 3); ++c)
        colour = colour << 8 | static_cast<std::uint32_t>(scalars->GetComponent(id, c));
      ++histogram[colour];
      ++pixels;
    }
  stats.distinct_colours = histogram.size();
  std::size_t background = 0;
  for (const auto& entry : histogram) background = std::max(background, entry.second);
  stats.foreground_fraction = pixels ? 1.0 - double(background) / double(pixels) : 0.0;
  return stats;
}

void expect_not_blank(const fs::path& path, double x0 = 0, double x1 = 1) {
  SCOPED_TRACE(path.string());
  const ImageStats stats = image_stats(path, x0, x1);
  ASSERT_TRUE(stats.decoded) << "does not decode as PNG";
  EXPECT_GE(stats.width, 200);
  EXPECT_GE(stats.height, 200);
  EXPECT_GE(stats.components, 3);
  EXPECT_GT(stats.distinct_colours, 16u) << "one-colour or nearly empty image";
  EXPECT_GT(stats.foreground_fraction, 0.01) << "almost only background";
  EXPECT_LT(stats.foreground_fraction, 0.99);
  std::printf("[png] %s (columns %.2f-%.2f): %dx%d, %zu colours, %.1f %% not background\n",
              path.filename().c_str(), x0, x1, stats.width, stats.height, stats.distinct_colours,
              100 * stats.foreground_fraction);
}

void expect_plots_not_blank(const PairRun& run) {
  const fs::path plots = run.dir / "plots";
  std::set<std::string> names;
  if (fs::is_directory(plots))
    for (const auto& entry : fs::directory_iterator(plots))
      if (entry.path().extension() == ".png") names.insert(entry.path().filename().string());
  for (const char* expected : {"normal_force.png", "tangential_force.png", "impulse_path.png",
                               "tangential_velocity.png", "energy_budget.png"})
    EXPECT_TRUE(names.count(expected)) << expected << " not in " << plots;
  for (const auto& name : names) expect_not_blank(plots / name);
}

void expect_all_files(const PairRun& run) {
  ASSERT_EQ(run.invocation.status, 0) << run.invocation.output;
  for (const char* file :
       {"comparison.json", "report.md", "view.py", "fem/summary.json", "fem/history.csv",
        "fem/solution.pvd", "lumped/summary.json", "lumped/history.csv", "lumped/rigid_body.pvd",
        "lumped-exact/summary.json"})
    EXPECT_TRUE(fs::is_regular_file(run.dir / file)) << file;
  // view.py knows its folder (ParaView's GUI runs it without __file__).
  std::ifstream in(run.dir / "view.py");
  std::stringstream view;
  view << in.rdbuf();
  EXPECT_NE(view.str().find("RESULT_DIRECTORY = " + json(fs::absolute(run.dir).string()).dump()),
            std::string::npos);
  // report.md prints "—" for an undefined number (the Hertz pair's tangential columns stay 0, so
  // their max / peak is undefined), never "nan" or "inf".
  std::ifstream report_file(run.dir / "report.md");
  std::stringstream report;
  report << report_file.rdbuf();
  for (const char* bad : {"nan", "inf"})
    EXPECT_EQ(report.str().find(bad), std::string::npos) << bad << " in report.md:\n"
                                                         << report.str();
  // The report says what the FEM run was and where the result came from.
  for (const char* section : {"## The FEM run", "h_contact / a_max", "energy balance error",
                              "## Warnings", "## Origin of these results", "rebound pair "})
    EXPECT_NE(report.str().find(section), std::string::npos) << section;
  const json comparison = read_json(run.dir / "comparison.json");
  ASSERT_TRUE(comparison.contains("provenance"));
  EXPECT_EQ(comparison["provenance"]["case_hash"].get<std::string>().size(), 16u);
  EXPECT_EQ(comparison["provenance"]["mpi_ranks"],
            read_json(run.dir / "fem/summary.json")["mpi_ranks"]);
}

// --- the ParaView view -----------------------------------------------------------------------

// The largest von Mises stress of the FEM frames (fem/solution_*.pvtu) read with VTK.
double largest_von_mises(const fs::path& fem) {
  double largest = -1;
  for (const auto& entry : fs::directory_iterator(fem)) {
    if (entry.path().extension() != ".pvtu") continue;
    vtkNew<vtkXMLPUnstructuredGridReader> reader;
    reader->SetFileName(entry.path().c_str());
    reader->Update();
    vtkDataArray* stress = reader->GetOutput()->GetPointData()->GetArray("von_mises");
    if (stress) largest = std::max(largest, stress->GetRange(0)[1]);
  }
  return largest;
}

// The x values (first and last) and UseLogScale of a lookup table in a ParaView state file.
struct StateLut {
  bool found = false;
  double first = 0, last = 0;
  int log_scale = -1;
};

StateLut state_lut(const std::string& state, const std::string& array) {
  StateLut lut;
  // <Item id="904" name="von_mises.PVLookupTable" .../> in the lookup_tables collection.
  std::smatch item;
  if (!std::regex_search(state, item,
                         std::regex("<Item id=\"(\\d+)\" name=\"" + array + "\\.PVLookupTable\"")))
    return lut;
  const std::string id = item[1];
  const auto begin =
      state.find("<Proxy group=\"lookup_tables\" type=\"PVLookupTable\" id=\"" + id + "\"");
  if (begin == std::string::npos) return lut;
  const std::string proxy = state.substr(begin, state.find("</Proxy>", begin) - begin);
  std::smatch m;
  const std::string rgb = proxy.substr(proxy.find("name=\"RGBPoints\""));
  std::vector<double> values;
  const std::regex element("<Element index=\"\\d+\" value=\"([^\"]+)\"/>");
  const std::string rgb_block = rgb.substr(0, rgb.find("</Property>"));
  for (auto it = std::sregex_iterator(rgb_block.begin(), rgb_block.end(), element);
       it != std::sregex_iterator(); ++it)
    values.push_back(std::stod((*it)[1]));
  const std::string log = proxy.substr(proxy.find("name=\"UseLogScale\""));
  if (values.size() < 8 || !std::regex_search(log, m, element)) return lut;
  lut.found = true;
  lut.first = values.front();
  lut.last = values[values.size() - 4];
  lut.log_scale = std::stoi(m[1]);
  return lut;
}

// --- the fixtures ----------------------------------------------------------------------------

// One pair run shared by the tests of a fixture: SetUpTestSuite of `Fixture` sets run_.
template <class Fixture>
class SharedPairRun : public ::testing::Test {
 protected:
  static void TearDownTestSuite() {
    delete run_;
    run_ = nullptr;
  }
  static const PairRun& run() { return *run_; }
  static inline PairRun* run_ = nullptr;
};

// Lai 1999, Table 6.1, Psi1 = 2, on the quick-start's coarse mesh (the README's main run).
class PairQuick : public SharedPairRun<PairQuick> {
 protected:
  static void SetUpTestSuite() {
    run_ = new PairRun(run_pair(kCases + "sphere-lai-psi2-quick.json", "sphere-lai-psi2-quick"));
  }
};

// The shipped Hertz sphere on a coarse mesh (p = 1, no global refinement, cells of a_max / 2):
// the shipped settings are the converged ones and take far longer.
class PairHertz : public SharedPairRun<PairHertz> {
 protected:
  static void SetUpTestSuite() {
    json c = read_json(kCases + "hertz-steel-sphere.json");
    c["fem"] = {{"degree", 1}, {"refinement", 0}, {"contact_resolution", 2}, {"frames", 3}};
    const fs::path file = fs::path(REBOUND_PAIR_WORK_DIR) / "hertz-steel-sphere-coarse.json";
    fs::create_directories(file.parent_path());
    std::ofstream(file) << c.dump(2) << "\n";
    run_ = new PairRun(run_pair(file.string(), "hertz-steel-sphere-coarse"));
  }
};

// PairQuick's output (run it first), or a new run of the same case when there is none.
class PairParaView : public SharedPairRun<PairParaView> {
 protected:
  static void SetUpTestSuite() {
    const fs::path dir = fs::path(REBOUND_PAIR_WORK_DIR) / "sphere-lai-psi2-quick";
    if (fs::is_regular_file(dir / "comparison.json") && fs::is_regular_file(dir / "view.py")) {
      run_ = new PairRun{dir, {0, "reused", 0}};
      std::printf("[pair] reusing %s\n", dir.c_str());
    } else {
      run_ = new PairRun(run_pair(kCases + "sphere-lai-psi2-quick.json", "sphere-lai-psi2-quick"));
    }
  }
};

}  // namespace

TEST_F(PairQuick, WritesAllFiles) {
  expect_all_files(run());
}

TEST_F(PairQuick, ComparisonEqualsTheTwoSummaries) {
  ASSERT_EQ(run().invocation.status, 0) << run().invocation.output;
  expect_comparison_matches_summaries(
      run(), {"psi1", "psi2", "e_newton", "e_poisson", "e_stronge", "tangential_cor", "spin_final",
              "normal_impulse", "tangential_impulse", "contact_duration", "peak_normal_force",
              "kinetic_energy_loss", "kinetic_energy_loss_fraction", "lambda", "theta"});
}

TEST_F(PairQuick, EveryPlotDecodesAndIsNotBlank) {
  ASSERT_EQ(run().invocation.status, 0) << run().invocation.output;
  expect_plots_not_blank(run());
}

// DIR/view.py loaded by real ParaView (pvbatch, with python3-paraview unpacked privately by
// scripts/paraview-python.sh, under a private Xvfb): exit 0, a screenshot whose 3-D half (the
// FEM body and the lumped rigid body) and chart half (the force histories) are both drawn, and
// a ParaView state file naming both readers.
TEST_F(PairParaView, StateRendersNonBlankScreenshot) {
  ASSERT_EQ(run().invocation.status, 0) << run().invocation.output;
  if (!fs::exists("/usr/bin/pvbatch"))
    GTEST_SKIP() << "ParaView is not installed (apt-get install paraview xvfb)";
  const fs::path screenshot = run().dir / "view-screenshot.png";
  const fs::path state = run().dir / "view.pvsm";
  fs::remove(screenshot);  // no stale files from an earlier run
  fs::remove(state);
  const Invocation paraview =
      shell("bash " + shell_quote(REBOUND_SOURCE_DIR "/scripts/paraview-python.sh") + " --prefix " +
            shell_quote(REBOUND_PARAVIEW_PREFIX) + " " + shell_quote(run().dir / "view.py") +
            " --screenshot " + shell_quote(screenshot) + " --state " + shell_quote(state) +
            " --size 1400x600");
  std::printf("[paraview] exit %d in %.1f s -> %s\n", paraview.status, paraview.seconds,
              screenshot.c_str());
  if (paraview.output.find("running it again") != std::string::npos)
    std::printf("[paraview] needed a retry (Xvfb dropped the connection):\n%s\n",
                paraview.output.c_str());
  ASSERT_EQ(paraview.status, 0) << paraview.output;
  ASSERT_TRUE(fs::is_regular_file(screenshot)) << paraview.output;
  const ImageStats stats = image_stats(screenshot);
  EXPECT_EQ(stats.width, 1400);
  EXPECT_EQ(stats.height, 600);
  expect_not_blank(screenshot);
  expect_not_blank(screenshot, 0.0, 0.5);  // the render view (left 55 %)
  expect_not_blank(screenshot, 0.6, 1.0);  // the line chart
  std::ifstream in(state);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("solution.pvd"), std::string::npos);
  EXPECT_NE(text.str().find("rigid_body.pvd"), std::string::npos);
  EXPECT_NE(text.str().find("history.csv"), std::string::npos);

  // The rigid plane y = 0 is a source of the state.
  EXPECT_NE(text.str().find("name=\"rigid plane y = 0\""), std::string::npos);
  // The von Mises colour range: printed, from the contact region (its top is the largest
  // stress of the run, its bottom well above the field's minimum and below the top), on a log
  // scale, and the one the state's lookup table holds.
  std::smatch printed;
  const std::string output = paraview.output;
  ASSERT_TRUE(std::regex_search(output, printed,
                                std::regex("von Mises colour range: ([0-9.e+-]+) - ([0-9.e+-]+) "
                                           "Pa \\(log; (\\d+) points within 10 contact radii")))
      << output;
  const double low = std::stod(printed[1]), high = std::stod(printed[2]);
  std::printf("[paraview] von Mises colour range %.3g - %.3g Pa over %s points\n", low, high,
              printed[3].str().c_str());
  const double largest = largest_von_mises(run().dir / "fem");
  EXPECT_NEAR(high, largest, 1e-3 * largest);
  EXPECT_GT(low, 1e-4 * high);  // not down to the far body's stress (1.3e5 Pa on the quick case)
  EXPECT_LT(low, 1e-1 * high);
  const StateLut lut = state_lut(text.str(), "von_mises");
  ASSERT_TRUE(lut.found);
  EXPECT_EQ(lut.log_scale, 1);
  EXPECT_NEAR(lut.first, low, 2e-3 * low);
  EXPECT_NEAR(lut.last, high, 2e-3 * high);
}

TEST_F(PairHertz, WritesAllFiles) {
  expect_all_files(run());
}

TEST_F(PairHertz, ComparisonEqualsTheTwoSummaries) {
  ASSERT_EQ(run().invocation.status, 0) << run().invocation.output;
  expect_comparison_matches_summaries(
      run(), {"e_newton", "e_poisson", "e_stronge", "normal_impulse", "contact_duration",
              "peak_normal_force", "kinetic_energy_loss", "lambda", "theta"});
}

TEST_F(PairHertz, EveryPlotDecodesAndIsNotBlank) {
  ASSERT_EQ(run().invocation.status, 0) << run().invocation.output;
  expect_plots_not_blank(run());
}
