#include "network/importers/onnx/onnx_shape_rules.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "network/importers/onnx/onnx_attributes.hpp"

namespace ergon {
namespace {

bool is_microsoft(const onnx::NodeProto& node) {
  return node.domain() == "com.microsoft";
}
bool is_standard(const onnx::NodeProto& node) {
  return node.domain().empty() || node.domain() == "ai.onnx";
}

// Operators whose output 0 has their first input's shape (the Skip* normalisations' output 3, the input plus
// the skip, too): old exports' Dropout and Identity, operators newer than this ONNX library, and
// onnxruntime's fused element-wise operators.
const std::set<std::string>& same_shape_operators() {
  static const std::set<std::string> ops = {"Dropout",
                                            "Identity",
                                            "Relu",
                                            "LeakyRelu",
                                            "Sigmoid",
                                            "Tanh",
                                            "Clip",
                                            "Softmax",
                                            "LRN",
                                            "BatchNormalization",
                                            "Gelu",
                                            "Mish",
                                            "GroupNormalization",
                                            "LayerNormalization",
                                            "RMSNormalization",
                                            "RotaryEmbedding",
                                            "FastGelu",
                                            "BiasGelu",
                                            "QuickGelu",
                                            "BiasAdd",
                                            "SkipLayerNormalization",
                                            "SkipSimplifiedLayerNormalization",
                                            "SimplifiedLayerNormalization"};
  return ops;
}

class Reader {
 public:
  Reader(const onnx::NodeProto& node, const OnnxShapeLookup& lookup) : node_(node), lookup_(lookup) {}

  bool present(int index) const { return index < node_.input_size() && !node_.input(index).empty(); }
  // The input's dims; nullptr when absent or unsized.
  const OnnxDims* dims(int index) const { return present(index) ? lookup_.shape(node_.input(index)) : nullptr; }
  // A constant scalar input's value.
  std::optional<std::int64_t> scalar(int index) const {
    if (!present(index)) return std::nullopt;
    const OnnxConstant* c = lookup_.constant(node_.input(index));
    if (c == nullptr || !c->has_values || c->elements() < 1) return std::nullopt;
    return c->integer(0);
  }
  std::int64_t attribute(const std::string& name, std::int64_t fallback) const {
    return int_attribute(node_, name, fallback);
  }

