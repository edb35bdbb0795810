#include "network/importers/onnx/onnx_graph.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "common/input_error.hpp"
#include "network/importers/onnx/onnx_attributes.hpp"
#include "network/importers/onnx/onnx_folding.hpp"
#include "network/importers/onnx/onnx_node_macs.hpp"
#include "network/importers/onnx/onnx_shape_rules.hpp"
#include "network/importers/onnx/onnx_structure.hpp"

namespace ergon {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& where, const std::string& message) {
  throw InputError({path, 0, 0, {}}, where, message);
}

std::string node_where(const onnx::NodeProto& node, int index) {
  return fmt::format("graph.node[{}] ({} '{}')", index, node.op_type(), node.name());
}

// ONNX's own shape inference divides by strides, dilations and group without checking them (a zero stride
// is a SIGFPE inside libonnx), so window attributes are checked before it runs.
void check_window_attributes(const std::string& path, const onnx::GraphProto& graph) {
  const std::map<std::string, std::int64_t> minimum = {
      {"strides", 1}, {"dilations", 1}, {"kernel_shape", 1}, {"group", 1}, {"pads", 0}};
  for (int index = 0; index < graph.node_size(); ++index) {
    const onnx::NodeProto& node = graph.node(index);
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      const auto rule = minimum.find(attribute.name());
      if (rule == minimum.end()) continue;
      std::vector<std::int64_t> values(attribute.ints().begin(), attribute.ints().end());
      if (attribute.has_i()) values.push_back(attribute.i());
      for (const std::int64_t value : values) {
        if (value < rule->second || value > (std::int64_t{1} << 31)) {
          fail(path, node_where(node, index) + "." + attribute.name(),
               fmt::format("must be between {} and 2^31 (got {})", rule->second, value));
        }
      }
    }
  }
}

// Runs ONNX's shape inference in a child process and copies its results (value_info, output types) back.
// libonnx's inference trusts the model: inconsistent ranks or attributes make it read out of bounds (found
// by fuzzing), so a crash there must end that child, not Ergon.
void infer_shapes_isolated(const std::string& path, onnx::ModelProto& model) {
  int channel[2];
  if (pipe(channel) != 0) throw std::runtime_error("cannot create a pipe for ONNX shape inference");
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("cannot fork for ONNX shape inference");
  if (child == 0) {
    close(channel[0]);
    // The child exists to contain a crash: default signal actions let it die quietly, without the crash
    // handlers a sanitizer or fuzzer installed in the parent reporting the library's fault as Ergon's.
    for (const int fatal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) std::signal(fatal, SIG_DFL);
    alarm(60);  // a hang in the library ends the child too
    std::string reply;
    try {
      onnx::shape_inference::InferShapes(model);
      onnx::GraphProto inferred;
      *inferred.mutable_value_info() = model.graph().value_info();
      *inferred.mutable_output() = model.graph().output();
      reply = "O" + inferred.SerializeAsString();
    } catch (const std::exception& error) {
      reply = std::string("E") + error.what();
    }
    for (std::size_t sent = 0; sent < reply.size();) {
      const ssize_t wrote = write(channel[1], reply.data() + sent, reply.size() - sent);
      if (wrote <= 0) _exit(1);
      sent += static_cast<std::size_t>(wrote);
    }
    _exit(0);
  }
  close(channel[1]);
  std::string reply;
  char buffer[65536];
  for (ssize_t got; (got = read(channel[0], buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    reply.append(buffer, static_cast<std::size_t>(got));
  }
  close(channel[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty()) {
    fail(path, "",
         fmt::format("ONNX's shape inference crashed on this model ({}); the model is inconsistent (check it with "
                     "onnx.checker.check_model(model, full_check=True))",
                     WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status)) : std::string("no result")));
  }
  if (reply[0] == 'E') fail(path, "", "ONNX shape inference failed: " + reply.substr(1));
  onnx::GraphProto inferred;
  if (!inferred.ParseFromString(reply.substr(1))) fail(path, "", "ONNX shape inference returned no result");
  *model.mutable_graph()->mutable_value_info() = inferred.value_info();
  *model.mutable_graph()->mutable_output() = inferred.output();
}

onnx::ModelProto read_model(const std::string& path) {
  std::error_code status;
  if (!std::filesystem::is_regular_file(path, status)) fail(path, "", "not a regular file (does it exist?)");
  if (std::filesystem::file_size(path, status) == 0) fail(path, "", "the file is empty; expected an ONNX model");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "", "cannot open the file (is it readable?)");
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) {
    fail(path, "", "not an ONNX model (the protobuf does not parse; is the file complete, and a .onnx export?)");
  }
  if (!model.has_graph() || model.graph().node_size() == 0) fail(path, "graph", "the model has no nodes");
  check_window_attributes(path, model.graph());
  check_graph_structure(path, model);
  return model;
}

