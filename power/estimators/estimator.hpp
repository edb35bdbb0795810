#pragma once
// The analytical estimators as plug-ins (docs/architecture.md, "Estimators"): each one names itself, lists
// its options, and gives an estimate with its report in every --format, plus the sources it adds to the
// comparison report. `ergon estimate`, `ergon compare` and the comparison report iterate over the registry
// (power/estimators/registry.hpp). Estimators never call the simulator: they estimate beside it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "common/report_formats.hpp"
#include "common/yaml_view.hpp"
#include "network/workload.hpp"
#include "power/energy_table.hpp"

namespace ergon {

// One option of `ergon estimate NAME` (--name VALUE), declared by the estimator; the command line adds it.
struct EstimatorOption {
  EstimatorOption(std::string option_name, std::string option_help)
      : name(std::move(option_name)), help(std::move(option_help)) {}

  std::string name;  // the long option without dashes: "board" -> --board
  std::string help;
  std::string short_name;            // "" or one letter: "b" -> -b
  std::string default_value;         // "" = none (the estimator decides)
  std::vector<std::string> choices;  // empty = any value; matched case-insensitively
  std::optional<IntRule> integer;    // set: the value is an integer in this range
  bool required = false;
  bool flag = false;           // takes no value: "1" when given
  bool file = false;           // an input file: checked before anything runs, recorded as an input of --out
  bool folder = false;         // an input folder that must exist
  std::string read_in_folder;  // for a folder: the file the estimator reads there (an input of --out)
};

// The option values given (or defaulted) for one estimator.
class EstimatorSettings {
 public:
  void set(const std::string& name, std::string value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const;  // given and not empty
  std::string get(const std::string& name, const std::string& fallback = "") const;
  bool flag(const std::string& name) const { return get(name) == "1"; }
  // The value of an `integer` option, nullopt when not given; throws std::invalid_argument naming the
  // option when it is not an integer in its range (the command line refuses that first, as a usage error).
  std::optional<std::int64_t> integer(const EstimatorOption& option) const;

 private:
  std::map<std::string, std::string> values_;
};

// A chip to estimate on: its config and the energy table the config names (empty for an estimator that
// prices no energy, IEstimator::prices_energy).
struct ChipInputs {
  AcceleratorConfig config;
  EnergyTable table;
};

struct EstimatorInputs {
  const Workload& workload;
  const ChipInputs* chip = nullptr;  // set for estimators that model a chip (IEstimator::models_a_chip)
  EstimatorSettings settings;
  std::string data_dir;  // the shipped data (reference/ figures), for defaults
};

// One layer's figures, per image; nothing where the estimator does not model the layer.
struct LayerEstimate {
  std::string name;
  std::optional<double> energy_mj, latency_ms;
};

// An estimate as the comparison report shows it: a source with per-layer and total figures.
struct EstimateSource {
  std::string name;    // "CNNergy", "Lahmer TX2", "roofline eyeriss"
  std::string detail;  // what it is and its caveats
  std::vector<LayerEstimate> layers;
  std::optional<double> energy_mj, latency_ms;  // per image
};

struct EstimateReport {
  EstimateSource source;
  ReportForms forms;  // table, json (versioned schema), csv: what `ergon estimate NAME` prints and writes
};

// What the comparison report gives every estimator: the workload, the configs simulated (with their
// tables), and each estimator's settings from the compare command line (e.g. blackthorn's models).
struct ComparisonInputs {
  const Workload& workload;
  const std::vector<ChipInputs>& chips;
  std::map<std::string, EstimatorSettings> settings;  // by estimator name
  std::string data_dir;
};

class IEstimator {
 public:
  virtual ~IEstimator() = default;
  virtual std::string name() const = 0;         // the subcommand: `ergon estimate NAME`, the --out file stem
  virtual std::string description() const = 0;  // one line for --help
  // True: takes --config/--set and estimates on that chip; false: models a board of its own.
  virtual bool models_a_chip() const = 0;
  // True: prices energy with the chip's energy table, so `ergon estimate NAME` takes --energy-table.
  virtual bool prices_energy() const { return models_a_chip(); }
  virtual std::vector<EstimatorOption> options() const { return {}; }
  // Throws InputError (or std::runtime_error) with a located message for unusable inputs.
  virtual EstimateReport estimate(const EstimatorInputs& inputs) const = 0;
  // The sources this estimator adds to the comparison report; none when it does not apply (CNNergy without
  // a row-stationary config, Blackthorn without models).
  virtual std::vector<EstimateSource> comparison_sources(const ComparisonInputs& inputs) const = 0;
};

}  // namespace ergon
