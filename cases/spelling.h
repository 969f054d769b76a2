// "Did you mean ...?" for misspelt keys, values, commands and options: the closest of a list of
// known words by edit distance (one definition for the case parser and the command line).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rebound::cases {

// Levenshtein distance (insertions, deletions, substitutions).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The known word closest to `word` when it is close enough to be a likely misspelling (at most
// max(2, |word|/3) edits), else "".
std::string closest_word(const std::string& word, const std::vector<std::string>& known);

// " (did you mean \"WORD\"?)" for closest_word, or "" when nothing is close.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& known);

}  // namespace rebound::cases
