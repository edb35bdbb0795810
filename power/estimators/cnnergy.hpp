#pragma once
// The CNNergy analytical energy model (NeuPart, Manasi et al., IEEE TVLSI 2020, Sec. IV) as its public
// reference implementation computes it (docs/cnnergy.md). Analytical only: it never calls the
// simulator, and the simulator never calls it.
#include <cstdint>
#include <string>
#include <vector>

#include "network/workload.hpp"
#include "power/energy_table.hpp"

namespace ergon {

// The Eyeriss-like hardware CNNergy maps onto. Register-file entries are given at 16 bit; at 8 bit
// the model doubles them (same bytes).
struct CnnergyHardware {
  std::int64_t pe_rows = 12;
  std::int64_t pe_cols = 14;
  std::int64_t filter_rf_entries = 224;
  std::int64_t ifmap_rf_entries = 12;
  std::int64_t psum_rf_entries = 24;
  double glb_kib = 100.0;  // ifmap + psum
};

struct CnnergyOptions {
  int word_bits = 16;
  bool include_control_and_clock = true;
  double throughput_macs_per_s = 23.1e9;  // Eyeriss's measured AlexNet throughput, sets clock energy
};

// Energy of one image, by component.
struct CnnergyEnergy {
  double mac_pj = 0;
  double rf_pj = 0;
  double inter_pe_pj = 0;
  double glb_pj = 0;
  double dram_pj = 0;
  double clock_pj = 0;
  double control_pj = 0;

  double total_pj() const { return mac_pj + rf_pj + inter_pe_pj + glb_pj + dram_pj + clock_pj + control_pj; }
  CnnergyEnergy& operator+=(const CnnergyEnergy& other);
};

// Accesses per image (real-valued: the model works with fractional pass counts).
struct CnnergyAccesses {
  double macs = 0;  // charged (non-zero) MACs
  double rf = 0;
  double inter_pe = 0;
  double glb = 0;
  double dram_words = 0;  // in words of the configured width (compressed traffic counted as stored)
  CnnergyAccesses& operator+=(const CnnergyAccesses& other);
};

// The mapping CNNergy chose for a layer (per group).
struct CnnergyMapping {
  double channels_per_set = 0;
  double channels_per_pass = 0;
  double filters_per_pass = 0;
  double ofmap_rows_per_pass = 0;     // y_ofmap
  double ofmap_columns_per_pass = 0;  // x_ofmap_comp
  double passes = 0;                  // real-valued, per image batch
};

struct CnnergyLayerEstimate {
  std::string name;
  std::string op;
  bool modelled = false;
  std::string not_modelled_reason;
  std::uint64_t macs = 0;  // per image
  std::int64_t batch = 1;
  CnnergyMapping mapping;
  CnnergyEnergy energy;
  CnnergyAccesses accesses;
};

struct CnnergyEstimate {
  std::string workload;
  CnnergyOptions options;
  std::vector<CnnergyLayerEstimate> layers;
  CnnergyEnergy total;
  std::uint64_t total_macs = 0;     // every layer's MACs
  std::uint64_t modelled_macs = 0;  // those of the layers CNNergy costs
};

CnnergyEstimate estimate_cnnergy(const Workload& workload, const EnergyTable& table, const CnnergyHardware& hardware,
                                 const CnnergyOptions& options);

}  // namespace ergon
