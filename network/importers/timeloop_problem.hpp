#pragma once
// Reads Timeloop problem files (v0.3 and v0.4: `problem: {shape, instance}`) and writes them as Ergon workload
// YAML, one independent layer per file. The shape is recognised by its data spaces' projections, not by its
// name: one read-write tensor (the outputs) and two read tensors; the read tensor whose ranks sum two terms
// (a sliding window, e.g. R*Wdilation + P*Wstride) holds the inputs, the other the weights. Each dimension's
// role follows from the tensors it indexes (docs/workloads.md, "Importing Timeloop problems"): all three is a
// group, inputs and weights a reduction (input channel, or filter tap inside a window), weights and outputs an
// output channel, inputs and outputs the batch (rows, for a GEMM). A convolution becomes a `conv`; a problem
// without a window is a GEMM and becomes an `fc` (one row) or a 1x1 `conv` over [K, rows, 1]. Timeloop has no
// padding: the input is exactly as large as the outputs read, unpadded, unless the instance's optional H/W
// and Hpad/Wpad (which Timeloop ignores) reproduce the output size. Anything else is refused with the file,
// line and key.
#include <cstdint>
#include <string>
#include <vector>

#include "network/layer.hpp"

namespace ergon {

struct TimeloopLayer {
  std::string name;         // the file's stem, made unique
  std::string source_path;  // the problem file
  std::string description;  // Timeloop's shape name and every bound, for the layer's comment
  bool gemm = false;        // no sliding window: a product of matrices
  std::int64_t batch = 1;   // convolutions: the dimensions that index only the inputs and outputs
  std::int64_t groups = 1;
  std::int64_t channels_per_group = 1;                                // input channels (a GEMM's K)
  std::int64_t filters_per_group = 1;                                 // output channels (a GEMM's N)
  std::int64_t input_h = 1, input_w = 1, output_h = 1, output_w = 1;  // a GEMM's rows run down the height
  Window window;                      // kernel, stride, dilation and (symmetric) padding
  Sparsity sparsity;                  // from the instance's densities of the inputs and outputs
  std::uint64_t operation_count = 0;  // Timeloop's operation space: the product of every bound (MACs)
};

struct TimeloopImport {
  std::vector<TimeloopLayer> layers;  // one per file, in command-line order
  std::vector<std::string> warnings;  // "file:line:col: key: ..." for what Timeloop and Ergon read differently
};

// Reads every problem file; a layer is named by its file's stem, a repeated stem renamed NAME_2, ... with a
// warning. Every error is an InputError naming the file, line and key.
TimeloopImport read_timeloop_problems(const std::vector<std::string>& paths);

// The layers as a workload file (independent layers, one input node each).
std::string timeloop_workload_yaml(const std::vector<TimeloopLayer>& layers, const std::string& name);

}  // namespace ergon
