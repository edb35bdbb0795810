#pragma once
// Ergon's own shape rules for operators the ONNX library's inference (1.12) cannot size: operators newer
// than it (Gelu at opset 20, Attention, RMSNormalization and RotaryEmbedding at 23, ...), onnxruntime's
// com.microsoft operators (Attention, MultiHeadAttention, GroupQueryAttention, EmbedLayerNormalization,
// MatMulNBits, the fused element-wise ones), and NonMaxSuppression, whose output length depends on the data
// (its bound is taken).
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "network/importers/onnx/onnx_constant.hpp"

namespace ergon {

using OnnxDims = std::vector<std::int64_t>;

// What a rule may read: a tensor's static shape and a constant's value (nullptr when unknown).
struct OnnxShapeLookup {
  std::function<const OnnxDims*(const std::string&)> shape;
  std::function<const OnnxConstant*(const std::string&)> constant;
};

// The outputs of `node` (by output index) that Ergon's rules size from what is known of its inputs; empty
// when no rule applies or an input a rule needs is unsized.
std::map<int, OnnxDims> ergon_output_shapes(const onnx::NodeProto& node, const OnnxShapeLookup& lookup);

// An Einsum equation's terms, spaces removed; an implicit output is every index used once, in alphabetical
// order (ONNX). nullopt for an ellipsis ("..."), which Ergon does not lower.
struct EinsumEquation {
  std::vector<std::string> operands;
  std::string output;
};
std::optional<EinsumEquation> parse_einsum(const std::string& equation);

// Where an attention operator's query, keys and values come from.
enum class AttentionSource {
  kSeparate,   // three inputs
  kProjected,  // com.microsoft Attention: one input times weights [hidden, q + k + v]
  kPackedQkv,  // the query input holds all three (key and value absent)
  kPackedKv,   // the key input holds keys and values (value absent)
};

// The geometry of one attention node, shared by the shape rules and the lowering: per batch item, `queries`
// query positions of `heads` heads attend to `total` key positions of `kv_heads` heads (grouped-query
// attention when fewer). Positions are `past` cached ones (read from the past input) plus `added` new ones.
struct AttentionGeometry {
  AttentionSource source = AttentionSource::kSeparate;
  std::int64_t batch = 1;
  std::int64_t queries = 0;
  std::int64_t heads = 0;
  std::int64_t kv_heads = 0;
  std::int64_t head_size = 0;        // of a query and a key
  std::int64_t value_head_size = 0;  // of a value
  std::int64_t hidden = 0;           // kProjected: the input's width
  std::int64_t past = 0;
  std::int64_t added = 0;
  std::int64_t total = 0;
  std::int64_t present = 0;      // positions of the present (cache) outputs
  bool past_is_stacked = false;  // com.microsoft Attention: one past input [2, batch, heads, past, size]
  int past_key_input = -1;       // input indices of the caches (-1: none)
  int past_value_input = -1;
  bool rotary = false;              // GroupQueryAttention's do_rotary: the node rotates the queries and keys itself
  bool masked = false;              // a mask or bias is added to the scores
  std::map<int, OnnxDims> outputs;  // by output index: the result, the present caches (and scores)
};

// The geometry, when the node is an attention operator and its inputs' shapes are known; throws
// std::invalid_argument with the reason when the shapes contradict the operator.
std::optional<AttentionGeometry> attention_geometry(const onnx::NodeProto& node, const OnnxShapeLookup& lookup);

// True for the attention operators attention_geometry() describes.
bool is_attention_operator(const onnx::NodeProto& node);

}  // namespace ergon
