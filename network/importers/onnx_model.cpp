#include "network/importers/onnx_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "common/input_error.hpp"
#include "network/importers/onnx/onnx_graph.hpp"
#include "network/importers/onnx/onnx_lowering.hpp"

namespace ergon {
void add_input_shape(OnnxImportOptions& options, const std::string& text) {
  const std::size_t equals = text.rfind('=');
  const auto bad = [&](const std::string& why) {
    throw std::invalid_argument("--input-shape '" + text + "': " + why + " (expected NAME=1x3x224x224)");
  };
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) bad("no NAME=DIMS");
  std::vector<std::int64_t> dims;
  std::stringstream parts(text.substr(equals + 1));
  for (std::string part; std::getline(parts, part, 'x');) {
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(part, &used);
    } catch (const std::exception&) {
      bad("'" + part + "' is not a whole number");
    }
    // 0 is an empty dimension (a decoder's first step has no KV cache); not the batch's
    const long long least = dims.empty() ? 1 : 0;
    if (used != part.size() || value < least || value > (1LL << 31)) {
      bad(fmt::format("'{}' is not a size from {} to 2^31{}", part, least, least == 1 ? " (the batch)" : ""));
    }
    dims.push_back(value);
  }
  const std::string name = text.substr(0, equals);
  if (!options.input_shapes.emplace(name, dims).second) bad("input '" + name + "' is given twice");
}

void add_input_value(OnnxImportOptions& options, const std::string& text) {
  const std::size_t equals = text.rfind('=');
  const auto bad = [&](const std::string& why) {
    throw std::invalid_argument("--input-value '" + text + "': " + why + " (expected NAME=16000 or NAME=1,2,3)");
  };
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) bad("no NAME=VALUE");
  std::vector<double> values;
  std::stringstream parts(text.substr(equals + 1));
  for (std::string part; std::getline(parts, part, ',');) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(part, &used);
    } catch (const std::exception&) {
      bad("'" + part + "' is not a number");
    }
    if (used != part.size() || !std::isfinite(value)) bad("'" + part + "' is not a finite number");
    values.push_back(value);
  }
  const std::string name = text.substr(0, equals);
  if (!options.input_values.emplace(name, values).second) bad("input '" + name + "' is given twice");
}

namespace {

OnnxImport lower_prepared(const std::string& path, PreparedOnnxGraph graph, const OnnxImportOptions& options) {
  LoweredOnnx lowered = lower_onnx_graph(path, graph, options);
  OnnxImport imported{lowered.document, std::move(graph.notes), std::move(graph.warnings),
                      std::move(lowered.tensor_layers)};
  imported.notes.insert(imported.notes.end(), lowered.notes.begin(), lowered.notes.end());
  imported.warnings.insert(imported.warnings.end(), lowered.warnings.begin(), lowered.warnings.end());
  return imported;
}

// With --skip-unsupported, an If whose condition does not fold takes the branch with more MACs: the model is
// imported with each branch in its place (later undecided Ifs skipped meanwhile), so skipping never hides a
// network's work behind its cheaper path.
void choose_costlier_branch(const std::string& path, const OnnxImportOptions& options, const UndecidedIf& pending,
                            BranchChoices& chosen, std::vector<std::string>& notes,
                            std::vector<std::string>& warnings) {
  std::map<std::string, std::uint64_t> macs;
  std::map<std::string, std::string> failure;  // a branch that does not import: why
  for (const std::string branch : {"then_branch", "else_branch"}) {
    BranchChoices trial = chosen;
    trial[pending.key] = branch;
    try {
      const OnnxImport imported = lower_prepared(path, prepare_onnx_graph(path, options, trial), options);
      macs[branch] = onnx_workload(imported, path).total_macs();
    } catch (const InputError& error) {
      if (!failure.empty()) throw;  // neither branch imports: the second's error stands for both
      failure[branch] = error.what();
    }
  }
  if (!failure.empty()) {
    const std::string& failed = failure.begin()->first;
    const std::string taken = failed == "then_branch" ? "else_branch" : "then_branch";
    chosen[pending.key] = taken;
    warnings.push_back(
        fmt::format("If node '{}' takes its {}, as its {} does not import, so the figures may lack "
                    "that branch's work ({}): {}",
                    pending.name, taken, failed, failure.begin()->second, pending.advice()));
    return;
  }
  const bool then_costlier = macs["then_branch"] >= macs["else_branch"];
  const std::string taken = then_costlier ? "then_branch" : "else_branch";
  const std::string other = then_costlier ? "else_branch" : "then_branch";
  chosen[pending.key] = taken;
  notes.push_back(fmt::format(
      "If node '{}' takes its {}, the costlier ({} MACs per image for the whole network, {} with its {}): {}",
      pending.name, taken, macs[taken], macs[other], other, pending.advice()));
}

}  // namespace

