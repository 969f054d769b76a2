// Parser and validator of the case description. Every rejection names the file, the key path,
// the offending value and what was expected; nothing required is ever defaulted.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "cases/case.h"

namespace rebound::cases {
namespace {

using json = nlohmann::json;

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string describe(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string type_name(const json& value) {
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  return "null";
}

// Reads one JSON object at a key path; remembers which keys were consumed so that any other
// key can be rejected with a suggestion.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path, std::string file,
               std::vector<std::string> allowed)
      : object_(object),
        path_(std::move(path)),
        file_(std::move(file)),
        allowed_(std::move(allowed)) {
    if (!object_.is_object())
      fail(path_.empty() ? "<document>" : path_,
           "is " + describe(object_) + " (" + type_name(object_) + "), expected a JSON object");
    reject_unknown_keys();
  }

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw CaseError(file_, key, problem);
  }
  std::string key_path(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }
  bool has(const std::string& key) const { return object_.contains(key); }
  const json& at(const std::string& key) const { return object_.at(key); }

  double number(const std::string& key) const {
    if (!has(key)) fail(key_path(key), "is missing; expected a number");
    return as_number(key);
  }
  std::optional<double> optional_number(const std::string& key) const {
    if (!has(key)) return std::nullopt;
    return as_number(key);
  }
  std::string string(const std::string& key) const {
    if (!has(key)) fail(key_path(key), "is missing; expected a string");
    const json& value = object_.at(key);
    if (!value.is_string())
      fail(key_path(key),
           "is " + describe(value) + " (" + type_name(value) + "), expected a string");
    return value.get<std::string>();
  }
  std::string choice(const std::string& key, const std::vector<std::string>& choices,
                     std::optional<std::string> fallback) const {
    if (!has(key) && fallback) return *fallback;
    const std::string value = string(key);
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
      std::string list;
      for (const auto& c : choices) list += (list.empty() ? "" : " | ") + ("\"" + c + "\"");
      fail(key_path(key),
           "is \"" + value + "\"; expected one of " + list + suggestion(value, choices));
    }
    return value;
  }
  int integer(const std::string& key, int fallback, int low, int high) const {
    if (!has(key)) return fallback;
    const double value = as_number(key);
    if (value != std::floor(value) || value < low || value > high)
      fail(key_path(key), "is " + describe(object_.at(key)) + "; expected an integer in [" +
                              std::to_string(low) + ", " + std::to_string(high) + "]");
    return static_cast<int>(value);
  }
  bool boolean(const std::string& key, bool fallback) const {
    if (!has(key)) return fallback;
    const json& value = object_.at(key);
    if (!value.is_boolean())
      fail(key_path(key),
           "is " + describe(value) + " (" + type_name(value) + "), expected true or false");
    return value.get<bool>();
  }
  // Range check with a human-readable statement of the expectation.
  void require(const std::string& key, double value, bool ok, const std::string& expected) const {
    if (!ok) {
      std::ostringstream text;
      text.precision(17);
      text << "is " << value << "; expected " << expected;
      fail(key_path(key), text.str());
    }
  }

  static std::string suggestion(const std::string& word, const std::vector<std::string>& options) {
    std::string best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (const auto& option : options) {
      const std::size_t d = edit_distance(word, option);
      if (d < best_distance) best_distance = d, best = option;
    }
    if (best.empty() || best_distance > std::max<std::size_t>(2, word.size() / 3)) return "";
    return " (did you mean \"" + best + "\"?)";
  }

 private:
  double as_number(const std::string& key) const {
    const json& value = object_.at(key);
    if (!value.is_number())
      fail(key_path(key),
           "is " + describe(value) + " (" + type_name(value) + "), expected a number");
    const double number = value.get<double>();
    if (!std::isfinite(number)) fail(key_path(key), "is not a finite number");
    return number;
  }
  void reject_unknown_keys() const {
    for (const auto& item : object_.items()) {
      if (std::find(allowed_.begin(), allowed_.end(), item.key()) != allowed_.end()) continue;
      std::string list;
      for (const auto& a : allowed_) list += (list.empty() ? "" : ", ") + a;
      fail(key_path(item.key()),
           "is not a known key" + suggestion(item.key(), allowed_) + "; known keys here: " + list);
    }
  }

  const json& object_;
  std::string path_;
  std::string file_;
  std::vector<std::string> allowed_;
};

const std::vector<std::string> kShapes = {"sphere", "capsule", "disc", "shell", "hoop", "custom"};

}  // namespace

