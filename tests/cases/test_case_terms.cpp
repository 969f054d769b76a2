// The case description in the user's terms (degrees, diameter, theta left out where the shape
// fixes it, comments), every problem of a file reported at once, and the limits that keep a
// hostile or absurd file from crashing or poisoning a run (name length, nesting depth, special
// files, a capsule without a contact point on its cap, extreme numbers, the FEM's bounds).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/template.h"
#include "tests/common/case_rejection.h"

using namespace rebound::cases;
using json = nlohmann::json;
using rebound::test::rejection;
namespace fs = std::filesystem;

namespace {

json sphere() {
  return json::parse(R"({
    "name": "terms",
    "body": {"shape": "sphere", "radius": 0.05},
    "material": {"young_modulus": 7e10, "poisson_ratio": 0.3, "density": 2700},
    "contact": {"friction": 0.1},
    "impact": {"theta": 0.0, "speed": 0.6, "incidence_angle": 0.5}
  })");
}

json capsule() {
  return json::parse(R"({
    "name": "rod",
    "body": {"shape": "capsule", "radius": 0.01, "length": 0.05},
    "material": {"young_modulus": 2e11, "poisson_ratio": 0.28, "density": 7800},
    "contact": {"friction": 0.5},
    "impact": {"theta": 0.27018, "normal_speed": 1.0, "tangential_speed": 1.549}
  })");
}

CaseError text_rejection(const std::string& text) {
  try {
    parse_case(text, "bad.json");
  } catch (const CaseError& error) {
    return error;
  }
  ADD_FAILURE() << "accepted: " << text.substr(0, 200);
  return CaseError("", "", "");
}

void expect_rejected(const json& document, const std::string& key, const std::string& fragment) {
  const CaseError error = rejection(document);
  EXPECT_EQ(error.key(), key) << error.what();
  const std::string message = error.what();
  EXPECT_NE(message.find("bad.json: " + key + " "), std::string::npos) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
}

CaseError file_rejection(const std::string& path) {
  try {
    load_case(path);
  } catch (const CaseError& error) {
    return error;
  }
  ADD_FAILURE() << "accepted " << path;
  return CaseError("", "", "");
}

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("rebound-terms-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void expect_same_case(const Case& a, const Case& b) {
  const auto near = [](double x, double y) { return std::abs(x - y) <= 1e-15 * std::abs(y); };
  EXPECT_TRUE(near(a.impact.theta, b.impact.theta)) << a.impact.theta << " " << b.impact.theta;
  EXPECT_TRUE(near(a.impact.normal_speed, b.impact.normal_speed));
  EXPECT_TRUE(near(a.impact.tangential_speed, b.impact.tangential_speed));
  EXPECT_EQ(a.impact.spin, b.impact.spin);
  EXPECT_EQ(a.impact.velocity_form, b.impact.velocity_form);
  EXPECT_EQ(a.body.radius, b.body.radius);
  EXPECT_EQ(a.lumped.theta.has_value(), b.lumped.theta.has_value());
  if (a.lumped.theta && b.lumped.theta) {
    EXPECT_TRUE(near(*a.lumped.theta, *b.lumped.theta));
  }
  const Derived da = derive(a), db = derive(b);
  EXPECT_TRUE(near(da.incidence_angle, db.incidence_angle));
  EXPECT_TRUE(near(da.lambda, db.lambda));
  EXPECT_TRUE(near(da.effective_mass, db.effective_mass));
}

}  // namespace

// incidence_angle_deg, theta_deg and lumped.theta_deg give the Case of the radian form.
TEST(CaseTerms, DegreesGiveTheSameCaseAsRadians) {
  json radians = sphere(), degrees = sphere();
  radians["impact"]["incidence_angle"] = 30 * (M_PI / 180);
  degrees["impact"].erase("incidence_angle");
  degrees["impact"]["incidence_angle_deg"] = 30;
  const Case a = parse_case(radians, "rad.json"), b = parse_case(degrees, "deg.json");
  expect_same_case(b, a);
  EXPECT_NEAR(derive(b).incidence_angle, M_PI / 6, 1e-15);

  json rod_radians = capsule(), rod_degrees = capsule();
  rod_radians["impact"]["theta"] = 15.5 * (M_PI / 180);
  rod_radians["lumped"] = {{"theta", -20 * (M_PI / 180)}};
  rod_degrees["impact"].erase("theta");
  rod_degrees["impact"]["theta_deg"] = 15.5;
  rod_degrees["lumped"] = {{"theta_deg", -20}};
  const Case c = parse_case(rod_radians, "rad.json"), d = parse_case(rod_degrees, "deg.json");
  expect_same_case(d, c);
  EXPECT_NEAR(*d.lumped.theta, -M_PI / 9, 1e-15);
}

