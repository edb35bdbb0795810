// `ergon partition`: NeuPart's client/cloud split of a workload (docs/neupart.md).
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/atomic_file.hpp"
#include "common/finite_json.hpp"
#include "common/gnuplot.hpp"
#include "common/output_folder.hpp"
#include "power/estimators/cnnergy.hpp"
#include "power/estimators/cnnergy_hardware.hpp"
#include "sim/data_paths.hpp"
#include "sim/simulation.hpp"
#include "studies/neupart/neupart.hpp"
#include "studies/neupart/neupart_figures.hpp"
#include "studies/neupart/paper_layer_names.hpp"

namespace ergon {
namespace {

struct PartitionOptions {
  std::string config_path = default_config_path();
  std::vector<std::string> overrides;
  std::string workload_path;
  std::string energy = "sim";
  SimulationChoice simulation;  // --batch, --fidelity (with --energy sim)
  std::string sparsity_table;   // default: workloads/cnnergy/<workload name>.yaml when it exists
  double default_sparsity = 0;
  double bitrate_mbps = 60, tx_power_w = 0.5, input_sparsity = 0.608, cloud_tops = 92;
  int tx_word_bits = 0;        // 0: the client's pe_array.word_bits
  int rlc_run_bits = 0;        // 0: NeuPart's run field for the width (paper_rlc_run_bits)
  bool table_batches = false;  // simulate each layer at its CNNergy table row's batch, as NeuPart prices it
  std::string out_dir;
  std::string format = "table";
};

// Per-layer client energy and latency, per image, from the simulation or the CNNergy estimate of `workload`,
// which carries the tensor sparsities the transmission uses (with_tensor_sparsity). CNNergy prices a layer
// from its table row when a CNNergy layer table is given (its measured sparsities and batching, as NeuPart
// uses them), else from the graph.
void client_costs(const PartitionOptions& o, const AcceleratorConfig& config, const Workload& workload,
                  const Workload* table_workload, PartitionInputs& in) {
  const std::size_t n = workload.layers().size();
  in.client_energy_j.assign(n, 0);
  in.client_latency_s.assign(n, 0);
  const EnergyTable table = load_energy_table(energy_table_path(config));
  if (o.energy == "sim") {
    const SimulationResult result = Simulation(config, table, workload, simulation_options(o.simulation)).run();
    for (std::size_t i = 0; i < n; ++i) {
      const double batch = static_cast<double>(result.layers[i].batch);
      in.client_energy_j[i] = result.layers[i].energy.total_pj() * 1e-12 / batch;
      in.client_latency_s[i] = result.layers[i].time_ns * 1e-9 / batch;
    }
    return;
  }
  CnnergyOptions options;
  options.word_bits = config.pe_array.word_bits;
  const CnnergyEstimate estimate = estimate_cnnergy(workload, table, cnnergy_hardware(config), options);
  std::map<std::string, const CnnergyLayerEstimate*> by_name;
  for (const CnnergyLayerEstimate& layer : estimate.layers) by_name[layer.name] = &layer;
  std::optional<CnnergyEstimate> rows;
  if (table_workload != nullptr) {
    rows.emplace(estimate_cnnergy(*table_workload, table, cnnergy_hardware(config), options));
    for (const CnnergyLayerEstimate& layer : rows->layers) by_name[layer.name] = &layer;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto found = by_name.find(workload.layers()[i].name);
    if (found == by_name.end() || !found->second->modelled) continue;  // no compute on the array
    in.client_energy_j[i] = found->second->energy.total_pj() * 1e-12;
    in.client_latency_s[i] = static_cast<double>(found->second->macs) / options.throughput_macs_per_s;
  }
}

std::string cut_label(const Workload& workload, const CutResult& cut, const PartitionResult& result) {
  if (&cut == &result.cuts.front()) return "fully cloud (send the input)";
  if (&cut == &result.cuts.back()) return "fully on the client";
  return cut_name_both_ways(workload, cut);
}

std::string sent(const CutResult& cut) {
  return cut.crossing.empty() ? "nothing" : fmt::format("{}", fmt::join(cut.crossing, ", "));
}

std::string result_table(const Workload& workload, const PartitionResult& r, const PartitionInputs& in,
                         const std::string& source) {
  std::string out = fmt::format(
      "NeuPart partitioning of {} ({}-bit, client energy from {}): {:.0f} Mbps, {:.2f} W Tx, Sparsity-In {:.1f}%\n",
      workload.name(), in.word_bits, source, in.bitrate_bps / 1e6, in.tx_power_w, 100 * in.input_sparsity);
  out += fmt::format("{:<44} {:>12} {:>12} {:>12} {:>12} {:>10}\n", "cut", "sent kbit", "client mJ", "Tx mJ",
                     "total mJ", "delay ms");
  for (const CutResult& cut : r.cuts) {
    out += fmt::format("{:<44} {:>12.1f} {:>12.4f} {:>12.4f} {:>12.4f} {:>10.3f}{}\n", cut_label(workload, cut, r),
                       cut.bits / 1e3, cut.client_energy_j * 1e3, cut.transmit_energy_j * 1e3, cut.total_energy_j * 1e3,
                       cut.delay_s * 1e3, &cut == &r.cuts[r.best] ? "  <- least" : "");
  }
  const CutResult &best = r.cuts[r.best], &local = r.cuts[r.best_on_client];
  out += fmt::format("optimal: {} (sends {}); saves {:.1f}% against fully cloud (FCC)\n", cut_label(workload, best, r),
                     sent(best), r.saving_vs_cloud_pct);
  out +=
      fmt::format("optimal computing on the client: {} (sends {}); saves {:.1f}% against fully on the client (FISC)\n",
                  cut_label(workload, local, r), sent(local), r.saving_vs_client_pct);
  return out;
}

// Table IV's quantities at NeuPart's Sparsity-In quartile boundaries (Fig. 12 caption): the saving against
// FCC at each, and against FISC once (it does not depend on Sparsity-In).
nlohmann::ordered_json quartile_savings(const Workload& workload, PartitionInputs in, std::string& text) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  text = "at NeuPart's Sparsity-In quartile boundaries (Fig. 12; Table IV's quantities at this bit rate and power):\n";
  PartitionResult r;
  for (double sparsity_in : kSparsityInQuartiles) {
    in.input_sparsity = sparsity_in;
    r = partition_network(workload, in);
    const std::string cut = r.best == 0 ? "fully cloud (send the input)" : cut_label(workload, r.cuts[r.best], r);
    text += fmt::format("  Sparsity-In {:.2f}%: {:.1f}% against FCC, optimal {}\n", 100 * sparsity_in,
                        r.saving_vs_cloud_pct, cut);
    rows.push_back({{"input_sparsity", sparsity_in},
                    {"saving_vs_cloud_pct", r.saving_vs_cloud_pct},
                    {"best_cut", r.best},
                    {"best_cut_paper_name", paper_cut_name(workload, r.cuts[r.best])},
                    {"saving_vs_client_pct", r.saving_vs_client_pct}});
  }
  text += fmt::format("  any Sparsity-In: {:.1f}% against FISC, optimal {}\n", r.saving_vs_client_pct,
                      cut_label(workload, r.cuts[r.best_on_client], r));
  return rows;
}

// NeuPart's Fig. 12-style map: the saving of the best cut over the better of the two extremes.
std::string savings_map(const Workload& workload, PartitionInputs in) {
  std::string csv =
      "bitrate_mbps,tx_power_w,best_cut,best_layer,saving_vs_cloud_pct,saving_vs_client_pct,saving_vs_best_extreme_"
      "pct\n";
  for (double mbps = 5; mbps <= 200 + 1e-9; mbps += 5) {
    for (double watts = 0.1; watts <= 2.0 + 1e-9; watts += 0.1) {
      in.bitrate_bps = mbps * 1e6;
      in.tx_power_w = watts;
      const PartitionResult r = partition_network(workload, in);
      const double extreme = std::min(r.cuts.front().total_energy_j, r.cuts.back().total_energy_j);
      // As the savings against each extreme: none when the extreme costs nothing (0/0 otherwise).
      const double saving_vs_extreme_pct = extreme > 0 ? 100 * (1 - r.cuts[r.best].total_energy_j / extreme) : 0;
      csv += fmt::format("{},{},{},{},{},{},{}\n", mbps, watts, r.best, r.cuts[r.best].last_client_layer,
                         r.saving_vs_cloud_pct, r.saving_vs_client_pct, saving_vs_extreme_pct);
    }
  }
  return csv;
}

std::string map_gnuplot(const std::string& workload) {
  return fmt::format(R"(# NeuPart Fig. 12-style map: `gnuplot savings_map.gp` writes savings_map.png and .svg
set datafile separator ','
set xlabel 'effective bit rate B_e (Mbps)' noenhanced
set ylabel 'transmit power P_Tx (W)' noenhanced
set cblabel 'client energy saved per image by the best cut (%)'
set title "{}: client energy saved by splitting the network between client and cloud (NeuPart Fig. 12 style)\nagainst the better of all in cloud (FCC) and all on client (FISC); 0 where one of them is best" noenhanced
set palette rgbformulae 33,13,10
set xrange [2.5:202.5]
set yrange [0.05:2.05]
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 900,600 font ',10'; set output 'savings_map.png' }}
  else {{ set terminal svg size 900,600 font ',10'; set output 'savings_map.svg' }}
  plot 'savings_map.csv' every ::1 using 1:2:7 with image notitle
}}
)",
                     workload);
}