const char* to_string(Shape shape) {
  switch (shape) {
    case Shape::sphere:
      return "sphere";
    case Shape::capsule:
      return "capsule";
    case Shape::disc:
      return "disc";
    case Shape::shell:
      return "shell";
    case Shape::hoop:
      return "hoop";
    case Shape::custom:
      return "custom";
  }
  return "?";
}

CaseError::CaseError(const std::string& file, const std::string& key, const std::string& problem)
    : std::runtime_error(file + ": " + (key.empty() ? "\"\"" : key) + " " + problem),
      file_(file),
      key_(key.empty() ? "\"\"" : key) {}

double approach_speed(const Impact& impact) {
  return std::hypot(impact.normal_speed, impact.tangential_speed);
}

double incidence_angle(const Impact& impact) {
  return std::atan2(impact.tangential_speed, impact.normal_speed);
}

double psi_scale(double poisson_ratio, double friction) {
  return 2.0 * (1.0 - poisson_ratio) / (friction * (2.0 - poisson_ratio));
}

Case parse_case(const nlohmann::json& document, const std::string& file) {
  Case result;
  result.source = file;
  result.raw = document;
  const ObjectReader top(
      document, "", file,
      {"name", "description", "body", "material", "target", "contact", "impact", "lumped", "fem"});

  // name
  result.name = top.string("name");
  if (!std::regex_match(result.name, std::regex("[a-z0-9._-]+")))
    top.fail("name", "is \"" + result.name +
                         "\"; expected lower-case letters, digits, '.', '_' or '-' only "
                         "(it names the output folder)");
  if (result.name == "." || result.name == "..")
    top.fail("name", "is \"" + result.name + "\"; expected a folder name, not a path");
  if (top.has("description")) result.description = top.string("description");

  // body
  if (!top.has("body")) top.fail("body", "is missing; expected an object with \"shape\"");
  {
    const json& node = top.at("body");
    if (!node.is_object())
      top.fail("body",
               "is " + describe(node) + " (" + type_name(node) + "), expected a JSON object");
    // The shape decides which keys are allowed.
    const ObjectReader probe(node, "body", file,
                             {"shape", "radius", "length", "thickness", "mass",
                              "radius_of_gyration", "contact_offset", "mesh_file"});
    const std::string shape = probe.choice("shape", kShapes, std::nullopt);
    Body& body = result.body;
    std::vector<std::string> allowed = {"shape", "radius"};
    if (shape == "sphere") body.shape = Shape::sphere;
    if (shape == "capsule") body.shape = Shape::capsule, allowed.push_back("length");
    if (shape == "disc") body.shape = Shape::disc, allowed.push_back("thickness");
    if (shape == "shell") body.shape = Shape::shell, allowed.push_back("thickness");
    if (shape == "hoop") body.shape = Shape::hoop, allowed.push_back("thickness");
    if (shape == "custom") {
      body.shape = Shape::custom;
      allowed.insert(allowed.end(), {"mass", "radius_of_gyration", "contact_offset"});
    }
    for (const auto& item : node.items())
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
        probe.fail(
            "body." + item.key(),
            "is not used by shape \"" + shape + "\"; keys for this shape: " + [&] {
              std::string list;
              for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
              return list;
            }());
    body.radius = probe.number("radius");
    probe.require("radius", body.radius, body.radius > 0, "a radius > 0 m");
    if (body.shape == Shape::capsule) {
      body.length = probe.number("length");
      probe.require("length", body.length, body.length > 0,
                    "a cylinder length > 0 m between the cap centres");
    }
    if (body.shape == Shape::disc || body.shape == Shape::shell || body.shape == Shape::hoop) {
      body.thickness = probe.number("thickness");
      probe.require("thickness", body.thickness, body.thickness > 0, "a thickness > 0 m");
      if (body.shape == Shape::shell)
        probe.require("thickness", body.thickness, body.thickness < body.radius,
                      "a wall thickness below the radius " + std::to_string(body.radius) + " m");
      if (body.shape == Shape::hoop)
        probe.require("thickness", body.thickness, body.thickness < 2 * body.radius,
                      "a wire diameter below twice the hoop radius");
    }
    if (body.shape == Shape::custom) {
      body.mass = probe.number("mass");
      probe.require("mass", body.mass, body.mass > 0, "a mass > 0 kg");
      body.radius_of_gyration = probe.number("radius_of_gyration");
      probe.require("radius_of_gyration", body.radius_of_gyration, body.radius_of_gyration > 0,
                    "a central radius of gyration > 0 m");
      body.contact_offset = probe.number("contact_offset");
      probe.require("contact_offset", body.contact_offset, body.contact_offset >= 0,
                    "a distance |PG| >= 0 m");
    }
  }

  // material
  if (!top.has("material"))
    top.fail("material",
             "is missing; expected {\"young_modulus\", \"poisson_ratio\", \"density\"}");
  {
    const ObjectReader material(top.at("material"), "material", file,
                                {"young_modulus", "poisson_ratio", "density"});
    Material& m = result.material;
    m.young_modulus = material.number("young_modulus");
    material.require("young_modulus", m.young_modulus, m.young_modulus > 0, "E > 0 Pa");
    m.poisson_ratio = material.number("poisson_ratio");
    material.require("poisson_ratio", m.poisson_ratio,
                     m.poisson_ratio > -1 && m.poisson_ratio < 0.5, "a Poisson ratio in (-1, 0.5)");
    m.density = material.number("density");
    material.require("density", m.density, m.density > 0, "a density > 0 kg/m^3");
  }

  // target
  if (top.has("target")) {
    const ObjectReader target(top.at("target"), "target", file, {"type"});
    result.target = target.choice("type", {"rigid_plane"}, std::string("rigid_plane"));
  }

  // contact
  if (!top.has("contact")) top.fail("contact", "is missing; expected {\"friction\": mu}");
  {
    const ObjectReader contact(top.at("contact"), "contact", file, {"friction"});
    result.contact.friction = contact.number("friction");
    contact.require("friction", result.contact.friction, result.contact.friction >= 0,
                    "a Coulomb friction coefficient >= 0");
  }

  // impact
  if (!top.has("impact"))
    top.fail("impact", "is missing; expected the velocity of P at first touch");
  {
    const ObjectReader impact(
        top.at("impact"), "impact", file,
        {"theta", "speed", "incidence_angle", "normal_speed", "tangential_speed", "psi1", "spin"});
    Impact& i = result.impact;
    i.theta = impact.number("theta");
    impact.require("theta", i.theta, std::abs(i.theta) < M_PI / 2, "|theta| < pi/2 rad");
    if (result.body.shape == Shape::sphere || result.body.shape == Shape::shell)
      impact.require("theta", i.theta, i.theta == 0.0,
                     "0 for a " + std::string(to_string(result.body.shape)) +
                         " (its centre lies on the normal through P)");
    if ((result.body.shape == Shape::disc || result.body.shape == Shape::hoop) && i.theta != 0.0)
      impact.require("theta", i.theta, false,
                     "0 for a " + std::string(to_string(result.body.shape)) +
                         " struck on its rim (its centre lies on the normal through P)");
    if (result.body.shape == Shape::custom)
      impact.require("theta", i.theta, result.body.contact_offset > 0 || i.theta == 0.0,
                     "0 when body.contact_offset is 0");

    const bool speed_form = impact.has("speed") || impact.has("incidence_angle");
    const bool components_form = impact.has("tangential_speed");
    const bool psi_form = impact.has("psi1");
    const int forms = int(speed_form) + int(components_form) + int(psi_form);
    const std::string forms_text =
        "exactly one velocity form: {\"speed\", \"incidence_angle\"} | {\"normal_speed\", "
        "\"tangential_speed\"} | {\"normal_speed\", \"psi1\"}";
    if (forms == 0)
      impact.fail("impact", impact.has("normal_speed")
                                ? "has \"normal_speed\" alone; expected " + forms_text
                                : "has no velocity; expected " + forms_text);
    if (forms > 1) {
      std::string given;
      for (const char* key :
           {"speed", "incidence_angle", "normal_speed", "tangential_speed", "psi1"})
        if (impact.has(key)) given += (given.empty() ? "" : ", ") + std::string(key);
      impact.fail("impact", "mixes velocity forms (" + given + "); expected " + forms_text);
    }
    if (speed_form) {
      if (impact.has("normal_speed"))
        impact.fail(
            "impact.normal_speed",
            "cannot be combined with \"speed\"/\"incidence_angle\"; expected " + forms_text);
      const double speed = impact.number("speed");
      impact.require("speed", speed, speed > 0, "an approach speed of P > 0 m/s");
      const double alpha = impact.number("incidence_angle");
      impact.require("incidence_angle", alpha, alpha >= 0 && alpha < M_PI / 2,
                     "an incidence angle in [0, pi/2) rad");
      i.normal_speed = speed * std::cos(alpha);
      i.tangential_speed = speed * std::sin(alpha);
      i.velocity_form = "speed";
    } else {
      i.normal_speed = impact.number("normal_speed");
      impact.require("normal_speed", i.normal_speed, i.normal_speed > 0,
                     "the normal approach speed of P > 0 m/s (v_n = -normal_speed)");
      if (components_form) {
        i.tangential_speed = impact.number("tangential_speed");
        impact.require("tangential_speed", i.tangential_speed, i.tangential_speed >= 0,
                       "v_t >= 0 m/s (the incidence angle lies in [0, pi/2); use theta's sign "
                       "for the mirrored configuration)");
        i.velocity_form = "components";
      } else {
        const double psi1 = impact.number("psi1");
        impact.require("psi1", psi1, psi1 >= 0, "Psi1 >= 0");
        if (result.contact.friction <= 0)
          impact.fail("impact.psi1",
                      "needs contact.friction > 0 (Psi1 = 2(1-nu)/(mu(2-nu)) tan "
                      "alpha is undefined for mu = 0); give tangential_speed instead");
        const double tan_alpha =
            psi1 / psi_scale(result.material.poisson_ratio, result.contact.friction);
        i.tangential_speed = i.normal_speed * tan_alpha;
        i.velocity_form = "psi1";
      }
    }
    if (auto spin = impact.optional_number("spin")) i.spin = *spin;
  }

  // lumped options
  if (top.has("lumped")) {
    const ObjectReader lumped(top.at("lumped"), "lumped", file,
                              {"model", "normal_law", "lambda", "theta", "restitution",
                               "impulse_ratio", "relative_tolerance", "euler_step", "frames",
                               "springs", "cells", "time_steps", "dundurs_coupling"});
    LumpedOptions& o = result.lumped;
    o.model = lumped.choice("model",
                            {"lai", "uncoupled", "uncoupled-euler", "mdr", "halfspace", "newton",
                             "poisson", "stronge", "smith", "brach"},
                            std::string("lai"));
    o.normal_law = lumped.choice(
        "normal_law", {"hertz", "hunt-crossley", "lankarani-nikravesh", "flores", "michalczyk"},
        std::string("hertz"));
    o.lambda = lumped.optional_number("lambda");
    if (o.lambda)
      lumped.require("lambda", *o.lambda, *o.lambda >= 0 && *o.lambda < 1, "lambda in [0, 1)");
    o.theta = lumped.optional_number("theta");
    if (o.theta)
      lumped.require("theta", *o.theta, std::abs(*o.theta) < M_PI / 2, "|theta| < pi/2 rad");
    o.restitution = lumped.optional_number("restitution");
    if (o.restitution)
      lumped.require("restitution", *o.restitution, *o.restitution > 0 && *o.restitution <= 1,
                     "a coefficient of restitution in (0, 1]");
    o.impulse_ratio = lumped.optional_number("impulse_ratio");
    if (o.impulse_ratio)
      lumped.require("impulse_ratio", *o.impulse_ratio, *o.impulse_ratio >= 0,
                     "an impulse ratio >= 0");
    if (auto rtol = lumped.optional_number("relative_tolerance")) {
      lumped.require("relative_tolerance", *rtol, *rtol >= 1e-13 && *rtol <= 1e-2,
                     "a relative tolerance in [1e-13, 1e-2]");
      o.relative_tolerance = *rtol;
    }
    if (auto h = lumped.optional_number("euler_step")) {
      lumped.require("euler_step", *h, *h > 0 && *h <= 0.1,
                     "a non-dimensional Euler step in (0, 0.1]");
      o.euler_step = *h;
    }
    o.frames = lumped.integer("frames", o.frames, 1, 10000);
    // Keys of one model only: given for another model they would be silently ignored.
    for (const auto& [key, model] :
         {std::pair{"springs", "mdr"}, std::pair{"cells", "halfspace"},
          std::pair{"time_steps", "halfspace"}, std::pair{"dundurs_coupling", "halfspace"}})
      if (lumped.has(key) && o.model != model)
        lumped.fail(std::string("lumped.") + key, std::string("is an option of model \"") + model +
                                                      "\", but the model is \"" + o.model + "\"");
    o.springs = lumped.integer("springs", o.springs, 8, 100000);
    o.cells = lumped.integer("cells", o.cells, 4, 256);
    o.time_steps = lumped.integer("time_steps", o.time_steps, 10, 100000);
    o.dundurs_coupling = lumped.boolean("dundurs_coupling", o.dundurs_coupling);
    if ((o.model == "mdr" || o.model == "halfspace") && o.normal_law != "hertz")
      lumped.fail("lumped.normal_law", "is \"" + o.normal_law + "\" but model \"" + o.model +
                                           "\" has the elastic (Hertz) contact of the body; "
                                           "expected \"hertz\"");
    const bool dissipative = o.normal_law != "hertz";
    const bool rigid = o.model != "lai" && o.model != "uncoupled" && o.model != "uncoupled-euler" &&
                       o.model != "mdr" && o.model != "halfspace";
    if (dissipative && rigid)
      lumped.fail("lumped.normal_law", "is \"" + o.normal_law + "\" but model \"" + o.model +
                                           "\" is a rigid-body law without a normal spring; "
                                           "expected \"hertz\" or a compliant model");
    const bool needs_restitution = dissipative || o.model == "newton" || o.model == "poisson" ||
                                   o.model == "stronge" || o.model == "smith" || o.model == "brach";
    if (needs_restitution && !o.restitution)
      lumped.fail("lumped.restitution", "is missing; model \"" + o.model + "\" with normal_law \"" +
                                            o.normal_law +
                                            "\" needs a prescribed coefficient in (0, 1]");
    if (o.model == "brach" && !o.impulse_ratio)
      lumped.fail("lumped.impulse_ratio",
                  "is missing; model \"brach\" needs the ratio of "
                  "tangential to normal impulse (>= 0)");
  }

  // fem options
  if (top.has("fem")) {
    const ObjectReader fem(
        top.at("fem"), "fem", file,
        {"degree", "refinement", "contact_resolution", "cfl", "end_time", "frames"});
    FemOptions& o = result.fem;
    o.degree = fem.integer("degree", o.degree, 1, 2);
    o.refinement = fem.integer("refinement", o.refinement, 0, 8);
    if (auto r = fem.optional_number("contact_resolution")) {
      fem.require("contact_resolution", *r, *r >= 1 && *r <= 64,
                  "elements per contact radius in [1, 64]");
      o.contact_resolution = *r;
    }
    if (auto c = fem.optional_number("cfl")) {
      fem.require("cfl", *c, *c > 0 && *c <= 1, "a CFL factor in (0, 1]");
      o.cfl = *c;
    }
    if (auto t = fem.optional_number("end_time")) {
      fem.require("end_time", *t, *t > 0, "an end time > 0 s");
      o.end_time = *t;
    }
    o.frames = fem.integer("frames", o.frames, 1, 100000);
  }
  return result;
}

