// The rebound command line, run as a user runs it: exit status, messages, files written.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "../cases/fuzz_corpus.h"
#include "shell.h"

namespace fs = std::filesystem;

namespace {

using rebound::test::Invocation;
const auto run = rebound::test::rebound;

fs::path scratch(const std::string& name) {
  return rebound::test::scratch_directory("rebound-test", name);
}

std::string write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

const std::string kCases = REBOUND_SOURCE_DIR "/cases/";

std::string valid_text() {
  std::ifstream in(kCases + "sphere-lai-psi2.json");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(Cli, HelpAndVersion) {
  const Invocation help = run("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("check"), std::string::npos);
  EXPECT_NE(help.output.find("lumped"), std::string::npos);
  // Every listed command answers --help with exit 0 (nothing is listed that does not work).
  for (const char* command : {"check", "lumped", "sweep", "mesh", "fem", "pair"})
    if (help.output.find(std::string("  ") + command + " ") != std::string::npos) {
      EXPECT_EQ(run(std::string(command) + " --help").status, 0) << command;
    }
  EXPECT_EQ(run("--version").status, 0);
  EXPECT_EQ(run("").status, 2);
  EXPECT_EQ(run("frobnicate").status, 2);
  EXPECT_EQ(run("check --help").status, 0);
  EXPECT_EQ(run("lumped --help").status, 0);
  EXPECT_EQ(run("sweep --help").status, 0);
}

TEST(Cli, CheckAcceptsEveryShippedCase) {
  const Invocation r = run("check " + kCases + "*.json");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("case.schema.json is a JSON Schema, not a case: skipped"),
            std::string::npos)
      << r.output;
  const Invocation json = run("check --json " + kCases + "hertz-steel-sphere.json");
  ASSERT_EQ(json.status, 0);
  const auto parsed = nlohmann::json::parse(json.output);
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_NEAR(parsed[0]["lambda"].get<double>(), 5.0 / 9.0, 1e-12);
  EXPECT_TRUE(parsed[0].at("fem_target_refusal").is_null()) << json.output;
  // A half-space without its density: the lumped models' only, and --json says why not the FEM's
  // with the key rebound fem would name.
  const fs::path dir = scratch("no-density");
  std::ifstream in(kCases + "sphere-halfspace-steel.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  // Remove ", "density": 7850" from the target's material.
  const auto at = text.find("\"density\"", text.find("\"target\""));
  ASSERT_NE(at, std::string::npos);
  const auto comma = text.rfind(',', at);
  text.erase(comma, text.find_first_of(",}\n", at) - comma);
  std::ofstream(dir / "case.json") << text;
  const Invocation refused = run("check --json " + (dir / "case.json").string());
  ASSERT_EQ(refused.status, 0) << refused.output << text;
  const auto entry = nlohmann::json::parse(refused.output)[0];
  EXPECT_EQ(entry.at("fem_target_refusal").at("key"), "target.material.density") << refused.output;
}

// Each class of bad input: exit 2 and a message naming the file and the key.
TEST(Cli, CheckRejectsBadInputWithExit2) {
  const fs::path dir = scratch("bad");
  struct Bad {
    std::string from, to, key;
  };
  const std::vector<Bad> bad = {
      {"\"poisson_ratio\": 0.3", "\"poisson_ratio\": 0.7", "material.poisson_ratio"},
      {"\"young_modulus\": 70000000000.0", "\"young_modulus\": -1", "material.young_modulus"},
      {"\"density\": 2700", "\"density\": 0", "material.density"},
      {"\"friction\": 0.1", "\"friction\": -0.1", "contact.friction"},
      {"\"theta\": 0.0", "\"theta\": 0.3", "impact.theta"},
      {"\"psi1\": 2.0", "\"psi1\": 2.0, \"tangential_speed\": 1", "impact"},
      {"\"density\": 2700", "\"densty\": 2700", "material.densty"},
      {"\"radius\": 0.05", "\"radius\": \"big\"", "body.radius"},
      {"\"psi1\": 2.0", "\"psi1\": 1e999", "impact.psi1"},
  };
  for (const Bad& b : bad) {
    std::string text = valid_text();
    const auto at = text.find(b.from);
    ASSERT_NE(at, std::string::npos) << b.from;
    text.replace(at, b.from.size(), b.to);
    const std::string path = write(dir / "case.json", text);
    const Invocation r = run("check " + path);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(path), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(b.key), std::string::npos) << b.key << ": " << r.output;
  }
  EXPECT_EQ(run("check /nonexistent.json").status, 2);
  EXPECT_EQ(run("check").status, 2);
  EXPECT_EQ(run("check --bogus " + kCases + "hertz-steel-sphere.json").status, 2);
}

// check prints the physical warnings the solvers would (here: a restitution Lai's elastic model
// ignores), naming the file, on standard error and under "warnings" in --json; the case is
// still accepted (exit 0). -q keeps the warnings.
TEST(Cli, CheckPrintsThePhysicalWarnings) {
  const fs::path dir = scratch("warn");
  std::string text = valid_text();
  const std::string from = "\"lumped\": {";
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), from + "\"restitution\": 0.8, ");
  const std::string path = write(dir / "case.json", text);
  for (const char* options : {"", "-q "}) {
    const Invocation r = run(std::string("check ") + options + path);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(
        r.output.find("rebound check: warning: " + path + ": lumped.restitution = 0.8 is ignored"),
        std::string::npos)
        << r.output;
  }
  const Invocation json = run("check --json " + path);  // the warning line, then the JSON
  ASSERT_EQ(json.status, 0) << json.output;
  const auto start = json.output.find("\n[");
  ASSERT_NE(start, std::string::npos) << json.output;
  const auto parsed = nlohmann::json::parse(json.output.substr(start));
  ASSERT_EQ(parsed[0]["warnings"].size(), 1u) << json.output;
  const Invocation clean = run("check --json " + kCases + "sphere-lai-psi2.json");
  EXPECT_TRUE(nlohmann::json::parse(clean.output)[0]["warnings"].empty());
}

