#pragma once
// The data and gnuplot scripts of NeuPart-style figures (seed 003, Sec. VIII) for one workload:
//  - energy_by_cut (Fig. 10): client, transmission and total client energy for every cut;
//  - savings_vs_bitrate (Fig. 12): the optimal cut's saving against FCC at each Sparsity-In quartile boundary
//    and against FISC, over bit rate, at the given Tx power;
//  - energy_vs_bitrate (Fig. 13b): total energy over bit rate of the cuts that are optimal somewhere, and of
//    the two extremes;
//  - delay_vs_bitrate (Fig. 13a): inference delay of FCC, FISC and the energy-optimal cut over bit rate.
// Each figure is a CSV and a script that writes <name>.png and <name>.svg from it.
#include <string>
#include <vector>

#include "studies/neupart/neupart.hpp"

namespace ergon {

struct FigureFile {
  std::string name;  // file name within the output folder
  std::string text;
};

// Bit rates the sweeps use: 5 to 200 Mbps in steps of 5 (NeuPart's Figs. 12 and 13 span 0-200 Mbps).
std::vector<double> sweep_bitrates_mbps();

// The CSVs and .gp scripts of the four figures; `in` is the run's inputs (bit rate, Tx power, Sparsity-In).
std::vector<FigureFile> neupart_figures(const Workload& workload, const PartitionInputs& in,
                                        const PartitionResult& result);

// The .gp scripts among `files`, in order (to be rendered once every file is written).
std::vector<std::string> figure_scripts(const std::vector<FigureFile>& files);

}  // namespace ergon
