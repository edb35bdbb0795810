#include "sim/run_pipeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "arch/components.hpp"
#include "arch/controller/controller.hpp"
#include "arch/pe_array/pe_arrays.hpp"
#include "common/progress_display.hpp"
#include "dataflows/registry.hpp"
#include "sim/layer_planning.hpp"
#include "sim/parallel/interrupt.hpp"
#include "sim/residency_plan.hpp"
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
  result.dram_commands_at_start = m.dram_commands_at_start;
  result.dram_commands_at_end = m.dram_commands_at_end;
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
  if (layer.activations_on_chip) {
    if (!total.activations_on_chip) total.activations_on_chip = LayerResult::ActivationsOnChip{};
    *total.activations_on_chip += *layer.activations_on_chip;
  }
}

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

std::string run_name(const Chip& chip, const Workload& workload) {
  return workload.name() + " on " + chip.config().name;
}

// What a result says about the run before any layer: the chip, the workload and the fidelity.
SimulationResult result_heading(const Chip& chip, const Workload& workload, const SimulationOptions& options) {
  const AcceleratorConfig& config = chip.config();
  SimulationResult result;
  result.config_name = config.name;
  result.workload_name = workload.name();
  result.frequency_mhz = config.clock.frequency_mhz;
  result.voltage_v = config.clock.voltage_v;
  result.pe_count = config.pe_array.rows * config.pe_array.cols;
  result.cycle_accurate = options.fidelity == Fidelity::kCycleAccurate;
  result.total.name = kTotalRowName;
  result.energy_notes = chip.table().notes;
  return result;
}

}  // namespace

void check_run_options(const Chip& chip, const Workload& workload, const SimulationOptions& options) {
  check_layer_levels(options.layer_levels, chip.config(), workload);
  const AcceleratorConfig& config = chip.config();
  // The systolic cycle array takes its DRAM deposits and write-backs from the step's traffic, from which
  // the residency has already taken what the GLB holds; the row-stationary one counts its own.
  const bool residency_unmodelled = config.pe_array.impl != "systolic";
  const struct {
    bool set;
    const char* setting;  // what the cycle-accurate modules do not model, with its verb
    const char* instead;  // the override that runs without it
  } transaction_level_only[] = {
      {residency_unmodelled && config.glb.keep_activations == KeepActivations::kWhenFits,
       "glb.keep_activations: when_fits is", "glb.keep_activations=never"},
      {residency_unmodelled && config.glb.keep_weights == KeepActivations::kWhenFits, "glb.keep_weights: when_fits is",
       "glb.keep_weights=never"},
      {config.pe_array.pipelined_folds, "pe_array.pipelined_folds is", "pe_array.pipelined_folds=false"},
      {config.pe_array.depthwise != DepthwiseMode::kSerial, "pe_array.depthwise: channel groups are",
       "pe_array.depthwise=serial"},
  };
  for (const auto& entry : transaction_level_only) {
    if (options.fidelity == Fidelity::kCycleAccurate && entry.set) {
      throw std::invalid_argument(fmt::format(
          "{} modelled at transaction level only with pe_array.impl: {}; run with --fidelity tlm or set {}",
          entry.setting, config.pe_array.impl, entry.instead));
    }
  }
  if (options.mapping) {
    std::vector<std::string> names;
    for (const Layer& layer : workload.layers()) names.push_back(layer.name);
    check_mapping_layers(*options.mapping, names, workload.name());
  }
}