TEST(CaseTerms, BothTwinsAreAnErrorNamingBoth) {
  json incidence = sphere();
  incidence["impact"]["incidence_angle_deg"] = 30;
  expect_rejected(incidence, "impact.incidence_angle", "impact.incidence_angle_deg");
  json theta = capsule();
  theta["impact"]["theta_deg"] = 15;
  expect_rejected(theta, "impact.theta", "impact.theta_deg");
  json lumped = sphere();
  lumped["lumped"] = {{"theta", 0.1}, {"theta_deg", 5}};
  expect_rejected(lumped, "lumped.theta", "lumped.theta_deg");
}

TEST(CaseTerms, RadiansThatLookLikeDegreesGetAHint) {
  json incidence = sphere();
  incidence["impact"]["incidence_angle"] = 30;
  expect_rejected(incidence, "impact.incidence_angle",
                  "[0, pi/2) rad (did you mean incidence_angle_deg?)");
  json theta = capsule();
  theta["impact"]["theta"] = 15;
  expect_rejected(theta, "impact.theta", "(did you mean theta_deg?)");
  // 120 is no angle in degrees either: no hint.
  json far = sphere();
  far["impact"]["incidence_angle"] = 120;
  const std::string message = rejection(far).what();
  EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
  json degrees = sphere();
  degrees["impact"].erase("incidence_angle");
  degrees["impact"]["incidence_angle_deg"] = 90;
  expect_rejected(degrees, "impact.incidence_angle_deg", "[0, 90) degrees");
}

// theta may be left out where the shape fixes it (0), not where it is the user's choice.
TEST(CaseTerms, ThetaOptionalWhereTheShapeFixesIt) {
  for (const auto& body : {json{{"shape", "sphere"}, {"radius", 0.05}},
                           json{{"shape", "disc"}, {"radius", 0.05}, {"thickness", 0.01}},
                           json{{"shape", "shell"}, {"radius", 0.05}, {"thickness", 0.01}},
                           json{{"shape", "hoop"}, {"radius", 0.05}, {"thickness", 0.01}},
                           json{{"shape", "custom"},
                                {"radius", 0.05},
                                {"mass", 1.0},
                                {"radius_of_gyration", 0.02},
                                {"contact_offset", 0.0}}}) {
    json d = sphere();
    d["body"] = body;
    d["impact"].erase("theta");
    const Case c = parse_case(d, "ok.json");
    EXPECT_EQ(c.impact.theta, 0.0) << body.dump();
  }
  json rod = capsule();
  rod["impact"].erase("theta");
  expect_rejected(rod, "impact.theta", "a capsule needs");
  json custom = sphere();
  custom["body"] = {{"shape", "custom"},
                    {"radius", 0.05},
                    {"mass", 1.0},
                    {"radius_of_gyration", 0.02},
                    {"contact_offset", 0.03}};
  custom["impact"].erase("theta");
  expect_rejected(custom, "impact.theta", "contact_offset > 0 needs");
  custom["impact"]["theta_deg"] = 10;
  EXPECT_NEAR(parse_case(custom, "ok.json").impact.theta, M_PI / 18, 1e-15);
}

TEST(CaseTerms, DiameterOrRadius) {
  json radius = sphere(), diameter = sphere();
  diameter["body"].erase("radius");
  diameter["body"]["diameter"] = 0.1;
  expect_same_case(parse_case(diameter, "d.json"), parse_case(radius, "r.json"));
  json both = sphere();
  both["body"]["diameter"] = 0.1;
  expect_rejected(both, "body.radius", "body.diameter are both given");
  json neither = sphere();
  neither["body"].erase("radius");
  expect_rejected(neither, "body.radius", "missing");
  json zero = diameter;
  zero["body"]["diameter"] = 0;
  expect_rejected(zero, "body.diameter", "a diameter > 0 m");
  // A hoop's wire must fit: checked against the radius that the diameter gives. The torus of the
  // mass and inertia (centre-line radius R - d/2, wire radius d/2) reaches its axis at d = R;
  // above, the formulas would count the overlapping volume twice.
  json hoop = diameter;
  hoop["body"] = {{"shape", "hoop"}, {"diameter", 0.1}, {"thickness", 0.0501}};
  hoop["impact"].erase("theta");
  expect_rejected(hoop, "body.thickness", "outer radius 0.05 m");
  hoop["body"]["thickness"] = 0.05;
  EXPECT_NO_THROW(parse_case(hoop, "hoop.json"));
}