// Mutated files through the real binary: never a crash (signal), always exit 0 or 2, and a
// rejection always says something.
TEST(Cli, MutatedFilesNeverCrashTheBinary) {
  const fs::path dir = scratch("fuzz");
  std::mt19937 random(42);
  const std::string base = valid_text();
  for (int trial = 0; trial < 20; ++trial) {
    std::string text = base;
    for (int k = 0; k < 3; ++k) {
      const std::size_t at = random() % text.size();
      text[at] = "{}[]\":,0.-e9x"[random() % 13];
    }
    const std::string path = write(dir / "m.json", text);
    const Invocation r = run("check " + path);
    ASSERT_TRUE(r.status == 0 || r.status == 2) << r.status << "\n" << text;
    if (r.status == 2) {
      EXPECT_NE(r.output.find("error"), std::string::npos);
    }
  }
}

// rebound lumped on every shipped case writes the documented files, keys and columns.
TEST(Cli, LumpedWritesDocumentedOutputs) {
  const fs::path dir = scratch("lumped");
  const std::vector<std::string> keys = {"case",
                                         "solver",
                                         "psi1",
                                         "psi2",
                                         "incidence_angle",
                                         "rebound_angle",
                                         "e_newton",
                                         "e_poisson",
                                         "e_stronge",
                                         "tangential_cor",
                                         "center_velocity_final",
                                         "spin_final",
                                         "normal_impulse",
                                         "tangential_impulse",
                                         "contact_duration",
                                         "peak_normal_force",
                                         "kinetic_energy_loss",
                                         "kinetic_energy_loss_fraction",
                                         "lambda",
                                         "theta",
                                         "stick_slip_phases"};
  const std::string header =
      "time_s,normal_force_N,tangential_force_N,normal_impulse_N_s,tangential_impulse_N_s,"
      "normal_velocity_m_per_s,tangential_velocity_m_per_s,normal_displacement_m,"
      "tangential_displacement_m,kinetic_energy_J,tangential_spring_extension_m,mode,"
      "dissipation_J,gamma_t,gamma_n,delta_t,delta_n,epsilon,tau,center_velocity_t_m_per_s,"
      "center_velocity_n_m_per_s,spin_rad_per_s,stick_fraction";
  for (const auto& entry : fs::directory_iterator(kCases)) {
    if (entry.path().extension() != ".json" || entry.path().filename() == "case.schema.json")
      continue;
    const fs::path out = dir / entry.path().stem();
    const Invocation r =
        run("lumped " + entry.path().string() + " -o " + out.string() + " --quiet --no-plots");
    if (entry.path().stem() == "sphere-plate-steel") {  // no lumped model has a plate's flexure
      EXPECT_EQ(r.status, 2) << r.output;
      EXPECT_NE(r.output.find("target.type is \"elastic_plate\""), std::string::npos) << r.output;
      EXPECT_FALSE(fs::exists(out / "lumped" / "summary.json"));
      continue;
    }
    ASSERT_EQ(r.status, 0) << entry.path() << "\n" << r.output;
    std::ifstream summary_file(out / "lumped" / "summary.json");
    const auto summary = nlohmann::json::parse(summary_file);
    for (const auto& key : keys)
      EXPECT_TRUE(summary.contains(key)) << key << " in " << entry.path();
    std::ifstream history(out / "lumped" / "history.csv");
    std::string first;
    std::getline(history, first);
    EXPECT_EQ(first.rfind(header, 0), 0u) << first;
    int rows = 0;
    for (std::string line; std::getline(history, line);) ++rows;
    EXPECT_GE(rows, 200) << entry.path();
    EXPECT_TRUE(fs::exists(out / "lumped" / "rigid_body.pvd"));
    EXPECT_TRUE(fs::exists(out / "lumped" / "rigid_body_0000.vtp"));
  }
}

