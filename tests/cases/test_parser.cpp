// The case parser: every shipped case is accepted; each class of bad input is rejected with a
// message naming the file, the key and the value; random and mutated JSON never crashes it.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/resolved.h"
#include "tests/common/case_rejection.h"

using namespace rebound::cases;
using json = nlohmann::json;
using rebound::test::rejection;

namespace {

json valid_case() {
  return json::parse(R"({
    "name": "sphere-test",
    "body": {"shape": "sphere", "radius": 0.05},
    "material": {"young_modulus": 7e10, "poisson_ratio": 0.3, "density": 2700},
    "target": {"type": "rigid_plane"},
    "contact": {"friction": 0.1},
    "impact": {"theta": 0.0, "normal_speed": 0.5, "psi1": 2.0, "spin": 0.0},
    "lumped": {"model": "lai"},
    "fem": {"degree": 2}
  })");
}

void expect_rejected(const json& document, const std::string& key, const std::string& fragment) {
  const CaseError error = rejection(document);
  EXPECT_EQ(error.key(), key) << error.what();
  EXPECT_EQ(error.file(), "bad.json");
  const std::string message = error.what();
  EXPECT_NE(message.find("bad.json"), std::string::npos) << message;
  EXPECT_NE(message.find(key), std::string::npos) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
}

}  // namespace

TEST(Parser, AcceptsEveryShippedCase) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(REBOUND_SOURCE_DIR "/cases")) {
    if (entry.path().extension() != ".json") continue;
    if (entry.path().filename() == "case.schema.json") {
      EXPECT_TRUE(is_json_schema_file(entry.path().string()));
      continue;
    }
    EXPECT_FALSE(is_json_schema_file(entry.path().string()));
    const Case c = load_case(entry.path().string());
    EXPECT_EQ(c.name + ".json", entry.path().filename().string()) << "file name = case name";
    EXPECT_NO_THROW(derive(c));
    ++count;
  }
  EXPECT_GE(count, 16);
}

TEST(Parser, ValidCaseFields) {
  const Case c = parse_case(valid_case(), "ok.json");
  EXPECT_EQ(c.name, "sphere-test");
  EXPECT_EQ(c.body.shape, Shape::sphere);
  EXPECT_DOUBLE_EQ(c.material.young_modulus, 7e10);
  EXPECT_EQ(c.impact.velocity_form, "psi1");
  EXPECT_EQ(c.fem.degree, 2);
}

TEST(Parser, UnknownKeyWithSuggestion) {
  json d = valid_case();
  d["material"]["youngs_modulus"] = 1.0;
  expect_rejected(d, "material.youngs_modulus", "did you mean \"young_modulus\"");
  json top = valid_case();
  top["impactt"] = json::object();
  expect_rejected(top, "impactt", "did you mean \"impact\"");
}

TEST(Parser, MissingRequiredKeys) {
  for (const char* key : {"name", "body", "material", "contact", "impact"}) {
    json d = valid_case();
    d.erase(key);
    expect_rejected(d, key, "missing");
  }
  json d = valid_case();
  d["material"].erase("density");
  expect_rejected(d, "material.density", "missing");
  json t = valid_case();
  t["body"] = {{"shape", "capsule"}, {"radius", 0.01}, {"length", 0.05}};
  t["impact"].erase("theta");
  expect_rejected(t, "impact.theta", "missing");
}

TEST(Parser, WrongTypes) {
  json d = valid_case();
  d["material"]["poisson_ratio"] = "0.3";
  expect_rejected(d, "material.poisson_ratio", "expected a number");
  json b = valid_case();
  b["body"] = 3;
  expect_rejected(b, "body", "expected a JSON object");
  json n = valid_case();
  n["name"] = 12;
  expect_rejected(n, "name", "expected a string");
}