// There is no mesh_file key; it is not offered in the list of known keys either.
TEST(CaseTerms, NoPhantomMeshFileKey) {
  json d = sphere();
  d["body"]["mesh_file"] = "body.msh";
  const CaseError error = rejection(d);
  EXPECT_EQ(error.key(), "body.mesh_file");
  EXPECT_EQ(std::string(error.what()).find("mesh_file;"), std::string::npos) << error.what();
  EXPECT_EQ(std::string(error.what()).find(", mesh_file"), std::string::npos) << error.what();
}

// A file with seven independent problems: all seven reported, one line each, with the file and
// the key; key() is the first.
TEST(CaseTerms, EveryProblemIsReported) {
  const std::string text = R"({
    "name": "Bad Name",
    "body": {"shape": "sphere", "radius": -1},
    "material": {"young_modulus": "7e10", "poisson_ratio": 0.3, "density": 2700},
    "contact": {"friction": -0.1},
    "impact": {"speed": 1, "incidence_angle": 30, "spin": "x"},
    "lumped": {"model": "laii"},
    "fem": {"cfl": 1.0}
  })";
  const CaseError error = text_rejection(text);
  const std::vector<std::string> keys = {"name",
                                         "body.radius",
                                         "material.young_modulus",
                                         "contact.friction",
                                         "impact.incidence_angle",
                                         "impact.spin",
                                         "lumped.model",
                                         "fem.cfl"};
  ASSERT_EQ(error.problems().size(), keys.size()) << error.what();
  EXPECT_EQ(error.key(), "name");
  std::stringstream lines(error.what());
  std::string line;
  for (const auto& key : keys) {
    ASSERT_TRUE(std::getline(lines, line));
    EXPECT_EQ(line.rfind("bad.json: " + key + " ", 0), 0u) << line;
  }
  EXPECT_FALSE(std::getline(lines, line)) << "one line per problem";
}

// A missing body stops the checks that need the shape, not the others; a psi1 with an unreadable
// friction is not blamed on psi1.
TEST(CaseTerms, DependentChecksAreSkippedNotCascaded) {
  json d = sphere();
  d.erase("body");
  d["impact"] = {{"theta", 0.3}, {"normal_speed", 0.5}, {"psi1", 2}};
  d["contact"]["friction"] = "high";
  d["material"]["density"] = -1;
  const CaseError error = rejection(d);
  std::vector<std::string> keys;
  for (const auto& p : error.problems()) keys.push_back(p.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"body", "material.density", "contact.friction"}))
      << error.what();
}

TEST(CaseTerms, DuplicatesAreReportedWithTheOtherProblems) {
  const CaseError error = text_rejection(
      R"({"name": "a", "name": "b", "body": {"shape": "sphere", "radius": 1, "radius": 2},
          "material": {"young_modulus": 1, "poisson_ratio": 0.3}, "contact": {"friction": 0},
          "impact": {"normal_speed": 1, "tangential_speed": 0}})");
  std::vector<std::string> keys;
  for (const auto& p : error.problems()) keys.push_back(p.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "body.radius", "material.density"}))
      << error.what();
}

TEST(CaseTerms, CommentsAreAccepted) {
  const std::string commented = R"(// A sphere, in degrees.
{
  "name": "terms", /* the output folder */
  "body": {"shape": "sphere", "diameter": 0.1},  // m
  "material": {"young_modulus": 7e10, "poisson_ratio": 0.3, "density": 2700},
  "contact": {"friction": 0.1},
  // "theta" left out: 0 for a sphere
  "impact": {"speed": 0.6, "incidence_angle_deg": 30}
})";
  const Case c = parse_case(commented, "commented.json");
  json plain = sphere();
  plain["impact"]["incidence_angle"] = 30 * (M_PI / 180);
  expect_same_case(c, parse_case(plain, "plain.json"));
  // A comment is not a way to hide a broken document.
  EXPECT_EQ(text_rejection(R"({"name": "x" /* unterminated )").key(), "<document>");
}

// The name becomes a folder: a character loop (no regex recursion), at most 100 characters.
TEST(CaseTerms, LongNamesAreRejectedNotCrashed) {
  json d = sphere();
  d["name"] = std::string(30000, 'a');
  expect_rejected(d, "name", "30000 characters long; expected at most 100");
  d["name"] = std::string(100, 'a');
  EXPECT_NO_THROW(parse_case(d, "ok.json"));
  d["name"] = std::string(30000, 'a') + " ";
  expect_rejected(d, "name", "lower-case letters");
  d["name"] = "";
  expect_rejected(d, "name", "lower-case letters");
}

