#include "sim/validation/blackthorn_run.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "common/atomic_file.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/process_pool.hpp"
#include "sim/simulation.hpp"
#include "sim/validation/ergon_latency_backend.hpp"

namespace ergon {
namespace {

using namespace blackthorn;

BlackthornModels profile_models(const AcceleratorConfig& config, const EnergyTable& table,
                                const BlackthornProfileOptions& options) {
  const std::vector<SubModelSpec> specs = default_sub_models(options.scale);
  BlackthornModels models;
  models.backend = ErgonLatencyBackend(config, table).describe();
  models.models.resize(specs.size());
  run_in_processes(
      specs.size(), options.jobs,
      [&](std::size_t i) {
        ErgonLatencyBackend backend(config, table);
        BlackthornModels one;
        one.backend = models.backend;
        one.models.push_back(profile_sub_model(specs[i], backend, ProfileSettings{}));
        return models_json(one).dump();
      },
      [&](std::size_t i, const std::string& json) {
        models.models[i] = models_from_json(nlohmann::json::parse(json)).models.at(0);
      });
  return models;
}

std::vector<LayerSpec> random_conv_layers(const BlackthornModels& models, const BlackthornProfileOptions& options) {
  std::vector<const SubModel*> convs;
  for (const SubModel& m : models.models) {
    if (m.kind == LayerKind::kConv) convs.push_back(&m);
  }
  std::mt19937_64 random(options.seed);
  const auto uniform = [&](double low, double high) {
    return static_cast<int>(std::uniform_int_distribution<long>(std::lround(low), std::lround(high))(random));
  };
  std::vector<LayerSpec> layers;
  for (std::size_t i = 0; i < options.random_layers; ++i) {
    const SubModel& m = *convs[std::uniform_int_distribution<std::size_t>(0, convs.size() - 1)(random)];
    SubModelSpec spec{m.kind, m.kernel, m.stride, {}};
    std::vector<double> coordinates;
    for (std::size_t d = 0; d < m.lower.size(); ++d) {
      if (m.dimension_names[d] == "pixels") {  // a square input of uniformly drawn side
        const int side = uniform(std::sqrt(m.lower[d]), std::sqrt(m.upper[d]));
        coordinates.push_back(static_cast<double>(side) * side);
      } else {
        coordinates.push_back(uniform(m.lower[d], m.upper[d]));
      }
    }
    layers.push_back(layer_at(spec, coordinates));
  }
  return layers;
}

RandomLayerCheck check_random_layers(const AcceleratorConfig& config, const EnergyTable& table,
                                     const BlackthornModels& models, const BlackthornProfileOptions& options) {
  const std::vector<LayerSpec> layers = random_conv_layers(models, options);
  std::vector<double> simulated(layers.size());
  run_in_processes(
      layers.size(), options.jobs,
      [&](std::size_t i) { return fmt::format("{:.17g}", ErgonLatencyBackend(config, table).latency_ms(layers[i])); },
      [&](std::size_t i, const std::string& value) { simulated[i] = std::stod(value); });
  RandomLayerCheck check;
  check.layers = layers.size();
  double squared_pct = 0, absolute_pct = 0, squared_ms = 0;
  std::map<std::string, std::pair<double, int>> by_model;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const double error = predict_ms(models, layers[i]) - simulated[i];
    const double pct = 100 * error / simulated[i];
    auto& group = by_model[fmt::format("k{}s{}", layers[i].kernel, layers[i].stride)];
    group.first += pct * pct;
    ++group.second;
    squared_pct += pct * pct;
    absolute_pct += std::abs(pct);
    squared_ms += error * error;
    check.max_pe_pct = std::max(check.max_pe_pct, std::abs(pct));
  }
  const auto n = static_cast<double>(layers.size());
  check.rmspe_pct = std::sqrt(squared_pct / n);
  check.mape_pct = absolute_pct / n;
  check.rmse_ms = std::sqrt(squared_ms / n);
  for (const auto& [name, group] : by_model)
    check.rmspe_by_model.emplace_back(name, std::sqrt(group.first / group.second));
  return check;
}

std::vector<NetworkCheck> check_networks(const AcceleratorConfig& config, const EnergyTable& table,
                                         const BlackthornModels& models, const BlackthornProfileOptions& options) {
  std::vector<NetworkCheck> checks(options.networks.size());
  run_in_processes(
      options.networks.size(), options.jobs,
      [&](std::size_t i) {
        const Workload workload = load_workload(shipped_data_dir() + "/workloads/" + options.networks[i] + ".yaml");
        const BlackthornEstimate estimate = estimate_blackthorn(workload, models);
        const SimulationResult simulated = Simulation(config, table, workload, SimulationOptions{}).run();
        double modelled_ns = 0;
        for (std::size_t l = 0; l < simulated.layers.size(); ++l) {
          if (estimate.layers[l].modelled) modelled_ns += simulated.layers[l].time_ns;
        }
        return fmt::format("{:.17g} {:.17g} {:.17g} {}", simulated.total.time_ns / 1e6, modelled_ns / 1e6,
                           estimate.total_ms, estimate.unmodelled);
      },
      [&](std::size_t i, const std::string& values) {
        NetworkCheck& c = checks[i];
        c.name = options.networks[i];
        std::istringstream in(values);
        in >> c.simulated_ms >> c.simulated_modelled_ms >> c.estimated_ms >> c.unmodelled_layers;
        c.error_pct = 100 * (c.estimated_ms - c.simulated_ms) / c.simulated_ms;
        c.modelled_error_pct = 100 * (c.estimated_ms - c.simulated_modelled_ms) / c.simulated_modelled_ms;
      });
  return checks;
}

std::vector<StepWidthCheck> step_widths(const BlackthornModels& models) {
  std::vector<StepWidthCheck> checks;
  for (const SubModel& m : models.models) {
    if (m.kind != LayerKind::kConv) continue;
    std::vector<double> middle;
    for (std::size_t d = 0; d < m.lower.size(); ++d) middle.push_back(std::round((m.lower[d] + m.upper[d]) / 2));
    const bool step = m.curve.kind == TemplateKind::kStep;
    checks.push_back({m.kernel, m.stride, step ? "step" : "linear",
                      step ? std::max(1.0, std::round(evaluate(m.curve.width, middle))) : 0.0});
  }
  return checks;
}

}  // namespace

