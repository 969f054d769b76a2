// Parser and validator of the case description. Every problem found is reported, one line each,
// naming the file, the key path, the offending value and what was expected; nothing required is
// ever defaulted. Each key is read in its own step: a problem ends that step only, so one run of
// `rebound check` lists them all. A problem that makes later checks meaningless (no body, an
// unknown shape, an unreadable number another check needs) skips the checks that depend on it.
// Once every key is valid, the quantities derived from them are checked (a capsule touching with
// its cap, finite mass properties and scales, a contact zone the FEM can mesh).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "cases/case.h"
#include "cases/derived.h"
#include "cases/normal_law_table.h"
#include "cases/socket.h"
#include "cases/spelling.h"

namespace rebound::cases {
namespace {

using json = nlohmann::json;

std::string describe(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
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

// The shortest text that reads back as the same double (0.6, not 0.59999999999999998).
std::string number_text(double value) {
  return json(value).dump();
}

std::string short_number(double value) {
  std::ostringstream text;
  text.precision(6);
  text << value;
  return text.str();
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
  std::string list;
  for (const auto& word : words) list += (list.empty() ? "" : separator) + word;
  return list;
}

// A key as it appears in a key path: itself when it is a plain word, else JSON-quoted (spaces,
// dots, control characters, invalid UTF-8 escaped) and cut to 60 characters, so that a problem
// stays one readable line whatever the key.
std::string display_key(const std::string& key) {
  const bool plain =
      !key.empty() && key.size() <= 60 && std::all_of(key.begin(), key.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '$';
      });
  return plain ? key : describe(json(key));
}

// Thrown by Problems::stop to end the current step; never escapes parse_case.
struct StepStopped {};

// The problems found so far in one document.
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }
  void add(const std::string& key, const std::string& message) {
    list_.push_back({key.empty() ? "\"\"" : key, message});
  }
  // Records the problem and ends the current step.
  [[noreturn]] void stop(const std::string& key, const std::string& message) {
    add(key, message);
    throw StepStopped{};
  }
  // Runs one step of the checks; a stop inside it ends that step only. True when the step found
  // no problem.
  bool step(const std::function<void()>& body) {
    const std::size_t before = list_.size();
    try {
      body();
    } catch (const StepStopped&) {
    }
    return list_.size() == before;
  }
  // Ends the current step without a problem of its own (those of its sub-steps are recorded).
  [[noreturn]] void stop_step() const { throw StepStopped{}; }
  bool empty() const { return list_.empty(); }
  [[noreturn]] void raise() const { throw CaseError(file_, list_); }

 private:
  std::string file_;
  std::vector<Problem> list_;
};

// An angle read from KEY (radians) or KEY_deg (degrees).
struct Angle {
  double radians = 0;
  std::string key;  // the key path given
  bool degrees = false;
  double given = 0;  // the value as written
};

// Reads one JSON object at a key path; records every key it does not know (with a suggestion)
// and stops the current step at the first problem of a value it is asked for.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path, Problems& problems,
               std::vector<std::string> allowed)
      : object_(object), path_(std::move(path)), problems_(problems), allowed_(std::move(allowed)) {
    if (!object_.is_object())
      stop(path_.empty() ? "<document>" : path_,
           "is " + describe(object_) + " (" + type_name(object_) + "), expected a JSON object");
    for (const auto& item : object_.items()) {
      if (std::find(allowed_.begin(), allowed_.end(), item.key()) != allowed_.end()) continue;
      problems_.add(key_path(item.key()), "is not a known key" +
                                              did_you_mean(item.key(), allowed_) +
                                              "; known keys here: " + joined(allowed_, ", "));
    }
  }

  [[noreturn]] void stop(const std::string& key, const std::string& problem) const {
    problems_.stop(key, problem);
  }
  std::string key_path(const std::string& key) const {
    return path_.empty() ? display_key(key) : path_ + "." + display_key(key);
  }
  bool has(const std::string& key) const { return object_.contains(key); }
  const json& at(const std::string& key) const { return object_.at(key); }
  bool known(const std::string& key) const {
    return std::find(allowed_.begin(), allowed_.end(), key) != allowed_.end();
  }

  double number(const std::string& key, const std::string& expected = "a number") const {
    if (!has(key)) stop(key_path(key), "is missing; expected " + expected);
    return as_number(key);
  }
  std::optional<double> optional_number(const std::string& key) const {
    if (!has(key)) return std::nullopt;
    return as_number(key);
  }
  std::string string(const std::string& key) const {
    if (!has(key)) stop(key_path(key), "is missing; expected a string");
    const json& value = object_.at(key);
    if (!value.is_string())
      stop(key_path(key),
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
      stop(key_path(key), "is " + describe(object_.at(key)) + "; expected one of " + list +
                              did_you_mean(value, choices));
    }
    return value;
  }
  int integer(const std::string& key, int fallback, int low, int high) const {
    if (!has(key)) return fallback;
    const double value = as_number(key);
    if (value != std::floor(value) || value < low || value > high)
      stop(key_path(key), "is " + describe(object_.at(key)) + "; expected an integer in [" +
                              std::to_string(low) + ", " + std::to_string(high) + "]");
    return static_cast<int>(value);
  }
  bool boolean(const std::string& key, bool fallback) const {
    if (!has(key)) return fallback;
    const json& value = object_.at(key);
    if (!value.is_boolean())
      stop(key_path(key),
           "is " + describe(value) + " (" + type_name(value) + "), expected true or false");
    return value.get<bool>();
  }
  // Range check with a human-readable statement of the expectation.
  void require(const std::string& key, double value, bool ok, const std::string& expected) const {
    if (!ok) stop(key_path(key), "is " + number_text(value) + "; expected " + expected);
  }

  // An angle in radians at `key` or in degrees at `key`_deg (one of them), with |angle| < 90
  // degrees (`non_negative`: in [0, 90) degrees). Empty when neither key is given.
  std::optional<Angle> angle(const std::string& key, bool non_negative) const {
    const std::string key_deg = key + "_deg";
    if (has(key) && has(key_deg))
      stop(key_path(key), "and " + key_path(key_deg) +
                              " are both given; expected one of them (radians or degrees)");
    if (!has(key) && !has(key_deg)) return std::nullopt;
    Angle a;
    a.degrees = has(key_deg);
    a.key = key_path(a.degrees ? key_deg : key);
    a.given = as_number(a.degrees ? key_deg : key);
    const double right = a.degrees ? 90.0 : M_PI / 2;
    const auto inside = [non_negative](double value, double limit) {
      return non_negative ? value >= 0 && value < limit : std::abs(value) < limit;
    };
    if (!inside(a.given, right)) {
      std::string expected =
          non_negative ? (a.degrees ? "an angle in [0, 90) degrees" : "an angle in [0, pi/2) rad")
                       : "|" + key + "| < " + (a.degrees ? "90 degrees" : "pi/2 rad");
      // 30 given as radians is far more likely 30 degrees than 30 rad.
      if (!a.degrees && inside(a.given, 90.0)) expected += " (did you mean " + key_deg + "?)";
      stop(a.key, "is " + number_text(a.given) + "; expected " + expected);
    }
    a.radians = a.degrees ? a.given * (M_PI / 180.0) : a.given;
    return a;
  }

 private:
  double as_number(const std::string& key) const {
    const json& value = object_.at(key);
    if (!value.is_number())
      stop(key_path(key),
           "is " + describe(value) + " (" + type_name(value) + "), expected a number");
    const double number = value.get<double>();
    if (!std::isfinite(number)) stop(key_path(key), "is not a finite number");
    return number;
  }

  const json& object_;
  std::string path_;
  Problems& problems_;
  std::vector<std::string> allowed_;
};

const std::vector<std::string> kShapes = {"sphere", "capsule", "disc", "shell", "hoop", "custom"};
const std::vector<std::string> kBodyKeys = {
    "shape",     "radius", "diameter",           "length",
    "thickness", "mass",   "radius_of_gyration", "contact_offset"};

// Which keys the file used where a quantity has two spellings (for messages about derived
// quantities), and the numbers the derived quantities follow from.
struct Spelling {
  std::string radius = "body.radius";
  std::optional<Angle> theta;                 // impact.theta / impact.theta_deg, when given
  std::string speed = "impact.normal_speed";  // impact.speed or impact.normal_speed
  double speed_given = 0;                     // its value
  struct Input {
    std::string key;
    double value;
    double typical;  // usual magnitude in SI (for naming the input that made a quantity overflow)
  };
  std::vector<Input> inputs;
};