// The transmission's word width and RLC run field, checked before anything is simulated.
void set_transmission_code(const PartitionOptions& o, const AcceleratorConfig& config, PartitionInputs& in) {
  in.word_bits = o.tx_word_bits > 0 ? o.tx_word_bits : config.pe_array.word_bits;
  in.rlc_run_bits = o.rlc_run_bits > 0 ? o.rlc_run_bits : paper_rlc_run_bits(in.word_bits);
  try {
    rlc_pairs_per_word(in.word_bits, in.rlc_run_bits);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(
        fmt::format("--tx-word-bits {} with --rlc-run-bits {}: {}", in.word_bits, in.rlc_run_bits, error.what()));
  }
}

// partition.json and cuts.csv (a row per cut); the table is filled by the caller.
ReportForms partition_forms(const PartitionOptions& o, const Workload& workload, const PartitionInputs& in,
                            const PartitionResult& result, nlohmann::ordered_json quartiles,
                            std::optional<std::string>& non_finite) {
  nlohmann::ordered_json cuts = nlohmann::ordered_json::array();
  std::string csv =
      "client_layers,last_client_layer,crossing,bits,client_energy_mj,transmit_energy_mj,total_energy_mj,delay_ms,"
      "paper_name\n";
  for (const CutResult& c : result.cuts) {
    const std::string paper = paper_cut_name(workload, c);
    cuts.push_back({{"client_layers", c.client_layers},
                    {"last_client_layer", c.last_client_layer},
                    {"paper_name", paper},
                    {"crossing", c.crossing},
                    {"bits", c.bits},
                    {"client_energy_mj", c.client_energy_j * 1e3},
                    {"transmit_energy_mj", c.transmit_energy_j * 1e3},
                    {"total_energy_mj", c.total_energy_j * 1e3},
                    {"delay_ms", c.delay_s * 1e3}});
    csv += fmt::format("{},{},\"{}\",{},{},{},{},{},{}\n", c.client_layers, c.last_client_layer,
                       fmt::join(c.crossing, " "), c.bits, c.client_energy_j * 1e3, c.transmit_energy_j * 1e3,
                       c.total_energy_j * 1e3, c.delay_s * 1e3, paper);
  }
  const nlohmann::ordered_json json = {{"schema_version", 2},
                                       {"workload", workload.name()},
                                       {"energy_source", o.energy},
                                       {"bitrate_mbps", o.bitrate_mbps},
                                       {"tx_power_w", o.tx_power_w},
                                       {"input_sparsity", o.input_sparsity},
                                       {"word_bits", in.word_bits},
                                       {"rlc_run_bits", in.rlc_run_bits},
                                       {"rlc_overhead_alpha", rlc_overhead(in.word_bits, in.rlc_run_bits)},
                                       {"best_cut", result.best},
                                       {"best_cut_on_client", result.best_on_client},
                                       {"saving_vs_cloud_pct", result.saving_vs_cloud_pct},
                                       {"saving_vs_client_pct", result.saving_vs_client_pct},
                                       {"sparsity_in_quartiles", std::move(quartiles)},
                                       {"cuts", cuts}};
  non_finite = first_non_finite(json);
  return {"", json.dump(2) + "\n", csv};
}

