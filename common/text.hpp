#pragma once
// Small text helpers shared by the loaders.
#include <optional>
#include <string>
#include <vector>

namespace ergon {

// Levenshtein distance, used to suggest the key a user probably meant.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest candidate to `word`, or "" when none is close enough to be a plausible typo.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// A CSV field (RFC 4180): in double quotes, quotes inside doubled.
std::string csv_quoted(const std::string& text);

// The offset of the first byte that is not part of well-formed UTF-8 (RFC 3629), or npos.
std::size_t invalid_utf8_offset(const std::string& text);

// "a, b or c"
std::string join_alternatives(const std::vector<std::string>& words);

// The whole text as one finite number (std::stod's grammar; leading blanks allowed, nothing after the
// number, values beyond the largest double refused; values below the smallest normal one read as they are),
// or nullopt.
std::optional<double> parse_finite_number(const std::string& text);

// The text with ASCII letters lower-cased (keys and names compared case-insensitively).
std::string ascii_lower(std::string text);

}  // namespace ergon
