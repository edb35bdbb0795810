#pragma once
// The multiply-accumulates of an ONNX node counted from its shapes alone, for a node the import leaves out
// (--skip-unsupported) so the figures can say what they lack: convolutions (Conv, ConvInteger, QLinearConv,
// ConvTranspose), matrix products (MatMul, MatMulInteger, QLinearMatMul, Gemm, QGemm) and recurrent layers
// (LSTM, GRU, RNN).
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ergon {

// MACs per image (the whole node's over `batch`); nullopt for an operator outside the list above or when a
// shape the count needs is not static.
std::optional<std::uint64_t> onnx_node_macs(const onnx::NodeProto& node,
                                            const std::map<std::string, std::vector<std::int64_t>>& shapes,
                                            std::int64_t batch);

// A note for a node with MACs whose inputs are all constants (DETR's query projection of its learned
// queries): the import folds it, so its MACs are in no layer; nullopt for a node without MACs.
std::optional<std::string> folded_compute_note(const onnx::NodeProto& node,
                                               const std::map<std::string, std::vector<std::int64_t>>& shapes);

}  // namespace ergon