void write_outputs(OutputFolder& out, const ReportForms& forms, const std::string& format, const Workload& workload,
                   const PartitionInputs& in, const PartitionResult& result, const std::vector<std::string>& inputs) {
  write_file_atomically(out.staged("partition.json"), forms.json);
  write_file_atomically(out.staged("cuts.csv"), forms.csv);
  write_file_atomically(out.staged("savings_map.csv"), savings_map(workload, in));
  write_file_atomically(out.staged("savings_map.gp"), map_gnuplot(workload.name()));
  std::vector<std::string> scripts = {"savings_map.gp"};
  const std::vector<FigureFile> figures = neupart_figures(workload, in, result);
  for (const FigureFile& file : figures) write_file_atomically(out.staged(file.name), file.text);
  for (const std::string& script : figure_scripts(figures)) scripts.push_back(script);
  bool plotted = true;
  if (const auto bad = out.first_non_finite()) return report_non_finite(*bad, inputs);
  for (const std::string& script : scripts) plotted = run_gnuplot(out.staging_folder(), script) && plotted;
  const std::vector<std::string> written = out.commit();
  print_report(forms, format);  // after the files: a reader that stops early cannot cost them
  note_written(out.target(), written, plotted ? "" : " (no plots: gnuplot missing or failed)");
}