TEST(Parser, OutOfRangeValues) {
  auto with = [](const std::string& section, const std::string& key, json value) {
    json d = valid_case();
    d[section][key] = value;
    return d;
  };
  expect_rejected(with("material", "poisson_ratio", 0.5), "material.poisson_ratio", "(-1, 0.5)");
  expect_rejected(with("material", "poisson_ratio", -1.0), "material.poisson_ratio", "is -1");
  expect_rejected(with("material", "young_modulus", 0.0), "material.young_modulus", "E > 0");
  expect_rejected(with("material", "density", -2700.0), "material.density", "-2700");
  expect_rejected(with("contact", "friction", -0.1), "contact.friction", ">= 0");
  expect_rejected(with("body", "radius", 0.0), "body.radius", "> 0");

  json incidence = valid_case();
  incidence["impact"] = {{"theta", 0.0}, {"speed", 1.0}, {"incidence_angle", 1.6}};
  expect_rejected(incidence, "impact.incidence_angle", "[0, pi/2)");
  json negative = valid_case();
  negative["impact"] = {{"theta", 0.0}, {"speed", 1.0}, {"incidence_angle", -0.1}};
  expect_rejected(negative, "impact.incidence_angle", "-0.1");

  json capsule = valid_case();
  capsule["body"] = {{"shape", "capsule"}, {"radius", 0.01}, {"length", 0.05}};
  capsule["impact"]["theta"] = 1.6;
  expect_rejected(capsule, "impact.theta", "|theta| < pi/2 rad");

  json sphere_theta = valid_case();
  sphere_theta["impact"]["theta"] = 0.2;
  expect_rejected(sphere_theta, "impact.theta", "0 for a sphere");
}

TEST(Parser, VelocityForms) {
  json two = valid_case();
  two["impact"]["tangential_speed"] = 0.1;
  expect_rejected(two, "impact", "mixes velocity forms");
  json none = valid_case();
  none["impact"] = {{"theta", 0.0}};
  expect_rejected(none, "impact", "no velocity");
  json speed = valid_case();
  speed["impact"] = {{"theta", 0.0}, {"speed", 1.0}};
  expect_rejected(speed, "impact.incidence_angle", "missing");
  json psi_without_friction = valid_case();
  psi_without_friction["contact"]["friction"] = 0.0;
  expect_rejected(psi_without_friction, "impact.psi1", "friction > 0");
}

TEST(Parser, NonFiniteNumbers) {
  // JSON has no NaN/inf literals; an overflowing literal is how they reach a parser.
  const std::string text = valid_case().dump();
  std::string overflow = text;
  overflow.replace(overflow.find("70000000000"), 11, "1e999");
  try {
    parse_case(overflow, "bad.json");
    FAIL() << "accepted an infinite Young's modulus";
  } catch (const CaseError& error) {
    EXPECT_EQ(error.key(), "material.young_modulus");
    EXPECT_NE(std::string(error.what()).find("finite"), std::string::npos) << error.what();
  }
}

TEST(Parser, DuplicateKey) {
  try {
    parse_case(std::string(R"({"name": "a", "material": {"density": 1, "density": 2}})"),
               "dup.json");
    FAIL() << "accepted a duplicated key";
  } catch (const CaseError& error) {
    EXPECT_EQ(error.key(), "material.density") << error.what();
  }
}