TEST(Cli, LumpedAndSweepRejectBadOptions) {
  const fs::path dir = scratch("options");
  std::string text = valid_text();
  text.replace(text.find("\"model\": \"lai\""), 14, "\"model\": \"newtn\"");
  const Invocation bad_model = run("lumped " + write(dir / "m.json", text));
  EXPECT_EQ(bad_model.status, 2);
  EXPECT_NE(bad_model.output.find("lumped.model"), std::string::npos) << bad_model.output;
  EXPECT_NE(bad_model.output.find("did you mean \"newton\""), std::string::npos)
      << bad_model.output;
  EXPECT_EQ(run("lumped " + kCases + "sphere-lai-psi2.json --frames").status, 2);
  EXPECT_EQ(run("sweep " + kCases + "sphere-lai-psi2.json").status, 2);
  EXPECT_EQ(run("sweep " + kCases + "sphere-lai-psi2.json --psi1 0:8").status, 2);
  EXPECT_EQ(run("sweep " + kCases + "sphere-lai-psi2.json --psi1 -1:8:5").status, 2);
  EXPECT_EQ(run("sweep " + kCases + "hertz-steel-sphere.json --psi1 0:8:5").status, 2);
}

// rebound sweep writes one row per point; at mu = 0.1 the Psi1 = 7 point is in gross slip and
// lies on the line Psi2 = Psi1 - 4 chi.
TEST(Cli, SweepWritesOneRowPerPoint) {
  const fs::path dir = scratch("sweep");
  const Invocation r =
      run("sweep " + kCases + "sphere-lai-psi2.json --psi1 0:8:17 --threads 2 --no-plots -o " +
          dir.string());
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream csv(dir / "sweep.csv");
  std::string header, line, last;
  std::getline(csv, header);
  EXPECT_EQ(header,
            "sweep_psi1,psi1,psi2,incidence_angle_rad,rebound_angle_rad,e_newton,e_poisson,"
            "e_stronge,tangential_cor,spin_final_rad_per_s,normal_impulse_N_s,"
            "tangential_impulse_N_s,contact_duration_s,peak_normal_force_N,kinetic_energy_loss_J,"
            "kinetic_energy_loss_fraction,lambda,theta_rad,phases,error,model");
  int rows = 0;
  while (std::getline(csv, line)) ++rows, last = line;
  EXPECT_EQ(rows, 17);
  std::stringstream cells(last);
  std::string swept, psi1, psi2;
  std::getline(cells, swept, ',');
  std::getline(cells, psi1, ',');
  std::getline(cells, psi2, ',');
  const double chi = 0.7 * (1 + 5.0 / 9.0) / (1.7 * (1 - 5.0 / 9.0));
  EXPECT_NEAR(std::stod(psi1), 8.0, 1e-8);
  EXPECT_NEAR(std::stod(psi2), 8.0 - 4 * chi, 1e-6);
}

// The lumped ParaView frames read back with VTK's XML reader: a closed surface plus the vertex P,
// the contact force at P equal to the history's force at that frame's time (the last frame is at
// separation: zero force), and the rigid velocity field.
TEST(Cli, LumpedFramesOpenInVtk) {
  const fs::path dir = scratch("vtk");
  ASSERT_EQ(
      run("lumped " + kCases + "sphere-lai-psi2.json --quiet --no-plots -o " + dir.string()).status,
      0);
  std::ifstream pvd(dir / "lumped" / "rigid_body.pvd");
  std::stringstream text;
  text << pvd.rdbuf();
  int frames = 0;
  for (std::size_t at = text.str().find("<DataSet"); at != std::string::npos;
       at = text.str().find("<DataSet", at + 1))
    ++frames;
  EXPECT_EQ(frames, 40);
  double peak = 0;
  for (int frame = 0; frame < frames; ++frame) {
    char name[64];
    std::snprintf(name, sizeof name, "rigid_body_%04d.vtp", frame);
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / "lumped" / name).string().c_str());
    reader->Update();
    vtkPolyData* body = reader->GetOutput();
    ASSERT_GT(body->GetNumberOfPoints(), 100) << name;
    ASSERT_GT(body->GetNumberOfPolys(), 100) << name;
    vtkDataArray* force = body->GetPointData()->GetArray("contact_force");
    ASSERT_NE(force, nullptr);
    ASSERT_NE(body->GetPointData()->GetArray("velocity"), nullptr);
    double range[2];
    force->GetRange(range, 1);
    peak = std::max(peak, range[1]);
    if (frame == frames - 1) {
      EXPECT_NEAR(range[1], 0.0, 1e-6 * peak);
    }
  }
  // The peak over 40 evenly spaced frames is within a few per cent of the solution's peak.
  std::ifstream summary_file(dir / "lumped" / "summary.json");
  const auto summary = nlohmann::json::parse(summary_file);
  EXPECT_NEAR(peak / summary["peak_normal_force"].get<double>(), 1.0, 0.02);
}