void run_partition(const PartitionOptions& o) {
  const bool simulation_chosen = o.simulation.batch > 0 || o.simulation.fidelity != "tlm";
  if (simulation_chosen && o.energy != "sim") throw UsageError("--batch and --fidelity apply to --energy sim only");
  std::optional<OutputFolder> out;  // staged (common/output_folder); --out is optional here
  if (!o.out_dir.empty()) {
    out.emplace(o.out_dir, "--out", std::vector<std::string>{"partition.json", "cuts.csv", "savings_map.csv"},
                std::vector<std::string>{o.config_path, o.workload_path, o.sparsity_table});
  }
  const AcceleratorConfig config = load_accelerator_config(o.config_path, o.overrides);
  const Workload loaded = load_workload(o.workload_path);
  refuse_workload_without_work(loaded);
  std::string table_path = o.sparsity_table;
  const std::string shipped = shipped_data_dir() + "/workloads/cnnergy/" + loaded.name() + ".yaml";
  if (table_path.empty() && std::filesystem::exists(shipped)) table_path = shipped;
  std::optional<Workload> table;
  if (!table_path.empty()) table.emplace(load_workload(table_path));
  if (out) out->add_inputs({table_path, energy_table_path(config)});
  PartitionInputs in;
  set_transmission_code(o, config, in);
  in.ofmap_sparsity = tensor_sparsity(loaded, table ? &*table : nullptr, o.default_sparsity);
  // The client computes the tensors the transmission sizes: the same zero fractions gate its MACs and
  // compress its DRAM traffic (docs/neupart.md).
  Workload workload = with_tensor_sparsity(loaded, in.ofmap_sparsity);
  if (o.table_batches) {
    if (!table) throw std::invalid_argument("--table-batches needs a CNNergy layer table (--sparsity-table)");
    workload = with_table_batches(workload, *table);
  }
  client_costs(o, config, workload, table ? &*table : nullptr, in);
  in.input_sparsity = o.input_sparsity;
  in.bitrate_bps = o.bitrate_mbps * 1e6;
  in.tx_power_w = o.tx_power_w;
  in.cloud_ops_per_s = o.cloud_tops * 1e12;
  const PartitionResult result = partition_network(workload, in);
  const std::string source = o.energy == "sim" ? "the simulation of " + config.name
                             : table           ? "CNNergy on the layer table"
                                               : "CNNergy";
  std::string quartile_text;
  nlohmann::ordered_json quartiles = quartile_savings(workload, in, quartile_text);
  std::optional<std::string> non_finite;
  ReportForms forms = partition_forms(o, workload, in, result, std::move(quartiles), non_finite);
  if (non_finite) return report_non_finite(*non_finite, {o.config_path, o.workload_path});
  forms.table = result_table(workload, result, in, source) + quartile_text +
                (table_path.empty() ? "tensor sparsity: none known (every tensor sent at full size)\n"
                                    : "tensor sparsity from " + table_path + "\n") +
                fmt::format("RLC: {}-bit values, {}-bit runs, {} pairs per 64-bit word, alpha = {:.4f} (eq. 25)\n",
                            in.word_bits, in.rlc_run_bits, rlc_pairs_per_word(in.word_bits, in.rlc_run_bits),
                            rlc_overhead(in.word_bits, in.rlc_run_bits));
  if (!out) return print_report(forms, o.format);
  write_outputs(*out, forms, o.format, workload, in, result, {o.config_path, o.workload_path});
}

}  // namespace