OnnxImport import_onnx(const std::string& path, const OnnxImportOptions& options) {
  BranchChoices branches;
  std::vector<std::string> branch_notes, branch_warnings;
  PreparedOnnxGraph graph = prepare_onnx_graph(path, options, branches);
  while (options.skip_unsupported) {
    // An If whose chosen branch cannot take its place (its outputs differ) stays, skipped as free.
    const auto pending = std::find_if(graph.undecided_ifs.begin(), graph.undecided_ifs.end(),
                                      [&](const UndecidedIf& i) { return branches.count(i.key) == 0; });
    if (pending == graph.undecided_ifs.end()) break;
    choose_costlier_branch(path, options, *pending, branches, branch_notes, branch_warnings);
    graph = prepare_onnx_graph(path, options, branches);
  }
  OnnxImport imported = lower_prepared(path, std::move(graph), options);
  imported.notes.insert(imported.notes.end(), branch_notes.begin(), branch_notes.end());
  imported.warnings.insert(imported.warnings.end(), branch_warnings.begin(), branch_warnings.end());
  return imported;
}

Workload onnx_workload(const OnnxImport& imported, const std::string& path) {
  Workload workload = parse_workload(imported.document, path);
  // Every tensor a layer stands for must hold the elements ONNX's inference gives it.
  for (const auto& [tensor, entry] : imported.tensor_layers) {
    const auto& [layer_name, elements] = entry;
    const Layer* layer = workload.find_layer(layer_name);
    if (layer == nullptr || layer->output_shape.elements() == elements) continue;
    throw InputError(
        {path, 0, 0, {}}, "tensor " + tensor,
        fmt::format("Ergon infers {} for layer '{}' ({} elements) but ONNX infers {} elements per image: "
                    "the import does not model this node faithfully",
                    layer->output_shape.to_string(), layer_name, layer->output_shape.elements(), elements));
  }
  return workload;
}

Workload load_onnx_workload(const std::string& path, const OnnxImportOptions& options) {
  const OnnxImport imported = import_onnx(path, options);
  Workload workload = onnx_workload(imported, path);
  print_import_messages(imported, path);
  return workload;
}

void print_import_messages(const OnnxImport& imported, const std::string& path) {
  for (const auto& note : imported.notes) std::cerr << "note: " << path << ": " << note << "\n";
  for (const auto& warning : imported.warnings) std::cerr << "warning: " << path << ": " << warning << "\n";
}

std::string onnx_workload_yaml(const OnnxImport& imported, const std::string& path) {
  YAML::Emitter out;
  out << imported.document;
  std::string header = "# Imported from " + std::filesystem::path(path).filename().string() +
                       " by `ergon import onnx` (docs/workloads.md).\n";
  const auto comment = [&header](const std::string& prefix, const std::string& text) {
    std::stringstream lines(text);
    for (std::string line; std::getline(lines, line);) header += "# " + prefix + line + "\n";
  };
  for (const auto& note : imported.notes) comment("", note);
  for (const auto& warning : imported.warnings) comment("warning: ", warning);
  return header + out.c_str() + "\n";
}

OnnxImportOptions& model_import_options() {
  static OnnxImportOptions options;
  return options;
}

}  // namespace ergon
