#pragma once
// ARADA's evaluation grid (seed 002, Section 4 and Figure 5): nine workloads on the Edge TPU with five
// DRAM technologies and on the HPC TPU with six, each under every scheme. Writes study.csv (one row per
// run), averages.csv (per accelerator, DRAM and scheme), study.gp and, with gnuplot, study.png/.svg.
//
// The traffic model (docs/arada.md): `physical` is Ergon's default memory system; `scalesim` reproduces the
// one ARADA's stall figures come from, SCALE-Sim v2's (scalesim_overrides()), with SCALE-Sim's own MobileNet
// topology. `overrides` (`--set`) apply after it, e.g. to undo one of its assumptions.
#include <string>
#include <vector>

namespace ergon {

struct DvfsStudyOptions {
  std::string out_dir;
  unsigned jobs = 1;
  std::vector<std::string> workloads;  // names under workloads/; empty: ARADA's nine
  std::string traffic_model = "physical";
  std::vector<std::string> overrides;
};

std::vector<std::string> dvfs_study_traffic_models();

// The config overrides of the `scalesim` traffic model for an accelerator clocked at `clock_mhz` with the
// DRAM preset `dram`: im2col operand streams, one port per stream at the full bandwidth with a latency of
// one cycle, a free first fill, prefetches that run ahead, V ~ f down to 0 V, and 20 GB/s for LPDDR4
// (ARADA Table 1).
std::vector<std::string> scalesim_overrides(double clock_mhz, const std::string& dram);

void run_dvfs_study(const DvfsStudyOptions& options);

}  // namespace ergon