void register_partition_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("partition", "NeuPart: the energy-optimal client/cloud split of a network");
  auto o = std::make_shared<PartitionOptions>();
  add_simulation_options(*command, o->simulation);
  command->footer("Example:\n  ergon partition --set pe_array.word_bits=8 -w alexnet --energy cnnergy");
  command->add_option("--config,-c", o->config_path, "Client accelerator config")
      ->capture_default_str()
      ->transform(shipped_config());
  command->add_option("--set", o->overrides, "Override a config key: key.path=value (repeatable)");
  command->add_option("--workload,-w", o->workload_path, "Workload YAML or ONNX")
      ->required()
      ->transform(shipped_workload());
  command->add_option("--bitrate-mbps", o->bitrate_mbps, "Effective uplink bit rate B_e")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->add_option("--tx-power-w", o->tx_power_w, "Transmission power P_Tx")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--input-sparsity", o->input_sparsity,
                   "Sparsity-In of the JPEG-compressed input (NeuPart median 0.608)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--energy", o->energy, "Client energy from the simulation (sim) or the CNNergy estimate")
      ->transform(CLI::IsMember({"sim", "cnnergy"}, CLI::ignore_case))
      ->capture_default_str();
  command
      ->add_option("--sparsity-table", o->sparsity_table,
                   "CNNergy layer table giving tensor sparsities (default: workloads/cnnergy/<name>.yaml)")
      ->check(input_file());
  command->add_option("--default-sparsity", o->default_sparsity, "Sparsity of tensors no table covers")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--cloud-tops", o->cloud_tops, "Cloud throughput in tera-ops/s (2 ops per MAC)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->add_flag("--table-batches", o->table_batches,
                    "Run each layer at its CNNergy table row's batch (n2), as NeuPart's client energies do");
  command
      ->add_option("--tx-word-bits", o->tx_word_bits,
                   "Width of a transmitted value in bits (default: the client's pe_array.word_bits)")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--rlc-run-bits", o->rlc_run_bits,
                   "Zero-run field of the transmission's RLC in bits (default: NeuPart's, 4 at 8-bit data, else 5)")
      ->check(CLI::PositiveNumber);
  command->add_option("--out,-o", o->out_dir,
                      "Also write partition.json, cuts.csv, the bit-rate x power savings map and NeuPart Figs. 10, 12, "
                      "13 into this folder");
  add_format_option(*command, o->format);
  add_progress_options(*command);
  command->callback([o] { run_partition(*o); });
}

ERGON_REGISTER(CliCommand, "partition", CliCommand{register_partition_command}, 100)

}  // namespace ergon
