// The roofline as an estimator plug-in: each layer's latency bound max(work / compute ceiling, compulsory
// DRAM bytes / DRAM bandwidth) on the config's array (Williams, Waterman and Patterson, CACM 2009). The
// bound is what no mapping of the layer on its own can beat: every PE busy every cycle, every tensor moved
// once between DRAM and the chip. A run that keeps a layer's input on chip from the layer before (a pool
// after a conv) can beat its memory term. It estimates time only; `ergon roofline` places the simulated
// layers under the same roofs.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/text.hpp"
#include "power/estimators/estimator.hpp"

namespace ergon {
namespace {

struct RooflineLayer {
  std::string name, op;
  double operations = 0;  // 2 per MAC, 1 per vector operation
  double dram_bytes = 0;  // inputs, parameters and output, each once
  double compute_ms = 0, memory_ms = 0;
  double latency_ms() const { return std::max(compute_ms, memory_ms); }
  const char* bound() const { return memory_ms > compute_ms ? "memory" : "compute"; }
};

struct Roofline {
  std::string workload, config;
  double compute_ceiling_gops = 0, dram_bandwidth_gbps = 0;
  std::vector<RooflineLayer> layers;
  std::vector<std::string> skipped;  // layers that move no data (concat, slice: layouts)
  double total_ms = 0;
};

Roofline roofline(const Workload& workload, const AcceleratorConfig& config) {
  const double pes = static_cast<double>(config.pe_array.rows * config.pe_array.cols);
  const double pe_ops_per_ms = pes * config.clock.frequency_mhz * 1e3;  // one MAC or vector op per PE-cycle
  const double bytes_per_ms = config.dram.bandwidth_gbps * 1e6;
  const double word_bytes = config.pe_array.word_bits / 8.0;
  Roofline r;
  r.workload = workload.name();
  r.config = config.name;
  r.compute_ceiling_gops = 2 * pes * config.clock.frequency_mhz / 1e3;
  r.dram_bandwidth_gbps = config.dram.bandwidth_gbps;
  for (const Layer& layer : workload.layers()) {
    if (layer.op == OpKind::kInput) continue;
    if (layer.macs == 0 && layer.vector_ops == 0) {
      r.skipped.push_back(layer.name);
      continue;
    }
    double elements = static_cast<double>(layer.params_count) + static_cast<double>(layer.output_shape.elements());
    for (const TensorShape& input : layer.input_shapes) elements += static_cast<double>(input.elements());
    RooflineLayer l;
    l.name = layer.name;
    l.op = op_name(layer.op);
    l.operations = 2.0 * static_cast<double>(layer.macs) + static_cast<double>(layer.vector_ops);
    l.dram_bytes = elements * word_bytes;
    l.compute_ms = static_cast<double>(layer.macs + layer.vector_ops) / pe_ops_per_ms;
    l.memory_ms = l.dram_bytes / bytes_per_ms;
    r.total_ms += l.latency_ms();
    r.layers.push_back(l);
  }
  return r;
}

ReportForms roofline_forms(const Roofline& r) {
  ReportForms forms;
  forms.table = fmt::format(
      "roofline bound of {} on {}: compute ceiling {:.1f} GOPS, DRAM {} GB/s, every tensor moved once\n"
      "{:<28} {:<10} {:>14} {:>14} {:>10} {:>8} {:>12}\n",
      r.workload, r.config, r.compute_ceiling_gops, r.dram_bandwidth_gbps, "layer", "op", "operations", "DRAM bytes",
      "ops/byte", "bound", "latency ms");
  forms.csv = "layer,op,operations,dram_bytes,intensity_ops_per_byte,compute_ms,memory_ms,bound,latency_ms\n";
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const RooflineLayer& l : r.layers) {
    const double intensity = l.dram_bytes > 0 ? l.operations / l.dram_bytes : 0.0;
    forms.table += fmt::format("{:<28} {:<10} {:>14.0f} {:>14.0f} {:>10.2f} {:>8} {:>12.4f}\n", l.name, l.op,
                               l.operations, l.dram_bytes, intensity, l.bound(), l.latency_ms());
    forms.csv += fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_quoted(l.name), l.op, l.operations, l.dram_bytes,
                             intensity, l.compute_ms, l.memory_ms, l.bound(), l.latency_ms());
    layers.push_back({{"name", l.name},
                      {"op", l.op},
                      {"operations", l.operations},
                      {"dram_bytes", l.dram_bytes},
                      {"intensity_ops_per_byte", intensity},
                      {"compute_ms", l.compute_ms},
                      {"memory_ms", l.memory_ms},
                      {"bound", l.bound()},
                      {"latency_ms", l.latency_ms()}});
  }
  forms.table += fmt::format("total latency bound: {:.4f} ms per image (sum of the layers)\n", r.total_ms);
  if (!r.skipped.empty()) forms.table += fmt::format("{} layers move no data (layouts)\n", r.skipped.size());
  forms.csv += fmt::format("total,,,,,,,,{}\n", r.total_ms);
  forms.json = nlohmann::ordered_json{{"schema_version", 1},
                                      {"estimator", "roofline"},
                                      {"workload", r.workload},
                                      {"config", r.config},
                                      {"compute_ceiling_gops", r.compute_ceiling_gops},
                                      {"dram_bandwidth_gbps", r.dram_bandwidth_gbps},
                                      {"total_latency_ms", r.total_ms},
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

  EstimateReport estimate(const EstimatorInputs& inputs) const override {
    const Roofline r = roofline(inputs.workload, inputs.chip->config);
    EstimateSource source{"roofline " + r.config,
                          "latency bound on " + r.config + ": every PE busy every cycle, every tensor moved once",
                          {},
                          std::nullopt,
                          r.total_ms};
    for (const RooflineLayer& l : r.layers) source.layers.push_back({l.name, std::nullopt, l.latency_ms()});
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

std::unique_ptr<IEstimator> make_roofline_estimator() {
  return std::make_unique<RooflineEstimator>();
}

}  // namespace ergon