std::int64_t default_opset(const onnx::ModelProto& model) {
  for (const auto& opset : model.opset_import()) {
    if (opset.domain().empty() || opset.domain() == "ai.onnx") return opset.version();
  }
  return 1;
}

// The dims a graph input is declared with: -1 for a symbolic or unknown dimension.
std::vector<std::int64_t> declared_dims(const onnx::ValueInfoProto& input, std::vector<std::string>& names) {
  std::vector<std::int64_t> dims;
  for (const auto& d : input.type().tensor_type().shape().dim()) {
    dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    names.push_back(d.has_dim_param() && !d.dim_param().empty() ? "'" + d.dim_param() + "'" : "unnamed");
  }
  return dims;
}

// The newest opset of the ONNX library's operator definitions (its shape inference reads a newer model's
// operators by these).
std::int64_t newest_known_opset() {
  const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  const auto found = ranges.find(onnx::ONNX_DOMAIN);
  return found == ranges.end() ? 0 : found->second.second;
}

class GraphPreparation {
 public:
  GraphPreparation(std::string path, const OnnxImportOptions& options, const BranchChoices& chosen_branches)
      : path_(std::move(path)), options_(options), chosen_branches_(chosen_branches) {}

  PreparedOnnxGraph run() {
    result_.model = read_model(path_);
    result_.opset = default_opset(result_.model);
    if (result_.opset > newest_known_opset()) {
      result_.warnings.push_back(fmt::format(
          "the model's opset {} is newer than the newest this build knows (opset {}): ONNX's shape inference and "
          "the lowering read its operators as opset {} defines them, so an operator changed since may be sized "
          "wrongly (convert the model to opset {} with onnx.version_converter to be sure)",
          result_.opset, newest_known_opset(), newest_known_opset(), newest_known_opset()));
    }
    for (const auto& init : result_.model.graph().initializer()) {
      result_.constants[init.name()] = constant_from_proto(init);
    }
    pin_inputs();
    for (int round = 0; round < 64; ++round) {
      refresh_initializers();
      infer_shapes_isolated(path_, result_.model);
      const bool propagated = collect_shapes();
      if (round == 0) record_quantised_tensors();
      if (!fold_pass() && !take_chosen_branches() && !propagated) break;
    }
    check_sizes();
    find_undecided_ifs();
    return std::move(result_);
  }

 private:
  void pin_inputs() {
    std::set<std::string> names;
    onnx::GraphProto& graph = *result_.model.mutable_graph();
    for (const auto& input : graph.input()) {
      if (result_.constants.count(input.name()) == 0) names.insert(input.name());
    }
    for (const auto& [name, dims] : options_.input_shapes) {
      if (names.count(name) == 0) {
        fail(path_, "--input-shape " + name,
             fmt::format("the model has no input '{}'; its inputs are: {}", name, fmt::join(names, ", ")));
      }
    }
    bind_pinned_symbols(graph);
    for (auto& input : *graph.mutable_input()) {
      if (result_.constants.count(input.name()) > 0) continue;
      const auto value = options_.input_values.find(input.name());
      if (value != options_.input_values.end()) {
        result_.constants[input.name()] = input_constant(input, value->second);
        continue;
      }
      pin_input(input);
    }
    for (const auto& [name, values] : options_.input_values) {
      if (names.count(name) == 0) {
        fail(path_, "--input-value " + name,
             fmt::format("the model has no input '{}'; its inputs are: {}", name, fmt::join(names, ", ")));
      }
    }
    for (const auto& [name, dims] : options_.input_shapes) {
      if (names.count(name) == 0) {
        fail(path_, "--input-shape " + name,
             fmt::format("the model has no input '{}'; its inputs are: {}", name, fmt::join(names, ", ")));
      }
    }
  }

