#pragma once
// What a run of a workload on an accelerator takes and gives (options, per-layer and total results), and
// Simulation: the run pipeline (sim/run_pipeline.hpp) on a config and energy table. A Simulation object can
// be run more than once; each run uses a fresh SystemC kernel.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/controller/activity.hpp"
#include "arch/dram/dram.hpp"
#include "arch/operating_levels.hpp"
#include "common/busy_registry.hpp"
#include "dataflows/access_prices.hpp"
#include "dataflows/mapping_file.hpp"
#include "dataflows/mapping_summary.hpp"
#include "network/workload.hpp"
#include "power/dram/drampower_energy.hpp"
#include "power/energy_accounting.hpp"
#include "power/energy_table.hpp"
#include "sim/chip.hpp"

namespace ergon {

// Transaction level: each pass takes the time its modules compute from its traffic. Cycle accurate:
// the PE array steps every cycle on real values, checked against the reference computation.
enum class Fidelity { kTransactionLevel, kCycleAccurate };
// "tlm" or "cycle": the fidelity's name on the command line, in reports and in the Python package.
const char* fidelity_name(Fidelity fidelity);
// "transaction-level" or "cycle-accurate": the fidelity in prose ("a transaction-level simulation").
const char* fidelity_title(Fidelity fidelity);
// Throws std::invalid_argument for any other name.
Fidelity parse_fidelity(const std::string& name);

struct SimulationOptions {
  Fidelity fidelity = Fidelity::kTransactionLevel;
  std::optional<std::int64_t> batch;  // images per layer; default: each layer's own batch
  RunObservers observers;             // receive activity and trace events as they happen; may stop the run
  bool check_outputs = true;          // cycle fidelity: compare every output with the reference
  // DVFS (docs/dvfs.md): the levels each layer runs at, indexed like the workload's layers; empty: every
  // layer at the nominal levels (race to idle). The domains start at the nominal levels.
  std::vector<OperatingLevels> layer_levels;
  bool switch_overheads = true;        // false: levels change instantly (ARADA's ideal scheme)
  std::optional<MappingFile> mapping;  // parameters pinned per layer (`--mapping F`); the mapper searches the rest
};

// Options that differ from the defaults in their fidelity alone.
SimulationOptions options_at(Fidelity fidelity);

struct LayerResult {
  std::string name;
  std::string op;
  bool executed = false;  // false: not run on the PE array (see note)
  std::string note;
  std::int64_t batch = 1;
  std::uint64_t macs = 0;  // the network's, over the batch, gated MACs included (0 for pooling: see vector_ops)
  std::uint64_t nonzero_macs = 0;
  std::uint64_t vector_ops = 0;  // over the batch: pooling comparisons/additions and element-wise operations
  std::uint64_t cycles = 0;
  std::uint64_t stall_cycles = 0;
  std::uint64_t fill_stall_cycles = 0;   // waiting for the first pass's data
  std::uint64_t drain_stall_cycles = 0;  // waiting for the last write-back
  std::uint64_t compute_cycles = 0;      // cycles - stall_cycles: the array working
  std::uint64_t dram_busy_cycles = 0;    // the DRAM bus transferring this layer's data
  // Each resource's busy time during the layer and its share of the layer's time, indexed like
  // SimulationResult::resources; `bound` is the one with the largest share (docs/simulator.md, "What bounds
  // a layer"), kNoResource for a layer not executed.
  std::vector<std::uint64_t> busy_ps;
  std::vector<double> busy_share;
  ResourceId bound = kNoResource;
  double time_ns = 0;            // cycles at the layer's clock plus any DVFS switch
  double dvfs_switch_ns = 0;     // the compute clock stopped for a level change
  OperatingLevels levels;        // compute frequency and voltage, DRAM bandwidth and voltage
  double utilization = 0.0;      // PE-cycles doing MACs / (PEs x cycles)
  std::uint64_t active_pes = 0;  // peak
  std::uint64_t passes = 0;
  // Every counter the components registered (docs/energy.md): glb.read, dram.write, rf.psum_read, ...; zero
  // for a layer not executed. count("dram.read") reads one.
  CounterValues counters;
  // A DRAM model that reports its commands only: their energy by kind (the energy's dram component is their
  // sum).
  std::optional<DramEnergyByKind> dram_energy;
  // Such a model's cumulative command counts at the layer's start and end (what dram_energy prices).
  std::optional<DramCommandCounts> dram_commands_at_start, dram_commands_at_end;
  std::optional<MappingSummary> mapping;  // the dataflow's mapping and, when searched, its cost model
  // With glb.keep_activations: when_fits, what the GLB held of the layer's activations (bytes as its DRAM
  // encoding would have moved them): input found on chip instead of read, output kept instead of written.
  struct ActivationsOnChip {
    std::uint64_t input_bytes_found = 0;
    std::uint64_t output_bytes_kept = 0;
    std::uint64_t weight_bytes_found = 0;  // glb.keep_weights: weights found in the GLB's cache
    ActivationsOnChip& operator+=(const ActivationsOnChip& o) {
      input_bytes_found += o.input_bytes_found, output_bytes_kept += o.output_bytes_kept;
      weight_bytes_found += o.weight_bytes_found;
      return *this;
    }
  };
  std::optional<ActivationsOnChip> activations_on_chip;
  EnergyBreakdown energy;
  bool output_checked = false;  // cycle fidelity: compared with the reference computation
  std::uint64_t output_mismatches = 0;

  std::uint64_t count(std::string_view counter) const { return counters.get(counter); }
  std::uint64_t dram_bytes() const { return count("dram.read") + count("dram.write"); }
};

struct SimulationResult {
  std::string config_name;
  std::string workload_name;
  double frequency_mhz = 0;
  double voltage_v = 0;
  std::int64_t pe_count = 0;
  bool cycle_accurate = false;
  std::vector<LayerResult> layers;
  LayerResult total;
  std::vector<CounterSpec> counters;    // what each layer's counters hold, in the registry's order
  std::vector<ResourceSpec> resources;  // what each layer's busy_ps and busy_share hold, in the registry's order
  // The name of the resource that bounds `layer`, or "n/a"; what a resource's kind is (the DVFS policy's).
  std::string bound_name(const LayerResult& layer) const;
  std::optional<ResourceKind> bound_kind(const LayerResult& layer) const;
  std::vector<std::string> energy_notes;  // how the energy table was built (EnergyTable::notes)
};

class Simulation {
 public:
  // Fails here, before simulating, at a table that does not fit the config or options that do not fit the
  // workload.
  Simulation(AcceleratorConfig config, EnergyTable table, const Workload& workload, SimulationOptions options);
  SimulationResult run();  // Interrupted when the observers' interrupt check stops it

 private:
  Chip chip_;
  const Workload& workload_;
  SimulationOptions options_;
};

}  // namespace ergon
