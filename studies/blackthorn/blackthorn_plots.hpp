#pragma once
// The plots of `ergon profile blackthorn`, after the paper's figures (seed 004): Fig. 7 (a fitted curve
// over a full 1-D sweep, the points the fitter measured, and its relative error), Fig. 8b (relative
// error of random layers over two dimensions) and Fig. 10 (per-layer latency of a network, simulated
// against estimated). Each writes its data as CSV and a gnuplot script beside it.
#include <string>

namespace ergon {

struct BlackthornProfileReport;

// Writes the CSVs and scripts the report has data for, renders them when gnuplot is installed, and
// returns the summary line naming the files.
std::string write_blackthorn_plots(const BlackthornProfileReport& report, const std::string& out_dir);

}  // namespace ergon