TEST(CaseTerms, DeepNestingIsRejectedBeforeTheDocumentIsBuilt) {
  const std::string arrays = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(text_rejection(arrays).key(), "<document>");
  const std::string deep_name =
      R"({"name": )" + std::string(100000, '[') + "1" + std::string(100000, ']') + "}";
  const CaseError error = text_rejection(deep_name);
  EXPECT_EQ(error.key(), "name");
  EXPECT_NE(std::string(error.what()).find("more than 64 levels"), std::string::npos);
  // Through the JSON overload too (a document built by a program), without recursion.
  json deep = sphere();
  json* at = &deep["description"];
  for (int i = 0; i < 70; ++i) at = &(*at)["x"];
  *at = 1;
  EXPECT_EQ(rejection(deep).key(), "<document>");
  // 64 levels are fine as far as nesting goes (the key is then unknown).
  const std::string at_limit =
      R"({"name": "x", "extra": )" + std::string(63, '[') + std::string(63, ']') + "}";
  const CaseError shallow = text_rejection(at_limit);
  EXPECT_EQ(std::string(shallow.what()).find("levels"), std::string::npos) << shallow.what();
}

TEST(CaseTerms, FileProblemsAreNamed) {
  const fs::path dir = scratch("files");
  auto message = [](const std::string& path) {
    const CaseError error = file_rejection(path);
    EXPECT_EQ(error.key(), "<file>");
    EXPECT_EQ(error.file(), path);
    return std::string(error.what());
  };
  EXPECT_NE(message((dir / "missing.json").string()).find("does not exist"), std::string::npos);
  EXPECT_NE(message(dir.string()).find("is a directory"), std::string::npos);
  const fs::path fifo = dir / "fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Would block forever if the FIFO were opened for a blocking read.
  EXPECT_NE(message(fifo.string()).find("is not a regular file"), std::string::npos);
  EXPECT_NE(message("/dev/zero").find("is not a regular file"), std::string::npos);
  {
    std::ofstream big(dir / "big.json");
    big << std::string((16u << 20) + 1, ' ');
  }
  EXPECT_NE(message((dir / "big.json").string()).find("at most 16 MiB"), std::string::npos);
}

TEST(CaseTerms, UnreadableFileSaysPermissionDenied) {
  if (::geteuid() == 0) {
    GTEST_SKIP() << "running as root: a file without read permission is still readable";
  }
  const fs::path dir = scratch("locked");
  const fs::path locked = dir / "locked.json";
  std::ofstream(locked) << sphere().dump();
  fs::permissions(locked, fs::perms::none);
  const CaseError error = file_rejection(locked.string());
  EXPECT_EQ(error.key(), "<file>");
  EXPECT_NE(std::string(error.what()).find("Permission denied"), std::string::npos) << error.what();
}

// rod-lai-a with R = 0.1 m: R sin(theta) > L/2, so no contact point on the cap (the asin of
// the axis angle was NaN, and so were the mass properties and the lumped result).
TEST(CaseTerms, CapsuleMustTouchWithItsCap) {
  json rod = capsule();
  rod["body"]["radius"] = 0.1;
  expect_rejected(rod, "impact.theta", "|theta| < atan(L/(2R)) = 0.244979 rad");
  rod["impact"].erase("theta");
  rod["impact"]["theta_deg"] = 15.48;
  expect_rejected(rod, "impact.theta_deg", "= 14.0362 degrees");
  // Just inside the cap but with the axis beyond 0.45 pi: the FEM cannot mesh it.
  const double cap = capsule_theta_limit(0.01, 0.05);
  const double mesh = capsule_theta_for_axis_angle(0.01, 0.05, kMeshMaxAxisAngle);
  EXPECT_NEAR(cap, std::atan(2.5), 1e-15);
  EXPECT_NEAR(capsule_axis_angle(0.01, 0.05, mesh), 0.45 * M_PI, 1e-12);
  EXPECT_NEAR(capsule_axis_angle(0.01, 0.05, cap * (1 - 1e-12)), M_PI / 2, 1e-5);
  json steep = capsule();
  steep["impact"]["theta"] = 0.5 * (mesh + cap);
  expect_rejected(steep, "impact.theta", "0.45 pi");
  // Just below it the axis is fine (and a slow impact keeps the contact zone on the cap).
  steep["impact"]["theta"] = -0.999 * mesh;
  steep["impact"]["normal_speed"] = 0.1;
  steep["impact"]["tangential_speed"] = 0.1;
  EXPECT_NO_THROW(parse_case(steep, "ok.json"));
}

