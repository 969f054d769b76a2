// A deterministic mutation corpus of the shipped cases, for the parser's fuzz tests
// (tests/cases/test_fuzz.cpp in-process, tests/app/test_cli.cpp through `rebound check`): keys
// deleted, values of another type, extreme numbers, NaN-looking strings, huge strings and keys,
// deep nesting, duplicated keys, comments, the degree/diameter alternatives, random byte flips.
// The same seed gives the same corpus on every machine (std::mt19937 and only integer draws).
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace rebound::test {

struct FuzzInput {
  std::string kind;  // the mutation, for messages
  std::string text;
};

namespace fuzz_detail {

using json = nlohmann::json;

inline std::vector<std::string> shipped_cases(const std::string& directory) {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.path().extension() == ".json" &&
        entry.path().filename().string().find(".schema.") == std::string::npos)
      paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());  // directory order is not portable
  std::vector<std::string> texts;
  for (const auto& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
  }
  return texts;
}

class Mutator {
 public:
  explicit Mutator(std::uint32_t seed) : random_(seed) {}

  std::size_t below(std::size_t n) { return n == 0 ? 0 : random_() % n; }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }

  // JSON pointers of every value in the document (objects and arrays included, not the root).
  std::vector<json::json_pointer> pointers(const json& document) {
    std::vector<json::json_pointer> out;
    std::vector<json::json_pointer> stack = {json::json_pointer()};
    while (!stack.empty()) {
      const json::json_pointer at = stack.back();
      stack.pop_back();
      const json& value = document.at(at);
      if (value.is_object())
        for (const auto& item : value.items()) {
          out.push_back(at / item.key());
          stack.push_back(at / item.key());
        }
    }
    return out;
  }

  json odd_value() {
    static const std::vector<json> values = {nullptr,
                                             true,
                                             false,
                                             0,
                                             -1,
                                             1e300,
                                             -1e300,
                                             1e-300,
                                             5e-324,
                                             1.7976931348623157e308,
                                             9007199254740993.0,
                                             -0.0,
                                             0.5,
                                             1.5707963267948966,
                                             90,
                                             30,
                                             "",
                                             "NaN",
                                             "nan",
                                             "inf",
                                             "-Infinity",
                                             "1e999",
                                             "0x10",
                                             "sphere",
                                             "capsule",
                                             "custom",
                                             "lai",
                                             "brach",
                                             json::array(),
                                             json::array({1, 2}),
                                             json::object(),
                                             json::object({{"x", 1}})};
    return pick(values);
  }

  std::string huge_string() {
    const std::size_t size = pick(std::vector<std::size_t>{101, 4096, 30000, 300000});
    std::string text(size, "a.-_Z /"[below(7)]);
    return text;
  }

  // One structured mutation of the document.
  std::string structured(json document, std::string& kind) {
    const auto all = pointers(document);
    if (all.empty()) return document.dump();
    const json::json_pointer target = pick(all);
    switch (below(9)) {
      case 0:
        kind = "delete " + target.to_string();
        document[target.parent_pointer()].erase(target.back());
        break;
      case 1:
        kind = "odd value at " + target.to_string();
        document[target] = odd_value();
        break;
      case 2: {
        kind = "extreme number at " + target.to_string();
        static const std::vector<double> extremes = {
            0, -1, 1e300, -1e300, 1e-300, -1e-300, 5e-324, 1.7976931348623157e308};
        document[target] = pick(extremes);
        break;
      }
      case 3:
        kind = "huge string at " + target.to_string();
        document[target] = huge_string();
        break;
      case 4:
        kind = "huge key beside " + target.to_string();
        document[target.parent_pointer()][huge_string()] = 1;
        break;
      case 5: {
        kind = "renamed " + target.to_string();
        json moved = document[target];
        document[target.parent_pointer()].erase(target.back());
        static const std::vector<std::string> suffixes = {"x", "_deg", "s", ""};
        const std::string suffix = pick(suffixes);
        document[target.parent_pointer()][target.back() + suffix] = moved;
        break;
      }
      case 6: {
        // The keys in the user's terms: degrees, diameter, theta left out.
        kind = "user's terms";
        json& impact = document["impact"];
        if (impact.is_object() && impact.contains("theta") && below(2)) {
          const json theta = impact["theta"];
          impact.erase("theta");
          if (below(2) && theta.is_number()) impact["theta_deg"] = theta.get<double>() * 57.29578;
        }
        if (impact.is_object() && below(2)) impact["incidence_angle_deg"] = double(below(120));
        json& body = document["body"];
        if (body.is_object() && body.contains("radius") && below(2)) {
          body["diameter"] = body["radius"].is_number() ? 2 * body["radius"].get<double>() : 1.0;
          if (below(3)) body.erase("radius");
        }
        break;
      }
      case 7: {
        kind = "speed sweep";
        static const std::vector<double> speeds = {1e-9, 0.5, 50, 200, 2000, 1e6};
        json& impact = document["impact"];
        if (impact.is_object()) impact[below(2) ? "normal_speed" : "speed"] = pick(speeds);
        break;
      }
      default: {
        kind = "shape swap";
        json& body = document["body"];
        if (body.is_object())
          body["shape"] = pick(
              std::vector<std::string>{"sphere", "capsule", "disc", "shell", "hoop", "custom"});
        break;
      }
    }
    return document.dump(below(2) ? 2 : -1);
  }

  // Text-level mutations: what a structured document cannot express.
  std::string textual(const std::string& base, std::string& kind) {
    std::string text = base;
    switch (below(6)) {
      case 0: {
        kind = "byte flips";
        const std::size_t count = 1 + below(8);
        for (std::size_t k = 0; k < count && !text.empty(); ++k) {
          const std::size_t at = below(text.size());
          switch (below(3)) {
            case 0:
              text[at] = static_cast<char>(below(256));
              break;
            case 1:
              text.erase(at, 1 + below(8));
              break;
            default:
              text.insert(at, 1, "{}[]\",:0e-9.\\/*\x01\xff\xc3"[below(17)]);
          }
        }
        break;
      }
      case 1: {
        kind = "deep nesting";
        const std::size_t depth = pick(std::vector<std::size_t>{63, 64, 65, 1000, 100000});
        const bool arrays = below(2);
        std::string nested = arrays ? std::string(depth, '[') + "1" + std::string(depth, ']') : "";
        if (!arrays) {
          for (std::size_t i = 0; i < depth; ++i) nested += "{\"a\":";
          nested += "1" + std::string(depth, '}');
        }
        const std::size_t at = text.find("\"name\":");
        if (at == std::string::npos || below(4) == 0)
          text = nested;
        else
          text.insert(at, "\"deep\": " + nested + ", ");
        break;
      }
      case 2: {
        kind = "duplicated key";
        // Repeat a "key": value pair right after itself.
        std::vector<std::size_t> colons;
        for (std::size_t i = 0; i < text.size(); ++i)
          if (text[i] == ':') colons.push_back(i);
        if (colons.empty()) break;
        const std::size_t colon = pick(colons);
        const std::size_t open = text.rfind('"', text.rfind('"', colon) - 1);
        const std::size_t end = text.find_first_of(",}", colon);
        if (open == std::string::npos || end == std::string::npos) break;
        text.insert(end, ", " + text.substr(open, end - open));
        break;
      }
      case 3: {
        kind = "non-finite literal";
        static const std::vector<std::string> literals = {
            "NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1e-999", "0x1p3", "+1", "01", ".5"};
        std::vector<std::size_t> digits;
        for (std::size_t i = 1; i < text.size(); ++i)
          if (std::isdigit(static_cast<unsigned char>(text[i])) && text[i - 1] == ' ')
            digits.push_back(i);
        if (digits.empty()) break;
        const std::size_t at = pick(digits);
        const std::size_t end = text.find_first_of(",}\n", at);
        text.replace(at, end - at, pick(literals));
        break;
      }
      case 4: {
        kind = "comments";
        const std::size_t at = below(text.size());
        static const std::vector<std::string> comments = {"// note\n", "/* note */", "/* open",
                                                          "//",        "/",          "*/"};
        text.insert(at, pick(comments));
        break;
      }
      default: {
        kind = "truncated";
        text.resize(below(text.size()));
        break;
      }
    }
    return text;
  }

 private:
  std::mt19937 random_;
};

}  // namespace fuzz_detail

// `count` mutated documents of the shipped cases in `cases_directory` (seeded: the same corpus
// every run). Every fourth input is a text-level mutation, the others 1-3 structured ones.
inline std::vector<FuzzInput> fuzz_corpus(const std::string& cases_directory, std::size_t count,
                                          std::uint32_t seed = 20240611) {
  using fuzz_detail::json;
  const std::vector<std::string> bases = fuzz_detail::shipped_cases(cases_directory);
  fuzz_detail::Mutator mutator(seed);
  std::vector<FuzzInput> corpus;
  if (bases.empty()) return corpus;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string& base = bases[i % bases.size()];
    FuzzInput input;
    if (i % 4 == 3) {
      input.text = mutator.textual(base, input.kind);
    } else {
      json document = json::parse(base);
      const std::size_t changes = 1 + mutator.below(3);
      for (std::size_t k = 0; k < changes; ++k) {
        std::string kind;
        document = json::parse(mutator.structured(document, kind));
        input.kind += (input.kind.empty() ? "" : "; ") + kind;
      }
      input.text = document.dump(2);
    }
    corpus.push_back(std::move(input));
  }
  return corpus;
}

}  // namespace rebound::test
