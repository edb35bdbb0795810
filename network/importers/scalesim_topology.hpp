#pragma once
// Reads SCALE-Sim topology CSVs (conv and GEMM) and writes them as Ergon workload YAML, keeping SCALE-Sim's
// semantics: pre-padded ifmaps, one stride for both axes, output size ceil((H - R + s) / s) (Ergon pads the
// bottom/right edge so its floor formula gives the same size), layers named with "DP" depthwise (SCALE-Sim
// runs one layer per channel; here one conv with groups = channels). Rows may end with SCALE-Sim's
// trailing comma or not; a field starting with '#' ends the row (a comment column). A GEMM file is told
// from a conv one by its header (Layer, M, N, K). SCALE-Sim v2's ninth conv column is the stride width; v3's
// N:M sparsity ratio is not modelled (warned about, the layer runs dense). Repeated layer names, which
// SCALE-Sim accepts, are renamed with a warning. Errors name file, line, column and field.
#include <cstdint>
#include <string>
#include <vector>

namespace ergon {

struct ScaleSimLayer {
  std::string name;
  int line = 0;
  std::int64_t ifmap_h = 0, ifmap_w = 0, filter_h = 0, filter_w = 0, channels = 0, filters = 0, stride = 1;
  std::int64_t stride_w = 0;  // 0: the same as stride (SCALE-Sim v2's optional ninth column)
  bool depthwise = false;
};

enum class ScaleSimTopologyKind { kAuto, kConv, kGemm };

struct ScaleSimTopology {
  std::vector<ScaleSimLayer> layers;
  ScaleSimTopologyKind kind = ScaleSimTopologyKind::kConv;  // as read (kAuto resolved from the header)
  std::vector<std::string> warnings;                        // "file:line: ..." for what Ergon changed or ignores
};

ScaleSimTopology read_scalesim_topology(const std::string& path, ScaleSimTopologyKind kind);

// The layers as a workload file (independent layers, as SCALE-Sim simulates them).
std::string scalesim_workload_yaml(const std::vector<ScaleSimLayer>& layers, const std::string& name,
                                   const std::string& source_path);

}  // namespace ergon
