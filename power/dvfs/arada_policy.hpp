#pragma once
// ARADA's per-layer resource allocation (Azhar et al., CF'23, seed 002, Algorithm 1 and eqs. 1, 2, 6):
// from a race-to-idle run, a memory-bound layer gets its compute clock lowered until its computation
// fills the time it waited for data; a compute-bound layer gets its DRAM bandwidth lowered to its
// demand. The schedule is then re-simulated (sim/dvfs/); this file only decides levels and gives
// ARADA's analytical estimate of the saving. docs/arada.md explains every choice.
#include <optional>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "arch/operating_levels.hpp"
#include "common/busy_registry.hpp"

namespace ergon {

enum class DvfsScheme {
  kRaceToIdle,            // rti: every layer at the nominal levels (the baseline)
  kIdeal,                 // ideal: continuous levels, switching is free
  kWithOverhead,          // vf-oh: continuous levels, each switch stalls its domain; skip changes that do not pay
  kWithOverheadQuantised  // vf-oh-q: as vf-oh, levels rounded up to the domain's table (50 MHz steps by default)
};

const std::vector<std::string>& dvfs_scheme_names();    // rti, ideal, vf-oh, vf-oh-q
DvfsScheme parse_dvfs_scheme(const std::string& name);  // throws std::invalid_argument naming the choices
std::string dvfs_scheme_name(DvfsScheme scheme);

// What the race-to-idle simulation measured for one layer.
struct LayerTiming {
  std::string name;
  bool executed = false;
  double time_ns = 0;         // T_total
  double stall_ns = 0;        // all waits for data
  double fill_stall_ns = 0;   // waiting for the first tiles: no compute speed can hide it
  double drain_stall_ns = 0;  // waiting for the last write-back
  double dram_bytes = 0;
  double dram_busy_ns = 0;            // the DRAM bus transferring
  double compute_energy_pj = 0;       // compute domain (all but DRAM): weighs the layer in the eq. 6 estimate
  std::optional<ResourceKind> bound;  // the kind of the busiest resource (docs/simulator.md); none: not executed
};

// Which clock domain bounds a layer, from its busiest resource: the memory domain when the DRAM is the
// busiest (or the waits for a layer's first data and last write-back are), the compute domain when the array,
// a GLB port or a NoC bus is (all on the compute clock: a slower clock slows them alike). A layer bound by a
// DVFS switch, or not executed, is left at its levels.
enum class BoundDomain { kNone, kCompute, kMemory };
BoundDomain bound_domain(std::optional<ResourceKind> bound);
const char* bound_domain_name(BoundDomain domain);  // "compute", "memory" or "n/a"

struct LayerAllocation {
  std::string name;
  BoundDomain bound = BoundDomain::kNone;
  OperatingLevels levels;
  double hideable_stall_ns = 0;  // ARADA's T_stall: stalls between passes, which a slower array fills
  double deadline_slack_ns = 0;  // time beyond race to idle granted by a deadline
  double compute_ns = 0;         // T_execution: the array working at F_max
  double normalised_energy = 1;  // ARADA eq. 5/6: compute-domain dynamic energy vs race to idle
  std::string decision;          // why the levels are what they are
};

struct DvfsAllocation {
  DvfsScheme scheme = DvfsScheme::kRaceToIdle;
  std::vector<LayerAllocation> layers;
  // ARADA eq. 6 over the network: each layer's ratio weighted by its race-to-idle compute-domain energy
  // (eq. 3's alpha C V^2 F T differs per layer through alpha and T).
  double estimated_saving_pct = 0;
  double bandwidth_reduction_pct = 0;  // time-weighted mean DRAM bandwidth below the maximum
  int restored_layers = 0;             // lowered layers the latency feedback returned to the nominal levels
};

// `time_scale` > 1 spends slack up to a deadline (beyond ARADA; docs/arada.md): every layer may take
// that many times its race-to-idle time, so compute-bound layers get slower clocks too.
DvfsAllocation allocate_arada(const std::vector<LayerTiming>& race_to_idle, const AcceleratorConfig& config,
                              DvfsScheme scheme, double time_scale = 1.0);

// Recomputes the eq. 6 estimate and the bandwidth reduction after levels changed (power/dvfs/latency_feedback).
void summarise_allocation(DvfsAllocation& allocation, const std::vector<LayerTiming>& race_to_idle,
                          const AcceleratorConfig& config);

}  // namespace ergon
