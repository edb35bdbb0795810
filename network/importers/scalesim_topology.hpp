#pragma once
// Reads SCALE-Sim topology CSVs (conv and GEMM) and writes them as Ergon workload YAML, keeping SCALE-Sim's
// semantics: pre-padded ifmaps, one stride for both axes, output size ceil((H - R + s) / s) (Ergon pads the
// bottom/right edge so its floor formula gives the same size), layers named with "DP" depthwise (SCALE-Sim
// runs one layer per channel; here one conv with groups = channels). Rows may end with SCALE-Sim's
// trailing comma or not. Errors name file, line, column and field.
#include <cstdint>
#include <string>
#include <vector>

namespace ergon {

struct ScaleSimLayer {
  std::string name;
  int line = 0;
  std::int64_t ifmap_h = 0, ifmap_w = 0, filter_h = 0, filter_w = 0, channels = 0, filters = 0, stride = 1;
  bool depthwise = false;
};

enum class ScaleSimTopologyKind { kConv, kGemm };

std::vector<ScaleSimLayer> read_scalesim_topology(const std::string& path, ScaleSimTopologyKind kind);

// The layers as a workload file (independent layers, as SCALE-Sim simulates them).
std::string scalesim_workload_yaml(const std::vector<ScaleSimLayer>& layers, const std::string& name,
                                   const std::string& source_path);

}  // namespace ergon