// rebound --version names the version and the commit the binary was built from.
TEST(Cli, VersionNamesTheCommit) {
  const Invocation r = run("--version");
  ASSERT_EQ(r.status, 0);
  const std::string prefix = "rebound ";
  ASSERT_EQ(r.output.rfind(prefix, 0), 0u) << r.output;
  const auto open = r.output.find(" (commit ");
  ASSERT_NE(open, std::string::npos) << r.output;
  const std::string commit = r.output.substr(open + 9, r.output.find(')') - open - 9);
  if (commit == "unknown") GTEST_SKIP() << "built outside a git checkout";
  const std::string hash = commit.substr(0, commit.find("-dirty"));
  EXPECT_EQ(hash.size(), 12u) << commit;
  EXPECT_EQ(hash.find_first_not_of("0123456789abcdef"), std::string::npos) << commit;
  // A commit of this repository.
  EXPECT_EQ(rebound::test::shell("git -C " REBOUND_SOURCE_DIR " cat-file -e " + hash + "^{commit}")
                .status,
            0)
      << commit;
}

TEST(Cli, MisspeltCommandsAndOptionsGetASuggestion) {
  const Invocation command = run("chekc " + kCases + "hertz-steel-sphere.json");
  EXPECT_EQ(command.status, 2);
  EXPECT_NE(command.output.find("did you mean 'check'"), std::string::npos) << command.output;
  const Invocation option = run("lumped " + kCases + "hertz-steel-sphere.json --outptu x");
  EXPECT_EQ(option.status, 2);
  EXPECT_NE(option.output.find("did you mean \"--output\""), std::string::npos) << option.output;
  EXPECT_EQ(run("lumped " + kCases + "hertz-steel-sphere.json --quiet=1").status, 2);
}

// -o DIR, -o=DIR, --output DIR and --output=DIR are the same option.
TEST(Cli, OutputOptionSpellings) {
  const fs::path dir = scratch("output");
  int index = 0;
  for (const std::string spelling : {"-o ", "-o=", "--output ", "--output="}) {
    const fs::path out = dir / std::to_string(index++);
    const Invocation r = run("lumped " + kCases + "hertz-steel-sphere.json --quiet --no-plots " +
                             spelling + out.string());
    ASSERT_EQ(r.status, 0) << spelling << ": " << r.output;
    EXPECT_TRUE(fs::exists(out / "lumped" / "summary.json")) << spelling;
  }
  const fs::path sweep = dir / "sweep";
  ASSERT_EQ(run("sweep " + kCases +
                "sphere-lai-psi2.json --psi1 0:1:2 --threads=1 --quiet --no-plots "
                "--output=" +
                sweep.string())
                .status,
            0);
  EXPECT_TRUE(fs::exists(sweep / "sweep.csv"));
}

