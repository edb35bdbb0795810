#pragma once
// `ergon fit lahmer`: how well does Lahmer et al.'s empirical model form (seed 000) describe a simulated
// accelerator? Ergon simulates single conv and FC layers over the paper's kinds of sweeps (kernel size,
// stride, input channels, input size, output maps; FC input and output sizes), fits a_c, b_c and a_f to
// the simulated energies with the paper's procedure, and reports R^2 and MAPE (docs/lahmer.md).
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "common/report_formats.hpp"
#include "power/energy_table.hpp"
#include "power/estimators/lahmer.hpp"
#include "power/estimators/lahmer_measurements.hpp"
#include "sim/simulation.hpp"

namespace ergon {

struct LahmerSweepPoint {
  std::string sweep;  // which parameter varies: ksize, stride, ifm, i_size, ofm, fc
  bool fully_connected = false;
  int i_size = 0, ifm = 0, ofm = 0, ksize = 0, stride = 1;  // conv (square, no padding, as eq. 2)
  int fc_inputs = 0, fc_outputs = 0;
  double load = 0;      // KCLC or CLF, of one image
  double energy_j = 0;  // simulated, per image: the layer's energy for its batch divided by the batch
};

// The sweeps, documented in docs/lahmer.md (the paper's figures that held its ranges did not survive).
std::vector<LahmerSweepPoint> lahmer_sweep_points();

struct LahmerFitRun {
  std::string config_name;
  std::int64_t batch = 1;  // images each layer was simulated with (--batch; the generated layers' own is 1)
  std::string fidelity;    // "tlm" or "cycle"
  std::vector<LahmerSweepPoint> points;
  LahmerFit fit;
};

// `simulation`: --batch and --fidelity, for every layer (simulated in worker processes: no observers).
LahmerFitRun run_lahmer_fit(const AcceleratorConfig& config, const EnergyTable& table,
                            const SimulationOptions& simulation, unsigned jobs);

// The fit in every --format (docs/lahmer.md): table the summary, json fit.json, csv samples.csv, markdown the
// summary as a markdown table.
ReportForms lahmer_fit_forms(const LahmerFitRun& run);

// samples.csv and fit.json (the forms' csv and json) in out_dir and, with `plots`, the Fig. 3, 4 and 5 style
// plots (data and gnuplot scripts; PNG/SVG when gnuplot is installed). Returns a remark for the note on the
// files written: empty, or that gnuplot is missing.
std::string write_lahmer_fit(const LahmerFitRun& run, const ReportForms& forms, const std::string& out_dir, bool plots);

// `ergon fit lahmer --measurements F.csv` in every --format: table the summary, json fit.json, csv
// residuals.csv, markdown the summary as a markdown table.
ReportForms lahmer_measured_fit_forms(const LahmerMeasuredFit& fit, const std::string& board);

// parameters.yaml (the form of reference/jetson/lahmer_2022_table3.yaml), fit.json and residuals.csv (the
// forms' json and csv) in out_dir. Refuses parameters the model's loader rejects (a_c <= 0, b_c < 0,
// a_f <= 0: the data do not follow eq. 7 or 8) with an error.
void write_lahmer_measured_fit(const LahmerMeasuredFit& fit, const ReportForms& forms, const std::string& out_dir,
                               const std::string& board);

// How `ergon estimate lahmer` uses the parameters written at `parameters_path`: a remark for the note on
// the files written.
std::string lahmer_parameters_use(const LahmerMeasuredFit& fit, const std::string& parameters_path,
                                  const std::string& board);

}  // namespace ergon
