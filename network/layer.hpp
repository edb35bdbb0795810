#pragma once
// One node of a workload graph: an operator, its parameters, and (after shape inference) its tensor
// shapes, MAC and parameter counts. Pure description: nothing here knows about hardware.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/input_error.hpp"
#include "network/tensor_shape.hpp"

namespace ergon {

enum class OpKind {
  kInput,
  kConv,
  kFullyConnected,
  kMaxPool,
  kAvgPool,
  kGlobalAvgPool,
  kGlobalMaxPool,
  kAdd,
  kMul,
  kConcat,
  kActivation,
  kSlice,
  kUpsample,
  kLayout,       // free data movement: reshape, transpose, pad, gather, ... (imported models)
  kElementwise,  // vector-unit work with an operation count: arithmetic, reductions, normalisations
  kMatMul,       // a GEMM whose second operand is an activation (attention), run like a 1x1 conv
};

const char* op_name(OpKind op);

struct Layer;
// Throws an InputError located at the layer's node, e.g. "file:12:5: layers[3] (conv2).kernel: ...".
[[noreturn]] void fail_at_layer(const Layer& layer, const std::string& key, const std::string& message);

struct Padding {
  std::int64_t top = 0;
  std::int64_t bottom = 0;
  std::int64_t left = 0;
  std::int64_t right = 0;
  bool same = false;  // TensorFlow "same": resolved into the four sides during shape inference
};

struct Window {  // a sliding window: kernel, stride, padding, dilation
  std::int64_t kernel_h = 1;
  std::int64_t kernel_w = 1;
  std::int64_t stride_h = 1;
  std::int64_t stride_w = 1;
  std::int64_t dilation_h = 1;
  std::int64_t dilation_w = 1;
  Padding padding;
};

struct InputParams {
  TensorShape shape;
  // True when the node stands for an intermediate feature map (layer tables): like every activation
  // it is stored compressed, unlike the network's own input, which arrives raw.
  bool intermediate = false;
};
struct ConvParams {
  std::int64_t filters = 0;  // 0 until resolved for a depthwise conv without `filters`
  std::int64_t groups = 1;
  bool depthwise = false;
  bool bias = true;
  bool batchnorm = false;
  Window window;
};
struct FullyConnectedParams {
  std::int64_t outputs = 0;
  bool bias = true;
  bool batchnorm = false;
};
struct PoolParams {
  Window window;
  bool ceil_mode = false;
};
struct ActivationParams {
  std::string function;
};
struct SliceParams {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
struct UpsampleParams {
  std::int64_t scale = 1;
};
struct LayoutParams {
  TensorShape shape;      // the output
  std::string transform;  // what the data movement is, for reports (reshape, transpose, pad, ...)
};
struct ElementwiseParams {
  std::string function;
  double operations_per_element = 1.0;  // per output element
  std::optional<TensorShape> shape;     // the output; default: the largest input's shape
};
struct MatMulParams {
  std::int64_t outputs = 0;  // N: columns of the product per group
  std::int64_t groups = 1;   // independent products (attention heads)
};
struct NoParams {};

using OpParams = std::variant<NoParams, InputParams, ConvParams, FullyConnectedParams, PoolParams, ActivationParams,
                              SliceParams, UpsampleParams, LayoutParams, ElementwiseParams, MatMulParams>;

// The operand widths a quantised model gives a conv, fc or matmul layer (0: the accelerator's own). Systolic
// engines store and move narrower weights packed (docs/workloads.md, "Operand widths"); the activation and
// accumulator widths are recorded for reports.
struct OperandWidths {
  int activation_bits = 0;
  int weight_bits = 0;
  int accumulator_bits = 0;
  bool any() const { return activation_bits > 0 || weight_bits > 0 || accumulator_bits > 0; }
};

struct Sparsity {
  double ifmap = 0.0;  // zero fraction of the layer's (unpadded) input tensor
  double ofmap = 0.0;  // zero fraction of its output tensor
};

// The most images a layer may process together: the bound of a workload's `batch` and of every `--batch`
// (and the Python package's `batch`).
inline constexpr std::int64_t kMaxBatch = std::int64_t{1} << 20;
// The name of the whole network's row in reports (layers.csv, results.csv, tables); no layer may take it.
inline constexpr const char* kTotalRowName = "total";

struct Layer {
  std::string name;
  OpKind op = OpKind::kInput;
  OpParams params;
  std::vector<std::string> input_names;
  std::int64_t batch = 1;
  Sparsity sparsity;
  OperandWidths widths;
  std::string fused_activation;
  SourceLocation location;  // where the node is written, for errors found after parsing
  std::string key_path;     // e.g. "layers[3] (conv2)", for the same errors

  // Filled by shape inference.
  std::vector<TensorShape> input_shapes;
  TensorShape output_shape;
  std::uint64_t macs = 0;          // multiply-accumulates per image
  std::uint64_t vector_ops = 0;    // per image: pooling comparisons/additions and element-wise operations
  std::uint64_t params_count = 0;  // learned parameters

  const ConvParams& conv() const { return std::get<ConvParams>(params); }
  const FullyConnectedParams& fully_connected() const { return std::get<FullyConnectedParams>(params); }
  const PoolParams& pool() const { return std::get<PoolParams>(params); }
  // A matmul of two activations reads its second input as its weights (it streams in where filters do).
  bool second_input_is_weights() const { return op == OpKind::kMatMul && input_names.size() == 2; }
};

}  // namespace ergon
