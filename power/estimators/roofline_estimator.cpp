// The roofline as an estimator plug-in (power/estimators/roofline.hpp): each layer's latency bound on the
// config's array, over the layer's batch (weights fetched once per batch). It estimates time only.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "common/text.hpp"
#include "power/estimators/registry.hpp"
#include "power/estimators/roofline.hpp"

namespace ergon {
namespace {

EstimatorOption batch_option() {
  EstimatorOption option("batch", "Images processed together by every layer (default: each layer's own)");
  option.integer = IntRule{1, kMaxBatch};
  return option;
}

std::string batch_text(const Roofline& r) {
  return r.batch ? fmt::format("batch {} on every layer", *r.batch) : "each layer at its own batch";
}

nlohmann::ordered_json layer_json(const RooflineLayer& l) {
  const double intensity = l.traffic.total_bytes() > 0 ? l.operations() / l.traffic.total_bytes() : 0.0;
  return {{"name", l.name},
          {"op", l.op},
          {"batch", l.batch},
          {"macs", l.macs},
          {"vector_ops", l.vector_ops},
          {"operations", l.operations()},
          {"weight_bytes", l.traffic.weight_bytes},
          {"ifmap_bytes", l.traffic.ifmap_bytes},
          {"ofmap_bytes", l.traffic.ofmap_bytes},
          {"dram_bytes", l.traffic.total_bytes()},
          {"intensity_ops_per_byte", intensity},
          {"compute_ms", l.compute_ms},
          {"memory_ms", l.memory_ms},
          {"bound", l.bound()},
          {"latency_ms", l.latency_ms()},
          {"latency_ms_per_image", l.latency_ms_per_image()}};
}

ReportForms roofline_forms(const Roofline& r) {
  ReportForms forms;
  forms.table = fmt::format(
      "roofline bound of {} on {}: compute ceiling {:.1f} GOPS, DRAM {} GB/s, {}; compulsory traffic: weights once "
      "per batch, inputs read and outputs once per image, as stored in DRAM\n"
      "{:<28} {:<10} {:>6} {:>14} {:>14} {:>10} {:>8} {:>12} {:>12}\n",
      r.workload, r.config, r.compute_ceiling_gops, r.dram_bandwidth_gbps, batch_text(r), "layer", "op", "batch",
      "operations", "DRAM bytes", "ops/byte", "bound", "batch ms", "ms/image");
  forms.csv =
      "layer,op,batch,macs,vector_ops,operations,dram_bytes,intensity_ops_per_byte,compute_ms,memory_ms,bound,"
      "latency_ms,latency_ms_per_image\n";
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const RooflineLayer& l : r.layers) {
    const nlohmann::ordered_json json = layer_json(l);
    const double intensity = json["intensity_ops_per_byte"];
    forms.table += fmt::format("{:<28} {:<10} {:>6} {:>14.0f} {:>14.0f} {:>10.2f} {:>8} {:>12.4f} {:>12.4f}\n", l.name,
                               l.op, l.batch, l.operations(), l.traffic.total_bytes(), intensity, l.bound(),
                               l.latency_ms(), l.latency_ms_per_image());
    forms.csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_quoted(l.name), l.op, l.batch, l.macs,
                             l.vector_ops, l.operations(), l.traffic.total_bytes(), intensity, l.compute_ms,
                             l.memory_ms, l.bound(), l.latency_ms(), l.latency_ms_per_image());
    layers.push_back(json);
  }
  const double total = r.total_ms_per_image();
  forms.table +=
      fmt::format("total latency bound: {:.4f} ms per image (each layer's bound over its batch, summed)\n", total);
  if (!r.skipped.empty()) forms.table += fmt::format("{} layers move no data (layouts)\n", r.skipped.size());
  forms.csv += fmt::format("total,,,,,,,,,,,,{}\n", total);
  nlohmann::ordered_json batch = nullptr;
  if (r.batch) batch = *r.batch;
  forms.json = nlohmann::ordered_json{{"schema_version", 2},
                                      {"estimator", "roofline"},
                                      {"workload", r.workload},
                                      {"config", r.config},
                                      {"batch", batch},
                                      {"compute_ceiling_gops", r.compute_ceiling_gops},
                                      {"dram_bandwidth_gbps", r.dram_bandwidth_gbps},
                                      {"total_latency_ms_per_image", total},
                                      {"layers", layers},
                                      {"not_modelled", r.skipped}}
                   .dump(2) +
               "\n";
  return forms;
}

class RooflineEstimator : public IEstimator {
 public:
  std::string name() const override { return "roofline"; }
  std::string description() const override {
    return "Roofline latency bound per layer on the config's array (compute ceiling or compulsory DRAM traffic)";
  }
  bool models_a_chip() const override { return true; }
  bool prices_energy() const override { return false; }
  std::vector<EstimatorOption> options() const override { return {batch_option()}; }

  EstimateReport estimate(const EstimatorInputs& inputs) const override {
    const Roofline r = roofline_bound(inputs.workload, inputs.chip->config, inputs.settings.integer(batch_option()));
    EstimateSource source{"roofline " + r.config,
                          "latency bound on " + r.config + " per image, " + batch_text(r) +
                              ": every PE busy every cycle, the compulsory DRAM traffic at full bandwidth",
                          {},
                          std::nullopt,
                          r.total_ms_per_image()};
    for (const RooflineLayer& l : r.layers) source.layers.push_back({l.name, std::nullopt, l.latency_ms_per_image()});
    return {source, roofline_forms(r)};
  }

  std::vector<EstimateSource> comparison_sources(const ComparisonInputs& inputs) const override {
    std::vector<EstimateSource> sources;
    for (const ChipInputs& chip : inputs.chips) {
      sources.push_back(estimate({inputs.workload, &chip, {}, inputs.data_dir}).source);
    }
    return sources;
  }
};

}  // namespace

ERGON_REGISTER(EstimatorPlugin, "roofline", std::make_shared<const RooflineEstimator>(), 40)

}  // namespace ergon
