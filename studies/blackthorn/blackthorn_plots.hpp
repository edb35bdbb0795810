#pragma once
// The plots of `ergon profile blackthorn`, after the paper's figures (seed 004): Fig. 7 (a fitted curve
// over a full 1-D sweep, the points the fitter measured, and its relative error), Fig. 8b (relative
// error of random layers over two dimensions) and Fig. 10 (per-layer latency of a network, simulated
// against estimated). Each writes its data as CSV and a gnuplot script beside it.
#include <string>
#include <vector>

namespace ergon {

struct BlackthornProfileReport;
struct NetworkCheck;

// Writes the CSVs and scripts the report has data for and renders them when gnuplot is installed; returns
// "" or, when gnuplot is missing, a remark saying so.
std::string write_blackthorn_plots(const BlackthornProfileReport& report, const std::string& out_dir);

// network_layers.csv: every network's layers, simulated against estimated latency (for the batch).
std::string network_layers_csv(const std::vector<NetworkCheck>& networks);

}  // namespace ergon
