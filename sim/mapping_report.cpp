#include "sim/mapping_report.hpp"

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

}  // namespace ergon
