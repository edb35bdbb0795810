#pragma once
// `ergon profile blackthorn`: profile Blackthorn's layer models on an accelerator config (the Ergon
// backend), then check them as the paper does: per-layer error on random conv layers (its Table 1) and
// network-level error against simulating whole networks (its Table 3). docs/blackthorn.md.
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "common/report_formats.hpp"
#include "power/energy_table.hpp"
#include "power/estimators/blackthorn/layer_models.hpp"
#include "power/estimators/blackthorn/sweep_check.hpp"
#include "sim/simulation.hpp"

namespace ergon {

struct BlackthornProfileOptions {
  double scale = 1.0;  // shrinks every profiled range (quick looks and tests)
  unsigned jobs = 1;
  std::size_t random_layers = 1000;
  std::vector<std::string> networks = {"alexnet", "vgg16", "resnet50", "mobilenet_v2"};
  std::uint64_t seed = 2021;
  blackthorn::ProfileSettings fit;
  std::size_t sweeps = 0;  // 1-D ground-truth sweeps of the fitter (the paper's Fig. 7 check)
  // --batch and --fidelity of every simulation (single layers and networks); no observers (simulate_in_worker).
  SimulationOptions simulation;
  // Profile from this CSV of measured latencies instead of simulating (docs/blackthorn.md).
  std::string measurements_csv;
};

struct RandomLayerCheck {
  std::size_t layers = 0;
  std::size_t uncovered = 0;  // predicted <= 0: left out of the errors below, counted here
  double rmspe_pct = 0, mape_pct = 0, max_pe_pct = 0, rmse_ms = 0;
  std::vector<std::pair<std::string, double>> rmspe_by_model;  // "k3s1" -> RMSPE %
  std::vector<blackthorn::LayerSpec> specs;                    // every layer, for the plots
  std::vector<double> simulated_ms, predicted_ms;
};

struct NetworkLayer {
  std::string name, op;
  bool modelled = false;
  double simulated_ms = 0, estimated_ms = 0;
};

struct NetworkCheck {
  std::string name;
  double simulated_ms = 0, estimated_ms = 0, error_pct = 0;
  // The simulated time of the layers that have a model, and the estimate's error against it alone.
  double simulated_modelled_ms = 0, modelled_error_pct = 0;
  std::size_t unmodelled_layers = 0;
  std::vector<NetworkLayer> layers;
};

// The template and step width each conv model found along the filters (the same at every coordinate).
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
  std::string fit_error;  // "relative" or "absolute" (the innermost fits)
  std::vector<blackthorn::SweepCheck> sweeps;
  // From measurements: sub-models that stopped at a layer the file lacks, and those layers.
  std::vector<std::string> incomplete;
  std::vector<blackthorn::LayerSpec> requests;
  bool measured = false;  // profiled from --measurements: no simulation, no random-layer or network checks
};

BlackthornProfileReport run_blackthorn_profile(const AcceleratorConfig& config, const EnergyTable& table,
                                               const BlackthornProfileOptions& options);

// The same from a CSV of measured latencies (options.measurements_csv): no simulation, so no random-layer
// or network checks; sub-models the file cannot finish yet are listed with the layers to measure next.
BlackthornProfileReport run_blackthorn_measured_profile(const BlackthornProfileOptions& options);

// The profile in every --format (docs/blackthorn.md): table the summary of the models and checks, json
// report.json, csv network_layers.csv (simulated) or requests.csv (measured; its header alone when nothing is
// missing), markdown the summary as markdown tables.
ReportForms blackthorn_profile_forms(const BlackthornProfileReport& report);

// models.json (for `ergon estimate blackthorn`), report.json (forms.json), requests.csv when measurements are
// missing and, with `plots`, the plots' data and scripts (and, with gnuplot, the plots). Returns a remark for
// the note on the files written: empty, or that gnuplot is missing.
std::string write_blackthorn_profile(const BlackthornProfileReport& report, const ReportForms& forms,
                                     const std::string& out_dir, bool plots);

}  // namespace ergon
