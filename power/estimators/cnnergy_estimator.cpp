// CNNergy (NeuPart, Manasi et al., IEEE TVLSI 2020) as an estimator plug-in: energy of a workload on the
// config's row-stationary array, priced by the config's table (docs/cnnergy.md).
#include <fmt/format.h>

#include <memory>

#include "dataflows/registry.hpp"
#include "power/estimators/cnnergy.hpp"
#include "power/estimators/cnnergy_hardware.hpp"
#include "power/estimators/cnnergy_report.hpp"
#include "power/estimators/registry.hpp"

namespace ergon {
namespace {

class CnnergyEstimator : public IEstimator {
 public:
  std::string name() const override { return "cnnergy"; }
  std::string description() const override {
    return "CNNergy energy model (NeuPart, Manasi et al. 2020) of a workload on an Eyeriss-like array";
  }
  bool models_a_chip() const override { return true; }
  std::vector<EstimatorOption> options() const override {
    EstimatorOption bits("bits", "Word width (default: the config's pe_array.word_bits)");
    bits.choices = {"8", "16"};
    EstimatorOption no_control("no-control", "Leave out clock-tree and control energy");
    no_control.flag = true;
    return {bits, no_control};
  }

  EstimateReport estimate(const EstimatorInputs& inputs) const override {
    const CnnergyOptions options = model_options(inputs.chip->config, inputs.settings);
    const CnnergyEstimate estimate =
        estimate_cnnergy(inputs.workload, inputs.chip->table, cnnergy_hardware(inputs.chip->config), options);
    return {source_of(estimate, inputs.chip->config),
            {cnnergy_table(estimate), cnnergy_json(estimate).dump(2) + "\n", cnnergy_csv(estimate)}};
  }

  // On the first row-stationary config of the comparison, at its word width, with clock and control.
  std::vector<EstimateSource> comparison_sources(const ComparisonInputs& inputs) const override {
    for (const ChipInputs& chip : inputs.chips) {
      if (!is_row_stationary(chip.config.pe_array)) continue;
      return {estimate({inputs.workload, &chip, {}, inputs.data_dir}).source};
    }
    return {};
  }

 private:
  static CnnergyOptions model_options(const AcceleratorConfig& config, const EstimatorSettings& settings) {
    CnnergyOptions options;
    options.word_bits = settings.has("bits") ? std::stoi(settings.get("bits")) : config.pe_array.word_bits;
    options.include_control_and_clock = !settings.flag("no-control");
    return options;
  }

  // Latency is not CNNergy's: MACs at Eyeriss's measured throughput, which also sets its clock energy.
  static EstimateSource source_of(const CnnergyEstimate& estimate, const AcceleratorConfig& config) {
    const double macs_per_ms = estimate.options.throughput_macs_per_s * 1e-3;
    EstimateSource source{"CNNergy",
                          fmt::format("analytical estimate on {}'s array; latency = MACs / {:.1f} GMAC/s (Eyeriss, "
                                      "measured)",
                                      config.name, estimate.options.throughput_macs_per_s / 1e9),
                          {},
                          estimate.total.total_pj() * 1e-9,
                          0.0};
    for (const auto& layer : estimate.layers) {
      if (!layer.modelled) continue;
      const double ms = static_cast<double>(layer.macs) / macs_per_ms;
      source.layers.push_back({layer.name, layer.energy.total_pj() * 1e-9, ms});
      *source.latency_ms += ms;
    }
    return source;
  }
};

}  // namespace

ERGON_REGISTER(EstimatorPlugin, "cnnergy", std::make_shared<const CnnergyEstimator>(), 10)

}  // namespace ergon
