#pragma once
// ARADA's evaluation grid (seed 002, Section 4 and Figure 5): nine workloads on the Edge TPU with five
// DRAM technologies and on the HPC TPU with six, each under every scheme. Writes study.csv (one row per
// run), averages.csv (per accelerator, DRAM and scheme), study.gp and, with gnuplot, study.png/.svg.
//
// The traffic model (docs/arada.md): `physical` is Ergon's default memory system; `scalesim` reproduces the
// one ARADA's stall figures come from, SCALE-Sim v2's (scalesim_overrides()), with SCALE-Sim's own MobileNet
// topology. `overrides` (`--set`) apply after it, e.g. to undo one of its assumptions.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/simulation.hpp"  // Fidelity

namespace ergon {

struct DvfsStudyOptions {
  unsigned jobs = 1;
  std::vector<std::string> workloads;  // names under workloads/; empty: ARADA's nine
  std::string traffic_model = "physical";
  std::vector<std::string> overrides;
  std::int64_t batch = 0;                           // images per layer of every workload; 0: each layer's own
  Fidelity fidelity = Fidelity::kTransactionLevel;  // of race to idle and every schedule
};

struct DvfsStudy {
  std::vector<std::string> workloads;
  std::string study_csv;     // a row per accelerator, DRAM, workload and scheme
  std::string averages_csv;  // the means over the workloads per accelerator, DRAM and scheme
};

std::vector<std::string> dvfs_study_traffic_models();

// The config overrides of the `scalesim` traffic model for an accelerator clocked at `clock_mhz` with the
// DRAM preset `dram`: im2col operand streams, one port per stream at the full bandwidth with a latency of
// one cycle, a free first fill, prefetches that run ahead, V ~ f down to 0 V, and 20 GB/s for LPDDR4
// (ARADA Table 1).
std::vector<std::string> scalesim_overrides(double clock_mhz, const std::string& dram);

// Checks every workload and config (a bad --set fails once, located), then simulates the grid in `jobs`
// worker processes.
DvfsStudy run_dvfs_study(const DvfsStudyOptions& options);

// The whole study as JSON (`--format json`): the options it ran with, every run and the averages.
nlohmann::ordered_json dvfs_study_json(const DvfsStudy& study, const DvfsStudyOptions& options);

// study.csv, averages.csv and study.gp into `folder`; with `plot`, also study.png/.svg when gnuplot runs.
// Returns whether the plots were made.
bool write_dvfs_study(const DvfsStudy& study, const DvfsStudyOptions& options, const std::string& folder, bool plot);

}  // namespace ergon