TEST(Parser, InvalidJsonAndBadOptions) {
  try {
    parse_case(std::string("{\"name\": \"x\",, }"), "broken.json");
    FAIL();
  } catch (const CaseError& error) {
    EXPECT_NE(std::string(error.what()).find("broken.json"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("not valid JSON"), std::string::npos);
  }
  json model = valid_case();
  model["lumped"]["model"] = "laii";
  expect_rejected(model, "lumped.model", "did you mean \"lai\"");
  json restitution = valid_case();
  restitution["lumped"]["model"] = "newton";
  expect_rejected(restitution, "lumped.restitution", "missing");
  json degree = valid_case();
  degree["fem"]["degree"] = 3;
  expect_rejected(degree, "fem.degree", "[1, 2]");
  json name = valid_case();
  name["name"] = "Sphere Test";
  expect_rejected(name, "name", "lower-case");
  EXPECT_THROW(load_case("/nonexistent/case.json"), CaseError);
}

// Property test: random mutations of a valid document (values replaced by random JSON of any
// type, keys renamed or deleted, text corrupted) are either accepted or rejected with a
// CaseError naming the source; nothing else escapes and nothing hangs.
TEST(Parser, FuzzedDocumentsNeverCrash) {
  std::mt19937 random(20261122);
  std::uniform_int_distribution<int> pick(0, 1 << 20);
  const std::vector<json> values = {nullptr,
                                    true,
                                    false,
                                    0,
                                    -1,
                                    1e308,
                                    -1e-320,
                                    0.5,
                                    1.6,
                                    "",
                                    "sphere",
                                    "lai",
                                    json::array(),
                                    json::array({1, 2}),
                                    json::object(),
                                    json::object({{"x", 1}})};
  const std::string base_text = valid_case().dump();
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::string text;
    if (trial % 2 == 0) {
      // Structured mutation of 1-3 entries.
      json d = valid_case();
      const int changes = 1 + pick(random) % 3;
      for (int k = 0; k < changes; ++k) {
        std::vector<json::json_pointer> pointers;
        const json flat = d.flatten();
        for (const auto& item : flat.items()) pointers.emplace_back(item.key());
        if (pointers.empty()) break;
        const auto& target = pointers[pick(random) % pointers.size()];
        if (!d[target.parent_pointer()].is_object()) {
          d[target] = values[pick(random) % values.size()];
          continue;
        }
        switch (pick(random) % 3) {
          case 0:
            d[target] = values[pick(random) % values.size()];
            break;
          case 1:
            d[target.parent_pointer()].erase(target.back());
            break;
          default: {
            json moved = d[target];
            d[target.parent_pointer()].erase(target.back());
            d[target.parent_pointer()][target.back() + "x"] = moved;
          }
        }
      }
      text = d.dump();
    } else {
      // Byte-level corruption.
      text = base_text;
      const int changes = 1 + pick(random) % 4;
      for (int k = 0; k < changes && !text.empty(); ++k) {
        const std::size_t at = pick(random) % text.size();
        switch (pick(random) % 3) {
          case 0:
            text[at] = static_cast<char>(pick(random) % 256);
            break;
          case 1:
            text.erase(at, 1 + pick(random) % 8);
            break;
          default:
            text.insert(at, std::string(1, "{}[]\",:0e-9"[pick(random) % 11]));
            break;
        }
      }
    }
    try {
      parse_case(text, "fuzz.json");
      ++accepted;
    } catch (const CaseError& error) {
      ++rejected;
      EXPECT_NE(std::string(error.what()).find("fuzz.json"), std::string::npos) << error.what();
      EXPECT_FALSE(error.key().empty());
    } catch (const std::exception& other) {
      ADD_FAILURE() << "escaped: " << other.what() << " for " << text;
    }
  }
  EXPECT_GT(rejected, 2000);  // most mutations break the document
  EXPECT_GT(accepted, 10);    // some are harmless (e.g. spin changed to 0.5)
}