// The name: it becomes a folder name (results/<name>/), so a short word of safe characters.
void check_name(const ObjectReader& top, const std::string& name) {
  const bool safe = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
           ch == '-';
  });
  if (!safe)
    top.stop("name", "is " + describe(json(name)) +
                         "; expected lower-case letters, digits, '.', '_' or '-' only "
                         "(it names the output folder)");
  if (name.size() > kMaxNameLength)
    top.stop("name", "is " + std::to_string(name.size()) + " characters long; expected at most " +
                         std::to_string(kMaxNameLength) +
                         " (it names the output folder, and a file name has a length limit)");
  if (name == "." || name == "..")
    top.stop("name", "is \"" + name + "\"; expected a folder name, not a path");
}

// body: returns false when the body could not be read (the checks that need it are skipped).
bool read_body(const ObjectReader& top, Problems& problems, Body& body, Spelling& spelling) {
  return problems.step([&] {
    if (!top.has("body"))
      top.stop("body", "is missing; expected an object with \"shape\" and \"radius\"");
    const ObjectReader probe(top.at("body"), "body", problems, kBodyKeys);
    // The shape decides which keys are allowed; without it nothing else can be checked.
    const std::string shape = probe.choice("shape", kShapes, std::nullopt);
    std::vector<std::string> allowed = {"shape", "radius", "diameter"};
    if (shape == "sphere") body.shape = Shape::sphere;
    if (shape == "capsule") body.shape = Shape::capsule, allowed.push_back("length");
    if (shape == "disc") body.shape = Shape::disc, allowed.push_back("thickness");
    if (shape == "shell") body.shape = Shape::shell, allowed.push_back("thickness");
    if (shape == "hoop") body.shape = Shape::hoop, allowed.push_back("thickness");
    if (shape == "custom") {
      body.shape = Shape::custom;
      allowed.insert(allowed.end(), {"mass", "radius_of_gyration", "contact_offset"});
    }
    for (const auto& item : top.at("body").items())
      if (probe.known(item.key()) &&
          std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
        problems.add("body." + item.key(), "is not used by shape \"" + shape +
                                               "\"; keys for this shape: " + joined(allowed, ", "));
    const bool radius_ok = problems.step([&] {
      const bool radius = probe.has("radius"), diameter = probe.has("diameter");
      if (radius && diameter)
        probe.stop("body.radius",
                   "and body.diameter are both given; expected one of them (diameter = 2 radius)");
      if (!radius && !diameter)
        probe.stop("body.radius", "is missing; expected a radius > 0 m (or body.diameter)");
      if (diameter) {
        const double d = probe.number("diameter");
        probe.require("diameter", d, d > 0, "a diameter > 0 m");
        body.radius = d / 2;
        spelling.radius = "body.diameter";
        spelling.inputs.push_back({"body.diameter", d, 1e-2});
      } else {
        body.radius = probe.number("radius");
        probe.require("radius", body.radius, body.radius > 0, "a radius > 0 m");
        spelling.inputs.push_back({"body.radius", body.radius, 1e-2});
      }
    });
    if (body.shape == Shape::capsule)
      problems.step([&] {
        body.length = probe.number("length", "the cylinder length > 0 m between the cap centres");
        probe.require("length", body.length, body.length > 0,
                      "a cylinder length > 0 m between the cap centres");
        spelling.inputs.push_back({"body.length", body.length, 1e-2});
      });
    if (body.shape == Shape::disc || body.shape == Shape::shell || body.shape == Shape::hoop)
      problems.step([&] {
        body.thickness = probe.number("thickness", "a thickness > 0 m");
        probe.require("thickness", body.thickness, body.thickness > 0, "a thickness > 0 m");
        spelling.inputs.push_back({"body.thickness", body.thickness, 1e-2});
        if (!radius_ok) return;
        if (body.shape == Shape::shell)
          probe.require("thickness", body.thickness, body.thickness < body.radius,
                        "a wall thickness below the radius " + short_number(body.radius) + " m");
        if (body.shape == Shape::hoop)
          probe.require("thickness", body.thickness, body.thickness <= body.radius,
                        "a wire diameter at most the hoop's outer radius " +
                            short_number(body.radius) +
                            " m (a thicker wire would cross the hoop's axis)");
      });
    if (body.shape == Shape::custom) {
      problems.step([&] {
        body.mass = probe.number("mass", "a mass > 0 kg");
        probe.require("mass", body.mass, body.mass > 0, "a mass > 0 kg");
        spelling.inputs.push_back({"body.mass", body.mass, 1.0});
      });
      problems.step([&] {
        body.radius_of_gyration =
            probe.number("radius_of_gyration", "a central radius of gyration > 0 m");
        probe.require("radius_of_gyration", body.radius_of_gyration, body.radius_of_gyration > 0,
                      "a central radius of gyration > 0 m");
        spelling.inputs.push_back({"body.radius_of_gyration", body.radius_of_gyration, 1e-2});
      });
      problems.step([&] {
        body.contact_offset = probe.number("contact_offset", "the distance |PG| >= 0 m");
        probe.require("contact_offset", body.contact_offset, body.contact_offset >= 0,
                      "a distance |PG| >= 0 m");
        if (body.contact_offset > 0)
          spelling.inputs.push_back({"body.contact_offset", body.contact_offset, 1e-2});
      });
    }
  });
}

void read_impact(const ObjectReader& top, Problems& problems, Case& result, bool body_ok,
                 bool material_ok, bool friction_ok, Spelling& spelling) {
  if (!top.has("impact"))
    top.stop("impact", "is missing; expected the velocity of P at first touch");
  const ObjectReader impact(
      top.at("impact"), "impact", problems,
      {"theta", "theta_deg", "speed", "incidence_angle", "incidence_angle_deg", "normal_speed",
       "tangential_speed", "psi1", "spin"});
  Impact& i = result.impact;
  const Body& body = result.body;
  problems.step([&] {
    spelling.theta = impact.angle("theta", false);
    if (spelling.theta) i.theta = spelling.theta->radians;
    if (!body_ok) return;  // whether theta is needed depends on the shape
    const std::string key = spelling.theta ? spelling.theta->key : "impact.theta";
    const std::string shape = to_string(body.shape);
    if (body.shape == Shape::capsule && !spelling.theta)
      impact.stop("impact.theta",
                  "is missing; a capsule needs the angle between PG and n (rad, "
                  "or impact.theta_deg in degrees)");
    if (body.shape == Shape::custom && body.contact_offset > 0 && !spelling.theta)
      impact.stop("impact.theta",
                  "is missing; a custom body with body.contact_offset > 0 needs the angle "
                  "between PG and n (rad, or impact.theta_deg in degrees)");
    if (!spelling.theta || i.theta == 0.0) return;
    if (body.shape == Shape::sphere || body.shape == Shape::shell)
      impact.stop(key, "is " + number_text(spelling.theta->given) + "; expected 0 for a " + shape +
                           " (its centre lies on the normal through P; the key may be left out)");
    if (body.shape == Shape::disc || body.shape == Shape::hoop)
      impact.stop(key, "is " + number_text(spelling.theta->given) + "; expected 0 for a " + shape +
                           " struck on its rim (its centre lies on the normal through P; the key "
                           "may be left out)");
    if (body.shape == Shape::custom && body.contact_offset == 0)
      impact.stop(key, "is " + number_text(spelling.theta->given) +
                           "; expected 0 when body.contact_offset is 0");
  });

  const bool speed_form =
      impact.has("speed") || impact.has("incidence_angle") || impact.has("incidence_angle_deg");
  const bool components_form = impact.has("tangential_speed");
  const bool psi_form = impact.has("psi1");
  const std::string forms_text =
      "exactly one velocity form: {\"speed\", \"incidence_angle\" (rad) or "
      "\"incidence_angle_deg\"} | {\"normal_speed\", \"tangential_speed\"} | {\"normal_speed\", "
      "\"psi1\"}";
  problems.step([&] {
    const int forms = int(speed_form) + int(components_form) + int(psi_form);
    if (forms == 0)
      impact.stop("impact", impact.has("normal_speed")
                                ? "has \"normal_speed\" alone; expected " + forms_text
                                : "has no velocity; expected " + forms_text);
    if (forms > 1) {
      std::string given;
      for (const char* key : {"speed", "incidence_angle", "incidence_angle_deg", "normal_speed",
                              "tangential_speed", "psi1"})
        if (impact.has(key)) given += (given.empty() ? "" : ", ") + std::string(key);
      impact.stop("impact", "mixes velocity forms (" + given + "); expected " + forms_text);
    }
    if (speed_form) {
      if (impact.has("normal_speed"))
        impact.stop(
            "impact.normal_speed",
            "cannot be combined with \"speed\"/\"incidence_angle\"; expected " + forms_text);
      double speed = 0;
      std::optional<Angle> alpha;
      const bool speed_ok = problems.step([&] {
        speed = impact.number("speed", "the approach speed of P > 0 m/s");
        impact.require("speed", speed, speed > 0, "an approach speed of P > 0 m/s");
      });
      const bool alpha_ok = problems.step([&] {
        alpha = impact.angle("incidence_angle", true);
        if (!alpha)
          impact.stop("impact.incidence_angle",
                      "is missing; expected the incidence angle in [0, pi/2) rad (or "
                      "impact.incidence_angle_deg in [0, 90) degrees)");
      });
      if (!speed_ok || !alpha_ok) return;
      i.normal_speed = speed * std::cos(alpha->radians);
      i.tangential_speed = speed * std::sin(alpha->radians);
      i.velocity_form = "speed";
      spelling.speed = "impact.speed";
      spelling.speed_given = speed;
      spelling.inputs.push_back({"impact.speed", speed, 1.0});
      return;
    }
    const bool normal_ok = problems.step([&] {
      i.normal_speed = impact.number("normal_speed", "the normal approach speed of P > 0 m/s");
      impact.require("normal_speed", i.normal_speed, i.normal_speed > 0,
                     "the normal approach speed of P > 0 m/s (v_n = -normal_speed)");
      spelling.speed_given = i.normal_speed;
      spelling.inputs.push_back({"impact.normal_speed", i.normal_speed, 1.0});
    });
    if (components_form) {
      i.tangential_speed = impact.number("tangential_speed");
      impact.require("tangential_speed", i.tangential_speed, i.tangential_speed >= 0,
                     "v_t >= 0 m/s (the incidence angle lies in [0, pi/2); use theta's sign "
                     "for the mirrored configuration)");
      i.velocity_form = "components";
      if (i.tangential_speed > 0)
        spelling.inputs.push_back({"impact.tangential_speed", i.tangential_speed, 1.0});
    } else {
      const double psi1 = impact.number("psi1");
      impact.require("psi1", psi1, psi1 >= 0, "Psi1 >= 0");
      if (!friction_ok || !material_ok || !normal_ok) return;
      if (result.contact.friction <= 0)
        impact.stop("impact.psi1",
                    "needs contact.friction > 0 (Psi1 = 2(1-nu)/(mu(2-nu)) tan "
                    "alpha is undefined for mu = 0); give tangential_speed instead");
      const double tan_alpha =
          psi1 / psi_scale(contact_pair(result.material, result.target).poisson_ratio,
                           result.contact.friction);
      i.tangential_speed = i.normal_speed * tan_alpha;
      i.velocity_form = "psi1";
      if (psi1 > 0) spelling.inputs.push_back({"impact.psi1", psi1, 1.0});
    }
  });
  problems.step([&] {
    if (auto spin = impact.optional_number("spin")) i.spin = *spin;
    if (i.spin != 0) spelling.inputs.push_back({"impact.spin", i.spin, 10.0});
  });
}

// lumped.restitution as a table {"flux_density": [...], "mean": [...], "std": [...]} (std
// optional): Phi >= 0 strictly increasing, R0 in [0, 1], sigma >= 0, the arrays of one length.
// Every problem is named by its key and element; nothing is clamped or sorted.
RestitutionTable read_restitution_table(const ObjectReader& lumped, Problems& problems) {
  const std::string path = "lumped.restitution";
  const ObjectReader table(lumped.at("restitution"), path, problems,
                           {"flux_density", "mean", "std"});
  RestitutionTable t;
  const auto numbers = [&](const std::string& key, const std::string& expected) {
    std::vector<double> values;
    const std::string where = path + "." + key;
    if (!table.has(key)) table.stop(where, "is missing; expected " + expected);
    const json& array = table.at(key);
    if (!array.is_array() || array.empty() || array.size() > kMaxTableNodes)
      table.stop(where, "is " + describe(array) + "; expected " + expected);
    for (std::size_t i = 0; i < array.size(); ++i) {
      const json& value = array[i];
      if (!value.is_number() || !std::isfinite(value.get<double>()))
        table.stop(where + "[" + std::to_string(i) + "]",
                   "is " + describe(value) + "; expected a finite number (" + expected + ")");
      values.push_back(value.get<double>());
    }
    return values;
  };
  const std::string nodes = "an array of 1 to " + std::to_string(kMaxTableNodes) + " numbers";
  std::size_t node_count = 0;  // known once flux_density is an array of numbers
  const bool flux_ok = problems.step([&] {
    t.flux_density = numbers("flux_density", nodes +
                                                 ": Bagrejev's energy-flux density Phi >= 0 "
                                                 "J/m^3 at the nodes, strictly increasing");
    node_count = t.flux_density.size();
    for (std::size_t i = 0; i < t.flux_density.size(); ++i) {
      const std::string key = path + ".flux_density[" + std::to_string(i) + "]";
      if (t.flux_density[i] < 0)
        table.stop(key, "is " + short_number(t.flux_density[i]) +
                            "; expected an energy-flux density Phi >= 0 J/m^3");
      if (i > 0 && !(t.flux_density[i] > t.flux_density[i - 1]))
        table.stop(key, "is " + short_number(t.flux_density[i]) + ", not above flux_density[" +
                            std::to_string(i - 1) + "] = " + short_number(t.flux_density[i - 1]) +
                            "; expected strictly increasing values (the nodes in order, each "
                            "once)");
    }
  });
  const auto same_length = [&](const std::string& key, const std::vector<double>& values) {
    if (node_count > 0 && values.size() != node_count)
      table.stop(path + "." + key, "has " + std::to_string(values.size()) +
                                       " values; expected one per flux_density node (" +
                                       std::to_string(node_count) + ")");
  };
  const bool mean_ok = problems.step([&] {
    t.mean = numbers("mean", nodes + ": the mean restitution R0 in [0, 1] at each node");
    same_length("mean", t.mean);
    for (std::size_t i = 0; i < t.mean.size(); ++i)
      if (!(t.mean[i] >= 0 && t.mean[i] <= 1))
        table.stop(path + ".mean[" + std::to_string(i) + "]",
                   "is " + number_text(t.mean[i]) + "; expected a mean restitution R0 in [0, 1]");
  });
  const bool std_ok = problems.step([&] {
    if (!table.has("std")) return;
    t.sigma = numbers("std", nodes +
                                 ": the deviation sigma >= 0 of the normal distribution "
                                 "(before it is cut to [0, 1]) at each node");
    same_length("std", t.sigma);
    for (std::size_t i = 0; i < t.sigma.size(); ++i)
      if (!(t.sigma[i] >= 0))
        table.stop(path + ".std[" + std::to_string(i) + "]",
                   "is " + number_text(t.sigma[i]) + "; expected a deviation sigma >= 0");
  });
  if (!flux_ok || !mean_ok || !std_ok) problems.stop_step();
  return t;
}

void read_lumped(const ObjectReader& top, Problems& problems, LumpedOptions& o) {
  const ObjectReader lumped(top.at("lumped"), "lumped", problems,
                            {"model", "normal_law", "lambda", "theta", "theta_deg", "restitution",
                             "restitution_calibration", "polynomial_index", "dissipative_constant",
                             "seed", "impulse_ratio", "relative_tolerance", "euler_step", "frames",
                             "springs", "cells", "time_steps", "dundurs_coupling"});
  const bool model_ok = problems.step(
      [&] { o.model = lumped.choice("model", lumped_model_names(), std::string("lai")); });
  const bool law_ok = problems.step([&] {
    o.normal_law = lumped.choice("normal_law", normal_law_names(), std::string("hertz"));
  });
  const bool index_ok = problems.step([&] {
    o.polynomial_index = lumped.integer("polynomial_index", o.polynomial_index, 1, 1000);
  });
  problems.step([&] {
    o.lambda = lumped.optional_number("lambda");
    if (o.lambda)
      lumped.require("lambda", *o.lambda, *o.lambda >= 0 && *o.lambda < 1, "lambda in [0, 1)");
  });
  problems.step([&] {
    if (const auto theta = lumped.angle("theta", false)) o.theta = theta->radians;
  });
  const bool restitution_ok = problems.step([&] {
    if (lumped.has("restitution") && lumped.at("restitution").is_object()) {
      o.restitution_table = read_restitution_table(lumped, problems);
      return;
    }
    o.restitution = lumped.optional_number("restitution");
    if (o.restitution)
      lumped.require("restitution", *o.restitution, *o.restitution > 0 && *o.restitution <= 1,
                     "a coefficient of restitution in (0, 1] (or a table {\"flux_density\": "
                     "[...], \"mean\": [...], \"std\": [...]})");
  });
  problems.step([&] {
    if (!lumped.has("seed")) return;
    const json& value = lumped.at("seed");
    const double seed = value.is_number() ? value.get<double>() : -1;
    if (!value.is_number() || seed != std::floor(seed) || seed < 0 || seed > kMaxSeed)
      lumped.stop("lumped.seed", "is " + describe(value) +
                                     "; expected an integer in [0, 9007199254740991] (2^53 - 1)");
    o.seed =
        value.is_number_unsigned() ? value.get<std::uint64_t>() : static_cast<std::uint64_t>(seed);
  });
  const bool calibration_ok = problems.step([&] {
    o.restitution_calibration =
        lumped.choice("restitution_calibration", {"exact", "published"}, std::string("exact"));
  });
  const bool constant_ok = problems.step([&] {
    o.dissipative_constant = lumped.optional_number("dissipative_constant");
    if (o.dissipative_constant)
      lumped.require("dissipative_constant", *o.dissipative_constant,
                     *o.dissipative_constant >= 0 && std::isfinite(*o.dissipative_constant),
                     "a dissipative constant A >= 0 s (normal_law \"viscoelastic\")");
  });
  problems.step([&] {
    o.impulse_ratio = lumped.optional_number("impulse_ratio");
    if (o.impulse_ratio)
      lumped.require("impulse_ratio", *o.impulse_ratio, *o.impulse_ratio >= 0,
                     "an impulse ratio >= 0");
  });
  problems.step([&] {
    if (auto rtol = lumped.optional_number("relative_tolerance")) {
      lumped.require("relative_tolerance", *rtol, *rtol >= 1e-13 && *rtol <= 1e-2,
                     "a relative tolerance in [1e-13, 1e-2]");
      o.relative_tolerance = *rtol;
    }
  });
  problems.step([&] {
    if (auto h = lumped.optional_number("euler_step")) {
      lumped.require("euler_step", *h, *h > 0 && *h <= 0.1,
                     "a non-dimensional Euler step in (0, 0.1]");
      o.euler_step = *h;
    }
  });
  problems.step([&] { o.frames = lumped.integer("frames", o.frames, 1, 10000); });
  problems.step([&] { o.springs = lumped.integer("springs", o.springs, 8, 100000); });
  problems.step([&] { o.cells = lumped.integer("cells", o.cells, 4, 256); });
  problems.step([&] { o.time_steps = lumped.integer("time_steps", o.time_steps, 10, 100000); });
  problems.step(
      [&] { o.dundurs_coupling = lumped.boolean("dundurs_coupling", o.dundurs_coupling); });
  if (!model_ok) return;
  // Keys of one model only: given for another model they would be silently ignored.
  for (const ModelOption& option : kModelOptions)
    if (lumped.has(option.key) && o.model != option.model)
      problems.add(std::string("lumped.") + option.key,
                   std::string("is an option of model \"") + option.model +
                       "\", but the model is \"" + o.model + "\"");
  if (!law_ok) return;
  const NormalLawEntry& law = normal_law_entry(o.normal_law);
  if (index_ok && lumped.has("polynomial_index") && !law.polynomial_index)
    problems.add("lumped.polynomial_index",
                 "is Steuermann's polynomial index of normal_law \"liu\" or \"wang-gao\" (a "
                 "spherical socket), but the normal_law is \"" +
                     o.normal_law + "\"");
  // The laws' own constants (thornton's material.yield_stress is checked with the material).
  const bool takes_constant =
      law.constant != nullptr && std::string(law.constant) == "lumped.dissipative_constant";
  if (constant_ok && lumped.has("dissipative_constant") && !takes_constant)
    problems.add("lumped.dissipative_constant",
                 "is the dissipative constant A of normal_law \"viscoelastic\", but the "
                 "normal_law is \"" +
                     o.normal_law + "\"");
  if (takes_constant && !lumped.has("dissipative_constant"))
    problems.add("lumped.dissipative_constant",
                 "is missing; normal_law \"" + o.normal_law + "\" needs " + law.constant_meaning);
  if (law.restitution == LawRestitution::refused && restitution_ok &&
      (o.restitution || o.restitution_table))
    problems.add("lumped.restitution",
                 "is given, but normal_law \"" + o.normal_law +
                     "\" takes no prescribed restitution: its dissipation follows from " +
                     law.constant +
                     " and the impact (the restitution is a result); expected no "
                     "lumped.restitution, or a normal_law that takes one (hunt-crossley, "
                     "lankarani-nikravesh, flores, michalczyk)");
  problems.step([&] {
    const LumpedModel& model = lumped_model(o.model);
    if (model.normal_contact == NormalContact::elastic_body && o.normal_law != "hertz")
      lumped.stop("lumped.normal_law", "is \"" + o.normal_law + "\" but model \"" + o.model +
                                           "\" has the elastic (Hertz) contact of the body; "
                                           "expected \"hertz\"");
    const bool calibrated = calibrated_normal_law(o);
    const bool rigid = model.normal_contact == NormalContact::rigid_body_law;
    if (o.normal_law != "hertz" && rigid)
      lumped.stop("lumped.normal_law", "is \"" + o.normal_law + "\" but model \"" + o.model +
                                           "\" is a rigid-body law without a normal spring; "
                                           "expected \"hertz\" or a compliant model");
    const bool needs_restitution = law.restitution == LawRestitution::required || rigid;
    const bool given = o.restitution || o.restitution_table;
    if (needs_restitution && !given && restitution_ok)
      lumped.stop("lumped.restitution", "is missing; model \"" + o.model + "\" with normal_law \"" +
                                            o.normal_law +
                                            "\" needs a prescribed coefficient in (0, 1]");
    // restitution_calibration: how a dissipative law of Lai's model takes its damping from e.
    if (lumped.has("restitution_calibration") && (!model.calibrates_restitution || !calibrated)) {
      std::string calibrating;  // the models that calibrate, quoted
      for (const LumpedModel& m : lumped_models())
        if (m.calibrates_restitution)
          calibrating += (calibrating.empty() ? "\"" : " or \"") + std::string(m.name) + "\"";
      problems.add(
          "lumped.restitution_calibration",
          "applies to model " + calibrating +
              " with a dissipative normal_law (hunt-crossley, lankarani-nikravesh, "
              "flores, michalczyk; wang-gao with lumped.restitution), but the model is "
              "\"" +
              o.model + "\" with normal_law \"" + o.normal_law +
              (law.restitution == LawRestitution::optional ? "\" without lumped.restitution"
               : law.restitution == LawRestitution::refused
                   ? "\", which takes no restitution to calibrate (its dissipation follows from " +
                         std::string(law.constant) + ")"
                   : "\""));
    }
    if (lumped.has("seed") && restitution_ok &&
        !(o.restitution_table && o.restitution_table->random()))
      problems.add(
          "lumped.seed",
          std::string("is given, but lumped.restitution is ") +
              (o.restitution_table ? "a deterministic table (no \"std\" > 0)" : "not a table") +
              ": nothing is drawn; expected lumped.restitution {\"flux_density\": "
              "[...], \"mean\": [...], \"std\": [...]} with a std > 0, or no "
              "lumped.seed");
    // A dissipative law's damping grows without bound as R -> 0 (the scalar's (0, 1] and the
    // viscous laws' exact calibration limit below): every node's mean must reach it.
    if (o.restitution_table && calibrated) {
      const bool exact = law.viscous && calibration_ok && o.restitution_calibration == "exact";
      const std::string least = exact ? ">= " + short_number(kMinimumCalibratedRestitution) : "> 0";
      const auto& mean = o.restitution_table->mean;
      for (std::size_t i = 0; i < mean.size(); ++i)
        if (!(mean[i] > 0 && (!exact || mean[i] >= kMinimumCalibratedRestitution))) {
          problems.add("lumped.restitution.mean[" + std::to_string(i) + "]",
                       "is " + short_number(mean[i]) + "; normal_law \"" + o.normal_law + "\"" +
                           (exact ? " with restitution_calibration \"exact\"" : "") +
                           " restitutes R " + least +
                           " only (its damping grows without bound as R -> 0): expected a mean " +
                           least);
          break;
        }
    }
    if (law.viscous && model.calibrates_restitution && calibration_ok &&
        o.restitution_calibration == "exact" && o.restitution &&
        *o.restitution < kMinimumCalibratedRestitution)
      problems.add("lumped.restitution",
                   "is " + short_number(*o.restitution) + ", below " +
                       short_number(kMinimumCalibratedRestitution) +
                       ", the smallest e that normal_law \"" + o.normal_law +
                       "\" reaches with restitution_calibration \"exact\": the damping grows "
                       "like 1/e and the contact never ends as e -> 0 (the body creeps out at "
                       "the speed e); give e >= " +
                       short_number(kMinimumCalibratedRestitution) +
                       " or restitution_calibration \"published\" (the law's closed form)");
    // A required option given with an invalid value is reported by its own step.
    for (const ModelOption& option : kModelOptions)
      if (option.required != nullptr && o.model == option.model && !lumped.has(option.key))
        lumped.stop(std::string("lumped.") + option.key,
                    "is missing; model \"" + o.model + "\" needs " + option.required);
  });
}

void read_fem(const ObjectReader& top, Problems& problems, FemOptions& o) {
  const ObjectReader fem(
      top.at("fem"), "fem", problems,
      {"degree", "refinement", "contact_resolution", "cfl", "end_time", "frames", "block_size"});
  problems.step([&] { o.degree = fem.integer("degree", o.degree, 1, 2); });
  problems.step([&] { o.refinement = fem.integer("refinement", o.refinement, 0, 8); });
  problems.step([&] {
    if (auto r = fem.optional_number("contact_resolution")) {
      fem.require("contact_resolution", *r, *r >= 1 && *r <= 64,
                  "elements per contact radius in [1, 64]");
      o.contact_resolution = *r;
    }
  });
  problems.step([&] {
    if (auto c = fem.optional_number("cfl")) {
      fem.require("cfl", *c, *c > 0 && *c <= kMaxCfl,
                  "a CFL factor in (0, " + short_number(kMaxCfl) +
                      "] (the FEM's time step is cfl times its estimate of the stability limit "
                      "of central differences, an estimate from below: cfl = 1 is unstable)");
      o.cfl = *c;
    }
  });
  problems.step([&] {
    if (auto t = fem.optional_number("end_time")) {
      fem.require("end_time", *t, *t > 0, "an end time > 0 s");
      o.end_time = *t;
    }
  });
  problems.step([&] { o.frames = fem.integer("frames", o.frames, 1, 100000); });
  problems.step([&] {
    if (auto b = fem.optional_number("block_size")) {
      fem.require("block_size", *b, *b > 0 && std::isfinite(*b),
                  "the half-width and depth > 0 m of the block meshed for an elastic half-space");
      o.block_size = *b;
    }
  });
}

// A value of `key` as the user wrote it (degrees for a _deg key).
std::string angle_text(const Angle& a, double radians) {
  return a.degrees ? short_number(radians * 180.0 / M_PI) + " degrees"
                   : short_number(radians) + " rad";
}

// The derived quantities, once every key is valid: a capsule that touches with its cap, finite
// quantities, a contact zone the FEM can mesh.
void check_derived(const Case& c, const Spelling& spelling, Problems& problems) {
  const Body& body = c.body;
  if (body.shape == Shape::capsule) {
    const Angle& theta = *spelling.theta;  // required for a capsule
    const double cap = capsule_theta_limit(body.radius, body.length);
    const std::string geometry =
        "for " + spelling.radius + " " +
        short_number(spelling.radius == "body.diameter" ? 2 * body.radius : body.radius) +
        " m and body.length " + short_number(body.length) + " m";
    if (!(std::abs(c.impact.theta) < cap))
      problems.stop(theta.key,
                    "is " + number_text(theta.given) + "; expected |theta| < atan(L/(2R)) = " +
                        angle_text(theta, cap) + " " + geometry +
                        ": beyond it the capsule touches the plane with its cylinder, not with a "
                        "cap (no contact point P on a cap; a smaller radius or a longer body "
                        "allows a larger angle)");
    const double mesh = capsule_theta_for_axis_angle(body.radius, body.length, kMeshMaxAxisAngle);
    if (!(std::abs(c.impact.theta) < mesh))
      problems.stop(theta.key, "is " + number_text(theta.given) + "; expected |theta| < " +
                                   angle_text(theta, mesh) + " " + geometry +
                                   ": the capsule's axis must make less than 0.45 pi (81 "
                                   "degrees) with n for the FEM's contact mesh");
  }

  const Derived d = derive(c);
  for (const DerivedValue& v : derived_values(c, d)) {
    if (std::isfinite(v.value) && (!v.positive || v.value > 0)) continue;
    // Name the input farthest from its usual magnitude (the one that overflowed or underflowed
    // the quantity) and list the others.
    const Spelling::Input* worst = nullptr;
    double distance = -1;
    std::vector<std::string> keys;
    for (const auto& input : spelling.inputs) {
      keys.push_back(input.key);
      const double from_usual = std::abs(std::log10(std::abs(input.value) / input.typical));
      if (from_usual > distance) distance = from_usual, worst = &input;
    }
    const std::string key = worst ? worst->key : "<document>";
    problems.stop(key, (worst ? "is " + number_text(worst->value) + ": with it the " : "gives ") +
                           std::string(v.name) + " comes out as " + short_number(v.value) +
                           (*v.unit ? std::string(" ") + v.unit : "") +
                           (v.positive ? ", not a finite number > 0" : ", not a finite number") +
                           " (from " + joined(keys, ", ") +
                           "); expected values whose derived quantities are finite");
  }

  // The socket's contact zone is conformal (the point of its laws): fem_target_problem checks it
  // against what the FEM meshes on the ball.
  if (c.target.socket()) return;
  const double phi = body_axis_angle(body, c.impact.theta);
  const double body_limit = mesh_contact_radius_limit(body.radius, phi);
  // A target sphere bounds the contact as the body does: a_max <= pi R2 / 12.
  const double target_limit =
      c.target.moves() ? mesh_contact_radius_limit(c.target.radius, 0.0) : body_limit;
  const double limit = std::min(body_limit, target_limit);
  const double a = d.hertz.contact_radius;
  if (a > limit) {
    // a_max grows as v_n^(2/5) (Hertz): the normal speed at which a_max reaches the limit.
    const double scale = std::pow(limit / a, 2.5);
    problems.stop(spelling.speed,
                  "is " + number_text(spelling.speed_given) + "; expected at most " +
                      short_number(spelling.speed_given * scale) +
                      " m/s for this body and material: the Hertz contact radius a_max = " +
                      short_number(a) + " m exceeds " + short_number(limit) +
                      (target_limit < body_limit
                           ? " m = pi R2/12 of the target sphere (target.radius); beyond it "
                             "Hertz's small-contact assumption a_max << R2 fails for every model"
                           : " m = R (pi/2 - |phi|)/6, the largest contact zone (3 a_max around "
                             "P) the FEM can mesh on the touching cap; beyond it Hertz's "
                             "small-contact assumption a_max << R fails for every model"));
  } else if (c.material.model == MaterialModel::elastic_plastic &&
             d.thornton.contact_zone_radius > limit) {
    // The plastic contact outgrows Hertz's (ThorntonScales::contact_zone_radius): the largest
    // normal speed whose zone fits, by bisection (the zone grows with the speed).
    const HertzScales& h = d.hertz;
    const auto zone = [&](double v) {
      return thornton_scales(hertz_scales(h.contact_modulus, h.radius, h.normal_mass, v),
                             *c.material.yield_stress)
          .contact_zone_radius;
    };
    double low = 0, high = h.normal_speed;
    for (int k = 0; k < 200 && high - low > 1e-12 * high; ++k)
      (zone(0.5 * (low + high)) <= limit ? low : high) = 0.5 * (low + high);
    problems.stop(spelling.speed,
                  "is " + number_text(spelling.speed_given) + "; expected at most " +
                      short_number(spelling.speed_given * low / h.normal_speed) +
                      " m/s for this elastic-plastic body (material.model): the contact zone of "
                      "Thornton's plastic impact, " +
                      short_number(d.thornton.contact_zone_radius) + " m, exceeds " +
                      short_number(limit) +
                      " m = R (pi/2 - |phi|)/6, the largest contact zone the FEM can mesh on the "
                      "touching cap");
  }
}

// The ball in a socket: a sphere smaller than the socket.
void check_socket(const Case& c, bool body_ok, const Spelling& spelling, Problems& problems) {
  if (!body_ok) return;
  if (c.body.shape != Shape::sphere)
    problems.stop("body.shape", "is \"" + std::string(to_string(c.body.shape)) +
                                    "\"; target.type \"spherical_socket\" holds a ball: expected "
                                    "\"sphere\"");
  if (!(c.target.radius > c.body.radius)) {
    const double r2 = c.body.radius;
    problems.stop("target.radius", "is " + number_text(c.target.radius) +
                                       "; expected a socket radius R1 larger than "
                                       "the ball's " +
                                       spelling.radius + " R2 = " + short_number(r2) +
                                       " m (the clearance dR = R1 - R2 = " +
                                       short_number(c.target.radius - r2) + " m must be > 0)");
  }
}

// A normal law or model that does not apply to the case's target, naming both keys.
void check_target_law(const Case& c, Problems& problems) {
  const LumpedOptions& o = c.lumped;
  const std::string target = "target.type \"" + std::string(to_string(c.target.type)) + "\"";
  const NormalLawEntry& law = normal_law_entry(o.normal_law);
  if (!applies_to(law, c.target))
    problems.add("lumped.normal_law",
                 "is \"" + o.normal_law + "\", which does not apply to " + target +
                     (law.on_socket ? " (it is a law of the ball in a spherical socket)"
                                    : " (it is a law of the plane)") +
                     "; expected one of " + normal_laws_on(c.target, " | ") +
                     (law.on_socket ? ", or target.type \"spherical_socket\""
                                    : ", or target.type \"rigid_plane\""));
  const LumpedModel& model = lumped_model(o.model);
  if (c.target.socket() && !model.takes_socket) {
    std::string models;
    for (const LumpedModel& m : lumped_models())
      if (m.takes_socket) models += (models.empty() ? "\"" : ", \"") + std::string(m.name) + "\"";
    problems.add("lumped.model", "is \"" + o.model + "\", which does not apply to " + target +
                                     " (its bed of springs is the paraboloid on a plane); "
                                     "expected one of " +
                                     models);
  }
}

void read_document(const json& document, Problems& problems, Case& result) {
  const ObjectReader top(document, "", problems,
                         {"$schema", "name", "description", "body", "material", "target", "contact",
                          "impact", "lumped", "fem"});
  Spelling spelling;

  // "$schema": the schema an editor validates the file with (e.g. cases/case.schema.json).
  problems.step([&] {
    if (top.has("$schema")) top.string("$schema");
  });

  problems.step([&] {
    result.name = top.string("name");
    check_name(top, result.name);
  });
  problems.step([&] {
    if (top.has("description")) result.description = top.string("description");
  });

  const bool body_ok = read_body(top, problems, result.body, spelling);

  bool nu_ok = false;
  bool yield_stress_given = false;  // (a bad value is reported as such, not as missing)
  const bool material_ok = problems.step([&] {
    if (!top.has("material"))
      top.stop("material",
               "is missing; expected {\"young_modulus\", \"poisson_ratio\", \"density\"}");
    const ObjectReader material(top.at("material"), "material", problems,
                                {"model", "young_modulus", "poisson_ratio", "density",
                                 "yield_stress", "relaxation_strength", "relaxation_time"});
    Material& m = result.material;
    problems.step([&] {
      const std::string model = material.choice(
          "model", {"elastic", "elastic-plastic", "viscoelastic"}, std::string("elastic"));
      m.model = model == "elastic"           ? MaterialModel::elastic
                : model == "elastic-plastic" ? MaterialModel::elastic_plastic
                                             : MaterialModel::viscoelastic;
    });
    problems.step([&] {
      m.young_modulus = material.number("young_modulus", "Young's modulus E > 0 Pa");
      material.require("young_modulus", m.young_modulus, m.young_modulus > 0, "E > 0 Pa");
      spelling.inputs.push_back({"material.young_modulus", m.young_modulus, 1e10});
    });
    nu_ok = problems.step([&] {
      m.poisson_ratio = material.number("poisson_ratio", "a Poisson ratio in (-1, 0.5)");
      material.require("poisson_ratio", m.poisson_ratio,
                       m.poisson_ratio > -1 && m.poisson_ratio < 0.5,
                       "a Poisson ratio in (-1, 0.5)");
    });
    problems.step([&] {
      m.density = material.number("density", "a density > 0 kg/m^3");
      material.require("density", m.density, m.density > 0, "a density > 0 kg/m^3");
      spelling.inputs.push_back({"material.density", m.density, 3e3});
    });
    problems.step([&] {
      yield_stress_given = material.has("yield_stress");
      m.yield_stress = material.optional_number("yield_stress");
      if (m.yield_stress)
        material.require("yield_stress", *m.yield_stress, *m.yield_stress > 0,
                         "a yield stress Y > 0 Pa (optional: for the yield warning, "
                         "normal_law \"thornton\" and material.model \"elastic-plastic\")");
      else if (m.model == MaterialModel::elastic_plastic)
        material.stop("material.yield_stress",
                      "is missing; material.model \"elastic-plastic\" needs the von Mises yield "
                      "stress Y > 0 Pa");
    });
    // The standard linear solid's constants: required by material.model "viscoelastic",
    // refused with any other model (they would be silently ignored).
    const auto viscous = [&](const char* key, std::optional<double>& value, const char* expected) {
      problems.step([&] {
        const std::string path = std::string("material.") + key;
        if (m.model != MaterialModel::viscoelastic) {
          if (material.has(key))
            material.stop(path, std::string("is given with material.model \"") +
                                    to_string(m.model) +
                                    "\"; expected material.model \"viscoelastic\" with it, or "
                                    "no material." +
                                    key);
          return;
        }
        if (!material.has(key))
          material.stop(
              path, std::string("is missing; material.model \"viscoelastic\" needs ") + expected);
        value = material.number(key, expected);
        material.require(key, *value, *value > 0 && std::isfinite(*value), expected);
      });
    };
    viscous("relaxation_strength", m.relaxation_strength,
            "the relaxation strength g > 0 (glassy modulus (1 + g) E)");
    viscous("relaxation_time", m.relaxation_time, "the relaxation time tau > 0 s");
  });

  const bool target_ok = problems.step([&] {
    if (!top.has("target")) return;
    const ObjectReader target(
        top.at("target"), "target", problems,
        {"type", "material", "radius", "outer_radius", "thickness", "half_width", "edge"});
    const std::string type = target.choice(
        "type", {"rigid_plane", "elastic_halfspace", "spherical_socket", "sphere", "elastic_plate"},
        std::string("rigid_plane"));
    Target& t = result.target;
    const bool sphere = type == "sphere", plate = type == "elastic_plate";
    for (const char* key : {"thickness", "half_width", "edge"})
      if (!plate && target.has(key))
        problems.add(std::string("target.") + key,
                     "is given for target.type \"" + type +
                         "\", which is not a plate; expected target.type \"elastic_plate\" with "
                         "it, or no target." +
                         key);
    if (type != "spherical_socket" && !sphere && target.has("radius"))
      problems.add("target.radius", "is given for target.type \"" + type +
                                        "\", which has no radius; expected target.type "
                                        "\"spherical_socket\" or \"sphere\" with it, or no "
                                        "target.radius");
    const bool socket = type == "spherical_socket";
    if (!socket && target.has("outer_radius"))
      problems.add("target.outer_radius",
                   "is given for target.type \"" + type +
                       "\", which has no outer radius; expected target.type \"spherical_socket\" "
                       "with target.material, or no target.outer_radius");
    if (type == "rigid_plane") {
      t.type = TargetType::rigid_plane;
      if (target.has("material"))
        target.stop("target.material",
                    "is given for target.type \"rigid_plane\", which has no material; expected "
                    "target.type \"elastic_halfspace\", \"sphere\", \"elastic_plate\" or "
                    "\"spherical_socket\" with it, or no target.material");
      return;
    }
    if (socket) {
      t.type = TargetType::spherical_socket;
      problems.step([&] {
        t.radius = target.number("radius", "the socket's radius R1 > body.radius (m)");
        target.require("radius", t.radius, t.radius > 0 && std::isfinite(t.radius),
                       "the socket's radius R1 > 0 m, larger than the ball's body.radius");
        spelling.inputs.push_back({"target.radius", t.radius, 1e-2});
      });
      // Without a material the socket is rigid (the pair's E* is the ball's).
      if (!target.has("material")) {
        if (target.has("outer_radius"))
          problems.add("target.outer_radius",
                       "is given for a rigid socket (no target.material); expected "
                       "target.material with it (an elastic socket), or no target.outer_radius");
        return;
      }
      // An elastic socket: the shell R1 < r < R_o the FEM meshes, held at r = R_o.
      problems.step([&] {
        t.outer_radius = target.number(
            "outer_radius", "the elastic socket's outer radius R_o > target.radius R1 (m)");
        target.require("outer_radius", t.outer_radius,
                       std::isfinite(t.outer_radius) && t.outer_radius > t.radius,
                       "the elastic socket's outer radius R_o > target.radius R1 = " +
                           number_text(t.radius) + " m");
      });
    }
    if (!socket)
      t.type = sphere  ? TargetType::sphere
               : plate ? TargetType::elastic_plate
                       : TargetType::elastic_halfspace;
    if (plate) {
      // The plate's geometry (fem/targets/elastic_plate.h checks it against the contact zone).
      problems.step([&] {
        t.thickness = target.number("thickness", "the plate's thickness h > 0 m");
        target.require("thickness", t.thickness, t.thickness > 0 && std::isfinite(t.thickness),
                       "the plate's thickness h > 0 m");
      });
      problems.step([&] {
        t.half_width = target.number(
            "half_width", "the plate's half-width L > 0 m (the square [-L, L]^2 around P)");
        target.require("half_width", t.half_width, t.half_width > 0 && std::isfinite(t.half_width),
                       "the plate's half-width L > 0 m (the square [-L, L]^2 around P)");
      });
      problems.step([&] {
        t.edge = target.choice("edge", {"free", "clamped"}, std::string("free")) == "clamped"
                     ? PlateEdge::clamped
                     : PlateEdge::free;
      });
    }
    // The sphere's radius R2 (a problem of its own: the material is read as well).
    if (sphere)
      problems.step([&] {
        t.radius = target.number("radius", "the target sphere's radius R2 > 0 m");
        target.require("radius", t.radius, t.radius > 0 && std::isfinite(t.radius),
                       "the target sphere's radius R2 > 0 m");
        spelling.inputs.push_back({"target.radius", t.radius, 1e-2});
      });
    const std::string what = sphere   ? "the target sphere"
                             : plate  ? "the elastic plate"
                             : socket ? "the elastic socket"
                                      : "the elastic half-space";
    const bool massive = sphere || plate || socket;  // its density is required
    if (!target.has("material"))
      target.stop("target.material",
                  std::string("is missing; expected {\"young_modulus\", \"poisson_ratio\", ") +
                      (massive ? "\"density\"}" : "[\"density\"]}") + " of " + what);
    const ObjectReader material(target.at("material"), "target.material", problems,
                                {"young_modulus", "poisson_ratio", "density"});
    problems.step([&] {
      t.young_modulus = material.number("young_modulus", "the target's Young's modulus E > 0 Pa");
      material.require("young_modulus", t.young_modulus, t.young_modulus > 0, "E > 0 Pa");
      spelling.inputs.push_back({"target.material.young_modulus", t.young_modulus, 1e10});
    });
    problems.step([&] {
      t.poisson_ratio = material.number("poisson_ratio", "a Poisson ratio in (-1, 0.5)");
      material.require("poisson_ratio", t.poisson_ratio,
                       t.poisson_ratio > -1 && t.poisson_ratio < 0.5,
                       "a Poisson ratio in (-1, 0.5)");
    });
    problems.step([&] {
      if (massive) {
        // The free sphere's mass and inertia enter the pair (cases::derive); the plate's mass
        // its flexure; the socket's its waves in the FEM.
        const std::string expected =
            (sphere  ? "the target sphere's"
             : plate ? "the plate's"
                     : "the socket's") +
            std::string(" density > 0 kg/m^3 (its mass enters the impact)");
        t.density = material.number("density", expected);
        material.require("density", *t.density, *t.density > 0 && std::isfinite(*t.density),
                         expected);
        spelling.inputs.push_back({"target.material.density", *t.density, 3e3});
        return;
      }
      t.density = material.optional_number("density");
      if (t.density)
        material.require("density", *t.density, *t.density > 0,
                         "a density > 0 kg/m^3 (optional: the half-space is infinitely massive)");
    });
  });

  const bool friction_ok = problems.step([&] {
    if (!top.has("contact")) top.stop("contact", "is missing; expected {\"friction\": mu}");
    const ObjectReader contact(top.at("contact"), "contact", problems, {"friction"});
    result.contact.friction = contact.number("friction", "a Coulomb friction coefficient >= 0");
    contact.require("friction", result.contact.friction, result.contact.friction >= 0,
                    "a Coulomb friction coefficient >= 0");
    if (result.contact.friction > 0)
      spelling.inputs.push_back({"contact.friction", result.contact.friction, 0.3});
  });

  problems.step([&] {
    read_impact(top, problems, result, body_ok, material_ok && nu_ok && target_ok, friction_ok,
                spelling);
  });
  problems.step([&] {
    if (top.has("lumped")) read_lumped(top, problems, result.lumped);
  });
  problems.step([&] {
    if (top.has("fem")) read_fem(top, problems, result.fem);
  });

  if (target_ok && result.target.socket())
    problems.step([&] { check_socket(result, body_ok, spelling, problems); });
  if (target_ok && result.fem.block_size && result.target.type != TargetType::elastic_halfspace)
    problems.add("fem.block_size",
                 std::string("is given for target.type \"") + to_string(result.target.type) +
                     "\", which the FEM does not mesh as a block: expected target.type "
                     "\"elastic_halfspace\" with it, or no fem.block_size");
  if (target_ok && top.has("lumped")) problems.step([&] { check_target_law(result, problems); });
  // A law that needs material.yield_stress (thornton).
  if (material_ok && top.has("lumped") && !yield_stress_given) {
    const NormalLawEntry& law = normal_law_entry(result.lumped.normal_law);
    if (law.constant != nullptr && std::string(law.constant) == "material.yield_stress")
      problems.add("material.yield_stress", "is missing; lumped.normal_law \"" +
                                                result.lumped.normal_law + "\" needs " +
                                                law.constant_meaning);
  }

  if (problems.empty()) problems.step([&] { check_derived(result, spelling, problems); });
}

// Depth of nested objects/arrays, without recursion (a hostile document may be deeper than the
// stack), stopping once it exceeds `limit`.
int nesting_depth(const json& document, int limit) {
  std::vector<std::pair<const json*, int>> stack = {{&document, 1}};
  int deepest = 0;
  while (!stack.empty()) {
    const auto [value, depth] = stack.back();
    stack.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const auto& child : *value) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

std::string too_deep() {
  return "nests objects and arrays more than " + std::to_string(kMaxNesting) +
         " levels deep; expected a case description (3 levels)";
}

Case parse_document(const json& document, const std::string& file, Problems& problems) {
  if (nesting_depth(document, kMaxNesting) > kMaxNesting)
    throw CaseError(file, "<document>", too_deep());
  Case result;
  result.source = file;
  problems.step([&] { read_document(document, problems, result); });
  if (!problems.empty()) problems.raise();
  result.raw = document;
  return result;
}

// Thrown by the parse callback when the document nests too deeply.
struct TooDeep {
  std::string key;
};

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

namespace {
std::string error_lines(const std::string& file, const std::vector<Problem>& problems) {
  std::string text;
  for (const Problem& p : problems)
    text += (text.empty() ? "" : "\n") + file + ": " + p.key + " " + p.message;
  return text;
}
std::vector<Problem> with_named_keys(std::vector<Problem> problems) {
  if (problems.empty()) problems.push_back({"<document>", "was rejected"});
  for (Problem& p : problems)
    if (p.key.empty()) p.key = "\"\"";
  return problems;
}
}  // namespace

CaseError::CaseError(const std::string& file, const std::string& key, const std::string& problem)
    : CaseError(file, std::vector<Problem>{{key, problem}}) {}

CaseError::CaseError(const std::string& file, std::vector<Problem> problems)
    : std::runtime_error(error_lines(file, with_named_keys(problems))),
      file_(file),
      problems_(with_named_keys(std::move(problems))) {}

double approach_speed(const Impact& impact) {
  return std::hypot(impact.normal_speed, impact.tangential_speed);
}

double incidence_angle(const Impact& impact) {
  return std::atan2(impact.tangential_speed, impact.normal_speed);
}

const char* to_string(TargetType type) {
  switch (type) {
    case TargetType::rigid_plane:
      return "rigid_plane";
    case TargetType::elastic_halfspace:
      return "elastic_halfspace";
    case TargetType::spherical_socket:
      return "spherical_socket";
    case TargetType::sphere:
      return "sphere";
    case TargetType::elastic_plate:
      return "elastic_plate";
  }
  return "?";
}

const char* to_string(PlateEdge edge) {
  return edge == PlateEdge::clamped ? "clamped" : "free";
}

const char* to_string(MaterialModel model) {
  switch (model) {
    case MaterialModel::elastic:
      return "elastic";
    case MaterialModel::elastic_plastic:
      return "elastic-plastic";
    case MaterialModel::viscoelastic:
      return "viscoelastic";
  }
  return "?";
}

namespace {

// The FEM's problem with the case's target as (key, text); an empty text when the FEM takes it.
std::pair<std::string, std::string> fem_target_issue(const Case& c) {
  if (c.target.type == TargetType::rigid_plane) return {"", ""};
  if (c.target.socket()) {
    // The ball's mesh refines the conformal contact zone (fem/targets/spherical_socket.h), up to
    // a contact semi-angle of 35 degrees (socket_fem_contact_radius_limit).
    const double a = socket_overlap_radius(c, derive(c).hertz.peak_force);
    const double limit = socket_fem_contact_radius_limit(c);
    if (a <= limit) {
      if (c.target.rigid()) return {"", ""};
      // An elastic socket (fem/targets/elastic_socket.h): an elastic ball, and the contact zone
      // and the contact surfaces tabled around it (2 a) inside the wall, away from its held outer
      // surface.
      if (c.material.model != MaterialModel::elastic)
        return {"material.model",
                std::string("is \"") + to_string(c.material.model) +
                    "\"; the FEM strikes an elastic socket with an elastic ball "
                    "only: expected \"elastic\" (the lumped and half-space models "
                    "take it)"};
      if (!c.target.density)
        return {"target.material.density",
                "is missing; the FEM meshes the elastic socket, whose mass it needs: expected its "
                "density rho > 0 (kg/m^3)"};
      const double wall = c.target.outer_radius - c.target.radius;
      if (wall >= 3 * a) return {"", ""};
      return {"target.outer_radius",
              "is " + number_text(c.target.outer_radius) + ": the socket's wall R_o - R1 = " +
                  short_number(wall) + " m is thinner than 3 times the contact zone's radius " +
                  short_number(a) + " m: expected R_o >= " + short_number(c.target.radius + 3 * a) +
                  " m for the FEM (the lumped and half-space models take this socket)"};
    }
    return {"target.radius",
            "is " + number_text(c.target.radius) +
                ": the ball's contact zone in this socket (the overlap radius R1 sin(theta) = " +
                short_number(a) + " m of the two spheres at Hertz's approach with R_eff) exceeds " +
                short_number(limit) +
                " m = R2 sin 35 deg, the largest contact zone the FEM meshes on the ball: expected "
                "a looser socket or a slower impact for the FEM (rebound fem, pair, refine, sweep "
                "--fem, mesh; the lumped and half-space models take this socket)"};
  }
  // A target sphere, a half-space meshed as a block or a plate, of its own elastic material
  // (fem/targets/elastic_sphere.h, elastic_halfspace.h, elastic_plate.h), struck by an elastic
  // sphere.
  const bool sphere = c.target.moves(), plate = c.target.type == TargetType::elastic_plate;
  const std::string what = sphere  ? "a target sphere"
                           : plate ? "an elastic plate"
                                   : "an elastic half-space";
  const std::string others = plate ? "" : " (the lumped and half-space models take any body)";
  if (c.body.shape != Shape::sphere)
    return {"body.shape", std::string("is \"") + to_string(c.body.shape) + "\"; the FEM strikes " +
                              what + " with a sphere only: expected body.shape \"sphere\"" +
                              others};
  if (c.material.model != MaterialModel::elastic)
    return {"material.model", std::string("is \"") + to_string(c.material.model) +
                                  "\"; the FEM strikes " + what +
                                  " with an elastic sphere only: expected \"elastic\"" + others};
  if (!c.target.density)
    return {"target.material.density",
            "is missing; the FEM meshes the elastic half-space as a block, whose mass it needs: "
            "expected the half-space's density rho > 0 (kg/m^3)"};
  return {"", ""};
}

}  // namespace

std::string fem_target_problem(const Case& c) {
  return fem_target_issue(c).second;
}

void require_fem_target(const Case& c) {
  const auto [key, problem] = fem_target_issue(c);
  if (!problem.empty()) throw CaseError(c.source, key, problem);
}

std::string lumped_target_problem(const Case& c) {
  if (c.target.type != TargetType::elastic_plate) return "";
  return "is \"elastic_plate\": no lumped or half-space model has a plate's flexure (each takes "
         "the target as a half-space), so only the FEM runs it (rebound fem, refine, mesh; "
         "docs/FEM.md compares it with Zener's plate model): expected another target.type for the "
         "lumped and half-space models";
}

void require_lumped_target(const Case& c) {
  const std::string problem = lumped_target_problem(c);
  if (!problem.empty()) throw CaseError(c.source, "target.type", problem);
}

double psi_scale(double poisson_ratio, double friction) {
  return 2.0 * (1.0 - poisson_ratio) / (friction * (2.0 - poisson_ratio));
}

Case parse_case(const nlohmann::json& document, const std::string& file) {
  Problems problems(file);
  return parse_document(document, file, problems);
}

Case parse_case(const std::string& text, const std::string& source) {
  // The callback tracks the key path so that errors inside the text (number overflow, a
  // duplicated key, too deep a nesting) can name the key, as every other rejection does.
  std::vector<std::string> path;
  std::vector<std::set<std::string>> keys_seen(1);
  std::vector<std::string> duplicates;
  auto joined_path = [&path] {
    std::string key;
    for (const auto& part : path) key += (key.empty() ? "" : ".") + part;
    return key.empty() ? std::string("<document>") : key;
  };
  auto track = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) {
      // Stop before building a document deeper than any case (printing or copying one nested
      // 100,000 levels deep would overflow the stack).
      if (depth + 1 > kMaxNesting) throw TooDeep{joined_path()};
    }
    if (event == json::parse_event_t::object_start) {
      keys_seen.resize(static_cast<std::size_t>(depth) + 2);
      keys_seen[static_cast<std::size_t>(depth) + 1].clear();
    } else if (event == json::parse_event_t::key) {
      const std::size_t level = static_cast<std::size_t>(std::max(depth, 1));
      path.resize(level - 1);
      const std::string key = parsed.get<std::string>();
      path.push_back(display_key(key));
      if (keys_seen.size() <= level) keys_seen.resize(level + 1);
      if (!keys_seen[level].insert(key).second) duplicates.push_back(joined_path());
    }
    return true;
  };
  json document;
  try {
    document = json::parse(text, track, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const TooDeep& deep) {
    throw CaseError(source, deep.key, too_deep());
  } catch (const json::out_of_range& error) {
    // Number overflow: the value is not a finite double.
    const std::string what = error.what();
    const auto at = what.find("] ");
    throw CaseError(
        source, joined_path(),
        "is not a finite number (" + (at == std::string::npos ? what : what.substr(at + 2)) + ")");
  } catch (const json::exception& error) {
    // nlohmann's message carries line and column.
    std::string what = error.what();
    const auto colon = what.find("]: ");
    throw CaseError(
        source, "<document>",
        "is not valid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 3)) +
            (path.empty() ? "" : " (after key " + joined_path() + ")"));
  }
  Problems problems(source);
  for (const auto& key : duplicates)
    problems.add(key, "appears twice in the same object; expected each key once");
  return parse_document(document, source, problems);
}

namespace {

// The text of a case file (CaseError for anything but a readable regular file of at most
// kMaxFileBytes).
std::string read_case_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then rejected below).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) throw CaseError(path, "<file>", "does not exist");
    throw CaseError(path, "<file>", std::string("cannot be opened: ") + std::strerror(error));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0)
    throw CaseError(path, "<file>", std::string("cannot be read: ") + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    throw CaseError(path, "<file>", "is a directory; expected a case file (JSON)");
  if (!S_ISREG(info.st_mode))
    throw CaseError(path, "<file>",
                    "is not a regular file (a FIFO, device or socket); expected a case file "
                    "(JSON)");
  if (static_cast<unsigned long long>(info.st_size) > kMaxFileBytes)
    throw CaseError(path, "<file>",
                    "is " + std::to_string(info.st_size) +
                        " bytes; expected a case file of at most " +
                        std::to_string(kMaxFileBytes >> 20) + " MiB");
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw CaseError(path, "<file>", std::string("could not be read: ") + std::strerror(errno));
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxFileBytes)
      throw CaseError(
          path, "<file>",
          "is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB; expected a case file");
  }
  return text;
}

}  // namespace

Case load_case(const std::string& path) {
  return parse_case(read_case_file(path), path);
}

bool is_json_schema_file(const std::string& path) {
  try {
    const json document = json::parse(read_case_file(path), nullptr, false, true);
    return document.is_object() && document.contains("$schema") &&
           (document.contains("$defs") || document.contains("properties"));
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace rebound::cases
