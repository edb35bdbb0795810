#include "sim/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "arch/components.hpp"
#include "arch/controller/controller.hpp"
#include "arch/dataflows/registry.hpp"
#include "common/progress_display.hpp"
#include "dataflow/mapping_error.hpp"
#include "sim/systemc_kernel.hpp"

namespace ergon {
namespace {

std::string not_executed_note(const Layer& layer) {
  switch (layer.op) {
    case OpKind::kInput: return "network input";
    case OpKind::kConcat:
    case OpKind::kSlice: return "layout only: producers write into, consumers read from, the shared tensor";
    case OpKind::kActivation: return "applied as the producer's results are written back";
    case OpKind::kLayout:
      return "layout only (" + std::get<LayoutParams>(layer.params).transform + "): free data movement";
    default: return "not executed on the PE array";
  }
}

// Memory-bound when the layer waited for data, or kept the DRAM bus busy, at least as long as its array
// worked.
std::string boundedness(const LayerResult& layer) {
  if (layer.cycles == 0) return "n/a";
  const std::uint64_t memory_cycles = std::max(layer.dram_busy_cycles, layer.stall_cycles);
  return memory_cycles >= layer.compute_cycles ? "memory" : "compute";
}

void fill_measurement(LayerResult& result, const LayerMeasurement& m, std::int64_t pe_count) {
  result.executed = true;
  result.cycles = m.end_cycle - m.start_cycle;
  result.stall_cycles = m.stall_cycles;
  result.fill_stall_cycles = m.fill_stall_cycles;
  result.drain_stall_cycles = m.drain_stall_cycles;
  result.time_ns = static_cast<double>(m.end_ps - m.start_ps) / 1e3;
  result.dvfs_switch_ns = static_cast<double>(m.dvfs_switch_ps) / 1e3;
  result.passes = m.passes;
  result.active_pes = m.peak_active_pes;
  result.pe_busy_cycles = m.pe_busy_cycles;
  result.macs = m.macs;
  result.nonzero_macs = m.nonzero_macs;
  result.rf_accesses = m.rf_accesses;
  result.glb_reads = m.glb_reads;
  result.glb_writes = m.glb_writes;
  result.noc_transfers = m.noc_transfers;
  result.filter_bus_words = m.filter_bus_words;
  result.ifmap_bus_words = m.ifmap_bus_words;
  result.psum_bus_words = m.psum_bus_words;
  result.inter_pe_psum_words = m.inter_pe_psum_words;
  result.dram_read_bytes = m.dram_read_bytes;
  result.dram_write_bytes = m.dram_write_bytes;
  result.compute_cycles = result.cycles - std::min(result.cycles, result.stall_cycles);
  result.dram_busy_cycles = m.dram_busy_cycles;
  if (m.dram_bank_model) result.dram_bank = m.dram_bank;
  result.bound = boundedness(result);
  result.output_checked = m.output_checked;
  result.output_mismatches = m.output_mismatches;
  const double capacity = static_cast<double>(pe_count) * static_cast<double>(result.cycles);
  result.utilization = capacity > 0 ? static_cast<double>(m.pe_busy_cycles) / capacity : 0.0;
}

OperatingLevels nominal_levels(const AcceleratorConfig& config) {
  return {config.clock.frequency_mhz, config.clock.voltage_v, config.dram.bandwidth_gbps, config.dvfs.memory_voltage_v};
}

// A schedule must give every layer levels inside its domains' ranges.
void check_layer_levels(const std::vector<OperatingLevels>& levels, const AcceleratorConfig& config,
                        const Workload& workload) {
  if (levels.empty()) return;
  if (levels.size() != workload.layers().size()) {
    throw std::invalid_argument(fmt::format("a DVFS schedule gives {} layers levels; the workload has {}",
                                            levels.size(), workload.layers().size()));
  }
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const OperatingLevels& l = levels[i];
    const bool valid = l.frequency_mhz > 0 && l.frequency_mhz <= config.clock.frequency_mhz * (1 + 1e-9) &&
                       l.voltage_v > 0 && l.dram_bandwidth_gbps > 0 &&
                       l.dram_bandwidth_gbps <= config.dram.bandwidth_gbps * (1 + 1e-9) && l.memory_voltage_v > 0;
    if (!valid) {
      throw std::invalid_argument(fmt::format(
          "layer '{}': DVFS levels {} MHz, {} V, {} GB/s, {} V lie outside the domains (up to {} MHz, {} GB/s)",
          workload.layers()[i].name, l.frequency_mhz, l.voltage_v, l.dram_bandwidth_gbps, l.memory_voltage_v,
          config.clock.frequency_mhz, config.dram.bandwidth_gbps));
    }
  }
}

bool is_mac_layer(const Layer& layer) {
  return layer.op == OpKind::kConv || layer.op == OpKind::kFullyConnected || layer.op == OpKind::kMatMul;
}

void add_to_total(LayerResult& total, const LayerResult& layer) {
  total.macs += layer.macs;
  total.vector_ops += layer.vector_ops;
  total.nonzero_macs += layer.nonzero_macs;
  total.cycles += layer.cycles;
  total.stall_cycles += layer.stall_cycles;
  total.fill_stall_cycles += layer.fill_stall_cycles;
  total.drain_stall_cycles += layer.drain_stall_cycles;
  total.time_ns += layer.time_ns;
  total.dvfs_switch_ns += layer.dvfs_switch_ns;
  total.compute_cycles += layer.compute_cycles;
  total.dram_busy_cycles += layer.dram_busy_cycles;
  total.passes += layer.passes;
  total.active_pes = std::max(total.active_pes, layer.active_pes);
  total.pe_busy_cycles += layer.pe_busy_cycles;
  total.dram_read_bytes += layer.dram_read_bytes;
  total.dram_write_bytes += layer.dram_write_bytes;
  total.glb_reads += layer.glb_reads;
  total.glb_writes += layer.glb_writes;
  total.rf_accesses += layer.rf_accesses;
  total.noc_transfers += layer.noc_transfers;
  total.filter_bus_words += layer.filter_bus_words;
  total.ifmap_bus_words += layer.ifmap_bus_words;
  total.psum_bus_words += layer.psum_bus_words;
  total.inter_pe_psum_words += layer.inter_pe_psum_words;
  total.energy += layer.energy;
  if (layer.dram_bank) {
    if (!total.dram_bank) total.dram_bank = DramBankStats{};
    *total.dram_bank += *layer.dram_bank;
  }
}

}  // namespace