 private:
  const onnx::NodeProto& node_;
  const OnnxShapeLookup& lookup_;
};

[[noreturn]] void contradiction(const std::string& message) {
  throw std::invalid_argument(message);
}

std::int64_t divided(std::int64_t total, std::int64_t parts, const std::string& what) {
  if (parts <= 0 || total % parts != 0)
    contradiction(fmt::format("{} ({}) is not divisible by {}", what, total, parts));
  return total / parts;
}

void require_rank(const OnnxDims& dims, std::initializer_list<std::size_t> ranks, const std::string& what) {
  if (std::find(ranks.begin(), ranks.end(), dims.size()) == ranks.end()) {
    contradiction(fmt::format("{} [{}] has rank {}, the operator takes rank {}", what, fmt::join(dims, ", "),
                              dims.size(), fmt::join(ranks, " or ")));
  }
}

// Separate caches: past_key at input `key` ([B, kv_heads, P, size]), past_value (if any) right after it.
void read_caches(const Reader& in, int key, AttentionGeometry& g) {
  const OnnxDims* past = in.dims(key);
  if (past == nullptr) return;
  require_rank(*past, {4}, "past_key");
  g.past = (*past)[2];
  g.past_key_input = key;
  g.past_value_input = in.present(key + 1) ? key + 1 : -1;
}

// onnxruntime's Attention: input [B, S, hidden] times weights [hidden, q + k + v] (qkv_hidden_sizes, or
// three equal parts); an optional past [2, B, heads, P, head_size] and output 1 the present cache.
std::optional<AttentionGeometry> microsoft_attention(const onnx::NodeProto& node, const Reader& in) {
  const OnnxDims* input = in.dims(0);
  const OnnxDims* weights = in.dims(1);
  if (input == nullptr || weights == nullptr) return std::nullopt;
  require_rank(*input, {3}, "input");
  require_rank(*weights, {2}, "weights");
  AttentionGeometry g;
  g.source = AttentionSource::kProjected;
  g.batch = (*input)[0];
  g.queries = (*input)[1];
  g.hidden = (*input)[2];
  if ((*weights)[0] != g.hidden) {
    contradiction(fmt::format("weights [{}] do not take the input's {} features", fmt::join(*weights, ", "), g.hidden));
  }
  g.heads = g.kv_heads = in.attribute("num_heads", 0);
  std::int64_t q = (*weights)[1] / 3, k = q, v = q;
  if (const auto* sizes = find_attribute(node, "qkv_hidden_sizes"); sizes != nullptr && sizes->ints_size() == 3) {
    q = sizes->ints(0);
    k = sizes->ints(1);
    v = sizes->ints(2);
  }
  if (q + k + v != (*weights)[1] || q != k) {
    contradiction(fmt::format("weights [{}] do not hold queries, keys and values of widths {}, {} and {}",
                              fmt::join(*weights, ", "), q, k, v));
  }
  g.head_size = divided(q, g.heads, "the query width");
  g.value_head_size = divided(v, g.heads, "the value width");
  g.added = g.queries;
  if (const OnnxDims* past = in.dims(4)) {
    require_rank(*past, {5}, "past");
    g.past = (*past)[3];
    g.past_is_stacked = true;
    g.past_key_input = 4;
  }
  g.total = g.past + g.added;
  g.present = g.total;
  if (in.attribute("past_present_share_buffer", 0) != 0) {
    g.present = g.past;
    g.total = in.scalar(6).value_or(g.past) + g.added;
  }
  g.masked = in.present(3) || in.present(5);
  g.outputs[0] = {g.batch, g.queries, g.heads * g.value_head_size};
  g.outputs[1] = {2, g.batch, g.heads, g.present, g.head_size};
  return g;
}

// onnxruntime's MultiHeadAttention: query, key and value projected already; packed forms take them from the
// query ([B, S, heads, 3, size]) or the key ([B, L, heads, 2, size]); keys may come as [B, heads, L, size]
// (cross-attention's cache); past_key and past_value (inputs 6, 7) are [B, heads, P, size].
std::optional<AttentionGeometry> multi_head_attention(const Reader& in) {
  const OnnxDims* query = in.dims(0);
  if (query == nullptr) return std::nullopt;
  AttentionGeometry g;
  g.heads = g.kv_heads = in.attribute("num_heads", 0);
  if (g.heads <= 0) contradiction("num_heads must be positive");
  require_rank(*query, {3, 5}, "query");
  g.batch = (*query)[0];
  g.queries = (*query)[1];
  if (query->size() == 5) {  // packed [B, S, heads, 3, size]
    g.source = AttentionSource::kPackedQkv;
    g.head_size = g.value_head_size = (*query)[4];
    g.added = g.queries;
  } else {
    g.head_size = divided((*query)[2], g.heads, "the query width");
    const OnnxDims* key = in.dims(1);
    if (key == nullptr) return std::nullopt;
    require_rank(*key, {3, 4, 5}, "key");
    if (key->size() == 5) {  // packed [B, L, heads, 2, size]
      g.source = AttentionSource::kPackedKv;
      g.added = (*key)[1];
      g.value_head_size = (*key)[4];
    } else {
      g.added = key->size() == 4 ? (*key)[2] : (*key)[1];
      const OnnxDims* value = in.dims(2);
      if (value == nullptr) return std::nullopt;
      require_rank(*value, {3, 4}, "value");
      g.value_head_size = value->size() == 4 ? value->back() : divided(value->back(), g.heads, "the value width");
    }
  }
  read_caches(in, 6, g);
  g.total = g.present = g.past + g.added;
  g.masked = in.present(4) || in.present(5);
  g.outputs[0] = {g.batch, g.queries, g.heads * g.value_head_size};
  g.outputs[1] = {g.batch, g.heads, g.present, g.head_size};
  g.outputs[2] = {g.batch, g.heads, g.present, g.value_head_size};
  return g;
}

// onnxruntime's GroupQueryAttention: query [B, S, heads x size] (packed with the keys and values when key
// is absent), key and value [B, S, kv_heads x size], caches [B, kv_heads, P, size]; each query attends to
// total_sequence_length positions (input 6) when it is a constant, else to P + S. With a shared buffer the
// past holds the whole window and the present is as long.
std::optional<AttentionGeometry> group_query_attention(const Reader& in) {
  const OnnxDims* query = in.dims(0);
  if (query == nullptr) return std::nullopt;
  require_rank(*query, {3}, "query");
  AttentionGeometry g;
  g.heads = in.attribute("num_heads", 0);
  g.kv_heads = in.attribute("kv_num_heads", 0);
  if (g.heads <= 0 || g.kv_heads <= 0 || g.heads % g.kv_heads != 0) {
    contradiction(fmt::format("num_heads ({}) must be a positive multiple of kv_num_heads ({})", g.heads, g.kv_heads));
  }
  g.batch = (*query)[0];
  g.queries = g.added = (*query)[1];
  const bool packed = !in.present(1);
  g.source = packed ? AttentionSource::kPackedQkv : AttentionSource::kSeparate;
  g.head_size = g.value_head_size =
      divided((*query)[2], packed ? g.heads + 2 * g.kv_heads : g.heads, "the query width over the heads");
  read_caches(in, 3, g);
  g.total = in.scalar(6).value_or(g.past + g.added);
  if (g.total < g.added) {
    contradiction(fmt::format("total_sequence_length ({}) is shorter than the new tokens ({})", g.total, g.added));
  }
  g.present = std::max(g.past, g.total);
  g.rotary = in.attribute("do_rotary", 0) != 0;
  g.outputs[0] = {g.batch, g.queries, g.heads * g.head_size};
  g.outputs[1] = g.outputs[2] = {g.batch, g.kv_heads, g.present, g.head_size};
  return g;
}

// ONNX's Attention (opset 23): Q [B, heads, S, size] or [B, S, heads x size] (q_num_heads), K and V
// [B, kv_heads, L, size] or 3-D (kv_num_heads); caches (inputs 4, 5) [B, kv_heads, P, size]; outputs Y in
// Q's rank, the present caches, and the scores [B, heads, S, P + L].
std::optional<AttentionGeometry> standard_attention(const Reader& in) {
  const OnnxDims* q = in.dims(0);
  const OnnxDims* k = in.dims(1);
  const OnnxDims* v = in.dims(2);
  if (q == nullptr || k == nullptr || v == nullptr) return std::nullopt;
  require_rank(*q, {3, 4}, "Q");
  require_rank(*k, {3, 4}, "K");
  require_rank(*v, {3, 4}, "V");
  AttentionGeometry g;
  g.batch = (*q)[0];
  const bool split = q->size() == 4;
  g.heads = split ? (*q)[1] : in.attribute("q_num_heads", 0);
  g.queries = split ? (*q)[2] : (*q)[1];
  g.head_size = split ? (*q)[3] : divided((*q)[2], g.heads, "Q's width over q_num_heads");
  g.kv_heads = k->size() == 4 ? (*k)[1] : in.attribute("kv_num_heads", 0);
  if (g.kv_heads <= 0 || g.heads % g.kv_heads != 0) {
    contradiction(fmt::format("the query heads ({}) must be a multiple of the key heads ({})", g.heads, g.kv_heads));
  }
  g.added = k->size() == 4 ? (*k)[2] : (*k)[1];
  g.value_head_size = v->size() == 4 ? (*v)[3] : divided(v->back(), g.kv_heads, "V's width over kv_num_heads");
  read_caches(in, 4, g);
  g.total = g.present = g.past + g.added;
  g.masked = in.present(3);
  g.outputs[0] = split ? OnnxDims{g.batch, g.heads, g.queries, g.value_head_size}
                       : OnnxDims{g.batch, g.queries, g.heads * g.value_head_size};
  g.outputs[1] = {g.batch, g.kv_heads, g.present, g.head_size};
  g.outputs[2] = {g.batch, g.kv_heads, g.present, g.value_head_size};
  g.outputs[3] = {g.batch, g.heads, g.queries, g.total};
  return g;
}

std::map<int, OnnxDims> embed_layer_normalization(const Reader& in) {
  const OnnxDims* ids = in.dims(0);
  const OnnxDims* words = in.dims(2);
  if (ids == nullptr || words == nullptr || ids->size() != 2 || words->size() != 2) return {};
  const OnnxDims out{(*ids)[0], (*ids)[1], (*words)[1]};
  return {{0, out}, {1, {(*ids)[0]}}, {2, out}};
}

// MatMulNBits: A [..., K] times N x K weights packed in blocks: Y [..., N].
std::map<int, OnnxDims> matmul_n_bits(const Reader& in) {
  const OnnxDims* a = in.dims(0);
  const std::int64_t n = in.attribute("N", 0);
  if (a == nullptr || a->empty() || n <= 0) return {};
  OnnxDims out = *a;
  out.back() = n;
  return {{0, out}};
}

// NonMaxSuppression keeps at most max_output_boxes_per_class boxes per batch item and class: its
// [selected, 3] output is sized by that bound (all boxes when the bound is not a constant).
std::map<int, OnnxDims> non_max_suppression(const Reader& in) {
  const OnnxDims* boxes = in.dims(0);
  const OnnxDims* scores = in.dims(1);
  if (boxes == nullptr || scores == nullptr || boxes->size() != 3 || scores->size() != 3) return {};
  const std::int64_t per_class = std::min((*boxes)[1], in.scalar(2).value_or((*boxes)[1]));
  return {{0, {(*scores)[0] * (*scores)[1] * std::max<std::int64_t>(per_class, 0), 3}}};
}

// Einsum: ONNX 1.12 infers only the output's rank; each output index takes its size in the operands.
std::map<int, OnnxDims> einsum(const onnx::NodeProto& node, const Reader& in) {
  const auto* equation = find_attribute(node, "equation");
  const auto terms = equation == nullptr ? std::nullopt : parse_einsum(equation->s());
  if (!terms || static_cast<int>(terms->operands.size()) != node.input_size()) return {};
  std::map<char, std::int64_t> sizes;
  for (int i = 0; i < node.input_size(); ++i) {
    const OnnxDims* dims = in.dims(i);
    const std::string& term = terms->operands[static_cast<std::size_t>(i)];
    if (dims == nullptr || dims->size() != term.size()) return {};
    for (std::size_t axis = 0; axis < term.size(); ++axis) {
      sizes[term[axis]] = std::max(sizes[term[axis]], (*dims)[axis]);  // a size-1 axis broadcasts
    }
  }
  OnnxDims out;
  for (const char index : terms->output) {
    if (sizes.count(index) == 0) return {};
    out.push_back(sizes[index]);
  }
  return {{0, out}};
}

}  // namespace

std::optional<EinsumEquation> parse_einsum(const std::string& text) {
  std::string equation;
  for (const char c : text) {
    if (c != ' ') equation += c;
  }
  if (equation.find("...") != std::string::npos) return std::nullopt;
  EinsumEquation terms;
  const std::size_t arrow = equation.find("->");
  std::stringstream operands(equation.substr(0, arrow));
  for (std::string term; std::getline(operands, term, ',');) terms.operands.push_back(term);
  if (arrow != std::string::npos) {
    terms.output = equation.substr(arrow + 2);
    return terms;
  }
  std::map<char, int> uses;
  for (const auto& term : terms.operands) {
    for (const char c : term) ++uses[c];
  }
  for (const auto& [index, count] : uses) {
    if (count == 1) terms.output += index;
  }
  return terms;
}

bool is_attention_operator(const onnx::NodeProto& node) {
  const std::string& op = node.op_type();
  if (is_microsoft(node)) return op == "Attention" || op == "MultiHeadAttention" || op == "GroupQueryAttention";
  return is_standard(node) && op == "Attention";
}

std::optional<AttentionGeometry> attention_geometry(const onnx::NodeProto& node, const OnnxShapeLookup& lookup) {
  if (!is_attention_operator(node)) return std::nullopt;
  const Reader in(node, lookup);
  const std::string& op = node.op_type();
  std::optional<AttentionGeometry> g;
  if (!is_microsoft(node)) {
    g = standard_attention(in);
  } else if (op == "Attention") {
    g = microsoft_attention(node, in);
  } else if (op == "MultiHeadAttention") {
    g = multi_head_attention(in);
  } else {
    g = group_query_attention(in);
  }
  if (g && (g->heads <= 0 || g->kv_heads <= 0 || g->head_size <= 0 || g->value_head_size <= 0)) {
    contradiction("the heads and their sizes must be positive");
  }
  return g;
}

std::map<int, OnnxDims> ergon_output_shapes(const onnx::NodeProto& node, const OnnxShapeLookup& lookup) {
  const Reader in(node, lookup);
  const std::string& op = node.op_type();
  if (is_attention_operator(node)) {
    try {
      const auto g = attention_geometry(node, lookup);
      return g ? g->outputs : std::map<int, OnnxDims>{};
    } catch (const std::invalid_argument&) {
      return {};  // the lowering reports the contradiction, naming the node
    }
  }
  if (is_microsoft(node) && op == "EmbedLayerNormalization") return embed_layer_normalization(in);
  if (is_microsoft(node) && op == "MatMulNBits") return matmul_n_bits(in);
  if (is_standard(node) && op == "NonMaxSuppression") return non_max_suppression(in);
  if (is_standard(node) && op == "Einsum") return einsum(node, in);
  if (same_shape_operators().count(op) == 0) return {};
  const OnnxDims* input = in.dims(0);
  if (input == nullptr) return {};
  std::map<int, OnnxDims> outputs{{0, *input}};
  if (op.rfind("Skip", 0) == 0) outputs[3] = *input;
  return outputs;
}

}  // namespace ergon