// lumped.restitution_calibration: "exact" by default, "published" on request, for model "lai"
// with a dissipative normal_law only; an e the exact calibration cannot reach is rejected naming
// lumped.restitution.
TEST(Parser, RestitutionCalibration) {
  json d = valid_case();
  d["lumped"] = {{"model", "lai"}, {"normal_law", "hunt-crossley"}, {"restitution", 0.8}};
  EXPECT_EQ(parse_case(d, "ok.json").lumped.restitution_calibration, "exact");
  d["lumped"]["restitution_calibration"] = "published";
  EXPECT_EQ(parse_case(d, "ok.json").lumped.restitution_calibration, "published");
  d["lumped"]["normal_law"] = "michalczyk";  // exact by construction, either way accepted
  EXPECT_EQ(parse_case(d, "ok.json").lumped.restitution_calibration, "published");

  json choice = d;
  choice["lumped"]["restitution_calibration"] = "closed-form";
  expect_rejected(choice, "lumped.restitution_calibration", "\"exact\"");
  json hertz = valid_case();
  hertz["lumped"]["restitution_calibration"] = "exact";
  expect_rejected(hertz, "lumped.restitution_calibration", "normal_law \"hertz\"");
  json rigid = valid_case();
  rigid["lumped"] = {
      {"model", "newton"}, {"restitution", 0.8}, {"restitution_calibration", "exact"}};
  expect_rejected(rigid, "lumped.restitution_calibration", "the model is \"newton\"");

  // e -> 0 needs an unbounded damping: below 0.001 the exact calibration refuses, the published
  // closed form (Flores's D = 8(1 - e)/(5 e)) and Michalczyk's exact R accept.
  json low = valid_case();
  low["lumped"] = {{"model", "lai"}, {"normal_law", "flores"}, {"restitution", 5e-4}};
  expect_rejected(low, "lumped.restitution", "below 0.001");
  low["lumped"]["restitution_calibration"] = "exact";
  expect_rejected(low, "lumped.restitution", "restitution_calibration \"published\"");
  low["lumped"]["restitution_calibration"] = "published";
  EXPECT_NO_THROW(parse_case(low, "ok.json"));
  low["lumped"]["normal_law"] = "michalczyk";
  low["lumped"]["restitution_calibration"] = "exact";
  EXPECT_NO_THROW(parse_case(low, "ok.json"));
  json zero = valid_case();
  zero["lumped"] = {{"model", "lai"}, {"normal_law", "hunt-crossley"}, {"restitution", 0.0}};
  expect_rejected(zero, "lumped.restitution", "(0, 1]");
}

// The laws with a constant of their own: thornton needs material.yield_stress, viscoelastic
// lumped.dissipative_constant (>= 0); each refuses a prescribed restitution and its calibration,
// and the constant is refused for another law; both apply to the elastic half-space too and are
// refused by the models without a normal spring (the MDR bed, the rigid-body laws).
TEST(Parser, ThorntonAndViscoelasticConstants) {
  json thornton = valid_case();
  thornton["lumped"] = {{"model", "lai"}, {"normal_law", "thornton"}};
  expect_rejected(thornton, "material.yield_stress",
                  "normal_law \"thornton\" needs the yield stress");
  thornton["material"]["yield_stress"] = "355 MPa";  // a bad value, not a missing one
  const CaseError typed = rejection(thornton);
  EXPECT_EQ(typed.problems().size(), 1u) << typed.what();
  EXPECT_EQ(std::string(typed.what()).find("is missing"), std::string::npos) << typed.what();
  thornton["material"]["yield_stress"] = 3.55e8;
  const Case t = parse_case(thornton, "ok.json");
  EXPECT_EQ(t.lumped.normal_law, "thornton");
  EXPECT_EQ(t.material.yield_stress.value_or(0), 3.55e8);
  json with_e = thornton;
  with_e["lumped"]["restitution"] = 0.8;
  expect_rejected(with_e, "lumped.restitution",
                  "takes no prescribed restitution: its dissipation follows from "
                  "material.yield_stress");
  json with_table = thornton;
  with_table["lumped"]["restitution"] = {{"flux_density", {0, 1}}, {"mean", {0.9, 0.8}}};
  expect_rejected(with_table, "lumped.restitution", "takes no prescribed restitution");
  json calibrated = thornton;
  calibrated["lumped"]["restitution_calibration"] = "exact";
  expect_rejected(calibrated, "lumped.restitution_calibration",
                  "which takes no restitution to calibrate");
  json halfspace = thornton;
  halfspace["target"] = {{"type", "elastic_halfspace"},
                         {"material", {{"young_modulus", 2e11}, {"poisson_ratio", 0.3}}}};
  EXPECT_NO_THROW(parse_case(halfspace, "ok.json"));
  json mdr = thornton;
  mdr["lumped"]["model"] = "mdr";
  expect_rejected(mdr, "lumped.normal_law", "expected \"hertz\"");
  json newton = thornton;
  newton["lumped"]["model"] = "newton";
  expect_rejected(newton, "lumped.normal_law", "rigid-body law");

  json visco = valid_case();
  visco["lumped"] = {{"model", "lai"}, {"normal_law", "viscoelastic"}};
  expect_rejected(visco, "lumped.dissipative_constant",
                  "is missing; normal_law \"viscoelastic\" needs the dissipative constant A");
  visco["lumped"]["dissipative_constant"] = -1e-6;
  expect_rejected(visco, "lumped.dissipative_constant", "A >= 0 s");
  visco["lumped"]["dissipative_constant"] = "1e-6";
  expect_rejected(visco, "lumped.dissipative_constant", "\"1e-6\"");
  visco["lumped"]["dissipative_constant"] = 2e-6;
  EXPECT_EQ(parse_case(visco, "ok.json").lumped.dissipative_constant.value_or(0), 2e-6);
  visco["lumped"]["dissipative_constant"] = 0.0;  // A = 0: Hertz
  EXPECT_NO_THROW(parse_case(visco, "ok.json"));
  json visco_e = visco;
  visco_e["lumped"]["restitution"] = 0.7;
  expect_rejected(visco_e, "lumped.restitution",
                  "its dissipation follows from lumped.dissipative_constant");
  json other = valid_case();
  other["lumped"] = {{"model", "lai"},
                     {"normal_law", "hunt-crossley"},
                     {"restitution", 0.8},
                     {"dissipative_constant", 1e-6}};
  expect_rejected(other, "lumped.dissipative_constant",
                  "of normal_law \"viscoelastic\", but the normal_law is \"hunt-crossley\"");
}

