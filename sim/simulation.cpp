#include "sim/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "arch/components.hpp"
#include "arch/controller/controller.hpp"
#include "arch/dataflows/registry.hpp"
#include "common/progress_display.hpp"
#include "sim/layer_planning.hpp"
#include "sim/parallel/interrupt.hpp"
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

// Each resource's share of the layer's time, and the resource with the largest (ties: the first registered).
void set_bound(LayerResult& layer) {
  const double time_ps = layer.time_ns * 1e3;
  layer.busy_share.clear();
  for (std::uint64_t busy : layer.busy_ps) {
    layer.busy_share.push_back(time_ps > 0 ? static_cast<double>(busy) / time_ps : 0.0);
  }
  layer.bound = time_ps > 0 ? busiest(layer.busy_ps) : kNoResource;
}

void fill_measurement(LayerResult& result, const LayerMeasurement& m, std::int64_t pe_count, bool mac_layer) {
  result.executed = true;
  result.cycles = m.end_cycle - m.start_cycle;
  result.stall_cycles = m.stall_cycles;
  result.fill_stall_cycles = m.fill_stall_cycles;
  result.drain_stall_cycles = m.drain_stall_cycles;
  result.time_ns = static_cast<double>(m.end_ps - m.start_ps) / 1e3;
  result.dvfs_switch_ns = static_cast<double>(m.dvfs_switch_ps) / 1e3;
  result.passes = m.passes;
  result.active_pes = m.peak_active_pes;
  result.counters = m.counters;
  // A row-stationary array runs pools on its PEs; those comparisons are vector_ops, not MACs, so that a
  // network's MACs do not depend on the accelerator. The PE array still spent them (mac.compute).
  if (mac_layer) {
    result.nonzero_macs = result.count("mac.compute");
    result.macs = result.nonzero_macs + result.count("mac.gated");
  }
  result.compute_cycles = result.cycles - std::min(result.cycles, result.stall_cycles);
  result.dram_busy_cycles = m.dram_busy_cycles;
  result.busy_ps = m.busy_ps;
  set_bound(result);
  result.output_checked = m.output_checked;
  result.output_mismatches = m.output_mismatches;
  const double capacity = static_cast<double>(pe_count) * static_cast<double>(result.cycles);
  result.utilization = capacity > 0 ? static_cast<double>(result.count("pe.busy_cycle")) / capacity : 0.0;
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
  total.busy_ps.resize(layer.busy_ps.size());
  for (std::size_t i = 0; i < layer.busy_ps.size(); ++i) total.busy_ps[i] += layer.busy_ps[i];
  total.passes += layer.passes;
  total.active_pes = std::max(total.active_pes, layer.active_pes);
  total.counters += layer.counters;
  total.energy += layer.energy;
  if (layer.dram_energy) {
    if (!total.dram_energy) total.dram_energy = DramEnergyByKind{};
    *total.dram_energy += *layer.dram_energy;
  }
}

}  // namespace

OperatingPoint operating_point(const AcceleratorConfig& config, const EnergyTable& table,
                               const OperatingLevels& levels) {
  OperatingPoint point;
  point.word_bits = config.pe_array.word_bits;
  point.frequency_mhz = levels.frequency_mhz;
  point.voltage_v = levels.voltage_v;
  point.nominal_voltage_v = config.clock.voltage_v;
  point.dram_energy_pj_per_bit = config.dram.energy_pj_per_bit;
  point.dram_voltage_ratio = levels.memory_voltage_v / config.dvfs.memory_voltage_v;
  point.glb_energy_scale = table.glb_energy_scale(config.glb.size_kib);
  return point;
}

AccessPrices access_prices(const AcceleratorConfig& config, const EnergyTable& table) {
  const OperatingPoint point = operating_point(config, table, nominal_levels(config));
  AccessPrices prices;
  prices.action = action_prices(module_counter_specs(config), table, point);
  prices.cycle_pj = price_activity(CounterValues(), {1, 0}, table, point).total_pj();
  return prices;
}

std::string SimulationResult::bound_name(const LayerResult& layer) const {
  return layer.bound == kNoResource ? "n/a" : resources.at(layer.bound).name;
}

std::optional<ResourceKind> SimulationResult::bound_kind(const LayerResult& layer) const {
  if (layer.bound == kNoResource) return std::nullopt;
  return resources.at(layer.bound).kind;
}

