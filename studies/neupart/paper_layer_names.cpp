#include "studies/neupart/paper_layer_names.hpp"

#include <algorithm>
#include <set>

namespace ergon {
namespace {

// Caffe bvlc_alexnet names (workloads/alexnet.yaml); the LRN layers are not in the workload.
std::map<std::string, std::string> alexnet_names() {
  return {{"data", "In"},  {"conv1", "C1"}, {"pool1", "P1"}, {"conv2", "C2"}, {"pool2", "P2"}, {"conv3", "C3"},
          {"conv4", "C4"}, {"conv5", "C5"}, {"pool5", "P3"}, {"fc6", "FC1"},  {"fc7", "FC2"},  {"fc8", "FC3"}};
}

// SqueezeNet v1.1 (workloads/squeezenet_v1_1.yaml): fire modules fire2..fire9 are the paper's 1st..8th.
std::map<std::string, std::string> squeezenet_names() {
  std::map<std::string, std::string> names = {{"image", "In"}, {"conv1", "C1"},  {"pool1", "P1"}, {"pool3", "P2"},
                                              {"pool5", "P3"}, {"conv10", "C2"}, {"pool10", "P4"}};
  for (int fire = 2; fire <= 9; ++fire) {
    const std::string module = "fire" + std::to_string(fire), index = std::to_string(fire - 1);
    names[module + ".squeeze1x1"] = "Fs" + index;
    names[module + ".concat"] = "Fe" + index;  // both expand convolutions, concatenated
  }
  return names;
}

}  // namespace

const std::map<std::string, std::string>& paper_layer_names(const std::string& workload_name) {
  static const std::map<std::string, std::map<std::string, std::string>> tables = {
      {"alexnet", alexnet_names()}, {"squeezenet_v1_1", squeezenet_names()}};
  static const std::map<std::string, std::string> none;
  const auto found = tables.find(workload_name);
  return found == tables.end() ? none : found->second;
}

std::string paper_cut_name(const Workload& workload, const CutResult& cut) {
  const auto& names = paper_layer_names(workload.name());
  if (const auto found = names.find(cut.last_client_layer); found != names.end()) return found->second;
  const auto& layers = workload.layers();
  if (cut.client_layers >= layers.size() || layers[cut.client_layers].op != OpKind::kConcat) return "";
  const Layer& next = layers[cut.client_layers];
  const std::set<std::string> reads(next.input_names.begin(), next.input_names.end());
  const std::set<std::string> sent(cut.crossing.begin(), cut.crossing.end());
  const auto found = names.find(next.name);
  return reads == sent && found != names.end() ? found->second : "";
}

std::string cut_name_both_ways(const Workload& workload, const CutResult& cut) {
  const std::string paper = paper_cut_name(workload, cut);
  return "after " + cut.last_client_layer + (paper.empty() ? "" : " (paper: " + paper + ")");
}

}  // namespace ergon
