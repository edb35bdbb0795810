#pragma once
// The points of a design-space sweep (docs/sweep.md): every workload times the cartesian product of the
// swept config keys. A point's index is stable: workloads outermost, the last --param fastest.
#include <cstddef>
#include <string>
#include <vector>

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

// Every swept key is set once: a key swept twice, or swept inside (or around) another swept key or a
// fixed --set override, would run one value under the other's column. Throws InputError naming both.
void check_distinct_keys(const std::vector<SweepParameter>& parameters, const std::vector<std::string>& overrides);

struct SweepPoint {
  std::size_t index = 0;
  std::size_t workload = 0;         // into the sweep's workload list
  std::vector<std::string> values;  // one per parameter
};

class SweepGrid {
 public:
  SweepGrid(std::vector<std::string> workloads, std::vector<SweepParameter> parameters);
  std::size_t size() const { return size_; }
  SweepPoint point(std::size_t index) const;
  std::vector<std::string> overrides(const SweepPoint& point) const;  // "key=value" for --set
  const std::vector<std::string>& workloads() const { return workloads_; }
  const std::vector<SweepParameter>& parameters() const { return parameters_; }

 private:
  std::vector<std::string> workloads_;
  std::vector<SweepParameter> parameters_;
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
