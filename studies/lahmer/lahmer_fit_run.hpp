#pragma once
// `ergon fit lahmer`: how well does Lahmer et al.'s empirical model form (seed 000) describe a simulated
// accelerator? Ergon simulates single conv and FC layers over the paper's kinds of sweeps (kernel size,
// stride, input channels, input size, output maps; FC input and output sizes), fits a_c, b_c and a_f to
// the simulated energies with the paper's procedure, and reports R^2 and MAPE (docs/lahmer.md).
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "power/energy_table.hpp"
#include "power/estimators/lahmer.hpp"
#include "power/estimators/lahmer_measurements.hpp"

namespace ergon {

struct LahmerSweepPoint {
  std::string sweep;  // which parameter varies: ksize, stride, ifm, i_size, ofm, fc
  bool fully_connected = false;
  int i_size = 0, ifm = 0, ofm = 0, ksize = 0, stride = 1;  // conv (square, no padding, as eq. 2)
  int fc_inputs = 0, fc_outputs = 0;
  double load = 0;      // KCLC or CLF
  double energy_j = 0;  // simulated
};

// The sweeps, documented in docs/lahmer.md (the paper's figures that held its ranges did not survive).
std::vector<LahmerSweepPoint> lahmer_sweep_points();

struct LahmerFitRun {
  std::vector<LahmerSweepPoint> points;
  LahmerFit fit;
};

LahmerFitRun run_lahmer_fit(const AcceleratorConfig& config, const EnergyTable& table, unsigned jobs);

// samples.csv, fit.json, and the Fig. 3 and Fig. 5 style plots (gnuplot scripts; PNG/SVG when installed).
// Returns the summary printed on the terminal.
std::string write_lahmer_fit(const LahmerFitRun& run, const std::string& out_dir, const std::string& config_name);

// `ergon fit lahmer --measurements F.csv`: parameters.yaml (the form of reference/jetson/lahmer_2022_table3.yaml),
// fit.json and residuals.csv in out_dir. Refuses (before writing) an output that would replace the CSV, and
// parameters the model's loader rejects (a_c <= 0, b_c < 0, a_f <= 0: the data do not follow eq. 7 or 8; the
// fit and residuals are still written). Returns the summary printed on the terminal.
std::string write_lahmer_measured_fit(const LahmerMeasuredFit& fit, const std::string& out_dir,
                                      const std::string& board);

}  // namespace ergon
