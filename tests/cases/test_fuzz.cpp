// The parser's acceptance against hostile input (the reliability issue): a seeded corpus of 3,000
// mutations of the shipped cases (tests/cases/fuzz_corpus.h) through parse_case and the derived
// quantities, in this process. Nothing but a CaseError may escape; every rejection names a key,
// and every problem's line names the file and its key; every accepted case has finite derived
// quantities (each number of `rebound check --json`'s object); a rejection is one line per
// problem. The same corpus runs through the
// `rebound check` binary in tests/app/test_cli.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "cases/case.h"
#include "cases/derived.h"
#include "fuzz_corpus.h"

using namespace rebound::cases;
using json = nlohmann::json;

namespace {

// Every number in the document, with its path (null is allowed: psi1 without friction, the stick
// limit of a contact that always sticks).
void collect_numbers(const json& value, const std::string& path,
                     std::vector<std::pair<std::string, double>>& out) {
  if (value.is_number()) out.emplace_back(path, value.get<double>());
  if (value.is_structured())
    for (const auto& item : value.items())
      collect_numbers(item.value(), path + "/" + item.key(), out);
}

}  // namespace

TEST(Fuzz, MutatedShippedCasesAreAcceptedWithFiniteQuantitiesOrRejectedNamingAKey) {
  const auto start = std::chrono::steady_clock::now();
  const auto corpus = rebound::test::fuzz_corpus(REBOUND_SOURCE_DIR "/cases", 3000);
  ASSERT_EQ(corpus.size(), 3000u);
  int accepted = 0, rejected = 0, problems = 0;
  std::map<std::string, int> kinds;
  for (const auto& input : corpus) {
    const std::string kind = input.kind.substr(0, input.kind.find(' '));
    try {
      const Case c = parse_case(input.text, "fuzz.json");
      const Derived d = derive(c);
      std::vector<std::pair<std::string, double>> numbers;
      collect_numbers(to_json(c, d), "", numbers);
      for (const auto& [path, value] : numbers)
        ASSERT_TRUE(std::isfinite(value))
            << path << " = " << value << " for " << input.kind << ":\n"
            << input.text.substr(0, 2000);
      for (const auto& v : derived_values(c, d))
        ASSERT_TRUE(std::isfinite(v.value) && (!v.positive || v.value > 0))
            << v.name << " = " << v.value << " for " << input.kind;
      ++accepted;
    } catch (const CaseError& error) {
      ++rejected;
      ++kinds[kind];
      const std::string what = error.what();
      ASSERT_FALSE(error.key().empty()) << what;
      ASSERT_NE(what.find(error.key()), std::string::npos) << what;
      // One line per problem, whatever the keys and values contain.
      ASSERT_EQ(std::count(what.begin(), what.end(), '\n') + 1, long(error.problems().size()))
          << what.substr(0, 2000);
      for (const Problem& p : error.problems()) {
        ++problems;
        ASSERT_FALSE(p.key.empty()) << what;
        ASSERT_NE(what.find("fuzz.json: " + p.key + " "), std::string::npos)
            << p.key << " not on a line of:\n"
            << what.substr(0, 2000);
      }
    } catch (const std::exception& other) {
      FAIL() << "escaped: " << other.what() << " for " << input.kind << ":\n"
             << input.text.substr(0, 2000);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz corpus: %zu inputs, %d accepted, %d rejected (%d problems), %.2f s\n",
              corpus.size(), accepted, rejected, problems, seconds);
  RecordProperty("accepted", accepted);
  RecordProperty("rejected", rejected);
  // Both outcomes are exercised (a corpus that is all rejected would test little).
  EXPECT_GT(accepted, 200);
  EXPECT_GT(rejected, 1500);
  EXPECT_LT(seconds, 30);
}

// The corpus is the same on every run (a failure can be reproduced from its index).
TEST(Fuzz, CorpusIsDeterministic) {
  const auto a = rebound::test::fuzz_corpus(REBOUND_SOURCE_DIR "/cases", 200);
  const auto b = rebound::test::fuzz_corpus(REBOUND_SOURCE_DIR "/cases", 200);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].text, b[i].text) << i;
  const auto other = rebound::test::fuzz_corpus(REBOUND_SOURCE_DIR "/cases", 200, 7);
  int different = 0;
  for (std::size_t i = 0; i < a.size(); ++i) different += a[i].text != other[i].text;
  EXPECT_GT(different, 150);
}