BlackthornProfileReport run_blackthorn_profile(const AcceleratorConfig& config, const EnergyTable& table,
                                               const BlackthornProfileOptions& options) {
  BlackthornProfileReport report;
  report.array_rows = config.pe_array.rows;
  report.array_cols = config.pe_array.cols;
  report.models = profile_models(config, table, options);
  report.step_widths = step_widths(report.models);
  if (options.random_layers > 0) report.random = check_random_layers(config, table, report.models, options);
  report.networks = check_networks(config, table, report.models, options);
  return report;
}

std::string write_blackthorn_profile(const BlackthornProfileReport& report, const std::string& out_dir) {
  std::filesystem::create_directories(out_dir);
  write_file_atomically(out_dir + "/models.json", models_json(report.models).dump(2) + "\n");
  nlohmann::ordered_json networks = nlohmann::ordered_json::array(), widths = nlohmann::ordered_json::array();
  std::string summary = fmt::format("Blackthorn models of {}: {} sub-models from {} simulated measurements\n",
                                    report.models.backend, report.models.models.size(), report.models.measurements());
  for (const SubModel& m : report.models.models) {
    summary += fmt::format("  {:<9} k{:<2} s{}: {:>5} measurements{}\n", layer_kind_name(m.kind), m.kernel, m.stride,
                           m.measurements, m.converged ? "" : " (a fit stopped at its budget)");
  }
  const RandomLayerCheck& r = report.random;
  summary += fmt::format("{} random conv layers: RMSPE {:.2f}%, MAPE {:.2f}%, max {:.1f}%, RMSE {:.4f} ms\n", r.layers,
                         r.rmspe_pct, r.mape_pct, r.max_pe_pct, r.rmse_ms);
  nlohmann::ordered_json by_model = nlohmann::ordered_json::object();
  summary += "  RMSPE by model:";
  for (const auto& [name, rmspe] : r.rmspe_by_model) {
    summary += fmt::format(" {} {:.1f}%;", name, rmspe);
    by_model[name] = rmspe;
  }
  summary += "\n";
  for (const NetworkCheck& c : report.networks) {
    summary += fmt::format(
        "{:<14} simulated {:9.3f} ms, Blackthorn {:9.3f} ms: {:+.2f}%; its modelled layers simulate in {:.3f} ms: "
        "{:+.2f}% ({} layers without a model)\n",
        c.name, c.simulated_ms, c.estimated_ms, c.error_pct, c.simulated_modelled_ms, c.modelled_error_pct,
        c.unmodelled_layers);
    networks.push_back({{"name", c.name},
                        {"simulated_ms", c.simulated_ms},
                        {"estimated_ms", c.estimated_ms},
                        {"error_pct", c.error_pct},
                        {"simulated_modelled_ms", c.simulated_modelled_ms},
                        {"modelled_error_pct", c.modelled_error_pct},
                        {"unmodelled_layers", c.unmodelled_layers}});
  }
  summary += fmt::format("conv models along filters ({}x{} array):", report.array_rows, report.array_cols);
  for (const StepWidthCheck& w : report.step_widths) {
    summary += w.kind == "step" ? fmt::format(" k{}s{} step {:.0f};", w.kernel, w.stride, w.width)
                                : fmt::format(" k{}s{} linear;", w.kernel, w.stride);
    widths.push_back({{"kernel", w.kernel}, {"stride", w.stride}, {"template", w.kind}, {"width", w.width}});
  }
  summary += "\n";
  const nlohmann::ordered_json json = {{"schema_version", 1},
                                       {"backend", report.models.backend},
                                       {"measurements", report.models.measurements()},
                                       {"random_conv_layers",
                                        {{"layers", r.layers},
                                         {"rmspe_pct", r.rmspe_pct},
                                         {"mape_pct", r.mape_pct},
                                         {"max_pe_pct", r.max_pe_pct},
                                         {"rmse_ms", r.rmse_ms},
                                         {"rmspe_pct_by_model", by_model}}},
                                       {"networks", networks},
                                       {"array", {{"rows", report.array_rows}, {"cols", report.array_cols}}},
                                       {"step_widths_along_filters", widths}};
  write_file_atomically(out_dir + "/report.json", json.dump(2) + "\n");
  return summary + "wrote " + out_dir + "/{models.json,report.json}\n";
}

}  // namespace ergon
