// The PNG plots of `rebound lumped` (DIR/lumped/plots/) and `rebound sweep` (DIR/plots/), drawn
// by scripts/plots.py under the first interpreter that has matplotlib ($REBOUND_PYTHON,
// /usr/bin/python3, python3 on PATH): real PNGs of the documented size with something drawn on
// them, listed in the manifest, removed by a rerun with --no-plots; a clear warning and exit 0
// when no interpreter can draw.
#include <gtest/gtest.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPNGReader.h>
#include <vtkPointData.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cases/lumped_models.h"
#include "tests/app/shell.h"

namespace fs = std::filesystem;
using rebound::test::Invocation;

namespace {

const std::string kCases = REBOUND_SOURCE_DIR "/cases/";

Invocation run(const std::string& arguments) {
  return rebound::test::rebound(arguments);
}

fs::path scratch(const std::string& name) {
  return rebound::test::scratch_directory("rebound-test-plots", name);
}

// Whether some interpreter the command would try can import matplotlib (checked here
// independently of the code under test).
bool matplotlib_available() {
  static const bool available = [] {
    std::vector<std::string> candidates = {"/usr/bin/python3", "python3"};
    if (const char* chosen = std::getenv("REBOUND_PYTHON"); chosen && *chosen)
      candidates.insert(candidates.begin(), chosen);
    for (const std::string& python : candidates)
      if (rebound::test::shell("'" + python + "' -c 'import matplotlib' > /dev/null").status == 0)
        return true;
    return false;
  }();
  return available;
}

// A copy of a shipped case with the lumped model replaced (and the name changed).
std::string variant(const fs::path& dir, const std::string& base, const std::string& model) {
  std::ifstream in(kCases + base + ".json");
  nlohmann::json c = nlohmann::json::parse(in, nullptr, true, true);
  c["name"] = base + "-" + model;
  c["lumped"]["model"] = model;
  // A rigid-body restitution law needs its coefficient.
  if (!rebound::cases::compliant(rebound::cases::lumped_model(model)))
    c["lumped"]["restitution"] = 1.0;
  const fs::path path = dir / (base + "-" + model + ".json");
  std::ofstream(path) << c.dump(2);
  return path.string();
}

// A PNG written by matplotlib: the signature, the size of plots.py's figures (6.4 x 4.2 in at
// 110 dpi), more than a few kilobytes, and decoded by VTK with lines and text on it (many
// colours, 1-60 % of the pixels not white).
void expect_real_plot(const fs::path& path) {
  SCOPED_TRACE(path.string());
  ASSERT_TRUE(fs::is_regular_file(path));
  std::ifstream in(path, std::ios::binary);
  std::string signature(8, '\0');
  in.read(signature.data(), 8);
  EXPECT_EQ(signature, std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(fs::file_size(path), 15000u);
  vtkNew<vtkPNGReader> reader;
  ASSERT_TRUE(reader->CanReadFile(path.c_str()));
  reader->SetFileName(path.c_str());
  reader->Update();
  int dims[3];
  reader->GetOutput()->GetDimensions(dims);
  EXPECT_EQ(dims[0], 704);
  EXPECT_EQ(dims[1], 462);
  vtkDataArray* pixels = reader->GetOutput()->GetPointData()->GetScalars();
  ASSERT_NE(pixels, nullptr);
  std::map<std::uint32_t, int> colours;
  long not_white = 0;
  for (vtkIdType i = 0; i < pixels->GetNumberOfTuples(); ++i) {
    std::uint32_t colour = 0;
    for (int c = 0; c < 3; ++c) colour = colour << 8 | std::uint32_t(pixels->GetComponent(i, c));
    ++colours[colour];
    not_white += colour != 0xffffff;
  }
  const double fraction = double(not_white) / double(pixels->GetNumberOfTuples());
  EXPECT_GT(colours.size(), 32u);
  EXPECT_GT(fraction, 0.01);
  EXPECT_LT(fraction, 0.6);
}

std::vector<std::string> pngs(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
    if (it->path().extension() == ".png") names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> manifest_files(const fs::path& folder) {
  std::ifstream in(folder / "manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  std::vector<std::string> names;
  for (const auto& file : manifest["files"]) names.push_back(file["name"]);
  return names;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

// Lai's model: forces, impulses and velocities of P, no stick fraction (a one-spring model);
// in the manifest; a rerun with --no-plots removes them.
TEST(Plots, LumpedWritesForceImpulseAndVelocityPngs) {
  const fs::path dir = scratch("lumped");
  const Invocation r = run("lumped " + kCases + "sphere-lai-psi2.json -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const fs::path plots = dir / "lumped" / "plots";
  if (!matplotlib_available()) {
    EXPECT_NE(r.output.find("warning: plots were not drawn: no Python with matplotlib was found"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("REBOUND_PYTHON"), std::string::npos) << r.output;
    EXPECT_TRUE(pngs(plots).empty());
    GTEST_SKIP() << "no python3 with matplotlib here: only the warning was checked";
  }
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("plots in " + (dir / "lumped").string() + "/plots/"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("drawn by "), std::string::npos) << r.output;
  EXPECT_EQ(pngs(plots),
            (std::vector<std::string>{"forces.png", "impulses.png", "velocity_of_P.png"}));
  for (const std::string& name : pngs(plots)) expect_real_plot(plots / name);
  const std::vector<std::string> listed = manifest_files(dir / "lumped");
  for (const std::string& name : pngs(plots))
    EXPECT_TRUE(contains(listed, "plots/" + name)) << name;

  const Invocation again =
      run("lumped " + kCases + "sphere-lai-psi2.json --no-plots --quiet -o " + dir.string());
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_TRUE(pngs(plots).empty()) << "plots of the earlier run left beside the new results";
  for (const std::string& name : manifest_files(dir / "lumped"))
    EXPECT_EQ(name.rfind("plots/", 0), std::string::npos) << name;
}

// The MDR bed of springs has a stick fraction, plotted; a rigid-body law has no history and
// no plots, and no warning either.
TEST(Plots, LumpedStickFractionOnlyWhereTheModelHasOne) {
  if (!matplotlib_available()) GTEST_SKIP() << "no python3 with matplotlib here";
  const fs::path dir = scratch("models");
  const Invocation mdr = run("lumped " + variant(dir, "sphere-lai-psi2", "mdr") + " --quiet -o " +
                             (dir / "mdr").string());
  ASSERT_EQ(mdr.status, 0) << mdr.output;
  const fs::path plots = dir / "mdr" / "lumped" / "plots";
  EXPECT_EQ(pngs(plots), (std::vector<std::string>{"forces.png", "impulses.png",
                                                   "stick_fraction.png", "velocity_of_P.png"}));
  expect_real_plot(plots / "stick_fraction.png");

  const Invocation newton =
      run("lumped " + variant(dir, "rod-lai-a", "newton") + " -o " + (dir / "newton").string());
  ASSERT_EQ(newton.status, 0) << newton.output;
  EXPECT_TRUE(pngs(dir / "newton" / "lumped" / "plots").empty());
  EXPECT_EQ(newton.output.find("plots in"), std::string::npos) << newton.output;
  EXPECT_EQ(newton.output.find("warning: plots"), std::string::npos) << newton.output;
}

// sweep: Psi2 vs Psi1 and the coefficients vs the swept variable (named after it); --no-plots
// draws none.
TEST(Plots, SweepWritesPsi2AndRestitutionPngs) {
  const fs::path dir = scratch("sweep");
  const Invocation psi1 =
      run("sweep " + kCases + "sphere-lai-psi2.json --psi1 0:8:9 -o " + (dir / "psi1").string());
  ASSERT_EQ(psi1.status, 0) << psi1.output;
  if (!matplotlib_available()) {
    EXPECT_NE(psi1.output.find("rebound sweep: warning: plots were not drawn: no Python with "
                               "matplotlib was found"),
              std::string::npos)
        << psi1.output;
    GTEST_SKIP() << "no python3 with matplotlib here: only the warning was checked";
  }
  EXPECT_EQ(pngs(dir / "psi1" / "plots"),
            (std::vector<std::string>{"e_vs_psi1.png", "psi2_vs_psi1.png"}));
  for (const std::string& name : pngs(dir / "psi1" / "plots"))
    expect_real_plot(dir / "psi1" / "plots" / name);
  EXPECT_NE(psi1.output.find("plots in " + (dir / "psi1").string() + "/plots/"), std::string::npos)
      << psi1.output;

  const Invocation incidence =
      run("sweep " + kCases + "sphere-lai-psi2.json --incidence 0:80:5 --quiet -o " +
          (dir / "incidence").string());
  ASSERT_EQ(incidence.status, 0) << incidence.output;
  EXPECT_EQ(pngs(dir / "incidence" / "plots"),
            (std::vector<std::string>{"e_vs_incidence_angle.png", "psi2_vs_psi1.png",
                                      "spin_vs_incidence.png", "tangential_cor_vs_incidence.png"}));
  for (const std::string& name : pngs(dir / "incidence" / "plots"))
    expect_real_plot(dir / "incidence" / "plots" / name);

  const Invocation none =
      run("sweep " + kCases + "sphere-lai-psi2.json --psi1 0:8:9 --no-plots -o " +
          (dir / "none").string());
  ASSERT_EQ(none.status, 0) << none.output;
  EXPECT_TRUE(fs::exists(dir / "none" / "sweep.csv"));
  EXPECT_FALSE(fs::exists(dir / "none" / "plots"));
}

// sweep --samples (a random restitution table, Michalczyk 2008 sec. 4): histograms instead of the
// curves of a swept variable.
TEST(Plots, SweepSamplesDrawsHistograms) {
  const fs::path dir = scratch("samples");
  const Invocation r =
      run("sweep " + kCases + "sphere-random-restitution.json --samples 200 -q -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.output;
  if (!matplotlib_available()) GTEST_SKIP() << "no python3 with matplotlib here";
  EXPECT_EQ(pngs(dir / "plots"),
            (std::vector<std::string>{"e_newton_histogram.png", "psi2_histogram.png",
                                      "restitution_histogram.png"}));
  for (const std::string& name : pngs(dir / "plots")) expect_real_plot(dir / "plots" / name);
}

// --models: the same four plots of an incidence sweep with one curve per model (more lines, so
// more ink than one model's: the curves are drawn, not only the axes).
TEST(Plots, SweepOverSeveralModelsDrawsOneCurvePerModel) {
  if (!matplotlib_available()) GTEST_SKIP() << "no python3 with matplotlib here";
  const fs::path dir = scratch("sweep-models");
  for (const std::string& models : {std::string("lai"), std::string("lai,mdr,halfspace-beta0")}) {
    const Invocation r =
        run("sweep " + kCases + "chung-ooi-test4.json --incidence 5:80:6 --quiet " + "--models " +
            models + " -o " + (dir / models).string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(
        pngs(dir / models / "plots"),
        (std::vector<std::string>{"e_vs_incidence_angle.png", "psi2_vs_psi1.png",
                                  "spin_vs_incidence.png", "tangential_cor_vs_incidence.png"}));
  }
  for (const char* name :
       {"psi2_vs_psi1.png", "spin_vs_incidence.png", "tangential_cor_vs_incidence.png"}) {
    SCOPED_TRACE(name);
    expect_real_plot(dir / "lai,mdr,halfspace-beta0" / "plots" / name);
    EXPECT_GT(fs::file_size(dir / "lai,mdr,halfspace-beta0" / "plots" / name),
              fs::file_size(dir / "lai" / "plots" / name));
  }
}

// $REBOUND_PYTHON is tried first; one that cannot draw (no matplotlib, or no such file) is named
// in a warning and the next interpreter draws the plots.
TEST(Plots, ReboundPythonWithoutMatplotlibFallsBackWithAWarning) {
  if (!matplotlib_available()) GTEST_SKIP() << "no python3 with matplotlib here";
  const fs::path dir = scratch("fallback");
  const fs::path fake = dir / "python-without-matplotlib";
  std::ofstream(fake) << "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'matplotlib'\" "
                         ">&2\nexit 3\n";
  fs::permissions(fake, fs::perms::owner_all);
  const Invocation r =
      rebound::test::shell("REBOUND_PYTHON='" + fake.string() + "' " + REBOUND_BINARY + " lumped " +
                           kCases + "sphere-lai-psi2.json --quiet -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("warning: $REBOUND_PYTHON=" + fake.string() +
                          " cannot draw the plots (ModuleNotFoundError: No module named "
                          "'matplotlib'); they were drawn by "),
            std::string::npos)
      << r.output;
  EXPECT_EQ(pngs(dir / "lumped" / "plots").size(), 3u);

  const Invocation missing = rebound::test::shell(
      "REBOUND_PYTHON=/nonexistent/python3 " + std::string(REBOUND_BINARY) + " lumped " + kCases +
      "sphere-lai-psi2.json --quiet -o " + (dir / "missing").string());
  ASSERT_EQ(missing.status, 0) << missing.output;
  EXPECT_NE(missing.output.find("$REBOUND_PYTHON=/nonexistent/python3 cannot draw the plots (not "
                                "found)"),
            std::string::npos)
      << missing.output;
}
