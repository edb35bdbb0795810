#pragma once
// A row-stationary mapping as data (report.json's per-layer "mapping", `ergon map --format json`) and as
// text: its parameters, loop order and GLB slots, and the loop nest it executes.
#include <nlohmann/json.hpp>
#include <string>

#include "dataflow/row_stationary/row_stationary_mapper.hpp"

namespace ergon {

nlohmann::ordered_json mapping_json(const RowStationaryMapping& mapping);
nlohmann::ordered_json mapping_cost_json(const MappingCost& cost);

// The mapping's loop nest, outermost first, one loop per line (trip counts and tile sizes).
std::string mapping_loop_nest(const LoopNest& nest, const RowStationaryMapping& mapping);

}  // namespace ergon
