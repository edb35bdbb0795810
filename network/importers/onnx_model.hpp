#pragma once
// Imports an ONNX model (Debian's libonnx, with its shape inference) as an Ergon workload graph
// (docs/workloads.md, "Importing real models"): dynamic input dimensions pinned, constant subgraphs folded,
// then every node lowered to Ergon's layers (convolutions of rank 1 and 2 and transposed ones, GEMMs of any
// rank, unrolled LSTM/GRU/RNN, pools, element-wise and reduction layers with their operation counts, and
// layout operators as free data movement). An operator that cannot be lowered is an error listing every
// such node, unless skip_unsupported treats them as free data movement and says so (with the MACs they
// drop), and an If whose condition is computed at run time takes its costlier branch.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "network/workload.hpp"

namespace ergon {

// The most trips a Loop is unrolled to (its body copied once per trip).
inline constexpr std::int64_t kMaxLoopTrips = 4096;

struct OnnxImportOptions {
  std::map<std::string, std::vector<std::int64_t>> input_shapes;  // --input-shape NAME=1x3x224x224
  std::map<std::string, std::vector<double>> input_values;        // --input-value NAME=16000: a constant input
  bool skip_unsupported = false;                                  // --skip-unsupported
  std::int64_t loop_trips = 0;  // --loop-trips N: trips of a Loop whose count is computed at run time (0: none)
};

// "NAME=1x3x224x224" -> options.input_shapes; throws std::invalid_argument naming the option's text.
void add_input_shape(OnnxImportOptions& options, const std::string& text);
// "NAME=16000" or "NAME=1,2,3" -> options.input_values; throws std::invalid_argument likewise.
void add_input_value(OnnxImportOptions& options, const std::string& text);

struct OnnxImport {
  YAML::Node document;                // the workload
  std::vector<std::string> notes;     // decisions taken on the user's behalf, and operators treated as free
  std::vector<std::string> warnings;  // what may make the figures wrong or incomplete
  // Each ONNX tensor a layer stands for -> (layer, elements per image ONNX infers for it).
  std::map<std::string, std::pair<std::string, std::int64_t>> tensor_layers;
};

// The workload as a YAML document. Throws InputError naming the file and the input, node or tensor.
OnnxImport import_onnx(const std::string& path, const OnnxImportOptions& options = {});

// The imported workload parsed, every layer's output checked against ONNX's shape inference.
Workload onnx_workload(const OnnxImport& imported, const std::string& path);

// import_onnx then onnx_workload; the notes and warnings go to stderr.
Workload load_onnx_workload(const std::string& path, const OnnxImportOptions& options = {});

// The notes ("note: ") and warnings ("warning: ") on stderr, each naming the model.
void print_import_messages(const OnnxImport& imported, const std::string& path);

// The imported workload as YAML text, with a header naming its source and the notes as comments.
std::string onnx_workload_yaml(const OnnxImport& imported, const std::string& path);

// The options every command that reads a model applies to `.onnx` workloads (set from the command line).
OnnxImportOptions& model_import_options();

}  // namespace ergon