AccessPrices access_prices(const AcceleratorConfig& config, const EnergyTable& table) {
  const OperatingPoint point{config.pe_array.word_bits,
                             config.clock.frequency_mhz,
                             config.clock.voltage_v,
                             config.dram.energy_pj_per_bit,
                             1.0,
                             table.glb_energy_scale(config.glb.size_kib)};
  const auto price = [&](const ActivityCounts& counts) { return price_activity(counts, table, point).total_pj(); };
  AccessPrices prices;
  prices.mac_pj = price({1, 0, 0, 0, 0, 0, 0});
  prices.rf_pj = price({0, 1, 0, 0, 0, 0, 0});
  prices.inter_pe_pj = price({0, 0, 1, 0, 0, 0, 0});
  prices.glb_pj = price({0, 0, 0, 1, 0, 0, 0});
  prices.dram_pj_per_byte = price({0, 0, 0, 0, 1, 0, 0});
  prices.cycle_pj = price({0, 0, 0, 0, 0, 1, 0});
  return prices;
}

Simulation::Simulation(AcceleratorConfig config, EnergyTable table, const Workload& workload, SimulationOptions options)
    : config_(std::move(config)), table_(std::move(table)), workload_(workload), options_(std::move(options)) {
  table_.at_word_bits(config_.pe_array.word_bits);  // fail before simulating if the table lacks the width
  check_layer_levels(options_.layer_levels, config_, workload_);
  if (options_.mapping) {
    std::vector<std::string> names;
    for (const Layer& layer : workload_.layers()) names.push_back(layer.name);
    check_mapping_layers(*options_.mapping, names, workload_.name());
  }
}

namespace {

// Chains a progress display onto the run's own observers: the fraction of the network's MACs in the
// layers done, with the simulated cycles so far.
RunObservers with_progress(RunObservers observers, const Workload& workload, ProgressDisplay& display) {
  std::vector<double> macs_done_after;  // by layer index: MACs of every layer up to and including it
  double macs = 0;
  for (const Layer& layer : workload.layers()) macs_done_after.push_back(macs += static_cast<double>(layer.macs));
  const double total = std::max(macs, 1.0);
  const std::size_t layers = workload.layers().size();
  observers.layer_done = [own = observers.layer_done, macs_done_after, total, layers, &display](
                             std::size_t layer_index, std::uint64_t end_cycle) {
    if (own) own(layer_index, end_cycle);
    display.update(macs_done_after[layer_index] / total,
                   fmt::format("layer {} of {}, {} cycles simulated", layer_index + 1, layers, end_cycle));
  };
  return observers;
}

}  // namespace

