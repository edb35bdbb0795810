#pragma once
// Lahmer et al.'s model fitted to a user's own per-layer energy measurements (`ergon fit lahmer
// --measurements F.csv`): the CSV format of docs/lahmer.md, read with located errors, and the paper's
// fitting procedure (Sec. IV-C, eqs. 6-8) applied to it, with the fit's quality per layer.
#include <string>
#include <vector>

#include "power/estimators/lahmer.hpp"

namespace ergon {

// One measured layer, as the paper describes layers (Sec. III): square input and kernel.
struct LahmerMeasurement {
  int line = 0;  // 1-based line in the file, for messages
  std::string name;
  bool fully_connected = false;
  double i_size = 0, ifm = 0, ofm = 0, ksize = 0, stride = 1, padding = 0;  // conv
  double o_size = 0;                                                        // fc: outputs (i_size: inputs)
  double load = 0;      // KCLC (conv, under the chosen form) or CLF (fc)
  double energy_j = 0;  // measured, converted from the file's unit
};

// Reads the CSV; every error is an InputError naming the file, line, data row and column.
std::vector<LahmerMeasurement> read_lahmer_measurements(const std::string& path, const KclcOptions& kclc);

struct LahmerResidual {
  std::string name;
  std::string kind;  // conv or fc
  double load = 0, ofm = 0;
  double measured_j = 0, model_j = 0;
  double residual_j() const { return model_j - measured_j; }
  double residual_pct() const { return 100 * residual_j() / measured_j; }
};

struct LahmerMeasuredFit {
  std::string measurements_path;
  KclcOptions kclc;
  LahmerFit fit;
  bool has_fc = false;  // without FC rows there is no a_f (like Table III's TX2)
  std::size_t conv_rows = 0, fc_rows = 0;
  double conv_rmspe_pct = 0, fc_rmspe_pct = 0;  // root mean square percentage error of the model
  std::vector<LahmerResidual> residuals;        // one per row, in file order
};

// The paper's procedure on the rows (fit_lahmer). Too few rows or a singular fit is an InputError naming the
// file.
LahmerMeasuredFit fit_lahmer_measurements(const std::vector<LahmerMeasurement>& rows, const std::string& path,
                                          const KclcOptions& kclc);

}  // namespace ergon
