#include "studies/blackthorn/blackthorn_run.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/text.hpp"
#include "power/estimators/blackthorn/measured_latencies.hpp"
#include "sim/data_paths.hpp"
#include "sim/parallel/process_pool.hpp"
#include "studies/blackthorn/blackthorn_plots.hpp"
#include "studies/blackthorn/ergon_latency_backend.hpp"

namespace ergon {
namespace {

using namespace blackthorn;

BlackthornModels profile_models(const AcceleratorConfig& config, const EnergyTable& table,
                                const BlackthornProfileOptions& options) {
  const std::vector<SubModelSpec> specs = default_sub_models(options.scale);
  BlackthornModels models;
  models.backend = ErgonLatencyBackend(config, table, options.simulation).describe();
  models.batch = options.simulation.batch.value_or(1);  // the generated layers' own batch is 1
  models.fidelity = fidelity_name(options.simulation.fidelity);
  models.models.resize(specs.size());
  run_in_processes(
      specs.size(), options.jobs,
      [&](std::size_t i) {
        ErgonLatencyBackend backend(config, table, options.simulation);
        BlackthornModels one;
        one.backend = models.backend;
        one.models.push_back(profile_sub_model(specs[i], backend, options.fit));
        return models_json(one).dump();
      },
      [&](std::size_t i, const std::string& json) {
        models.models[i] = models_from_json(nlohmann::json::parse(json)).models.at(0);
      },
      "Blackthorn sub-model profiles");
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
    std::vector<double> coordinates;  // inputs of independent width and height, as the paper's test set
    for (std::size_t d = 0; d < m.lower.size(); ++d) coordinates.push_back(uniform(m.lower[d], m.upper[d]));
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
      [&](std::size_t i) {
        return fmt::format("{:.17g}", ErgonLatencyBackend(config, table, options.simulation).latency_ms(layers[i]));
      },
      [&](std::size_t i, const std::string& value) { simulated[i] = std::stod(value); },
      "random conv layers simulated");
  RandomLayerCheck check;
  check.layers = layers.size();
  check.specs = layers;
  check.simulated_ms = simulated;
  double squared_pct = 0, absolute_pct = 0, squared_ms = 0;
  std::map<std::string, std::pair<double, int>> by_model;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const double predicted = predict_ms(models, layers[i]);
    check.predicted_ms.push_back(predicted);
    if (predicted <= 0) {  // not covered: reported as such, never as a latency
      ++check.uncovered;
      continue;
    }
    const double error = predicted - simulated[i];
    const double pct = 100 * error / simulated[i];
    auto& group = by_model[fmt::format("k{}s{}", layers[i].kernel, layers[i].stride)];
    group.first += pct * pct;
    ++group.second;
    squared_pct += pct * pct;
    absolute_pct += std::abs(pct);
    squared_ms += error * error;
    check.max_pe_pct = std::max(check.max_pe_pct, std::abs(pct));
  }
  const auto n = static_cast<double>(std::max<std::size_t>(1, layers.size() - check.uncovered));
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
        Workload workload = load_workload(shipped_data_dir() + "/workloads/" + options.networks[i] + ".yaml");
        // The estimate for the batch simulated: the models' per-image latency times the layer's batch.
        if (options.simulation.batch) workload.set_batch(*options.simulation.batch);
        const BlackthornEstimate estimate = estimate_blackthorn(workload, models);
        const SimulationResult simulated = simulate_in_worker(config, table, workload, options.simulation);
        nlohmann::json layers = nlohmann::json::array();
        for (std::size_t l = 0; l < simulated.layers.size(); ++l) {
          const BlackthornLayerEstimate& e = estimate.layers[l];
          layers.push_back({e.name, e.op, e.modelled, simulated.layers[l].time_ns / 1e6, e.latency_ms});
        }
        return nlohmann::json{simulated.total.time_ns / 1e6, estimate.total_ms, estimate.unmodelled, layers}.dump();
      },
      [&](std::size_t i, const std::string& text) {
        const nlohmann::json values = nlohmann::json::parse(text);
        NetworkCheck& c = checks[i];
        c.name = options.networks[i];
        c.simulated_ms = values[0].get<double>();
        c.estimated_ms = values[1].get<double>();
        c.unmodelled_layers = values[2].get<std::size_t>();
        for (const auto& l : values[3]) {
          c.layers.push_back({l[0], l[1], l[2].get<bool>(), l[3].get<double>(), l[4].get<double>()});
          if (c.layers.back().modelled) c.simulated_modelled_ms += c.layers.back().simulated_ms;
        }
        c.error_pct = 100 * (c.estimated_ms - c.simulated_ms) / c.simulated_ms;
        c.modelled_error_pct = 100 * (c.estimated_ms - c.simulated_modelled_ms) / c.simulated_modelled_ms;
      },
      "networks simulated and estimated");
  return checks;
}