namespace {

// Plans again, knowing what the GLB holds of them, the layers the residency plan trims: the mapping is chosen
// for the traffic left, within the staging the residency plan counted on (dataflows/resident_traffic.hpp).
void replan_resident_layers(const Chip& chip, const Workload& workload, const SimulationOptions& options,
                            RunPlan& run) {
  LayerPlanning planning(chip.config(), chip.prices());
  for (LayerJob& job : run.jobs) {
    if (!job.residency.any()) continue;
    const Layer& layer = workload.layers()[job.layer_index];
    const ResidencyPlanning residency{job.residency, job.plan->glb_staging_words()};
    std::unique_ptr<LayerPlan> plan =
        planning.plan(layer, run.batch_per_layer[job.layer_index], workload.reads_network_input(layer),
                      options.mapping ? options.mapping->constraints_of(layer.name) : nullptr, &residency);
    if (!plan) continue;
    run.layers[job.layer_index].mapping = plan->mapping();
    job.plan = std::move(plan);
  }
}

}  // namespace

RunPlan plan_run(const Chip& chip, const Workload& workload, const SimulationOptions& options) {
  const OperatingLevels nominal = nominal_levels(chip.config());
  RunPlan run;
  for (const Layer& layer : workload.layers()) run.batch_per_layer.push_back(options.batch.value_or(layer.batch));
  const DramAddressMap address_map(workload, run.batch_per_layer, chip.config().dram.word_bits);
  const std::string name = run_name(chip, workload);
  ProgressDisplay progress("mapping " + name, progress_shown());
  LayerPlanningRun planning{options.batch, options.mapping ? &*options.mapping : nullptr, {}, {}};
  planning.before_layer = [&](std::size_t i) {
    if (options.observers.interrupt_requested && options.observers.interrupt_requested()) {
      throw Interrupted(fmt::format("{} interrupted while mapping layer '{}'", name, workload.layers()[i].name));
    }
    if (progress.enabled()) {  // no formatting per layer when nothing is shown (sweeps, --quiet)
      progress.update(static_cast<double>(i) / static_cast<double>(workload.layers().size()),
                      fmt::format("layer {} of {}", i + 1, workload.layers().size()));
    }
    return true;
  };
  planning.planned = [&](std::size_t i, std::int64_t batch, std::unique_ptr<LayerPlan> plan) {
    const Layer& layer = workload.layers()[i];
    LayerResult entry;
    entry.name = layer.name;
    entry.op = op_name(layer.op);
    entry.batch = batch;
    entry.vector_ops = layer.vector_ops * static_cast<std::uint64_t>(entry.batch);
    entry.levels = options.layer_levels.empty() ? nominal : options.layer_levels[i];
    if (plan) {
      entry.note = plan->note();
      entry.mapping = plan->mapping();
      run.jobs.push_back({i, std::move(plan), entry.levels, address_map.layer(i), {}});
    } else {
      entry.note = not_executed_note(layer);
    }
    run.layers.push_back(entry);
  };
  plan_layers(chip, workload, planning);
  plan_residency(workload, run.batch_per_layer, chip.config(), run.jobs);
  replan_resident_layers(chip, workload, options, run);
  progress.finish(fmt::format("{} layers", workload.layers().size()));
  return run;
}