  // An input given a value (a sample rate, a mode flag): a constant of the declared shape, or a vector.
  OnnxConstant input_constant(const onnx::ValueInfoProto& input, const std::vector<double>& values) {
    OnnxConstant c;
    c.data_type = input.type().tensor_type().elem_type();
    c.has_values = true;
    std::vector<std::string> names;
    const std::vector<std::int64_t> dims =
        input.type().tensor_type().has_shape() ? declared_dims(input, names) : std::vector<std::int64_t>{};
    const bool scalar = dims.empty() && values.size() == 1;
    c.dims = scalar ? dims : std::vector<std::int64_t>{static_cast<std::int64_t>(values.size())};
    if (!scalar && !dims.empty() && c.dims != dims) {
      fail(path_, "--input-value " + input.name(),
           fmt::format("gives {} values; the input is declared with {} dimensions", values.size(), dims.size()));
    }
    for (const double v : values) {
      if (c.is_integer()) {
        c.ints.push_back(static_cast<std::int64_t>(v));
      } else {
        c.reals.push_back(v);
      }
    }
    result_.notes.push_back(fmt::format("input '{}' is the constant {}", input.name(), fmt::join(values, ", ")));
    return c;
  }

  // The symbolic dimensions the pinned inputs fix: a symbol shared by several inputs (`sequence`, `batch`)
  // takes one value, so pinning one input pins the others; two pins that disagree are an error naming both.
  void bind_pinned_symbols(const onnx::GraphProto& graph) {
    for (const auto& input : graph.input()) {
      const auto pinned = options_.input_shapes.find(input.name());
      if (pinned == options_.input_shapes.end() || !input.type().tensor_type().has_shape()) continue;
      const auto& dims = input.type().tensor_type().shape().dim();
      for (int i = 0; i < dims.size() && i < static_cast<int>(pinned->second.size()); ++i) {
        if (!dims[i].has_dim_param() || dims[i].dim_param().empty()) continue;
        bind_symbol(dims[i].dim_param(), pinned->second[static_cast<std::size_t>(i)], input.name(), i);
      }
    }
  }

  void bind_symbol(const std::string& symbol, std::int64_t value, const std::string& input, int dim) {
    const auto [bound, inserted] = symbols_.emplace(symbol, SymbolBinding{value, input, dim});
    if (inserted || bound->second.value == value) return;
    fail(path_, "--input-shape " + input,
         fmt::format("dimension {} ('{}') is {}, but input '{}' has '{}' = {} (dimension {}); inputs sharing a "
                     "symbolic dimension must agree",
                     dim, symbol, value, bound->second.input, symbol, bound->second.value, bound->second.dim));
  }

  void pin_input(onnx::ValueInfoProto& input) {
    const std::string where = "graph.input " + input.name();
    if (!input.type().has_tensor_type()) fail(path_, where, "is not a tensor; Ergon models tensor inputs only");
    const auto pinned = options_.input_shapes.find(input.name());
    const bool has_shape = input.type().tensor_type().has_shape();
    std::vector<std::string> dim_names;
    std::vector<std::int64_t> dims = has_shape ? declared_dims(input, dim_names) : std::vector<std::int64_t>{};
    if (pinned != options_.input_shapes.end()) {
      if (has_shape && pinned->second.size() != dims.size()) {
        fail(path_, "--input-shape " + input.name(),
             fmt::format("gives {} dimensions but the model declares {} for this input", pinned->second.size(),
                         dims.size()));
      }
      dims = pinned->second;
    } else {
      if (!has_shape) {
        fail(path_, where, "has no shape in the model; give one with --input-shape " + input.name() + "=1x3x224x224");
      }
      resolve_free_dims(input, dims, dim_names);
    }
    record_batch_axis(input, dims.size());
    auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    for (const std::int64_t d : dims) shape->add_dim()->set_dim_value(d);
  }

  // The input's batch axis: the dimension named like the batch, else the leading one of a rank-2+ input.
  void record_batch_axis(const onnx::ValueInfoProto& input, std::size_t rank) {
    const auto& declared = input.type().tensor_type().shape().dim();
    for (int i = 0; i < declared.size(); ++i) {
      if (declared[i].has_dim_param() && names_a_batch(declared[i].dim_param())) {
        result_.batch_axes[input.name()] = static_cast<std::size_t>(i);
        return;
      }
    }
    if (rank >= 2) result_.batch_axes[input.name()] = 0;
  }

