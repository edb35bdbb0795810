#pragma once
// ARADA's evaluation grid (seed 002, Section 4 and Figure 5): nine workloads on the Edge TPU with five
// DRAM technologies and on the HPC TPU with six, each under every scheme. Writes study.csv (one row per
// run), averages.csv (per accelerator, DRAM and scheme), study.gp and, with gnuplot, study.png/.svg.
#include <string>
#include <vector>

namespace ergon {

void run_dvfs_study(const std::string& out_dir, unsigned jobs, const std::vector<std::string>& workload_names);

}  // namespace ergon