SimulationResult Simulation::run() {
  SimulationResult result;
  result.config_name = config_.name;
  result.workload_name = workload_.name();
  result.frequency_mhz = config_.clock.frequency_mhz;
  result.voltage_v = config_.clock.voltage_v;
  result.pe_count = config_.pe_array.rows * config_.pe_array.cols;
  result.cycle_accurate = options_.fidelity == Fidelity::kCycleAccurate;
  result.total.name = "total";
  const OperatingLevels nominal = nominal_levels(config_);

  std::vector<std::int64_t> batch_per_layer;
  for (const Layer& layer : workload_.layers()) batch_per_layer.push_back(options_.batch.value_or(layer.batch));
  const DramAddressMap address_map(workload_, batch_per_layer, config_.dram.word_bits);
  std::vector<LayerJob> jobs;
  LayerPlanning planning(config_, access_prices(config_, table_));
  const std::string run_name = workload_.name() + " on " + config_.name;
  ProgressDisplay mapping_progress("mapping " + run_name, progress_shown());
  for (std::size_t i = 0; i < workload_.layers().size(); ++i) {
    const Layer& layer = workload_.layers()[i];
    if (mapping_progress.enabled()) {  // no formatting per layer when nothing is shown (sweeps, --quiet)
      mapping_progress.update(static_cast<double>(i) / static_cast<double>(workload_.layers().size()),
                              fmt::format("layer {} of {}", i + 1, workload_.layers().size()));
    }
    LayerResult entry;
    entry.bound = "n/a";
    entry.name = layer.name;
    entry.op = op_name(layer.op);
    entry.batch = options_.batch.value_or(layer.batch);
    entry.vector_ops = layer.vector_ops * static_cast<std::uint64_t>(entry.batch);
    entry.levels = options_.layer_levels.empty() ? nominal : options_.layer_levels[i];
    std::unique_ptr<LayerPlan> plan;
    try {
      plan = planning.plan(layer, entry.batch, workload_.reads_network_input(layer),
                           options_.mapping ? options_.mapping->constraints_of(layer.name) : nullptr);
    } catch (const MappingError& error) {
      fail_at_layer(layer, "", error.what());
    }
    if (plan) {
      entry.note = plan->note();
      entry.mapping = plan->mapping();
      jobs.push_back({i, std::move(plan), entry.levels, address_map.layer(i)});
    } else {
      entry.note = not_executed_note(layer);
    }
    result.layers.push_back(entry);
  }
  mapping_progress.finish(fmt::format("{} layers", workload_.layers().size()));

  start_fresh_systemc_kernel();
  ClockDomain clock(sc_core::sc_time(1e6 / nominal.frequency_mhz, sc_core::SC_PS));
  DvfsSetup dvfs{nominal, sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
  if (options_.switch_overheads) {
    dvfs.compute_switch = sc_core::sc_time(config_.dvfs.compute_switch_overhead_us, sc_core::SC_US);
    dvfs.memory_switch = sc_core::sc_time(config_.dvfs.memory_switch_overhead_us, sc_core::SC_US);
  }
  const IDataflow& dataflow = dataflow_of(config_.pe_array);
  const auto dram = make_dram(config_.dram);
  const auto glb = make_global_buffer(config_.glb, config_.pe_array.word_bits);
  const auto noc = make_noc(config_.noc);
  const auto pe_array = dataflow.make_array(config_);
  std::unique_ptr<ICycleArray> cycle_array;
  if (options_.fidelity == Fidelity::kCycleAccurate) {
    cycle_array = dataflow.make_cycle_array(config_, *noc, *glb, *pe_array, clock);
  }
  ProgressDisplay simulation_progress("simulating " + run_name, progress_shown());
  auto controller = std::make_unique<Controller>(
      "controller", ControlledModules{clock, *glb, *noc, *pe_array, *dram, cycle_array.get()}, dvfs, jobs,
      progress_shown() ? with_progress(options_.observers, workload_, simulation_progress) : options_.observers,
      options_.check_outputs);
  controller->dram_socket().bind(dram->target_socket());
  sc_core::sc_start();
  simulation_progress.finish(fmt::format("{} layers", workload_.layers().size()));
  if (const auto& failure = controller->failure()) {
    throw std::runtime_error("layer '" + workload_.layers()[failure->layer_index].name +
                             "' could not be simulated: " + failure->message);
  }

  for (std::size_t j = 0; j < jobs.size(); ++j) {
    LayerResult& entry = result.layers[jobs[j].layer_index];
    const LayerMeasurement& measured = controller->measurements()[j];
    fill_measurement(entry, measured, result.pe_count);
    // A row-stationary array runs pools on its PEs; those comparisons are vector_ops, not MACs, so that a
    // network's MACs do not depend on the accelerator. The PE array still spent them.
    if (!is_mac_layer(workload_.layers()[jobs[j].layer_index])) entry.macs = entry.nonzero_macs = 0;
    // Energy follows the levels in force: the layer's own, switched to at its start.
    const OperatingPoint point{config_.pe_array.word_bits,
                               entry.levels.frequency_mhz,
                               entry.levels.voltage_v,
                               config_.dram.energy_pj_per_bit,
                               entry.levels.memory_voltage_v / nominal.memory_voltage_v,
                               table_.glb_energy_scale(config_.glb.size_kib)};
    entry.energy = price_activity(
        {measured.nonzero_macs, entry.rf_accesses, entry.inter_pe_psum_words, entry.glb_reads + entry.glb_writes,
         entry.dram_read_bytes + entry.dram_write_bytes, entry.cycles, entry.dvfs_switch_ns * 1e-9},
        table_, point);
    // A bank-level DRAM computes its own energy from its commands and standby time.
    if (entry.dram_bank) entry.energy.dram_pj = entry.dram_bank->energy.total_pj();
  }
  for (const auto& entry : result.layers) add_to_total(result.total, entry);
  result.total.bound = boundedness(result.total);
  const double capacity = static_cast<double>(result.pe_count) * static_cast<double>(result.total.cycles);
  result.total.utilization = capacity > 0 ? static_cast<double>(result.total.pe_busy_cycles) / capacity : 0.0;
  return result;
}

}  // namespace ergon
