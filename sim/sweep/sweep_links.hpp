#pragma once
// Linked keys of a sweep (`--link KEY=EXPR`, docs/sweep.md "Linked keys"): a key whose value at each point is
// computed from one other key's value there, e.g. glb.filter_size_kib=glb.size_kib/2. EXPR is linear in that
// key, and nothing else is accepted:
//
//   EXPR   := TERM { ('+' | '-') TERM }        exactly one TERM holds the key
//   TERM   := FACTOR { ('*' | '/') FACTOR }    evaluated left to right; the key never divides
//   FACTOR := NUMBER | KEY                     NUMBER: digits with an optional fraction (8, 0.5, .5)
//
// The key EXPR reads is a swept key (its value at the point) or a config key that is not swept (its value in
// the config with the --set overrides, the same at every point); batch is one when it is swept or fixed by
// --batch.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ergon {

struct LinkFactor {
  bool divides = false;  // '/' before it ('*' or the term's first factor otherwise)
  bool is_key = false;   // the key EXPR reads; `number` otherwise
  double number = 0;
};

struct LinkTerm {
  bool negative = false;  // '-' before it
  std::vector<LinkFactor> factors;
};

struct SweepLink {
  std::string key;         // the linked key: a numeric config key, or batch
  std::string expression;  // EXPR as given
  std::string source;      // the key EXPR reads
  std::string argument;    // "KEY=EXPR" as given: for messages
  std::vector<LinkTerm> terms;
  bool whole_numbers = false;                   // the linked key takes integers: a fractional result is refused
  std::optional<double> source_value;           // the source is not swept: its one value (resolve_link_sources)
  double evaluate(double source_number) const;  // EXPR at this value of the source, left to right
};

// Parses `--link KEY=EXPR` and looks KEY up in the config schema (its type decides whether a result must be a
// whole number). Throws InputError naming `--link KEY=EXPR` and, for EXPR, the character where it goes wrong.
SweepLink parse_sweep_link(const std::string& text);

// The value of a link whose source is not swept: the config's value (loaded with `overrides` and every swept
// key at its first value; it must be the same at the last values, or it follows a swept key), or
// `fixed_batch` for batch (0: not fixed, refused). Throws InputError naming the --link.
struct SweepParameter;
class SweepGrid;
void resolve_link_sources(std::vector<SweepLink>& links, const std::vector<SweepParameter>& parameters,
                          const std::vector<std::string>& overrides, const std::string& config_path,
                          std::int64_t fixed_batch);

// sweep.json's record of the links (docs/sweep.md): per link its key, EXPR and its values, one per value of
// its source's --param (or the one value of a source that is not swept), so that --resume and sweep-merge
// refuse a sweep whose linked values differ.
nlohmann::ordered_json links_manifest(const SweepGrid& grid);

// Loads the config at every value of each link's source (the other keys at their first values), as the sweep's
// own check does, so that a linked value the config refuses is named by its --link and the point, not as a
// --param or --set the user never gave. Stops quietly at an error elsewhere: the sweep's check reports it.
void check_link_values(const SweepGrid& grid, const std::vector<std::string>& overrides,
                       const std::string& config_path);

}  // namespace ergon