// lumped.restitution as a table in Bagrejev's energy-flux density (Michalczyk 2008, sec. 3-4):
// accepted for the rigid-body laws and the dissipative laws; a bad table is rejected naming the
// key (and element) and what was expected, nothing sorted or clamped; lumped.seed only with a
// random table.
TEST(Parser, RestitutionTable) {
  json d = valid_case();
  d["lumped"] = {
      {"model", "newton"},
      {"restitution",
       {{"flux_density", {0.0, 1e6, 1e7}}, {"mean", {0.9, 0.7, 0.5}}, {"std", {0.05, 0.1, 0.1}}}},
      {"seed", 42}};
  const Case c = parse_case(d, "ok.json");
  ASSERT_TRUE(c.lumped.restitution_table.has_value());
  EXPECT_FALSE(c.lumped.restitution.has_value());
  EXPECT_EQ(c.lumped.restitution_table->mean, (std::vector<double>{0.9, 0.7, 0.5}));
  EXPECT_TRUE(c.lumped.restitution_table->random());
  EXPECT_EQ(c.lumped.seed, 42u);
  json lai = d;
  lai["lumped"]["model"] = "lai";
  lai["lumped"]["normal_law"] = "michalczyk";
  EXPECT_NO_THROW(parse_case(lai, "ok.json"));

  const auto with = [&d](const char* key, const json& value) {
    json bad = d;
    bad["lumped"]["restitution"][key] = value;
    return bad;
  };
  expect_rejected(with("flux_density", {0.0, 1e7, 1e6}), "lumped.restitution.flux_density[2]",
                  "expected strictly increasing");
  expect_rejected(with("flux_density", {0.0, 0.0, 1e6}), "lumped.restitution.flux_density[1]",
                  "strictly increasing");
  expect_rejected(with("flux_density", {-1.0, 1e6, 1e7}), "lumped.restitution.flux_density[0]",
                  "Phi >= 0");
  expect_rejected(with("flux_density", json::array()), "lumped.restitution.flux_density",
                  "an array of 1 to 10000 numbers");
  expect_rejected(with("mean", {0.9, 0.7}), "lumped.restitution.mean",
                  "expected one per flux_density node (3)");
  expect_rejected(with("mean", {0.9, 1.2, 0.5}), "lumped.restitution.mean[1]",
                  "expected a mean restitution R0 in [0, 1]");
  expect_rejected(with("mean", {0.9, -0.1, 0.5}), "lumped.restitution.mean[1]", "in [0, 1]");
  expect_rejected(with("std", {0.05, -0.1, 0.1}), "lumped.restitution.std[1]",
                  "expected a deviation sigma >= 0");
  expect_rejected(with("std", {0.05, 0.1}), "lumped.restitution.std", "one per flux_density");
  expect_rejected(with("std", {0.05, "x", 0.1}), "lumped.restitution.std[1]",
                  "expected a finite number");
  expect_rejected(with("sigma", {0.05, 0.1, 0.1}), "lumped.restitution.sigma",
                  "is not a known key");
  json missing = d;
  missing["lumped"]["restitution"].erase("mean");
  expect_rejected(missing, "lumped.restitution.mean", "is missing");

  // The seed draws a random table's R: refused without one, and only an integer in [0, 2^53).
  json deterministic = d;
  deterministic["lumped"]["restitution"].erase("std");
  expect_rejected(deterministic, "lumped.seed", "a deterministic table");
  deterministic["lumped"].erase("seed");
  EXPECT_FALSE(parse_case(deterministic, "ok.json").lumped.restitution_table->random());
  json number = valid_case();
  number["lumped"] = {{"model", "newton"}, {"restitution", 0.8}, {"seed", 1}};
  expect_rejected(number, "lumped.seed", "not a table");
  for (const json& seed : {json(-1), json(1.5), json("7"), json(1e16)}) {
    json bad = d;
    bad["lumped"]["seed"] = seed;
    expect_rejected(bad, "lumped.seed", "expected an integer in [0, 9007199254740991]");
  }

  // A dissipative law cannot restitute R = 0; the viscous laws' exact calibration needs >= 0.001.
  json zero = lai;
  zero["lumped"]["restitution"]["mean"] = {0.9, 0.0, 0.5};
  expect_rejected(zero, "lumped.restitution.mean[1]", "expected a mean > 0");
  zero["lumped"]["normal_law"] = "hunt-crossley";
  zero["lumped"]["restitution"]["mean"] = {0.9, 5e-4, 0.5};
  expect_rejected(zero, "lumped.restitution.mean[1]", "expected a mean >= 0.001");
  json rigid_zero = d;  // Newton's e = 0 (a perfectly plastic normal impact) is a law's value
  rigid_zero["lumped"]["restitution"]["mean"] = {0.9, 0.0, 0.5};
  EXPECT_NO_THROW(parse_case(rigid_zero, "ok.json"));
}