// --incidence takes degrees (the screen shows them); sweep.csv keeps radians.
TEST(Cli, SweepIncidenceInDegrees) {
  const fs::path dir = scratch("incidence");
  const Invocation r = run("sweep " + kCases + "sphere-lai-psi2.json --incidence 0:60:3 -o " +
                           dir.string() + " --threads 1 --no-plots");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("incidence (deg)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("from 0 to 60 degrees"), std::string::npos) << r.output;
  std::ifstream csv(dir / "sweep.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("sweep_incidence_angle_rad,psi1,psi2,incidence_angle_rad,", 0), 0u) << line;
  std::vector<double> swept;
  while (std::getline(csv, line)) swept.push_back(std::stod(line.substr(0, line.find(','))));
  ASSERT_EQ(swept.size(), 3u);
  EXPECT_NEAR(swept[1], M_PI / 6, 1e-9);
  EXPECT_NEAR(swept[2], M_PI / 3, 1e-9);
  const Invocation radians = run("sweep " + kCases + "sphere-lai-psi2.json --incidence 0:90:3");
  EXPECT_EQ(radians.status, 2);
  EXPECT_NE(radians.output.find("degrees in [0, 90)"), std::string::npos) << radians.output;
  EXPECT_NE(run("sweep --help").output.find("DEGREES"), std::string::npos);
}

// --models: one block of rows per model in sweep.csv (model in the last column), the table and
// --json name the model; an unknown name is a usage error (exit 2) listing the known models.
TEST(Cli, SweepModelsWritesOneBlockPerModel) {
  const fs::path dir = scratch("models");
  const Invocation r = run("sweep " + kCases +
                           "chung-ooi-test4.json --incidence 5:60:3 --models lai,halfspace-beta0 "
                           "--threads 2 --no-plots -o " +
                           dir.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("models lai,halfspace-beta0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" model halfspace-beta0\n"), std::string::npos) << r.output;
  std::ifstream csv(dir / "sweep.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line.substr(line.rfind(',') + 1), "model") << line;
  std::vector<std::string> models;
  while (std::getline(csv, line)) models.push_back(line.substr(line.rfind(',') + 1));
  EXPECT_EQ(models, (std::vector<std::string>{"lai", "lai", "lai", "halfspace-beta0",
                                              "halfspace-beta0", "halfspace-beta0"}));
  const Invocation json = run("sweep " + kCases +
                              "chung-ooi-test4.json --incidence 5:60:2 --models mdr,lai --json "
                              "--no-plots -o " +
                              (dir / "json").string());
  ASSERT_EQ(json.status, 0) << json.output;
  const auto document = nlohmann::json::parse(json.output);
  EXPECT_EQ(document["models"], (nlohmann::json{"mdr", "lai"}));
  ASSERT_EQ(document["points"].size(), 4u);
  EXPECT_EQ(document["points"][0]["model"], "mdr");
  EXPECT_EQ(document["points"][3]["model"], "lai");

  const Invocation bad =
      run("sweep " + kCases + "chung-ooi-test4.json --incidence 5:60:3 --models lai,lia");
  EXPECT_EQ(bad.status, 2);
  for (const char* expected : {"--models", "'lia'", "halfspace-beta0", "uncoupled-euler"})
    EXPECT_NE(bad.output.find(expected), std::string::npos) << expected << "\n" << bad.output;
  // A model the case cannot take is a case error naming the key (exit 2).
  const Invocation newton =
      run("sweep " + kCases + "chung-ooi-test4.json --incidence 5:60:3 --models newton");
  EXPECT_EQ(newton.status, 2);
  EXPECT_NE(newton.output.find("lumped.restitution"), std::string::npos) << newton.output;
  EXPECT_NE(run("sweep --help").output.find("halfspace-beta0"), std::string::npos);
}

// The FEM meshes a half-space as a block, whose mass it needs: every FEM command refuses Kharaz's
// glass anvil without its density up front (exit 2, as other case errors), naming the file,
// target.material.density and what it expected; nothing runs.
TEST(Cli, FemCommandsRefuseAHalfspaceWithoutDensity) {
  const fs::path dir = scratch("elastic-target");
  nlohmann::json document = nlohmann::json::parse(std::ifstream(kCases + "kharaz-2001-glass.json"));
  document["target"]["material"].erase("density");
  const std::string file = (dir / "glass.json").string();
  std::ofstream(file) << document.dump(2);
  for (const std::string& command :
       {"fem " + file, "pair " + file, "refine " + file + " --levels 0..0", "mesh " + file,
        "sweep " + file + " --incidence 5:60:3 --fem 1"}) {
    SCOPED_TRACE(command);
    const Invocation r = run(command + " -o " + dir.string());
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(file + ": target.material.density is missing"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("expected the half-space's density"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(fs::exists(dir / "fem"));
  EXPECT_EQ(run("check " + file).status, 0);
}

// rebound init writes a commented case that check accepts, for every shape; it does not
// overwrite a file without --force; the name defaults to the file's.
TEST(Cli, InitWritesACheckedCase) {
  const fs::path dir = scratch("init");
  for (const char* shape : {"sphere", "capsule", "disc", "shell", "hoop", "custom"}) {
    const fs::path file = dir / (std::string("new-") + shape + ".json");
    const Invocation init = run(std::string("init --shape ") + shape + " -o " + file.string());
    ASSERT_EQ(init.status, 0) << init.output;
    const Invocation check = run("check --json " + file.string());
    ASSERT_EQ(check.status, 0) << check.output;
    const auto parsed = nlohmann::json::parse(check.output);
    EXPECT_EQ(parsed[0]["case"], std::string("new-") + shape);
    EXPECT_EQ(parsed[0]["shape"], shape);
  }
  const Invocation again = run("init -o " + (dir / "new-sphere.json").string());
  EXPECT_EQ(again.status, 2);
  EXPECT_NE(again.output.find("not overwritten"), std::string::npos) << again.output;
  EXPECT_EQ(run("init --force -o " + (dir / "new-sphere.json").string()).status, 0);
  const Invocation printed = run("init --shape capsule my-rod");
  ASSERT_EQ(printed.status, 0);
  EXPECT_NE(printed.output.find("\"name\": \"my-rod\""), std::string::npos);
  EXPECT_NE(printed.output.find("\"theta_deg\""), std::string::npos);
  const Invocation bad_shape = run("init --shape spere");
  EXPECT_EQ(bad_shape.status, 2);
  EXPECT_NE(bad_shape.output.find("did you mean \"sphere\""), std::string::npos);
  const Invocation bad_name = run("init 'Bad Name'");
  EXPECT_EQ(bad_name.status, 2);
  EXPECT_NE(bad_name.output.find("name is \"Bad Name\""), std::string::npos) << bad_name.output;
}

// check lists every problem of a file, one "error:" line each with the file and the key.
TEST(Cli, CheckReportsEveryProblem) {
  const fs::path dir = scratch("every");
  std::string text = valid_text();
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"poisson_ratio\": 0.3", "\"poisson_ratio\": 0.7"},
           {"\"friction\": 0.1", "\"friction\": -0.1"},
           {"\"model\": \"lai\"", "\"model\": \"lia\""}})
    text.replace(text.find(from), from.size(), to);
  const std::string path = write(dir / "three.json", "// three problems\n" + text);
  const Invocation r = run("check " + path);
  EXPECT_EQ(r.status, 2);
  for (const char* key : {"material.poisson_ratio", "contact.friction", "lumped.model"})
    EXPECT_NE(r.output.find("rebound check: error: " + path + ": " + key + " "), std::string::npos)
        << key << "\n"
        << r.output;
}

// Inputs that crashed or hung check: exit 2 naming the file and the key (never a signal, never a
// hang: each run is bounded by `timeout`).
TEST(Cli, CheckRejectsHostileInputs) {
  const fs::path dir = scratch("hostile");
  std::string long_name = valid_text();
  long_name.replace(long_name.find("\"sphere-lai-psi2\""), 17,
                    "\"" + std::string(30000, 'a') + "\"");
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string rod;
  {
    std::ifstream in(kCases + "rod-lai-a.json");
    std::stringstream s;
    s << in.rdbuf();
    rod = s.str();
    rod.replace(rod.find("\"radius\": 0.01"), 14, "\"radius\": 0.1");
  }
  std::string fast = valid_text();
  fast.replace(fast.find("\"normal_speed\": 0.5"), 19, "\"normal_speed\": 2000");
  const fs::path fifo = dir / "fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {write(dir / "long-name.json", long_name), "name"},
      {write(dir / "deep.json", deep), "<document>"},
      {write(dir / "rod.json", rod), "impact.theta"},
      {write(dir / "fast.json", fast), "impact.normal_speed"},
      {fifo.string(), "<file>"},
      {dir.string(), "<file>"},
      {(dir / "missing.json").string(), "<file>"},
  };
  for (const auto& [path, key] : inputs) {
    const Invocation r = rebound::test::shell("timeout 20 " REBOUND_BINARY " check " + path);
    EXPECT_EQ(r.status, 2) << path << "\n" << r.output.substr(0, 500);
    EXPECT_NE(r.output.find("error: " + path + ": " + key + " "), std::string::npos)
        << r.output.substr(0, 500);
  }
  // A file its user cannot read (as root: run check as the unprivileged user "nobody").
  const std::string locked = write(dir / "locked.json", valid_text());
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_write);
  fs::permissions(dir, fs::perms::all);
  fs::permissions(dir.parent_path(), fs::perms::all);
  const std::string as_user =
      ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  if (!as_user.empty() && rebound::test::shell(as_user + "true").status != 0)
    GTEST_SKIP() << "cannot drop root privileges here";
  if (as_user.empty()) fs::permissions(locked, fs::perms::none);
  const Invocation denied = rebound::test::shell(as_user + REBOUND_BINARY " check " + locked);
  EXPECT_EQ(denied.status, 2) << denied.output;
  EXPECT_NE(denied.output.find(locked + ": <file> cannot be opened: Permission denied"),
            std::string::npos)
      << denied.output;
}

// The fuzz corpus of tests/cases/test_fuzz.cpp through the binary, a sample of 300: never a
// crash or a hang (exit 0 or 2 only, each run bounded by `timeout`), and every rejection is a
// line "rebound check: error: FILE: KEY ..." per problem.
TEST(Cli, FuzzCorpusThroughCheck) {
  const fs::path dir = scratch("fuzz-corpus");
  const auto corpus = rebound::test::fuzz_corpus(kCases, 3000);
  int accepted = 0, rejected = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < corpus.size(); i += 10) {
    const std::string path = write(dir / ("input-" + std::to_string(i) + ".json"), corpus[i].text);
    const Invocation r = rebound::test::shell("timeout 20 " REBOUND_BINARY " check " + path);
    ASSERT_TRUE(r.status == 0 || r.status == 2)
        << "exit " << r.status << " for input " << i << " (" << corpus[i].kind << ")\n"
        << r.output.substr(0, 1000);
    if (r.status == 0) {
      ++accepted;
      EXPECT_NE(r.output.find(" OK\n"), std::string::npos) << r.output.substr(0, 500);
      continue;
    }
    ++rejected;
    std::stringstream lines(r.output);
    int errors = 0;
    for (std::string line; std::getline(lines, line);) {
      const std::string prefix = "rebound check: error: " + path + ": ";
      ASSERT_EQ(line.rfind(prefix, 0), 0u) << "input " << i << ": " << line.substr(0, 300);
      // A key follows: a word without spaces.
      const std::string rest = line.substr(prefix.size());
      ASSERT_GT(rest.find(' '), 0u) << line.substr(0, 300);
      ASSERT_NE(rest.find(' '), std::string::npos) << line.substr(0, 300);
      ++errors;
    }
    EXPECT_GE(errors, 1) << "input " << i;
    fs::remove(path);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("rebound check on %d fuzz inputs: %d accepted, %d rejected, %.1f s\n",
              accepted + rejected, accepted, rejected, seconds);
  EXPECT_GT(accepted, 10);
  EXPECT_GT(rejected, 150);
}

// sweep owns its files in DIR (docs/USAGE.md, "Failure behaviour"): its earlier plots are
// removed, the files of pair or refine in the same folder and their manifest are not,
// manifest-sweep.json lists sweep.csv; a second sweep while the first holds .rebound-sweep.lock
// is refused (exit 1).
TEST(Cli, SweepOwnsItsFilesInASharedFolder) {
  const fs::path dir = scratch("sweep-folder");
  fs::create_directories(dir / "plots");
  for (const char* name :
       {"plots/spin_vs_incidence.png", "plots/normal_force.png", "manifest.json", "notes.txt"})
    std::ofstream(dir / name) << "earlier\n";
  const std::string sweep = "sweep " + kCases + "sphere-lai-psi2.json --psi1 0:8:5 -q --no-plots";
  const Invocation r = run(sweep + " -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(fs::exists(dir / "plots/spin_vs_incidence.png"));  // sweep's own, stale
  for (const char* name : {"plots/normal_force.png", "manifest.json", "notes.txt"})
    EXPECT_TRUE(fs::exists(dir / name)) << name;
  nlohmann::json manifest;
  std::ifstream(dir / "manifest-sweep.json") >> manifest;
  EXPECT_EQ(manifest["status"], "completed");
  ASSERT_EQ(manifest["files"].size(), 1u) << manifest.dump();
  EXPECT_EQ(manifest["files"][0]["name"], "sweep.csv");
  // The lock held by another process (flock(1) on the same file): refused, naming the folder.
  const Invocation busy =
      rebound::test::shell("flock " + (dir / ".rebound-sweep.lock").string() +
                           " " REBOUND_BINARY " " + sweep + " -o " + dir.string());
  EXPECT_EQ(busy.status, 1) << busy.output;
  EXPECT_NE(busy.output.find("is being written by another rebound run"), std::string::npos)
      << busy.output;
}

// SIGTERM (as Ctrl-C) during a lumped sweep: no new point, nothing written, exit 130, and
// manifest-sweep.json says "interrupted". Two million points take tens of seconds here (about
// 20 us each on 2 threads), so the signal after one second arrives mid-sweep.
namespace {

// Runs `rebound ARGUMENTS` in the background, sends it SIGTERM after `seconds` and waits: its
// output (standard error included) ends with "exit STATUS".
Invocation run_and_terminate(const std::string& arguments, int seconds) {
  return rebound::test::shell("exec 2>&1; " REBOUND_BINARY " " + arguments + " & pid=$!; sleep " +
                              std::to_string(seconds) +
                              "; kill -TERM $pid; wait $pid; echo \"exit $?\"");
}

// A half-space case that takes over ten minutes (128 cells, 4000 steps per Hertz duration).
std::string slow_halfspace_case(const fs::path& dir) {
  return write(dir / "slow.json", R"({"name": "slow", "body": {"shape": "sphere", "radius": 0.05},
  "material": {"young_modulus": 7e10, "poisson_ratio": 0.3, "density": 2700},
  "contact": {"friction": 0.1}, "impact": {"normal_speed": 0.5, "psi1": 2},
  "lumped": {"model": "halfspace", "cells": 128, "time_steps": 4000}})");
}

}  // namespace

TEST(Cli, InterruptedSweepExits130AndWritesNothing) {
  const fs::path dir = scratch("sweep-interrupted");
  const Invocation r = run_and_terminate(
      "sweep " + kCases + "sphere-lai-psi2.json --psi1 0:8:2000000 -q --no-plots -o " +
          dir.string(),
      1);
  EXPECT_NE(r.output.find("exit 130"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rebound sweep: interrupted after"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "sweep.csv"));
  nlohmann::json manifest;
  std::ifstream(dir / "manifest-sweep.json") >> manifest;
  EXPECT_EQ(manifest["status"], "interrupted");
}

// On slow_halfspace_case, after 2 s `rebound lumped` shows a progress line (killed at 5 s), SIGTERM
// ends the solve inside its time loop (exit 130, how far it got, no summary.json, the manifest
// "interrupted"); `rebound sweep` of one such point ends it too (without the check inside the solve
// both would run to their end).
TEST(Cli, InterruptedHalfSpaceSolveStopsInsideItsTimeLoop) {
  const fs::path dir = scratch("lumped-interrupted");
  const Invocation r =
      run_and_terminate("lumped " + slow_halfspace_case(dir) + " --no-plots -o " + dir.string(), 5);
  EXPECT_NE(r.output.find("exit 130"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("halfspace: contact time"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rebound lumped: interrupted at"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("% of Hertz's contact duration"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "lumped" / "summary.json"));
  nlohmann::json manifest;
  std::ifstream(dir / "lumped" / "manifest.json") >> manifest;
  EXPECT_EQ(manifest["status"], "interrupted");
}

TEST(Cli, InterruptedSweepEndsTheHalfSpacePointBeingSolved) {
  const fs::path dir = scratch("sweep-halfspace-interrupted");
  const Invocation r = run_and_terminate(
      "sweep " + slow_halfspace_case(dir) + " --psi1 2:2:1 -q --no-plots -o " + dir.string(), 2);
  EXPECT_NE(r.output.find("exit 130"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("interrupted after 0 of 1 lumped points"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "sweep.csv"));
}

// init -o DIR where DIR is a directory: bad input (exit 2) naming it, also with --force.
TEST(Cli, InitIntoADirectoryIsBadInput) {
  const fs::path dir = scratch("init-dir");
  fs::create_directories(dir);
  const Invocation r = run("init --force -o " + dir.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(dir.string() + " is a directory"), std::string::npos) << r.output;
}

// rebound sweep --samples N: the Monte Carlo of a random restitution table (Michalczyk 2008,
// sec. 4): one row per sample with its drawn R in sweep.csv, the percentiles on screen, the same
// rows whatever the threads, --seed changing them; refused (exit 2) for a case without a random
// table and for a bad seed. rebound check --json shows Phi and m_w.
TEST(Cli, SweepSamplesDrawsTheRandomRestitution) {
  const std::string path = kCases + "sphere-random-restitution.json";
  const fs::path one = scratch("samples-1"), two = scratch("samples-2"),
                 other = scratch("samples-3");
  const Invocation r =
      run("sweep " + path + " --samples 300 --threads 1 --no-plots -o " + one.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("300 samples of the random restitution (seed 2008"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("restitution R (drawn)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("p95"), std::string::npos) << r.output;
  ASSERT_EQ(
      run("sweep " + path + " --samples 300 --threads 2 --no-plots -q -o " + two.string()).status,
      0);
  ASSERT_EQ(
      run("sweep " + path + " --samples 300 --seed 1 --no-plots -q -o " + other.string()).status,
      0);
  const auto text = [](const fs::path& file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const std::string csv = text(one / "sweep.csv");
  EXPECT_EQ(csv, text(two / "sweep.csv"));
  EXPECT_NE(csv, text(other / "sweep.csv"));
  std::stringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header.substr(0, 13), "sweep_sample,");
  const std::string tail =
      ",phases,error,model,energy_flux_density_J_per_m3,restitution_mean,restitution_std,"
      "restitution";
  EXPECT_EQ(header.substr(header.size() - tail.size()), tail);
  int rows = 0;
  while (std::getline(lines, line)) {
    const double r_drawn = std::stod(line.substr(line.rfind(',') + 1));
    EXPECT_GE(r_drawn, 0.0);
    EXPECT_LE(r_drawn, 1.0);
    ++rows;
  }
  EXPECT_EQ(rows, 300);
  // Nothing to draw: a number for the restitution, a bad seed.
  const Invocation plain = run("sweep " + kCases + "sphere-lai-psi2.json --samples 10 --no-plots");
  EXPECT_EQ(plain.status, 2);
  EXPECT_NE(plain.output.find("lumped.restitution"), std::string::npos) << plain.output;
  const Invocation seed =
      run("sweep " + kCases + "sphere-lai-psi2.json --psi1 0:1:2 --seed 3 --no-plots");
  EXPECT_EQ(seed.status, 2);
  EXPECT_NE(seed.output.find("option --seed"), std::string::npos) << seed.output;
  EXPECT_EQ(run("sweep " + path + " --samples 10 --seed -3 --no-plots").status, 2);
  EXPECT_EQ(run("sweep " + path + " --samples 0 --no-plots").status, 2);
  const Invocation check = run("check --json " + path);
  ASSERT_EQ(check.status, 0) << check.output;
  const auto derived = nlohmann::json::parse(check.output.substr(check.output.find('[')));
  EXPECT_NEAR(derived[0]["energy_flux_density"].get<double>(), 16336.28, 0.01);
  EXPECT_NEAR(derived[0]["reduced_mass"].get<double>(), derived[0]["mass"].get<double>(), 1e-15);
}