  // A free dimension takes the value its symbol is bound to (by a pinned input, or an input resolved
  // earlier); one named like the batch wherever it is, or else a symbolic leading one, becomes 1 with a
  // note; any other free or zero dimension is an error naming it, since guessing a spatial size would
  // change every figure.
  void resolve_free_dims(const onnx::ValueInfoProto& input, std::vector<std::int64_t>& dims,
                         const std::vector<std::string>& dim_names) {
    const std::string& name = input.name();
    const auto& declared = input.type().tensor_type().shape().dim();
    const auto symbol_of = [&](std::size_t i) {
      return declared[static_cast<int>(i)].has_dim_param() ? declared[static_cast<int>(i)].dim_param() : std::string();
    };
    const std::string where = "graph.input " + name;
    bool batch_named_elsewhere = false;  // then the leading dimension is not the batch (a sequence-first layout)
    for (std::size_t i = 1; i < dims.size(); ++i) batch_named_elsewhere |= names_a_batch(symbol_of(i));
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] < 0 && !symbol_of(i).empty()) {
        const auto bound = symbols_.find(symbol_of(i));
        if (bound != symbols_.end()) {
          dims[i] = bound->second.value;
          continue;
        }
      }
      if (dims[i] == 0 && (i == 0 || names_a_batch(symbol_of(i)))) {
        fail(path_, where,
             fmt::format("dimension {} is 0 (a batch of 0 has no work); pin it with --input-shape {}={}", i, name,
                         suggested(dims)));
      }
      if (dims[i] >= 0) continue;  // fixed; 0 is an empty dimension (a first step's KV cache)
      if ((i == 0 && dims.size() > 1 && !batch_named_elsewhere) || names_a_batch(symbol_of(i))) {
        dims[i] = 1;
        // A batch named as such binds its symbol; a leading dimension taken for the batch by position
        // alone does not carry that guess to other dimensions.
        if (names_a_batch(symbol_of(i))) bind_symbol(symbol_of(i), 1, name, static_cast<int>(i));
        result_.notes.push_back(
            fmt::format("input '{}': its batch dimension {} is symbolic; using 1 (pin it with "
                        "--input-shape {}=...)",
                        name, dim_names[i], name));
        continue;
      }
      fail(path_, where,
           fmt::format("dimension {} ({}) is not fixed in the model; pin it with --input-shape {}={} (replace each ?)",
                       i, dim_names[i], name, suggested(dims)));
    }
  }

  // The batch as exporters name it (Hugging Face's `batch_size`, torch.onnx's `batch`).
  static bool names_a_batch(const std::string& symbol) {
    std::string lower;
    for (const char c : symbol) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower == "batch" || lower == "batch_size" || lower == "batchsize";
  }

  static std::string suggested(const std::vector<std::int64_t>& dims) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      parts.push_back(dims[i] > 0 ? std::to_string(dims[i]) : (i == 0 ? "1" : "?"));
    }
    return fmt::format("{}", fmt::join(parts, "x"));
  }

  // The graph's initializers are the constants known so far (folded ones included), so ONNX's inference
  // sees folded shape tensors as data.
  // A folded tensor's value_info from an earlier round (inferred before its shape inputs were known, so
  // with symbolic dimensions) would override the constant's dims, and every consumer would stay unsized:
  // the constant's own dims replace it.
  void refresh_initializers() {
    onnx::GraphProto& graph = *result_.model.mutable_graph();
    std::set<std::string> present;
    for (const auto& init : graph.initializer()) present.insert(init.name());
    for (const auto& [name, constant] : result_.constants) {
      if (present.count(name) == 0) *graph.add_initializer() = constant_to_proto(constant, name);
    }
    auto* infos = graph.mutable_value_info();
    infos->erase(
        std::remove_if(infos->begin(), infos->end(),
                       [this](const onnx::ValueInfoProto& info) { return result_.constants.count(info.name()) > 0; }),
        infos->end());
  }

  // True when Ergon's own rules sized a tensor ONNX's inference had not: another round of inference then
  // sizes what follows it.
  bool collect_shapes() {
    const onnx::GraphProto& graph = result_.model.graph();
    const auto take = [this](const onnx::ValueInfoProto& value) {
      if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) return;
      std::vector<std::int64_t> dims;
      for (const auto& d : value.type().tensor_type().shape().dim()) {
        if (!d.has_dim_value() || d.dim_value() < 0) return;
        dims.push_back(d.dim_value());
      }
      result_.shapes[value.name()] = dims;
    };
    for (const auto& value : graph.input()) take(value);
    for (const auto& value : graph.value_info()) take(value);
    for (const auto& value : graph.output()) take(value);
    for (const auto& [name, constant] : result_.constants) result_.shapes[name] = constant.dims;
    return propagate_ergon_shapes();
  }

  // Outputs ONNX's inference leaves unsized that Ergon's own rules size (onnx_shape_rules.hpp).
  bool propagate_ergon_shapes() {
    bool added = false;
    const OnnxShapeLookup lookup{[this](const std::string& tensor) -> const OnnxDims* {
                                   const auto found = result_.shapes.find(tensor);
                                   return found == result_.shapes.end() ? nullptr : &found->second;
                                 },
                                 [this](const std::string& tensor) -> const OnnxConstant* {
                                   const auto found = result_.constants.find(tensor);
                                   return found == result_.constants.end() ? nullptr : &found->second;
                                 }};
    for (const auto& node : result_.model.graph().node()) {
      if (node.input_size() < 1 || node.output_size() < 1) continue;
      for (const auto& [index, dims] : ergon_output_shapes(node, lookup)) {
        if (index >= node.output_size() || node.output(index).empty()) continue;
        if (result_.shapes.count(node.output(index)) > 0) continue;
        result_.shapes[node.output(index)] = dims;
        record_value_info(node.output(index), dims, output_type(node, index));
        added = true;
      }
    }
    return added;
  }

  // Before folding removes them: every DequantizeLinear's output, and what reshapes or transposes it, with
  // the bits of the integers it dequantises (a QDQ model's int8 weights and activations).
  void record_quantised_tensors() {
    static const std::set<std::string> views = {"Transpose", "Reshape", "Squeeze", "Unsqueeze", "Identity", "Flatten"};
    for (const auto& node : result_.model.graph().node()) {
      if (node.input_size() < 1 || node.output_size() < 1) continue;
      int bits = 0;
      if (node.op_type() == "DequantizeLinear") {
        bits = quantised_type_bits(element_type(node.input(0)));
      } else if (views.count(node.op_type()) > 0) {
        const auto found = result_.quantised_bits.find(node.input(0));
        bits = found == result_.quantised_bits.end() ? 0 : found->second;
      }
      if (bits > 0) result_.quantised_bits[node.output(0)] = bits;
    }
  }

  // The element type of an output Ergon's rules sized: its data input's, except for outputs of indices
  // (NonMaxSuppression's) and EmbedLayerNormalization's, whose data are its float embeddings.
  std::int32_t output_type(const onnx::NodeProto& node, int output) const {
    if (node.op_type() == "NonMaxSuppression") return onnx::TensorProto::INT64;
    if (node.op_type() == "EmbedLayerNormalization") {
      return output == 1 ? onnx::TensorProto::INT32 : element_type(node.input_size() > 2 ? node.input(2) : "");
    }
    return element_type(node.input(0));
  }

  // The element type ONNX knows for `tensor` (float when it knows none).
  std::int32_t element_type(const std::string& tensor) const {
    return declared_element_type(result_.model.graph(), tensor);
  }

  // A shape Ergon inferred, written where ONNX's next round of inference reads it.
  void record_value_info(const std::string& tensor, const std::vector<std::int64_t>& dims, std::int32_t type) {
    auto* infos = result_.model.mutable_graph()->mutable_value_info();
    infos->erase(std::remove_if(infos->begin(), infos->end(),
                                [&](const onnx::ValueInfoProto& info) { return info.name() == tensor; }),
                 infos->end());  // an unsized entry the exporter left
    onnx::ValueInfoProto* info = infos->Add();
    info->set_name(tensor);
    auto* tensor_type = info->mutable_type()->mutable_tensor_type();
    tensor_type->set_elem_type(type);
    auto* shape = tensor_type->mutable_shape();
    for (const std::int64_t d : dims) shape->add_dim()->set_dim_value(d);
  }

  std::vector<FoldInput> fold_inputs(const onnx::NodeProto& node) const {
    std::vector<FoldInput> inputs;
    int last = node.input_size();
    while (last > 0 && node.input(last - 1).empty()) --last;  // absent trailing optional inputs
    for (int i = 0; i < last; ++i) {
      FoldInput input;
      const auto constant = result_.constants.find(node.input(i));
      if (constant != result_.constants.end()) input.constant = &constant->second;
      const auto shape = result_.shapes.find(node.input(i));
      if (shape != result_.shapes.end()) input.shape = shape->second;
      inputs.push_back(input);
    }
    return inputs;
  }

  // One pass over the nodes in file order: every node that folds becomes constants and leaves the graph.
  bool fold_pass() {
    onnx::GraphProto& graph = *result_.model.mutable_graph();
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    bool folded_any = false;
    for (int index = 0; index < graph.node_size(); ++index) {
      const onnx::NodeProto& node = graph.node(index);
      if (inline_decided_branch(node, kept) || unroll_loop(node, kept)) {
        folded_any = true;
        continue;
      }
      std::optional<std::vector<OnnxConstant>> outputs;
      if (node.op_type() == "Constant" && (node.domain().empty() || node.domain() == "ai.onnx")) {
        if (auto value = constant_node_value(node)) outputs = std::vector<OnnxConstant>{*value};
      } else if (node.domain().empty() || node.domain() == "ai.onnx") {
        try {
          outputs = fold_node(node, fold_inputs(node), result_.opset);
        } catch (const FoldError& error) {
          fail(path_, node_where(node, index), error.what());
        }
      }
      if (!outputs || outputs->size() < static_cast<std::size_t>(node.output_size()) || node.output_size() == 0) {
        *kept.Add() = node;
        continue;
      }
      for (int o = 0; o < node.output_size(); ++o) {
        if (node.output(o).empty()) continue;
        result_.constants[node.output(o)] = (*outputs)[static_cast<std::size_t>(o)];
        result_.folded_by[node.output(o)] = fmt::format("node '{}' ({})", node.name(), node.op_type());
        result_.shapes[node.output(o)] = (*outputs)[static_cast<std::size_t>(o)].dims;
      }
      if (auto note = folded_compute_note(node, result_.shapes)) result_.notes.push_back(*note);
      ++result_.folded_nodes;
      folded_any = true;
    }
    graph.mutable_node()->Swap(&kept);
    return folded_any;
  }

  // Every tensor's element count must fit the 64-bit counters the lowering and the workload use.
  void check_sizes() const {
    for (const auto& [name, dims] : result_.shapes) {
      std::int64_t elements = 1;
      for (const std::int64_t d : dims) {
        if (__builtin_mul_overflow(elements, d, &elements)) {
          fail(path_, "tensor " + name,
               fmt::format("its shape [{}] overflows 64-bit counters; use smaller sizes", fmt::join(dims, ", ")));
        }
      }
    }
  }

  // An If whose condition folded to a constant is replaced by the nodes of the branch it takes (Silero VAD
  // picks its 8 or 16 kHz path from the `sr` input, which --input-value pins).
  bool inline_decided_branch(const onnx::NodeProto& node, google::protobuf::RepeatedPtrField<onnx::NodeProto>& kept) {
    if (node.op_type() != "If" || node.input_size() != 1) return false;
    const auto condition = result_.constants.find(node.input(0));
    if (condition == result_.constants.end() || !condition->second.has_values || condition->second.elements() != 1) {
      return false;
    }
    const std::string taken = condition->second.real(0) != 0 ? "then_branch" : "else_branch";
    if (!inline_branch(node, taken, kept)) return false;
    result_.notes.push_back(fmt::format("If node '{}' takes its {} (its condition is constant)", node.name(), taken));
    return true;
  }

  // A Loop whose trip count is a constant (or given by --loop-trips) in its place: its body once per trip,
  // each copy's tensors renamed, the loop-carried values passed from trip to trip and the scan outputs
  // stacked (Unsqueeze + Concat). A condition computed at run time may end it sooner: all trips are counted.
  bool unroll_loop(const onnx::NodeProto& node, google::protobuf::RepeatedPtrField<onnx::NodeProto>& kept) {
    if (node.op_type() != "Loop" || !(node.domain().empty() || node.domain() == "ai.onnx")) return false;
    const onnx::AttributeProto* body_attribute = find_attribute(node, "body");
    if (body_attribute == nullptr || !body_attribute->has_g()) return false;
    const onnx::GraphProto& body = body_attribute->g();
    const int carried = node.input_size() - 2;
    if (carried < 0 || body.input_size() != carried + 2 || body.output_size() < carried + 1 ||
        node.output_size() > body.output_size() - 1) {
      return false;
    }
    const std::optional<std::int64_t> trips = loop_trips(node);
    if (!trips) return false;
    const std::string prefix = node.name().empty() ? node.output(0) : node.name();
    for (const auto& init : body.initializer()) result_.constants[init.name()] = constant_from_proto(init);
    std::vector<std::string> state(node.input().begin() + 2, node.input().end());
    std::vector<std::vector<std::string>> scans(static_cast<std::size_t>(body.output_size() - 1 - carried));
    for (std::int64_t trip = 0; trip < *trips; ++trip) {
      const std::string scope = fmt::format("{}/trip{}/", prefix, trip);
      std::map<std::string, std::string> renamed;
      OnnxConstant iteration;
      iteration.data_type = onnx::TensorProto::INT64;
      iteration.has_values = true;
      iteration.ints = {trip};
      renamed[body.input(0).name()] = scope + body.input(0).name();
      result_.constants[scope + body.input(0).name()] = iteration;
      renamed[body.input(1).name()] = node.input(1).empty() ? loop_true_constant(prefix) : node.input(1);
      for (int j = 0; j < carried; ++j) renamed[body.input(j + 2).name()] = state[static_cast<std::size_t>(j)];
      for (const auto& inner : body.node()) {
        onnx::NodeProto* copy = kept.Add();
        *copy = inner;
        copy->set_name(scope + inner.name());
        for (auto& input : *copy->mutable_input()) {
          const auto found = renamed.find(input);
          if (found != renamed.end()) input = found->second;
        }
        for (auto& output : *copy->mutable_output()) {
          if (output.empty()) continue;
          renamed[output] = scope + output;
          output = scope + output;
        }
      }
      const auto body_output = [&](int o) {
        const auto found = renamed.find(body.output(o).name());
        return found != renamed.end() ? found->second : body.output(o).name();
      };
      for (int j = 0; j < carried; ++j) state[static_cast<std::size_t>(j)] = body_output(j + 1);
      for (std::size_t k = 0; k < scans.size(); ++k) scans[k].push_back(body_output(static_cast<int>(k) + 1 + carried));
    }
    for (int o = 0; o < node.output_size(); ++o) {
      if (node.output(o).empty()) continue;
      if (o < carried) {
        add_node(kept, "Identity", prefix + "/carried" + std::to_string(o), {state[static_cast<std::size_t>(o)]},
                 node.output(o));
      } else {
        stack_scan(kept, prefix + "/scan" + std::to_string(o), scans[static_cast<std::size_t>(o - carried)],
                   node.output(o));
      }
    }
    result_.notes.push_back(fmt::format("Loop '{}' unrolled to {} trips{}", prefix, *trips,
                                        node.input(1).empty() || result_.constants.count(node.input(1)) > 0
                                            ? ""
                                            : " (its condition is computed at run time: every trip is counted)"));
    ++result_.folded_nodes;
    return true;
  }

  // The Loop's trip count: its constant M, else --loop-trips; nullopt (left unsupported) without either.
  std::optional<std::int64_t> loop_trips(const onnx::NodeProto& node) const {
    std::optional<std::int64_t> trips;
    if (!node.input(0).empty()) {
      const auto count = result_.constants.find(node.input(0));
      if (count != result_.constants.end() && count->second.has_values && count->second.elements() == 1) {
        trips = count->second.integer(0);
      }
    }
    if (!trips && options_.loop_trips > 0) trips = options_.loop_trips;
    if (!trips || *trips < 1) return std::nullopt;
    if (*trips > kMaxLoopTrips) {
      fail(path_, "Loop '" + node.name() + "'",
           fmt::format("runs {} trips; Ergon unrolls at most {}", *trips, kMaxLoopTrips));
    }
    return trips;
  }

  std::string loop_true_constant(const std::string& prefix) {
    OnnxConstant yes;
    yes.data_type = onnx::TensorProto::BOOL;
    yes.has_values = true;
    yes.ints = {1};
    result_.constants[prefix + "/true"] = yes;
    return prefix + "/true";
  }

  static void add_node(google::protobuf::RepeatedPtrField<onnx::NodeProto>& kept, const std::string& op,
                       const std::string& name, const std::vector<std::string>& inputs, const std::string& output) {
    onnx::NodeProto* node = kept.Add();
    node->set_op_type(op);
    node->set_name(name);
    for (const auto& input : inputs) node->add_input(input);
    node->add_output(output);
  }

  // Each trip's scan output gains a leading axis, and the trips are concatenated along it.
  void stack_scan(google::protobuf::RepeatedPtrField<onnx::NodeProto>& kept, const std::string& name,
                  const std::vector<std::string>& parts, const std::string& output) {
    std::vector<std::string> stacked;
    OnnxConstant axes;
    axes.data_type = onnx::TensorProto::INT64;
    axes.dims = {1};
    axes.has_values = true;
    axes.ints = {0};
    result_.constants[name + "/axes"] = axes;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string part = fmt::format("{}/part{}", name, i);
      if (result_.opset >= 13) {
        add_node(kept, "Unsqueeze", part, {parts[i], name + "/axes"}, part);
      } else {
        add_node(kept, "Unsqueeze", part, {parts[i]}, part);
        auto* attribute = kept[kept.size() - 1].add_attribute();
        attribute->set_name("axes");
        attribute->set_type(onnx::AttributeProto::INTS);
        attribute->add_ints(0);
      }
      stacked.push_back(part);
    }
    add_node(kept, "Concat", name, stacked, output);
    auto* axis = kept[kept.size() - 1].add_attribute();
    axis->set_name("axis");
    axis->set_type(onnx::AttributeProto::INT);
    axis->set_i(0);
  }

  // When nothing more folds, the If nodes the import chose a branch for (chosen_branches_) take it.
  bool take_chosen_branches() {
    if (chosen_branches_.empty()) return false;
    onnx::GraphProto& graph = *result_.model.mutable_graph();
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    bool took_any = false;
    for (const onnx::NodeProto& node : graph.node()) {
      const auto chosen = node.op_type() == "If" && node.output_size() > 0 ? chosen_branches_.find(node.output(0))
                                                                           : chosen_branches_.end();
      if (chosen != chosen_branches_.end() && inline_branch(node, chosen->second, kept)) {
        took_any = true;
        continue;
      }
      *kept.Add() = node;
    }
    graph.mutable_node()->Swap(&kept);
    return took_any;
  }

  // The If's `taken` branch in its place; Identity nodes carry the branch's outputs to the If's.
  bool inline_branch(const onnx::NodeProto& node, const std::string& taken,
                     google::protobuf::RepeatedPtrField<onnx::NodeProto>& kept) {
    const onnx::GraphProto* branch = nullptr;
    for (const auto& a : node.attribute()) {
      if (a.name() == taken && a.has_g()) branch = &a.g();
    }
    if (branch == nullptr || branch->output_size() != node.output_size()) return false;
    for (const auto& init : branch->initializer()) result_.constants[init.name()] = constant_from_proto(init);
    for (const auto& inner : branch->node()) *kept.Add() = inner;
    for (int o = 0; o < node.output_size(); ++o) {
      onnx::NodeProto* carry = kept.Add();
      carry->set_op_type("Identity");
      carry->set_name(node.name() + "/" + taken + "/output" + std::to_string(o));
      carry->add_input(branch->output(o).name());
      carry->add_output(node.output(o));
    }
    ++result_.folded_nodes;
    return true;
  }

  // The If nodes left: each with the one-element graph inputs its condition depends on.
  void find_undecided_ifs() {
    const onnx::GraphProto& graph = result_.model.graph();
    std::map<std::string, const onnx::NodeProto*> writer;
    for (const auto& node : graph.node()) {
      for (const auto& output : node.output()) writer[output] = &node;
    }
    std::set<std::string> inputs;
    for (const auto& input : graph.input()) inputs.insert(input.name());
    for (const auto& node : graph.node()) {
      if (node.op_type() != "If" || node.input_size() < 1 || node.output_size() < 1) continue;
      UndecidedIf pending{node.output(0), node.name(), {}};
      std::set<std::string> seen;
      std::vector<std::string> todo{node.input(0)};
      while (!todo.empty()) {
        const std::string tensor = todo.back();
        todo.pop_back();
        if (tensor.empty() || !seen.insert(tensor).second || result_.constants.count(tensor) > 0) continue;
        const auto shape = result_.shapes.find(tensor);
        const bool one_element = shape != result_.shapes.end() &&
                                 std::all_of(shape->second.begin(), shape->second.end(), [](auto d) { return d == 1; });
        if (inputs.count(tensor) > 0 && one_element) pending.scalar_inputs.push_back(tensor);
        const auto producer = writer.find(tensor);
        if (producer != writer.end())
          todo.insert(todo.end(), producer->second->input().begin(), producer->second->input().end());
      }
      std::sort(pending.scalar_inputs.begin(), pending.scalar_inputs.end());
      result_.undecided_ifs.push_back(pending);
    }
  }

  struct SymbolBinding {
    std::int64_t value;
    std::string input;  // the input that fixed it, and which of its dimensions
    int dim;
  };

  std::string path_;
  const OnnxImportOptions& options_;
  const BranchChoices& chosen_branches_;
  PreparedOnnxGraph result_;
  std::map<std::string, SymbolBinding> symbols_;  // symbolic dimension -> its value
};

}  // namespace

std::string UndecidedIf::advice() const {
  if (scalar_inputs.empty()) return "its condition is computed from the data at run time";
  std::vector<std::string> options;
  for (const auto& input : scalar_inputs) options.push_back("--input-value " + input + "=...");
  return fmt::format("its condition depends on input{} '{}': pass {} to decide it", scalar_inputs.size() > 1 ? "s" : "",
                     fmt::join(scalar_inputs, "', '"), fmt::join(options, " "));
}

PreparedOnnxGraph prepare_onnx_graph(const std::string& path, const OnnxImportOptions& options,
                                     const BranchChoices& chosen_branches) {
  return GraphPreparation(path, options, chosen_branches).run();
}

}  // namespace ergon