SimulationResult simulate_run(const Chip& chip, const Workload& workload, RunPlan plan,
                              const SimulationOptions& options) {
  const AcceleratorConfig& config = chip.config();
  SimulationResult result = result_heading(chip, workload, options);
  result.layers = std::move(plan.layers);
  const OperatingLevels nominal = nominal_levels(config);

  start_fresh_systemc_kernel();
  ClockDomain clock(sc_core::sc_time(1e6 / nominal.frequency_mhz, sc_core::SC_PS));
  const auto dram = make_dram(config.dram);
  const auto glb = make_global_buffer(config.glb, config.pe_array.word_bits);
  const auto noc = make_noc(config.noc);
  const auto pe_array = make_pe_array(config);
  CounterRegistry registry;
  register_module_counters(registry, *pe_array, *noc, *glb, *dram);
  result.counters = registry.specs();
  BusyRegistry busy;
  register_module_busy(busy, *pe_array, *noc, *glb, *dram);
  const CounterValues no_counts = registry.snapshot();  // nothing counted yet
  for (LayerResult& entry : result.layers) entry.counters = no_counts;
  result.total.counters = no_counts;

  DvfsSetup dvfs{nominal, sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
  if (options.switch_overheads) {
    dvfs.compute_switch = sc_core::sc_time(config.dvfs.compute_switch_overhead_us, sc_core::SC_US);
    dvfs.memory_switch = sc_core::sc_time(config.dvfs.memory_switch_overhead_us, sc_core::SC_US);
  }
  std::unique_ptr<ICycleArray> cycle_array;
  if (options.fidelity == Fidelity::kCycleAccurate) {
    cycle_array = make_cycle_array(config, *noc, *glb, *pe_array, clock);
  }
  const std::string name = run_name(chip, workload);
  ProgressDisplay progress("simulating " + name, progress_shown());
  const std::vector<LayerJob>& jobs = plan.jobs;
  auto controller = std::make_unique<Controller>(
      "controller", ControlledModules{clock, *glb, *noc, *pe_array, *dram, cycle_array.get(), registry, busy}, dvfs,
      config.commands, jobs,
      progress_shown() ? with_progress(options.observers, workload, plan.batch_per_layer, progress) : options.observers,
      options.check_outputs);
  controller->dram_socket().bind(dram->target_socket());
  sc_core::sc_start();
  if (const auto layer_index = controller->interrupted_at_layer()) {
    throw Interrupted(fmt::format("{} interrupted in layer '{}'", name, workload.layers()[*layer_index].name));
  }
  progress.finish(fmt::format("{} layers", workload.layers().size()));
  result.resources = busy.specs();  // with the controller's own
  if (const auto& failure = controller->failure()) {
    throw std::runtime_error("layer '" + workload.layers()[failure->layer_index].name +
                             "' could not be simulated: " + failure->message);
  }
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    LayerResult& entry = result.layers[jobs[j].layer_index];
    const LayerMeasurement& measured = controller->measurements()[j];
    fill_measurement(entry, measured, result.pe_count, is_mac_layer(workload.layers()[jobs[j].layer_index]));
    if (config.glb.keeps_tensors()) {
      entry.activations_on_chip = LayerResult::ActivationsOnChip{
          measured.input_on_chip_bytes, measured.output_kept_bytes, measured.weight_on_chip_bytes};
    }
  }
  for (LayerResult& entry : result.layers) {
    if (!entry.executed) {  // nothing was busy for it
      entry.busy_ps.assign(result.resources.size(), 0);
      entry.busy_share.assign(result.resources.size(), 0.0);
    }
  }
  return result;
}

void price_run(const Chip& chip, SimulationResult& result) {
  for (LayerResult& entry : result.layers) {
    if (!entry.executed) continue;
    // Energy follows the levels in force: the layer's own, switched to at its start.
    entry.energy = price_activity(entry.counters, {entry.cycles, entry.dvfs_switch_ns * 1e-9}, chip.table(),
                                  chip.operating_point(entry.levels));
    // A DRAM model that counts its commands is priced by them and its standby time.
    if (entry.dram_commands_at_end) {
      entry.dram_energy =
          dram_energy_between(chip.config().dram, *entry.dram_commands_at_start, *entry.dram_commands_at_end);
      entry.energy.component(kMemoryComponent) = entry.dram_energy->total_pj();
    }
  }
  for (const LayerResult& entry : result.layers) add_to_total(result.total, entry);
  set_bound(result.total);
  const double capacity = static_cast<double>(result.pe_count) * static_cast<double>(result.total.cycles);
  result.total.utilization = capacity > 0 ? static_cast<double>(result.total.count("pe.busy_cycle")) / capacity : 0.0;
}

SimulationResult run_pipeline(const Chip& chip, const Workload& workload, const SimulationOptions& options,
                              const RunWriter& write) {
  check_run_options(chip, workload, options);
  SimulationResult result = simulate_run(chip, workload, plan_run(chip, workload, options), options);
  price_run(chip, result);
  if (write) write(result);
  return result;
}

}  // namespace ergon