// The fitter against full simulated sweeps: each worker simulates one sweep's every point.
std::vector<SweepCheck> check_sweeps(const AcceleratorConfig& config, const EnergyTable& table,
                                     const BlackthornProfileOptions& options) {
  const std::vector<SubModelSpec> specs = default_sub_models(options.scale);
  const std::vector<SweepPlan> plans = plan_sweeps(specs, options.sweeps, options.seed);
  std::vector<SweepCheck> checks(plans.size());
  run_in_processes(
      plans.size(), options.jobs,
      [&](std::size_t i) {
        ErgonLatencyBackend backend(config, table, options.simulation);
        nlohmann::json truth = nlohmann::json::array();
        for (const LayerSpec& layer : sweep_layers(specs, plans[i])) truth.push_back(backend.latency_ms(layer));
        return truth.dump();
      },
      [&](std::size_t i, const std::string& truth) {
        checks[i] = check_sweep(specs, plans[i], nlohmann::json::parse(truth).get<std::vector<double>>(),
                                options.fit.innermost);
      },
      "fitter sweeps simulated");
  return checks;
}

std::vector<StepWidthCheck> step_widths(const BlackthornModels& models) {
  std::vector<StepWidthCheck> checks;
  for (const SubModel& m : models.models) {
    if (m.kind != LayerKind::kConv) continue;
    checks.push_back({m.kernel, m.stride, template_name(m.curve.kind), m.curve.width});
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
  report.fit_error = options.fit.innermost.relative_error ? "relative" : "absolute";
  report.step_widths = step_widths(report.models);
  if (options.random_layers > 0) report.random = check_random_layers(config, table, report.models, options);
  report.networks = check_networks(config, table, report.models, options);
  if (options.sweeps > 0) report.sweeps = check_sweeps(config, table, options);
  return report;
}

BlackthornProfileReport run_blackthorn_measured_profile(const BlackthornProfileOptions& options) {
  MeasuredLatencyBackend backend(options.measurements_csv);
  BlackthornProfileReport report;
  report.measured = true;
  report.models.backend = backend.describe();
  report.fit_error = options.fit.innermost.relative_error ? "relative" : "absolute";
  const std::vector<SubModelSpec> specs = default_sub_models(options.scale);
  for (const SubModelSpec& spec : specs) {
    try {
      report.models.models.push_back(profile_sub_model(spec, backend, options.fit));
    } catch (const MissingMeasurement& missing) {
      report.incomplete.push_back(sub_model_name(spec.kind, spec.kernel, spec.stride));
      report.requests.push_back(missing.layer());
    }
  }
  // A sweep needs every point of its line; all missing ones are requested at once.
  for (const SweepPlan& plan :
       options.sweeps > 0 ? plan_sweeps(specs, options.sweeps, options.seed) : std::vector<SweepPlan>{}) {
    std::vector<double> truth;
    for (const LayerSpec& layer : sweep_layers(specs, plan)) {
      try {
        truth.push_back(backend.latency_ms(layer));
      } catch (const MissingMeasurement&) {
        report.requests.push_back(layer);
      }
    }
    if (truth.size() == specs[plan.sub_model].dimensions[plan.dimension].grid.size())
      report.sweeps.push_back(check_sweep(specs, plan, truth, options.fit.innermost));
  }
  return report;
}

namespace {

std::string models_heading(const BlackthornProfileReport& report) {
  return fmt::format("Blackthorn models of {}: {} sub-models from {} measurements ({} errors)\n", report.models.backend,
                     report.models.models.size(), report.models.measurements(), report.fit_error);
}

std::string models_summary(const BlackthornProfileReport& report) {
  std::string summary = models_heading(report);
  for (const SubModel& m : report.models.models) {
    const std::string setting = has_window(m.kind) ? fmt::format("k{:<2} s{}", m.kernel, m.stride) : "";
    summary += fmt::format("  {:<14} {:<6}: {:>5} measurements, {:>4} 1-D fits ({} stopped at their budget)\n",
                           layer_kind_name(m.kind), setting, m.measurements, m.fits, m.fits_at_budget);
  }
  return summary;
}

nlohmann::ordered_json random_json(const RandomLayerCheck& r, std::string& summary) {
  summary += fmt::format("{} random conv layers: RMSPE {:.2f}%, MAPE {:.2f}%, max {:.1f}%, RMSE {:.4f} ms", r.layers,
                         r.rmspe_pct, r.mape_pct, r.max_pe_pct, r.rmse_ms);
  summary += r.uncovered == 0 ? "\n"
                              : fmt::format(" over the {} covered; {} not covered (the model gives <= 0)\n",
                                            r.layers - r.uncovered, r.uncovered);
  nlohmann::ordered_json by_model = nlohmann::ordered_json::object();
  summary += "  RMSPE by model:";
  for (const auto& [name, rmspe] : r.rmspe_by_model) {
    summary += fmt::format(" {} {:.1f}%;", name, rmspe);
    by_model[name] = rmspe;
  }
  summary += "\n";
  return {{"layers", r.layers},
          {"uncovered", r.uncovered},
          {"rmspe_pct", r.rmspe_pct},
          {"mape_pct", r.mape_pct},
          {"max_pe_pct", r.max_pe_pct},
          {"rmse_ms", r.rmse_ms},
          {"rmspe_pct_by_model", by_model}};
}

// A network's figures are for the batch it was simulated at: the models' per-image latencies times the batch.
nlohmann::ordered_json networks_json(const std::vector<NetworkCheck>& checks, std::int64_t batch,
                                     std::string& summary) {
  if (batch > 1) summary += fmt::format("networks at batch {} (latencies of the whole batch):\n", batch);
  nlohmann::ordered_json networks = nlohmann::ordered_json::array();
  for (const NetworkCheck& c : checks) {
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
  return networks;
}

nlohmann::ordered_json widths_json(const BlackthornProfileReport& report, std::string& summary) {
  nlohmann::ordered_json widths = nlohmann::ordered_json::array();
  summary += fmt::format("conv models along filters ({}x{} array):", report.array_rows, report.array_cols);
  for (const StepWidthCheck& w : report.step_widths) {
    summary += w.kind != "linear" ? fmt::format(" k{}s{} {} {:.0f};", w.kernel, w.stride, w.kind, w.width)
                                  : fmt::format(" k{}s{} linear;", w.kernel, w.stride);
    widths.push_back({{"kernel", w.kernel}, {"stride", w.stride}, {"template", w.kind}, {"width", w.width}});
  }
  summary += "\n";
  return widths;
}

nlohmann::ordered_json sweeps_json(const std::vector<SweepCheck>& sweeps, std::string& summary) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  double mape = 0, mae = 0, measured = 0;
  for (const SweepCheck& c : sweeps) {
    mape += c.mape_pct / static_cast<double>(sweeps.size());
    mae += c.mae_ms / static_cast<double>(sweeps.size());
    measured += static_cast<double>(c.measured.size()) / static_cast<double>(sweeps.size());
    list.push_back({{"sweep", c.label},
                    {"points", c.grid.size()},
                    {"measured", c.measured.size()},
                    {"template", template_name(c.fit.kind)},
                    {"width", c.fit.width},
                    {"mape_pct", c.mape_pct},
                    {"mae_ms", c.mae_ms},
                    {"max_pe_pct", c.max_pe_pct}});
  }
  summary += fmt::format(
      "{} full 1-D sweeps: the fitter's curve from {:.1f} of their points on average errs by "
      "MAPE {:.2f}%, MAE {:.4f} ms against all of them\n",
      sweeps.size(), measured, mape, mae);
  return {{"sweeps", sweeps.size()}, {"mape_pct", mape}, {"mae_ms", mae}, {"mean_measured", measured}, {"each", list}};
}

// The layers the measurements lack, in the measurements' format: requests.csv (its header alone when none).
std::string requests_csv(const BlackthornProfileReport& report) {
  std::string csv = measurement_csv_header();
  for (const LayerSpec& layer : report.requests) csv += measurement_csv_row(layer);
  return csv;
}

std::string requests_summary(const BlackthornProfileReport& report) {
  if (report.requests.empty()) return "";
  return fmt::format(
      "{} sub-models need more measurements ({}): measure the {} layers requests.csv lists (--out writes it, "
      "--format csv prints it), append them with their latency_ms to the measurements and run again\n",
      report.incomplete.size(), fmt::join(report.incomplete, ", "), report.requests.size());
}

// report.json, and the summary printed as the table.
nlohmann::ordered_json report_json(const BlackthornProfileReport& report, std::string& summary) {
  summary = models_summary(report);
  nlohmann::ordered_json json = {{"schema_version", 2}, {"backend", report.models.backend}};
  if (report.models.batch > 0) {  // a simulated backend: what the figures mean
    json["batch"] = report.models.batch;
    json["fidelity"] = report.models.fidelity;
  }
  json["fit_error"] = report.fit_error;
  json["measurements"] = report.models.measurements();
  if (report.random.layers > 0) json["random_conv_layers"] = random_json(report.random, summary);
  if (!report.networks.empty()) json["networks"] = networks_json(report.networks, report.models.batch, summary);
  if (!report.step_widths.empty()) {
    json["array"] = {{"rows", report.array_rows}, {"cols", report.array_cols}};
    json["step_widths_along_filters"] = widths_json(report, summary);
  }
  if (!report.sweeps.empty()) json["fitter_sweeps"] = sweeps_json(report.sweeps, summary);
  json["incomplete_sub_models"] = report.incomplete;
  summary += requests_summary(report);
  return json;
}

// `rows` (JSON objects of one shape) as a markdown table, their scalar fields as columns.
std::string markdown_table(const nlohmann::ordered_json& rows) {
  std::string csv;
  for (const auto& row : rows) {
    std::string header, line;
    for (const auto& field : row.items()) {
      if (field.value().is_structured()) continue;
      const char* separator = header.empty() ? "" : ",";
      header += separator + csv_quoted(field.key());
      line +=
          separator + (field.value().is_string() ? csv_quoted(field.value().get<std::string>()) : field.value().dump());
    }
    if (csv.empty()) csv = header + "\n";
    csv += line + "\n";
  }
  return csv_as_markdown(csv);
}

// The summary as markdown: a table of the sub-models, then one per check report.json holds.
std::string profile_markdown(const BlackthornProfileReport& report, const nlohmann::ordered_json& json) {
  nlohmann::ordered_json models = nlohmann::ordered_json::array();
  for (const SubModel& m : report.models.models) {
    const auto window = [&](int value) { return has_window(m.kind) ? nlohmann::ordered_json(value) : ""; };
    models.push_back({{"kind", layer_kind_name(m.kind)},
                      {"kernel", window(m.kernel)},
                      {"stride", window(m.stride)},
                      {"measurements", m.measurements},
                      {"fits", m.fits},
                      {"fits_at_budget", m.fits_at_budget}});
  }
  std::string markdown = models_heading(report) + (models.empty() ? "" : "\n" + markdown_table(models));
  for (const char* section : {"random_conv_layers", "networks", "step_widths_along_filters", "fitter_sweeps"}) {
    if (!json.contains(section)) continue;
    const nlohmann::ordered_json& rows = json.at(section);
    markdown += fmt::format("\n{}:\n\n", section) +
                markdown_table(rows.is_array() ? rows : nlohmann::ordered_json::array({rows}));
  }
  const std::string requests = requests_summary(report);
  return markdown + (requests.empty() ? "" : "\n" + requests);
}

}  // namespace

ReportForms blackthorn_profile_forms(const BlackthornProfileReport& report) {
  ReportForms forms;
  const nlohmann::ordered_json json = report_json(report, forms.table);
  forms.json = json.dump(2) + "\n";
  forms.csv = report.measured ? requests_csv(report) : network_layers_csv(report.networks);
  forms.markdown = profile_markdown(report, json);
  return forms;
}

std::string write_blackthorn_profile(const BlackthornProfileReport& report, const ReportForms& forms,
                                     const std::string& out_dir, bool plots) {
  std::filesystem::create_directories(out_dir);
  write_file_atomically(out_dir + "/models.json", models_json(report.models).dump(2) + "\n");
  write_file_atomically(out_dir + "/report.json", forms.json);
  if (!report.requests.empty()) write_file_atomically(out_dir + "/requests.csv", forms.csv);
  return plots ? write_blackthorn_plots(report, out_dir) : "";
}

}  // namespace ergon
