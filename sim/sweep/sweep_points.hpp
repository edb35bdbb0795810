#pragma once
// The points of a design-space sweep (docs/sweep.md): every workload times the cartesian product of the
// swept config keys. A point's index is stable: workloads outermost, the last --param fastest. Linked keys
// (sweep_links.hpp) add columns, not points. `batch` is swept like a key but is a run option, not a config key.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/sweep/sweep_links.hpp"

namespace ergon {

struct SweepParameter {
  std::string key;                  // a config key path, e.g. glb.size_kib or dram.preset
  std::vector<std::string> values;  // as passed to --set
  std::string argument;             // as given, "glb.size_kib=8:512:*2": for messages
};

// "key.path=SPEC" where SPEC is a list ("1,2,4", or words: "lpddr4,ddr5-4800,hbm2"), an inclusive range
// "lo:hi:step", or a geometric range "lo:hi:*factor" ("8:512:*2" is a log2 range). Throws InputError
// naming the argument.
SweepParameter parse_sweep_parameter(const std::string& text);

// The key that sweeps the images per layer (SimulationOptions::batch), not a config key.
inline constexpr const char* kBatchKey = "batch";

// A number as swept values are written: the shortest text that reads back as it, rounded to 12 significant
// digits (so 0.1 steps do not print as 0.30000000000000004).
std::string format_sweep_value(double value);

// Every swept key is set once: a key swept twice, or swept inside (or around) another swept key or a
// fixed --set override, would run one value under the other's column. Throws InputError naming both.
void check_distinct_keys(const std::vector<SweepParameter>& parameters, const std::vector<std::string>& overrides,
                         const std::vector<SweepLink>& links = {});

struct SweepPoint {
  std::size_t index = 0;
  std::size_t workload = 0;         // into the sweep's workload list
  std::vector<std::string> values;  // one per parameter, then one per link: as columns() names them
};

class SweepGrid {
 public:
  // Throws InputError naming the --param or --link: a batch value that is not a whole number of images in
  // range, a link whose key is swept or linked twice, whose source is neither swept nor resolved, or whose
  // result at a value of its source is not a number its key takes (named with the first point it is at).
  SweepGrid(std::vector<std::string> workloads, std::vector<SweepParameter> parameters,
            std::vector<SweepLink> links = {});
  std::size_t size() const { return size_; }
  SweepPoint point(std::size_t index) const;
  // "key=value" for --set: the swept and linked config keys (batch is not one) at `point`.
  std::vector<std::string> overrides(const SweepPoint& point) const;
  // The same for the swept keys at `swept_values` (one per parameter, each one of its values).
  std::vector<std::string> config_assignments(const std::vector<std::string>& swept_values) const;
  std::vector<std::string> first_values() const;  // every swept key at its first value
  // The images per layer at `point` when batch is swept or linked; nothing otherwise.
  std::optional<std::int64_t> batch(const SweepPoint& point) const;
  // results.csv's key columns: the swept keys, then the linked keys.
  std::vector<std::string> columns() const;
  const std::vector<std::string>& workloads() const { return workloads_; }
  const std::vector<SweepParameter>& parameters() const { return parameters_; }
  const std::vector<SweepLink>& links() const { return links_; }
  // A link's values: one per value of its swept source, in that --param's order; one for a source not swept.
  const std::vector<std::string>& link_values(std::size_t link) const { return link_values_.at(link); }
  // "point 3 (w.yaml glb.size_kib=8 ...)", the first point where parameter `p` has its value number `value`.
  std::string first_point_with(std::size_t p, std::size_t value) const;

 private:
  std::size_t source_parameter(const SweepLink& link) const;  // parameters_.size(): not swept
  std::vector<std::string> linked_values(const std::vector<std::string>& swept_values) const;
  void compute_link_values();

  std::vector<std::string> workloads_;
  std::vector<SweepParameter> parameters_;
  std::vector<SweepLink> links_;
  std::vector<std::size_t> link_sources_;              // per link: its source parameter, or parameters_.size()
  std::vector<std::vector<std::string>> link_values_;  // per link
  std::vector<std::unordered_map<std::string, std::size_t>> value_index_;  // per parameter: value -> position
  std::size_t size_ = 0;
};

// "I/N": this process runs the points whose index modulo N is I.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
  bool contains(std::size_t point) const { return point % count == index; }
};
Shard parse_shard(const std::string& text);

}  // namespace ergon