// material.model: "elastic" by default, "elastic-plastic" with its yield stress; a value that is
// not a choice is rejected naming the file, the key and the choices, and "elastic-plastic"
// without material.yield_stress naming that key (the FE body's von Mises yield stress).
TEST(Parser, MaterialModel) {
  EXPECT_EQ(parse_case(valid_case(), "ok.json").material.model,
            rebound::cases::MaterialModel::elastic);
  json bad = valid_case();
  bad["material"]["model"] = "plastic";
  expect_rejected(bad, "material.model",
                  "is \"plastic\"; expected one of \"elastic\" | \"elastic-plastic\" | "
                  "\"viscoelastic\"");
  bad["material"]["model"] = 1;
  expect_rejected(bad, "material.model", "expected a string");
  json missing = valid_case();
  missing["material"]["model"] = "elastic-plastic";
  expect_rejected(missing, "material.yield_stress",
                  "is missing; material.model \"elastic-plastic\" needs the von Mises yield "
                  "stress");
  json good = missing;
  good["material"]["yield_stress"] = 3.55e8;
  const Case c = parse_case(good, "ok.json");
  EXPECT_EQ(c.material.model, rebound::cases::MaterialModel::elastic_plastic);
  EXPECT_EQ(c.material.yield_stress.value_or(0), 3.55e8);
  EXPECT_STREQ(rebound::cases::to_string(c.material.model), "elastic-plastic");
}

