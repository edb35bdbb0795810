// Blackthorn (Lechner and Jantsch 2021) as an estimator plug-in: a network's latency as the sum of the layer
// models `ergon profile blackthorn` fitted (docs/blackthorn.md).
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <stdexcept>

#include "common/text.hpp"
#include "network/workload.hpp"
#include "power/estimators/blackthorn/layer_models.hpp"
#include "power/estimators/registry.hpp"

namespace ergon {
namespace {

using namespace blackthorn;

BlackthornModels read_models(const std::string& dir) {
  const std::string path = dir + "/models.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": no models; run `ergon profile blackthorn --out " + dir + "` first");
  try {
    return models_from_json(nlohmann::json::parse(in));
  } catch (const std::exception& error) {
    throw std::runtime_error(path + ": " + error.what());
  }
}

std::string estimate_json(const BlackthornEstimate& e, const BlackthornModels& models) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const auto& l : e.layers) {
    layers.push_back(
        {{"name", l.name}, {"op", l.op}, {"modelled", l.modelled}, {"latency_ms", l.latency_ms}, {"note", l.note}});
  }
  return nlohmann::ordered_json{
             {"schema_version", 1},       {"estimator", "blackthorn"},      {"workload", e.workload},
             {"backend", models.backend}, {"total_latency_ms", e.total_ms}, {"unmodelled_layers", e.unmodelled},
             {"layers", layers}}
             .dump(2) +
         "\n";
}

std::string estimate_csv(const BlackthornEstimate& e) {
  std::string out = "layer,op,modelled,latency_ms,note\n";
  for (const auto& l : e.layers) {
    out +=
        fmt::format("{},{},{},{},{}\n", csv_quoted(l.name), l.op, l.modelled ? 1 : 0, l.latency_ms, csv_quoted(l.note));
  }
  return out + fmt::format("total,,,{},\n", e.total_ms);
}

// A per-image latency holds at the batch it was profiled at (`profile blackthorn --batch`): a workload whose
// layers run another batch gets the models' figures with this caveat ("" when the batches agree or the models
// were measured).
std::string batch_caveat(const Workload& workload, const BlackthornModels& models) {
  if (models.batch <= 0) return "";
  for (const Layer& layer : workload.layers()) {
    if (layer.op == OpKind::kInput || layer.batch == models.batch) continue;
    return fmt::format(
        "the models give the latency per image at batch {}, but {} runs at batch {}: profile with --batch {} for "
        "this batch",
        models.batch, layer.name, layer.batch, layer.batch);
  }
  return "";
}

std::string estimate_table(const BlackthornEstimate& e, const BlackthornModels& models) {
  std::string out = fmt::format("Blackthorn estimate of {} from models of {}\n", e.workload, models.backend);
  out += fmt::format("{:<28} {:<10} {:>12}\n", "layer", "op", "latency ms");
  std::string ignored;
  for (const auto& l : e.layers) {
    if (l.modelled) {
      out += fmt::format("{:<28} {:<10} {:>12.4f}\n", l.name, l.op, l.latency_ms);
    } else if (l.op != "input") {
      ignored += fmt::format("  {} ({}): {}\n", l.name, l.op, l.note);
    }
  }
  out += fmt::format("{:<28} {:<10} {:>12.4f}\ntotal latency: {:.4f} ms (sum of the layers)\n", "total", "", e.total_ms,
                     e.total_ms);
  if (!ignored.empty()) out += "ignored (no model):\n" + ignored;
  return out;
}

class BlackthornEstimator : public IEstimator {
 public:
  std::string name() const override { return "blackthorn"; }
  std::string description() const override {
    return "Network latency as the sum of Blackthorn layer models (from `ergon profile blackthorn`)";
  }
  bool models_a_chip() const override { return false; }
  std::vector<EstimatorOption> options() const override {
    EstimatorOption models("models", "Folder written by ergon profile blackthorn");
    models.short_name = "";  // -m is --measurements in fit and profile
    models.required = true;
    models.folder = true;
    models.read_in_folder = "models.json";
    return {models};
  }

  EstimateReport estimate(const EstimatorInputs& inputs) const override {
    const BlackthornModels models = read_models(inputs.settings.get("models"));
    const BlackthornEstimate result = estimate_blackthorn(inputs.workload, models);
    const std::string caveat = batch_caveat(inputs.workload, models);
    EstimateSource source{"Blackthorn",
                          "layer models fitted to " + models.backend +
                              fmt::format("; {} layers without a model ignored", result.unmodelled) +
                              (caveat.empty() ? "" : "; " + caveat),
                          {},
                          std::nullopt,
                          result.total_ms};
    for (const auto& layer : result.layers) {
      if (layer.modelled) source.layers.push_back({layer.name, std::nullopt, layer.latency_ms});
    }
    std::string table = estimate_table(result, models);
    if (!caveat.empty()) table += "note: " + caveat + "\n";
    return {source, {table, estimate_json(result, models), estimate_csv(result)}};
  }

  // With the models `compare --blackthorn-models` names; none without.
  std::vector<EstimateSource> comparison_sources(const ComparisonInputs& inputs) const override {
    const auto settings = inputs.settings.find(name());
    if (settings == inputs.settings.end() || !settings->second.has("models")) return {};
    return {estimate({inputs.workload, nullptr, settings->second, inputs.data_dir}).source};
  }
};

}  // namespace

ERGON_REGISTER(EstimatorPlugin, "blackthorn", std::make_shared<const BlackthornEstimator>(), 30)

}  // namespace ergon
