#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ergon {

// A layer's mapping as the reports show it.
struct MappingSummary {
  nlohmann::ordered_json parameters;  // every parameter of the mapping, its loop order included
  // The mapper's cost model of the chosen mapping; absent when the dataflow has one fixed mapping.
  struct Estimate {
    std::string objective;  // energy, latency or edp
    double cycles = 0;
    double energy_pj = 0;
    std::uint64_t dram_bytes = 0;    // read and written; the simulation of the mapping moves exactly these
    std::uint64_t glb_accesses = 0;  // reads and writes of the global (or operand) buffers, likewise exact
    std::uint64_t candidates = 0;    // complete mappings the search evaluated
    double best_objective = 0, median_objective = 0, worst_objective = 0;
  };
  std::optional<Estimate> estimate;
};

// The estimate as report.json and `ergon map --format json` write it.
inline nlohmann::ordered_json search_json(const MappingSummary::Estimate& e) {
  return {{"objective", e.objective},
          {"candidates", e.candidates},
          {"estimated_cycles", e.cycles},
          {"estimated_energy_pj", e.energy_pj},
          {"estimated_dram_bytes", e.dram_bytes},
          {"estimated_glb_accesses", e.glb_accesses},
          {"objective_best", e.best_objective},
          {"objective_median", e.median_objective},
          {"objective_worst", e.worst_objective}};
}

}  // namespace ergon