// An elastic-plastic body's FE contact zone is Thornton's (cases::ThorntonScales), larger than
// Hertz's above the yield speed: a speed whose zone does not fit on the touching cap is rejected
// on the speed with the largest one that fits, and that speed (just below it) is accepted.
TEST(Parser, PlasticContactZoneMustFitTheCap) {
  json soft = valid_case();
  soft["material"]["model"] = "elastic-plastic";
  soft["material"]["yield_stress"] = 1e5;
  expect_rejected(soft, "impact.normal_speed", "for this elastic-plastic body (material.model)");
  const std::string message = rejection(soft).what();
  const std::string at_most = "expected at most ";
  const std::size_t at = message.find(at_most);
  ASSERT_NE(at, std::string::npos) << message;
  const double largest = std::stod(message.substr(at + at_most.size()));
  ASSERT_GT(largest, 0.0);
  ASSERT_LT(largest, 0.5);
  soft["impact"]["normal_speed"] = 0.999 * largest;
  const Case c = parse_case(soft, "ok.json");
  const rebound::cases::Derived d = rebound::cases::derive(c);
  EXPECT_GT(d.thornton.contact_zone_radius,
            0.99 * rebound::cases::mesh_contact_radius_limit(c.body.radius, 0.0));
  soft["material"]["model"] = "elastic";  // the elastic body's zone is Hertz's: accepted as given
  soft["impact"]["normal_speed"] = 0.5;
  EXPECT_NO_THROW(parse_case(soft, "ok.json"));
}

// material.model "viscoelastic" needs material.relaxation_strength g > 0 and
// material.relaxation_time tau > 0 (a missing or bad one rejected naming the file, the key and
// the expected value); either key with another model is refused rather than ignored; both are
// carried into the resolved case.
TEST(Parser, ViscoelasticMaterialModel) {
  json visco = valid_case();
  visco["material"]["model"] = "viscoelastic";
  visco["material"]["relaxation_strength"] = 0.5;
  expect_rejected(visco, "material.relaxation_time",
                  "is missing; material.model \"viscoelastic\" needs the relaxation time "
                  "tau > 0 s");
  visco["material"]["relaxation_time"] = -1e-6;
  expect_rejected(visco, "material.relaxation_time", "the relaxation time tau > 0 s");
  visco["material"]["relaxation_time"] = 2e-6;
  json no_strength = visco;
  no_strength["material"].erase("relaxation_strength");
  expect_rejected(no_strength, "material.relaxation_strength",
                  "is missing; material.model \"viscoelastic\" needs the relaxation strength "
                  "g > 0");
  json zero = visco;
  zero["material"]["relaxation_strength"] = 0;
  expect_rejected(zero, "material.relaxation_strength", "the relaxation strength g > 0");
  json elastic = visco;
  elastic["material"].erase("model");
  expect_rejected(elastic, "material.relaxation_strength",
                  "is given with material.model \"elastic\"; expected material.model "
                  "\"viscoelastic\"");
  const Case c = parse_case(visco, "ok.json");
  EXPECT_EQ(c.material.model, rebound::cases::MaterialModel::viscoelastic);
  EXPECT_EQ(c.material.relaxation_strength.value_or(0), 0.5);
  EXPECT_EQ(c.material.relaxation_time.value_or(0), 2e-6);
  EXPECT_STREQ(rebound::cases::to_string(c.material.model), "viscoelastic");
  const json resolved = rebound::cases::resolved_json(c);
  EXPECT_EQ(resolved["material"]["model"], "viscoelastic");
  EXPECT_EQ(resolved["material"]["relaxation_strength"], 0.5);
  EXPECT_EQ(resolved["material"]["relaxation_time"], 2e-6);
}
