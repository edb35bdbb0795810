// The bank-level DRAM inside a whole simulation: tensors have disjoint, aligned addresses, a consumer reads
// its producers' output regions, and the per-layer DRAM figures add up (row outcomes per access, energy by
// kind to the layer's DRAM energy, achieved bandwidth under the peak).
#include <gtest/gtest.h>

#include <algorithm>

#include "arch/controller/dram_address_map.hpp"
#include "arch/dram/banked/dram_specs.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

const Workload& workload_named(const std::string& name) {
  static std::map<std::string, Workload> loaded;
  auto found = loaded.find(name);
  if (found == loaded.end()) {
    found = loaded.emplace(name, load_workload(test::source_dir() + "/workloads/" + name + ".yaml")).first;
  }
  return found->second;
}

const EnergyTable& table() {
  static const EnergyTable loaded = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return loaded;
}

AcceleratorConfig banked(const std::string& config, const std::string& preset, const std::string& page = "open") {
  return load_accelerator_config(test::source_dir() + "/configs/" + config + ".yaml",
                                 {"dram.impl=banked", "dram.preset=" + preset, "dram.bandwidth_gbps=~",
                                  "dram.latency_ns=~", "dram.energy_pj_per_bit=~", "dram.page_policy=" + page});
}

TEST(DramAddressMap, RegionsAreAlignedDisjointAndConsumersReadTheirProducers) {
  const Workload& workload = workload_named("resnet50");
  const std::vector<std::int64_t> batch(workload.layers().size(), 2);
  const DramAddressMap map(workload, batch, 16);
  std::vector<DramRegion> regions;
  for (std::size_t i = 0; i < workload.layers().size(); ++i) {
    const LayerRegions& r = map.layer(i);
    for (const DramRegion& region : {r.filters, r.ofmap, r.psum_spill}) {
      EXPECT_EQ(region.base % DramAddressMap::kAlignmentBytes, 0u);
      regions.push_back(region);
    }
    const Layer& layer = workload.layers()[i];
    EXPECT_EQ(r.ofmap.bytes,
              std::max<std::uint64_t>(DramAddressMap::kAlignmentBytes,
                                      static_cast<std::uint64_t>(layer.output_shape.elements()) * 2 * 2));
    EXPECT_EQ(r.filters.bytes, std::max<std::uint64_t>(DramAddressMap::kAlignmentBytes, layer.params_count * 2));
    if (layer.op == OpKind::kInput) continue;
    ASSERT_EQ(r.ifmaps.size(), layer.input_names.size()) << layer.name;
    for (std::size_t k = 0; k < layer.input_names.size(); ++k) {
      const Layer* producer = workload.find_layer(layer.input_names[k]);
      const auto index = static_cast<std::size_t>(producer - workload.layers().data());
      EXPECT_EQ(r.ifmaps[k].base, map.layer(index).ofmap.base) << layer.name;
    }
  }
  std::sort(regions.begin(), regions.end(), [](const DramRegion& a, const DramRegion& b) { return a.base < b.base; });
  for (std::size_t i = 1; i < regions.size(); ++i)
    EXPECT_GE(regions[i].base, regions[i - 1].base + regions[i - 1].bytes);
  EXPECT_EQ(map.end_address(), regions.back().base + (regions.back().bytes + 4095) / 4096 * 4096);
}

TEST(RegionCursor, SplitsAtBurstBoundariesAndWrapsAtTheEnd) {
  RegionCursor cursor({{8192, 10000}, {40960, 5000}});
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces;
  cursor.advance(16000, 4096, [&](std::uint64_t address, std::uint64_t bytes) { pieces.emplace_back(address, bytes); });
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected = {{8192, 4096},  {12288, 4096}, {16384, 1808},
                                                                         {40960, 4096}, {45056, 904},  {8192, 1000}};
  EXPECT_EQ(pieces, expected);
}

// Streams of whole tensors: almost every access finds its row open; the energy by kind adds up to the
// layer's DRAM energy; no layer moves data faster than the preset's peak.
TEST(BankedDram, AlexNetStreamsHitOpenRowsAndItsFiguresAddUp) {
  const AcceleratorConfig config = banked("eyeriss", "lpddr4");
  const SimulationResult result = Simulation(config, table(), workload_named("alexnet"), {}).run();
  ASSERT_TRUE(result.total.dram_energy.has_value());
  const LayerResult& total = result.total;
  const DramSpec& spec = *find_dram_spec("lpddr4");
  const double accesses = static_cast<double>(total.count("dram.row_hit") + total.count("dram.row_miss") +
                                              total.count("dram.row_conflict"));
  const double bytes = static_cast<double>(result.total.count("dram.read") + result.total.count("dram.write"));
  // Transfers start on 4 KiB-burst boundaries or mid-access: each access carries at most its bytes.
  EXPECT_GE(accesses * static_cast<double>(spec.organisation.access_bytes()), bytes);
  EXPECT_LE(accesses * static_cast<double>(spec.organisation.access_bytes()), bytes * 1.05);
  EXPECT_GT(static_cast<double>(total.count("dram.row_hit")), 0.9 * accesses);
  const double dram_pj = total.dram_energy->total_pj();
  EXPECT_NEAR(dram_pj, result.total.energy.component_pj("dram"), 1e-6 * dram_pj);
  EXPECT_GT(total.count("dram.refresh_cycle"), 0u);
  for (const LayerResult& layer : result.layers) {
    if (!layer.dram_energy) continue;
    const double layer_bytes = static_cast<double>(layer.count("dram.read") + layer.count("dram.write"));
    EXPECT_LE(layer_bytes / layer.time_ns, spec.peak_bandwidth_gbps()) << layer.name;
    EXPECT_DOUBLE_EQ(layer.energy.component_pj("dram"), layer.dram_energy->total_pj()) << layer.name;
  }
}

// A closed page activates for every access: no hits, more activate energy, and no faster.
TEST(BankedDram, ClosedPageActivatesForEveryAccess) {
  const SimulationResult open =
      Simulation(banked("edge_tpu", "ddr4-4000"), table(), workload_named("resnet8"), {}).run();
  const SimulationResult closed =
      Simulation(banked("edge_tpu", "ddr4-4000", "closed"), table(), workload_named("resnet8"), {}).run();
  EXPECT_EQ(closed.total.count("dram.row_hit"), 0u);
  EXPECT_GT(open.total.count("dram.row_hit"), 0u);
  EXPECT_GT(closed.total.dram_energy->activate_pj, 2.0 * open.total.dram_energy->activate_pj);
  EXPECT_GE(closed.total.cycles, open.total.cycles);
}

}  // namespace
}  // namespace ergon
