#pragma once
// The roofline bound of a workload on a chip (Williams, Waterman and Patterson, CACM 2009): per layer, the
// longer of its work at the compute ceiling and its compulsory DRAM traffic at full bandwidth. It is a
// lower bound on what the simulator models: no mapping beats every PE busy every cycle, and none moves
// less than the compulsory traffic, which is counted as the simulated hardware stores it (see roofline.cpp).
// `ergon estimate roofline` reports it; `ergon roofline` places the simulated layers under the same roofs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arch/accelerator_config.hpp"
#include "network/workload.hpp"

namespace ergon {

// The compute ceiling: one MAC (2 operations) per PE per cycle at the nominal clock.
double compute_ceiling_gops(const AcceleratorConfig& config);

// The bytes a layer must move between DRAM and the chip, over its batch.
struct CompulsoryTraffic {
  double weight_bytes = 0;  // every weight once per batch, raw
  double ifmap_bytes = 0;   // every input value the layer reads, once per image, as stored in DRAM
  double ofmap_bytes = 0;   // every output once per image, as stored in DRAM
  double total_bytes() const { return weight_bytes + ifmap_bytes + ofmap_bytes; }
};

struct RooflineLayer {
  std::string name, op;
  std::int64_t batch = 1;        // images processed together
  std::uint64_t macs = 0;        // over the batch
  std::uint64_t vector_ops = 0;  // over the batch
  CompulsoryTraffic traffic;
  double compute_ms = 0, memory_ms = 0;  // over the batch

  double operations() const { return 2.0 * static_cast<double>(macs) + static_cast<double>(vector_ops); }
  double latency_ms() const { return compute_ms > memory_ms ? compute_ms : memory_ms; }  // over the batch
  double latency_ms_per_image() const { return latency_ms() / static_cast<double>(batch); }
  const char* bound() const { return memory_ms > compute_ms ? "memory" : "compute"; }
};

struct Roofline {
  std::string workload, config;
  double compute_ceiling_gops = 0, dram_bandwidth_gbps = 0;
  std::optional<std::int64_t> batch;  // set: every layer's batch; else each layer's own
  std::vector<RooflineLayer> layers;  // the layers the PE array executes
  std::vector<std::string> skipped;   // layers that move no data (concat, slice, activations: layouts)
  double total_ms_per_image() const;
};

// `batch`: images every layer processes together (as `ergon run --batch`); nullopt: each layer's own.
Roofline roofline_bound(const Workload& workload, const AcceleratorConfig& config, std::optional<std::int64_t> batch);

}  // namespace ergon
