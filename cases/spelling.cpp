#include "cases/spelling.h"

#include <algorithm>
#include <limits>

namespace rebound::cases {

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

std::string closest_word(const std::string& word, const std::vector<std::string>& known) {
  // A word far longer than any known one cannot be a misspelling (and would cost
  // |word| x |known| for nothing).
  if (word.size() > 200) return "";
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const auto& option : known) {
    const std::size_t d = edit_distance(word, option);
    if (d < best_distance) best_distance = d, best = option;
  }
  if (best.empty() || best_distance > std::max<std::size_t>(2, word.size() / 3)) return "";
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& known) {
  const std::string best = closest_word(word, known);
  return best.empty() ? "" : " (did you mean \"" + best + "\"?)";
}

}  // namespace rebound::cases