// The FEM's contact-zone bound: a speed whose Hertz contact radius does not fit is rejected
// with the largest speed that fits, and that speed is the bound (just below: accepted).
TEST(CaseTerms, ContactZoneTheFemCannotMeshIsRejectedWithTheLimit) {
  json fast = sphere();
  fast["impact"]["speed"] = 2000;
  const CaseError error = rejection(fast);
  ASSERT_EQ(error.key(), "impact.speed") << error.what();
  const std::string message = error.what();
  const auto at = message.find("expected at most ");
  ASSERT_NE(at, std::string::npos) << message;
  const double limit = std::stod(message.substr(at + 17));
  EXPECT_GT(limit, 10);
  fast["impact"]["speed"] = limit * 0.999;
  const Case inside = parse_case(fast, "ok.json");
  EXPECT_LT(derive(inside).hertz.contact_radius, mesh_contact_radius_limit(0.05, 0.0));
  fast["impact"]["speed"] = limit * 1.001;
  EXPECT_EQ(rejection(fast).key(), "impact.speed");
  json components = sphere();
  components["impact"] = {{"normal_speed", 2000}, {"tangential_speed", 0}};
  expect_rejected(components, "impact.normal_speed", "a_max");
}

// Extremes the keys allow: derived quantities that overflow or underflow are rejected, naming
// the input that did it.
TEST(CaseTerms, ExtremeValuesGiveFiniteQuantitiesOrARejection) {
  auto with = [](const std::string& section, const std::string& key, double value) {
    json d = sphere();
    d[section][key] = value;
    return d;
  };
  expect_rejected(with("material", "young_modulus", 1e300), "material.young_modulus",
                  "not a finite number > 0");
  expect_rejected(with("material", "density", 1e-300), "material.density", "not a finite");
  expect_rejected(with("material", "density", 1e300), "material.density", "not a finite");
  expect_rejected(with("impact", "spin", 1e300), "impact.spin", "kinetic energy");
  expect_rejected(with("body", "radius", 1e-300), "body.radius", "not a finite");
}

TEST(CaseTerms, CflRangeIsStrictlyStable) {
  json d = sphere();
  d["fem"] = {{"cfl", 1.0}};
  expect_rejected(d, "fem.cfl", "(0, 0.95]");
  d["fem"]["cfl"] = 0.95;
  EXPECT_EQ(parse_case(d, "ok.json").fem.cfl, 0.95);
}

// rebound init's text for every shape is a valid case, with the options' defaults.
TEST(CaseTerms, TemplateOfEveryShapePassesTheParser) {
  for (const char* name : {"sphere", "capsule", "disc", "shell", "hoop", "custom"}) {
    const auto shape = shape_from_string(name);
    ASSERT_TRUE(shape.has_value()) << name;
    const std::string text = case_template(*shape, std::string("my-") + name);
    Case c;
    ASSERT_NO_THROW(c = parse_case(text, name)) << text;
    EXPECT_EQ(c.body.shape, *shape);
    EXPECT_EQ(c.name, std::string("my-") + name);
    const LumpedOptions lumped;
    const FemOptions fem;
    EXPECT_EQ(c.lumped.model, lumped.model);
    EXPECT_EQ(c.lumped.relative_tolerance, lumped.relative_tolerance);
    EXPECT_EQ(c.lumped.euler_step, lumped.euler_step);
    EXPECT_EQ(c.lumped.frames, lumped.frames);
    EXPECT_EQ(c.fem.degree, fem.degree);
    EXPECT_EQ(c.fem.cfl, fem.cfl);
    EXPECT_EQ(c.fem.contact_resolution, fem.contact_resolution);
    EXPECT_NE(text.find("// "), std::string::npos) << "commented";
    // Every key shown commented out becomes valid JSON when uncommented (the commas are right),
    // and shows the default of its option.
    std::stringstream lines(text);
    int uncommented = 0;
    for (std::string line; std::getline(lines, line);) {
      const auto at = line.find("// \"");
      if (at == std::string::npos || line.find_first_not_of(' ') != at) continue;
      std::string edited = text;
      edited.replace(edited.find(line), line.size(), line.substr(0, at) + line.substr(at + 3));
      EXPECT_NO_THROW(json::parse(edited, nullptr, true, true)) << line;
      ++uncommented;
    }
    EXPECT_GE(uncommented, 8) << name;
    EXPECT_NE(text.find("\"springs\": " + std::to_string(lumped.springs)), std::string::npos);
    EXPECT_NE(text.find("\"cells\": " + std::to_string(lumped.cells)), std::string::npos);
  }
  EXPECT_FALSE(shape_from_string("cube").has_value());
}