Case parse_case(const std::string& text, const std::string& source) {
  // The callback tracks the key path so that errors inside the text (number overflow, a
  // duplicated key) can name the key, as every other rejection does.
  std::vector<std::string> path;
  std::vector<std::set<std::string>> keys_seen(1);
  std::string duplicate;
  auto track = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      keys_seen.resize(static_cast<std::size_t>(depth) + 2);
      keys_seen[static_cast<std::size_t>(depth) + 1].clear();
    } else if (event == json::parse_event_t::key) {
      const std::size_t level = static_cast<std::size_t>(std::max(depth, 1));
      path.resize(level - 1);
      path.push_back(parsed.get<std::string>());
      if (keys_seen.size() <= level) keys_seen.resize(level + 1);
      if (!keys_seen[level].insert(path.back()).second && duplicate.empty()) {
        for (const auto& part : path) duplicate += (duplicate.empty() ? "" : ".") + part;
      }
    }
    return true;
  };
  auto joined = [&path] {
    std::string key;
    for (const auto& part : path) key += (key.empty() ? "" : ".") + part;
    return key.empty() ? std::string("<document>") : key;
  };
  json document;
  try {
    document = json::parse(text, track);
  } catch (const json::out_of_range& error) {
    // Number overflow: the value is not a finite double.
    throw CaseError(source, joined(),
                    "is not a finite number (" +
                        std::string(error.what()).substr(std::string(error.what()).find("] ") + 2) +
                        ")");
  } catch (const json::exception& error) {
    // nlohmann's message carries line and column.
    std::string what = error.what();
    const auto colon = what.find("]: ");
    throw CaseError(
        source, "<document>",
        "is not valid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 3)) +
            (path.empty() ? "" : " (after key " + joined() + ")"));
  }
  if (!duplicate.empty())
    throw CaseError(source, duplicate, "appears twice in the same object; expected each key once");
  return parse_case(document, source);
}

Case load_case(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseError(path, "<file>", "cannot be opened for reading");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw CaseError(path, "<file>", "could not be read");
  return parse_case(buffer.str(), path);
}

}  // namespace rebound::cases
