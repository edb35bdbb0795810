#pragma once
// A row-stationary mapping as data: report.json's per-layer "mapping" (its parameters, loop order, GLB
// slots and buffering).
#include <nlohmann/json.hpp>

#include "dataflow/row_stationary/row_stationary_mapping.hpp"

namespace ergon {

nlohmann::ordered_json mapping_json(const RowStationaryMapping& mapping);

}  // namespace ergon