const char* fidelity_name(Fidelity fidelity) {
  return fidelity == Fidelity::kCycleAccurate ? "cycle" : "tlm";
}

Fidelity parse_fidelity(const std::string& name) {
  if (name == "tlm") return Fidelity::kTransactionLevel;
  if (name == "cycle") return Fidelity::kCycleAccurate;
  throw std::invalid_argument("fidelity must be 'tlm' or 'cycle', not '" + name + "'");
}

Simulation::Simulation(AcceleratorConfig config, EnergyTable table, const Workload& workload, SimulationOptions options)
    : config_(std::move(config)), table_(std::move(table)), workload_(workload), options_(std::move(options)) {
  // Fail before simulating if the table lacks the width, prices an action nothing counts, or leaves one unpriced.
  check_table_prices(table_, config_.pe_array.word_bits, module_counter_specs(config_));
  check_layer_levels(options_.layer_levels, config_, workload_);
  if (options_.mapping) {
    std::vector<std::string> names;
    for (const Layer& layer : workload_.layers()) names.push_back(layer.name);
    check_mapping_layers(*options_.mapping, names, workload_.name());
  }
}

namespace {

// Chains a progress display onto the run's own observers: the fraction of the network's MACs done (within
// a layer, by its steps), with the simulated cycles so far. Updated per step, so a long layer shows too.
RunObservers with_progress(RunObservers observers, const Workload& workload,
                           const std::vector<std::int64_t>& batch_per_layer, ProgressDisplay& display) {
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
  observers.step_done = [macs_done_after, total, layers, &workload, batch_per_layer, &display, layer_macs_done = 0.0,
                         current = layers](std::size_t layer_index, std::uint64_t step_macs,
                                           std::uint64_t cycle) mutable {
    if (layer_index != current) layer_macs_done = 0, current = layer_index;
    layer_macs_done += static_cast<double>(step_macs);
    if (!display.due()) return;  // per step: format only what is drawn
    const Layer& layer = workload.layers()[layer_index];
    const double layer_total = static_cast<double>(layer.macs) * static_cast<double>(batch_per_layer[layer_index]);
    const double share = layer_total > 0 ? std::min(1.0, layer_macs_done / layer_total) : 0.0;
    const double done_before = macs_done_after[layer_index] - static_cast<double>(layer.macs);
    const std::string layer_share = layer_total > 0 ? fmt::format(" ({:.0f}%)", 100 * share) : "";  // pools: no MACs
    display.update((done_before + share * static_cast<double>(layer.macs)) / total,
                   fmt::format("layer {} of {}{}, {} cycles simulated", layer_index + 1, layers, layer_share, cycle));
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
  result.total.name = kTotalRowName;
  result.energy_notes = table_.notes;
  const OperatingLevels nominal = nominal_levels(config_);

  start_fresh_systemc_kernel();
  ClockDomain clock(sc_core::sc_time(1e6 / nominal.frequency_mhz, sc_core::SC_PS));
  const IDataflow& dataflow = dataflow_of(config_.pe_array);
  const auto dram = make_dram(config_.dram);
  const auto glb = make_global_buffer(config_.glb, config_.pe_array.word_bits);
  const auto noc = make_noc(config_.noc);
  const auto pe_array = dataflow.make_array(config_);
  CounterRegistry registry;
  register_module_counters(registry, *pe_array, *noc, *glb, *dram);
  result.counters = registry.specs();
  BusyRegistry busy;
  register_module_busy(busy, *pe_array, *noc, *glb, *dram);
  const CounterValues no_counts = registry.snapshot();  // nothing counted yet

  std::vector<std::int64_t> batch_per_layer;
  for (const Layer& layer : workload_.layers()) batch_per_layer.push_back(options_.batch.value_or(layer.batch));
  const DramAddressMap address_map(workload_, batch_per_layer, config_.dram.word_bits);
  std::vector<LayerJob> jobs;
  const std::string run_name = workload_.name() + " on " + config_.name;
  ProgressDisplay mapping_progress("mapping " + run_name, progress_shown());
  LayerPlanningRun planning{options_.batch, options_.mapping ? &*options_.mapping : nullptr, {}, {}};
  planning.before_layer = [&](std::size_t i) {
    if (options_.observers.interrupt_requested && options_.observers.interrupt_requested()) {
      throw Interrupted(fmt::format("{} interrupted while mapping layer '{}'", run_name, workload_.layers()[i].name));
    }
    if (mapping_progress.enabled()) {  // no formatting per layer when nothing is shown (sweeps, --quiet)
      mapping_progress.update(static_cast<double>(i) / static_cast<double>(workload_.layers().size()),
                              fmt::format("layer {} of {}", i + 1, workload_.layers().size()));
    }
    return true;
  };
  planning.planned = [&](std::size_t i, std::int64_t batch, std::unique_ptr<LayerPlan> plan) {
    const Layer& layer = workload_.layers()[i];
    LayerResult entry;
    entry.name = layer.name;
    entry.op = op_name(layer.op);
    entry.batch = batch;
    entry.vector_ops = layer.vector_ops * static_cast<std::uint64_t>(entry.batch);
    entry.levels = options_.layer_levels.empty() ? nominal : options_.layer_levels[i];
    entry.counters = no_counts;
    if (plan) {
      entry.note = plan->note();
      entry.mapping = plan->mapping();
      jobs.push_back({i, std::move(plan), entry.levels, address_map.layer(i)});
    } else {
      entry.note = not_executed_note(layer);
    }
    result.layers.push_back(entry);
  };
  plan_layers(config_, table_, workload_, planning);
  mapping_progress.finish(fmt::format("{} layers", workload_.layers().size()));

  DvfsSetup dvfs{nominal, sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
  if (options_.switch_overheads) {
    dvfs.compute_switch = sc_core::sc_time(config_.dvfs.compute_switch_overhead_us, sc_core::SC_US);
    dvfs.memory_switch = sc_core::sc_time(config_.dvfs.memory_switch_overhead_us, sc_core::SC_US);
  }
  std::unique_ptr<ICycleArray> cycle_array;
  if (options_.fidelity == Fidelity::kCycleAccurate) {
    cycle_array = dataflow.make_cycle_array(config_, *noc, *glb, *pe_array, clock);
  }
  ProgressDisplay simulation_progress("simulating " + run_name, progress_shown());
  auto controller = std::make_unique<Controller>(
      "controller", ControlledModules{clock, *glb, *noc, *pe_array, *dram, cycle_array.get(), registry, busy}, dvfs,
      jobs,
      progress_shown() ? with_progress(options_.observers, workload_, batch_per_layer, simulation_progress)
                       : options_.observers,
      options_.check_outputs);
  controller->dram_socket().bind(dram->target_socket());
  sc_core::sc_start();
  if (const auto layer_index = controller->interrupted_at_layer()) {
    throw Interrupted(fmt::format("{} interrupted in layer '{}'", run_name, workload_.layers()[*layer_index].name));
  }
  simulation_progress.finish(fmt::format("{} layers", workload_.layers().size()));
  result.resources = busy.specs();  // with the controller's own
  if (const auto& failure = controller->failure()) {
    throw std::runtime_error("layer '" + workload_.layers()[failure->layer_index].name +
                             "' could not be simulated: " + failure->message);
  }

  for (std::size_t j = 0; j < jobs.size(); ++j) {
    LayerResult& entry = result.layers[jobs[j].layer_index];
    const LayerMeasurement& measured = controller->measurements()[j];
    fill_measurement(entry, measured, result.pe_count, is_mac_layer(workload_.layers()[jobs[j].layer_index]));
    // Energy follows the levels in force: the layer's own, switched to at its start.
    entry.energy = price_activity(entry.counters, {entry.cycles, entry.dvfs_switch_ns * 1e-9}, table_,
                                  operating_point(config_, table_, entry.levels));
    // A DRAM model that counts its commands is priced by them and its standby time.
    if (measured.dram_commands_at_end) {
      entry.dram_energy =
          dram_energy_between(config_.dram, *measured.dram_commands_at_start, *measured.dram_commands_at_end);
      entry.energy.component(kMemoryComponent) = entry.dram_energy->total_pj();
    }
  }
  result.total.counters = no_counts;
  for (auto& entry : result.layers) {
    if (!entry.executed) {  // nothing was busy for it
      entry.busy_ps.assign(result.resources.size(), 0);
      entry.busy_share.assign(result.resources.size(), 0.0);
    }
    add_to_total(result.total, entry);
  }
  set_bound(result.total);
  const double capacity = static_cast<double>(result.pe_count) * static_cast<double>(result.total.cycles);
  result.total.utilization = capacity > 0 ? static_cast<double>(result.total.count("pe.busy_cycle")) / capacity : 0.0;
  return result;
}

}  // namespace ergon
