#include "sim/mapping_report.hpp"

#include <fmt/format.h>

namespace ergon {

nlohmann::ordered_json mapping_json(const RowStationaryMapping& mapping) {
  const RowStationaryTiling& t = mapping.tiling;
  nlohmann::ordered_json order = nlohmann::ordered_json::array();
  for (const TemporalDim dim : mapping.order) order.push_back(temporal_dim_name(dim));
  return {
      {"dataflow", "row_stationary"},
      {"filter_rows", t.filter_rows},
      {"filter_cols", t.filter_cols},
      {"ofmap_rows", t.ofmap_rows},
      {"channels_per_pe", t.channels_per_pe},
      {"filters_per_pe", t.filters_per_pe},
      {"channel_sets", t.channel_sets},
      {"filter_sets", t.filter_sets},
      {"filter_set_columns", t.filter_set_columns},
      {"group_sets", t.group_sets},
      {"group_set_columns", t.group_set_columns},
      {"images", t.images},
      {"loop_order", order},
      {"glb_slots", {{"ifmap", mapping.slots.ifmap}, {"psum", mapping.slots.psum}, {"filter", mapping.slots.filter}}},
      {"double_buffered", mapping.double_buffered}};
}

nlohmann::ordered_json mapping_cost_json(const MappingCost& c) {
  return {{"passes", c.passes},
          {"estimated_cycles", c.cycles},
          {"estimated_energy_pj", c.energy_pj},
          {"dram_read_bytes", c.dram_read_bytes},
          {"dram_write_bytes", c.dram_write_bytes},
          {"psum_spill_words", c.psum_spill_words},
          {"glb_reads", c.glb_reads},
          {"glb_writes", c.glb_writes},
          {"peak_active_pes", c.peak_active_pes}};
}

std::string mapping_loop_nest(const LoopNest& nest, const RowStationaryMapping& mapping) {
  const RowStationaryTiling& t = mapping.tiling;
  const BlockCounts blocks = block_counts(nest, t);
  std::string text;
  int depth = 0;
  const auto loop = [&](const std::string& name, std::int64_t trips, const std::string& note) {
    text += fmt::format("{:{}}for {} in 0..{}  {}\n", "", 2 * depth++, name, trips, note);
  };
  loop("group_block", blocks.groups, fmt::format("({} groups side by side)", t.group_sets));
  for (const TemporalDim dim : mapping.order) {
    switch (dim) {
      case TemporalDim::kImages:
        loop("image_block", blocks.images, fmt::format("({} images per pass)", t.images));
        break;
      case TemporalDim::kFilters:
        loop("filter_block", blocks.filters,
             fmt::format("({} filters per pass: p={} x t={})", t.filters_per_pass(), t.filters_per_pe, t.filter_sets));
        break;
      case TemporalDim::kOfmapRows:
        loop("row_block", blocks.ofmap_rows, fmt::format("({} ofmap rows per set: e)", t.ofmap_rows));
        break;
      case TemporalDim::kChannels:
        loop("channel_block", blocks.channels,
             fmt::format("({} channels per pass: q={} x r={})", t.channels_per_pass(), t.channels_per_pe,
                         t.channel_sets));
        break;
    }
  }
  if (blocks.filter_rows > 1) loop("filter_row_fold", blocks.filter_rows, fmt::format("({} rows)", t.filter_rows));
  if (blocks.filter_cols > 1) loop("filter_col_fold", blocks.filter_cols, fmt::format("({} columns)", t.filter_cols));
  text += fmt::format("{:{}}pass: {} x {} PEs; GLB keeps {} ifmap, {} psum, {} filter tiles; {} buffered\n", "",
                      2 * depth, t.pe_rows_used(1 << 30), t.pe_cols_used(1 << 30), mapping.slots.ifmap,
                      mapping.slots.psum, mapping.slots.filter, mapping.double_buffered ? "double" : "single");
  return text;
}

}  // namespace ergon
