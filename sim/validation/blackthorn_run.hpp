#pragma once
// `ergon profile blackthorn`: profile Blackthorn's layer models on an accelerator config (the Ergon
// backend), then check them as the paper does: per-layer error on random conv layers (its Table 1) and
// network-level error against simulating whole networks (its Table 3). docs/blackthorn.md.
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "power/energy_table.hpp"
#include "power/estimators/blackthorn/layer_models.hpp"

namespace ergon {

struct BlackthornProfileOptions {
  double scale = 1.0;  // shrinks every profiled range (quick looks and tests)
  unsigned jobs = 1;
  std::size_t random_layers = 1000;
  std::vector<std::string> networks = {"alexnet", "vgg16", "resnet50", "mobilenet_v2"};
  std::uint64_t seed = 2021;
};

struct RandomLayerCheck {
  std::size_t layers = 0;
  double rmspe_pct = 0, mape_pct = 0, max_pe_pct = 0, rmse_ms = 0;
  std::vector<std::pair<std::string, double>> rmspe_by_model;  // "k3s1" -> RMSPE %
};

struct NetworkCheck {
  std::string name;
  double simulated_ms = 0, estimated_ms = 0, error_pct = 0;
  // The simulated time of the layers that have a model, and the estimate's error against it alone.
  double simulated_modelled_ms = 0, modelled_error_pct = 0;
  std::size_t unmodelled_layers = 0;
};

// The fitted step along the innermost dimension of each conv model, at the middle of the other ranges.
struct StepWidthCheck {
  int kernel = 0, stride = 0;
  std::string kind;  // template along filters
  double width = 0;
};

struct BlackthornProfileReport {
  blackthorn::BlackthornModels models;
  RandomLayerCheck random;
  std::vector<NetworkCheck> networks;
  std::vector<StepWidthCheck> step_widths;
  std::int64_t array_rows = 0, array_cols = 0;
};

BlackthornProfileReport run_blackthorn_profile(const AcceleratorConfig& config, const EnergyTable& table,
                                               const BlackthornProfileOptions& options);

// models.json (for `ergon estimate blackthorn`) and report.json; returns the terminal summary.
std::string write_blackthorn_profile(const BlackthornProfileReport& report, const std::string& out_dir);

}  // namespace ergon
