// Lahmer et al. (WiOpt 2022) as an estimator plug-in: CPU energy of conv and FC layers on a Jetson board from
// the paper's Table III parameters (docs/lahmer.md).
#include <fmt/format.h>

#include <memory>
#include <stdexcept>

#include "power/estimators/lahmer.hpp"
#include "power/estimators/lahmer_report.hpp"
#include "power/estimators/registry.hpp"

namespace ergon {
namespace {

const char* const kTable3 = "/reference/jetson/lahmer_2022_table3.yaml";

class LahmerEstimator : public IEstimator {
 public:
  std::string name() const override { return "lahmer"; }
  std::string description() const override {
    return "Empirical energy model of Jetson boards (Lahmer et al., WiOpt 2022): conv and FC layers";
  }
  bool models_a_chip() const override { return false; }
  std::vector<EstimatorOption> options() const override {
    EstimatorOption board("board", "Board: tx2 or xavier-nx (Table III)");
    board.short_name = "b";
    board.required = true;
    EstimatorOption parameters("parameters", "Parameter file (default: reference/jetson/lahmer_2022_table3.yaml)");
    parameters.file = true;
    EstimatorOption kclc("kclc", "KCLC form of eq. 2: exact or approximate");
    kclc.default_value = "exact";
    kclc.choices = {"exact", "approximate"};
    EstimatorOption padding("kclc-padding",
                            "Padding in the exact KCLC: ignore (eq. 2 as printed) or include (the positions a padded "
                            "layer computes)");
    padding.default_value = "ignore";
    padding.choices = {"ignore", "include"};
    return {board, parameters, kclc, padding};
  }

  EstimateReport estimate(const EstimatorInputs& inputs) const override {
    const std::string parameters = inputs.settings.get("parameters", inputs.data_dir + kTable3);
    const LahmerBoard board = load_lahmer_board(parameters, inputs.settings.get("board"));
    const LahmerEstimate estimate = estimate_lahmer(inputs.workload, board, kclc_options(inputs.settings));
    return {source_of(estimate, "Lahmer " + board.name),
            {lahmer_table(estimate), lahmer_json(estimate).dump(2) + "\n", lahmer_csv(estimate)}};
  }

  // Both boards of Table III, exact KCLC.
  std::vector<EstimateSource> comparison_sources(const ComparisonInputs& inputs) const override {
    std::vector<EstimateSource> sources;
    for (const auto& [board, label] : {std::pair{"tx2", "Lahmer TX2"}, std::pair{"xavier-nx", "Lahmer Xavier NX"}}) {
      EstimatorSettings settings;
      settings.set("board", board);
      EstimateSource source = estimate({inputs.workload, nullptr, settings, inputs.data_dir}).source;
      source.name = label;
      sources.push_back(std::move(source));
    }
    return sources;
  }

 private:
  static KclcOptions kclc_options(const EstimatorSettings& settings) {
    try {
      return make_kclc_options(parse_kclc_form(settings.get("kclc", "exact")),
                               parse_kclc_padding(settings.get("kclc-padding", "ignore")));
    } catch (const std::invalid_argument& error) {
      throw std::runtime_error(error.what());  // a usage error, not a program fault
    }
  }

  static EstimateSource source_of(const LahmerEstimate& estimate, const std::string& name) {
    EstimateSource source{
        name,
        "Lahmer et al. (WiOpt 2022) Table III, CPU energy, " +
            std::string(estimate.kclc.form == KclcForm::kExact ? "exact" : "approximate") + " KCLC" +
            (estimate.unmodelled_compute_layers > 0
                 ? fmt::format("; PARTIAL: {} conv/FC layers without parameters", estimate.unmodelled_compute_layers)
                 : std::string()),
        {},
        estimate.total_j * 1e3,
        std::nullopt};
    for (const auto& layer : estimate.layers) {
      if (layer.modelled) source.layers.push_back({layer.name, layer.energy_j * 1e3, std::nullopt});
    }
    return source;
  }
};

}  // namespace

ERGON_REGISTER(EstimatorPlugin, "lahmer", std::make_shared<const LahmerEstimator>(), 20)

}  // namespace ergon
