// Attention as exporters and onnxruntime's optimizer write it: the com.microsoft fused operators
// (Attention, MultiHeadAttention, GroupQueryAttention, EmbedLayerNormalization, MatMulNBits) and ONNX's own
// Attention (opset 23), each lowered to matmul and element-wise layers whose MACs are counted by hand here.
#include <gtest/gtest.h>

#include <map>

#include "network/importers/onnx_model.hpp"
#include "tests/network/onnx_graph_builder.hpp"

namespace ergon {
namespace {

onnx::NodeProto* microsoft(onnx::NodeProto* node) {
  node->set_domain("com.microsoft");
  return node;
}

OnnxGraph with_microsoft_domain(int opset = 17) {
  OnnxGraph g;
  g.model().mutable_opset_import(0)->set_version(opset);
  g.model().add_opset_import()->set_domain("com.microsoft");
  g.model().mutable_opset_import(1)->set_version(1);
  return g;
}

// BERT as onnxruntime's optimizer fuses it: EmbedLayerNormalization, then Attention (its own QKV projection,
// 4 heads of 8) with a past of 6 positions, then the output projection.
TEST(OnnxAttention, FusedAttentionProjectsAndAttendsOverPastAndNewPositions) {
  OnnxGraph g = with_microsoft_domain();
  g.typed_input("input_ids", {1, 10}, onnx::TensorProto::INT32);
  g.typed_input("mask", {1, 10}, onnx::TensorProto::INT32);
  g.input("past", {2, 1, 4, 6, 8});
  for (const char* name : {"gamma", "beta"}) g.weights(name, {32});
  g.weights("word_embedding", {100, 32});
  g.weights("position_embedding", {64, 32});
  microsoft(g.node("EmbedLayerNormalization",
                   {"input_ids", "", "word_embedding", "position_embedding", "", "gamma", "beta", "mask"},
                   {"embedded", "mask_index"}, "embed"));
  g.weights("qkv_weights", {32, 96});
  g.weights("qkv_bias", {96});
  auto* attention = microsoft(g.node("Attention", {"embedded", "qkv_weights", "qkv_bias", "mask_index", "past"},
                                     {"context", "present"}, "attn"));
  OnnxGraph::integer(attention, "num_heads", 4);
  g.weights("out_w", {32, 32});
  g.node("MatMul", {"context", "out_w"}, {"out"}, "out_proj");
  g.output("present", {2, 1, 4, 16, 8});
  const Workload workload = load_onnx_workload(g.save("ergon_fused_attention.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("embed")->macs, 0u);
  EXPECT_EQ(layers.at("embed")->vector_ops, 5u * 10 * 32);  // LayerNormalization after the sum
  EXPECT_EQ(layers.at("attn/qkv")->macs, 10u * 32 * 96);
  EXPECT_EQ(layers.at("attn/scores")->macs, 4u * 10 * 16 * 8);  // heads x queries x (6 past + 10 new) x size
  EXPECT_EQ(layers.at("attn")->macs, 4u * 10 * 16 * 8);
  EXPECT_EQ(layers.at("attn/softmax")->vector_ops, 5u * 4 * 10 * 16);  // scale, mask, softmax's 3
  EXPECT_EQ(workload.total_macs(), 10u * 32 * 96 + 2u * 4 * 10 * 16 * 8 + 10u * 32 * 32);
}

// A decoder step with separate projections (MultiHeadAttention) and grouped-query attention with rotary
// embedding inside (GroupQueryAttention, 8 query heads sharing 2 key heads) over a 7-position cache.
TEST(OnnxAttention, MultiHeadAndGroupedQueryAttentionCountEachQueryHeadOnce) {
  OnnxGraph g = with_microsoft_domain();
  g.input("q", {1, 1, 64});
  g.input("k", {1, 1, 16});
  g.input("v", {1, 1, 16});
  g.input("past_key", {1, 2, 7, 8});
  g.input("past_value", {1, 2, 7, 8});
  auto* gqa = microsoft(g.node("GroupQueryAttention", {"q", "k", "v", "past_key", "past_value"},
                               {"gqa_out", "present_key", "present_value"}, "gqa"));
  OnnxGraph::integer(gqa, "num_heads", 8);
  OnnxGraph::integer(gqa, "kv_num_heads", 2);
  OnnxGraph::integer(gqa, "do_rotary", 1);
  g.input("mq", {1, 3, 64});
  g.input("mk", {1, 5, 64});
  g.input("mv", {1, 5, 64});
  auto* mha = microsoft(g.node("MultiHeadAttention", {"mq", "mk", "mv"}, {"mha_out"}, "mha"));
  OnnxGraph::integer(mha, "num_heads", 4);
  const Workload workload = load_onnx_workload(g.save("ergon_gqa_mha.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("gqa/scores")->macs, 8u * 1 * 8 * 8);                   // 8 heads x 1 query x (7 + 1) keys x 8
  EXPECT_EQ(layers.at("gqa/scores")->input_shapes[1].elements(), 2 * 8 * 8);  // 2 key heads' keys, read once
  EXPECT_EQ(layers.at("gqa")->macs, 8u * 1 * 8 * 8);
  EXPECT_EQ(layers.at("gqa/query_rotary")->vector_ops, 3u * 64);
  EXPECT_EQ(layers.at("mha/scores")->macs, 4u * 3 * 5 * 16);
  EXPECT_EQ(layers.at("mha")->macs, 4u * 3 * 5 * 16);
  EXPECT_EQ(workload.total_macs(), 2u * 8 * 8 * 8 + 2u * 4 * 3 * 5 * 16);
}

// ONNX's Attention (opset 23), 3-D inputs with q_num_heads and kv_num_heads, over an empty cache (a
// decoder's first step: the past has 0 positions).
TEST(OnnxAttention, StandardAttentionOverAnEmptyCache) {
  OnnxGraph g;
  g.model().mutable_opset_import(0)->set_version(23);
  g.input("q", {1, 4, 32});
  g.input("k", {1, 4, 16});
  g.input("v", {1, 4, 16});
  g.input("past_key", {1, 2, 0, 8});
  g.input("past_value", {1, 2, 0, 8});
  auto* attention = g.node("Attention", {"q", "k", "v", "", "past_key", "past_value"}, {"y", "present_key"}, "attn");
  OnnxGraph::integer(attention, "q_num_heads", 4);
  OnnxGraph::integer(attention, "kv_num_heads", 2);
  const Workload workload = load_onnx_workload(g.save("ergon_standard_attention.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.count("past_key"), 0u);  // empty: no layer
  EXPECT_EQ(layers.at("attn/scores")->macs, 4u * 4 * 4 * 8);
  EXPECT_EQ(workload.total_macs(), 2u * 4 * 4 * 4 * 8);
}

// MatMulNBits: 4-bit weights in blocks of 32 with their scales; the product at the weights' width.
TEST(OnnxAttention, MatMulNBitsIsAProductOfFourBitWeights) {
  OnnxGraph g = with_microsoft_domain();
  g.input("x", {1, 5, 64});
  OnnxGraph::typed_weights(g.graph(), "packed", {48, 2, 16}, onnx::TensorProto::UINT8);
  g.weights("scales", {96});
  auto* q = microsoft(g.node("MatMulNBits", {"x", "packed", "scales"}, {"y"}, "proj"));
  OnnxGraph::integer(q, "K", 64);
  OnnxGraph::integer(q, "N", 48);
  OnnxGraph::integer(q, "bits", 4);
  OnnxGraph::integer(q, "block_size", 32);
  const Workload workload = load_onnx_workload(g.save("ergon_matmul_nbits.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("proj")->macs, 5u * 64 * 48);
  EXPECT_EQ(layers.at("proj")->output_shape.elements(), 5 * 48);
  EXPECT_EQ(layers.at("proj")->widths.weight_bits, 4);
}

// Attention written as Einsum: a projection against constant weights, the scores and the context; each
// is the product of every distinct index's size.
TEST(OnnxAttention, EinsumContractionsAreProducts) {
  OnnxGraph g;
  g.input("x", {1, 6, 32});
  g.weights("w_q", {32, 32});
  auto* project = g.node("Einsum", {"x", "w_q"}, {"q_flat"}, "project");
  OnnxGraph::text(project, "equation", "bij,jk->bik");
  g.int64s("heads_shape", {1, 6, 4, 8});
  g.node("Reshape", {"q_flat", "heads_shape"}, {"q_split"});
  auto* transpose = g.node("Transpose", {"q_split"}, {"q"});
  OnnxGraph::ints(transpose, "perm", {0, 2, 1, 3});
  g.input("k", {1, 4, 10, 8});
  g.input("v", {1, 4, 10, 8});
  auto* scores = g.node("Einsum", {"q", "k"}, {"scores"}, "scores");
  OnnxGraph::text(scores, "equation", "bhid, bhjd -> bhij");
  g.node("Softmax", {"scores"}, {"weights"});
  auto* context = g.node("Einsum", {"weights", "v"}, {"context"}, "context");
  OnnxGraph::text(context, "equation", "bhij,bhjd->bhid");
  const Workload workload = load_onnx_workload(g.save("ergon_einsum_attention.onnx"));
  const auto layers = layers_by_name(workload);
  EXPECT_EQ(layers.at("project")->macs, 6u * 32 * 32);
  EXPECT_EQ(layers.at("project")->op, OpKind::kConv);
  EXPECT_EQ(layers.at("scores")->macs, 4u * 6 * 10 * 8);
  EXPECT_EQ(layers.at("context")->macs, 4u * 6 * 10 * 8);
  EXPECT_EQ(workload.total_macs(), 6u * 32 * 32 + 2u * 4 * 6 * 10 * 8);
}

}  // namespace
}  // namespace ergon
