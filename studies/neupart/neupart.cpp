#include "studies/neupart/neupart.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace ergon {
namespace {

double input_elements(const Layer& layer) {
  return static_cast<double>(layer.output_shape.elements());
}

// The layers whose outputs cross a cut after the first `count` layers: produced before it, read after it.
std::vector<std::size_t> crossing_layers(const Workload& workload, std::size_t count) {
  std::vector<std::size_t> crossing;
  const LayerGraph& graph = workload.graph();
  for (std::size_t u = 0; u < count; ++u) {
    for (auto [edge, end] = boost::out_edges(u, graph); edge != end; ++edge) {
      if (boost::target(*edge, graph) >= count) {
        crossing.push_back(u);
        break;
      }
    }
  }
  return crossing;
}

double cloud_seconds(const Workload& workload, std::size_t from, double ops_per_s) {
  double macs = 0;
  for (std::size_t i = from; i < workload.layers().size(); ++i) {
    macs += static_cast<double>(workload.layers()[i].macs);  // per image, like the client's energy and time
  }
  return 2 * macs / ops_per_s;
}

// A table row's ifmap sparsity as a share of `tensor`'s output. The AlexNet and VGG-16 tables give it over
// the padded ifmap (their rows' inputs are the padded maps); padding positions are zeros, so over the unpadded
// tensor it is (s x padded - (padded - unpadded)) / unpadded, as docs/workloads.md converts the shipped files.
double unpadded_sparsity(const Layer& row, const Layer& tensor) {
  const double sparsity = row.sparsity.ifmap;
  if (row.input_shapes.empty()) return sparsity;
  const TensorShape& in = row.input_shapes.front();
  const TensorShape& out = tensor.output_shape;
  const double padded = static_cast<double>(in.height) * static_cast<double>(in.width);
  const double unpadded = static_cast<double>(out.height) * static_cast<double>(out.width);
  if (padded <= unpadded || unpadded <= 0) return sparsity;
  return std::clamp((sparsity * padded - (padded - unpadded)) / unpadded, 0.0, 1.0);
}

// The cut of least energy among cuts[from..]; the earlier one on a tie (within rounding).
std::size_t least_energy(const std::vector<CutResult>& cuts, std::size_t from) {
  std::size_t best = from;
  for (std::size_t i = from + 1; i < cuts.size(); ++i) {
    if (cuts[i].total_energy_j < cuts[best].total_energy_j * (1 - 1e-12)) best = i;
  }
  return best;
}

}  // namespace

int paper_rlc_run_bits(int word_bits) {
  return word_bits == 8 ? 4 : 5;  // Sec. VI-A: 4-bit runs for 8-bit data, 5-bit runs (Eyeriss) for 16-bit
}

int rlc_pairs_per_word(int word_bits, int run_bits) {
  constexpr int kWordBits = 64, kFlagBits = 1;  // Eyeriss's RLC word: pairs plus a last-word flag
  if (word_bits < 1 || run_bits < 1) {
    throw std::invalid_argument("RLC widths must be positive: got " + std::to_string(word_bits) + "-bit values and " +
                                std::to_string(run_bits) + "-bit runs");
  }
  const int pairs = (kWordBits - kFlagBits) / (word_bits + run_bits);
  if (pairs < 1) {
    throw std::invalid_argument("a " + std::to_string(word_bits) + "-bit value with a " + std::to_string(run_bits) +
                                "-bit run does not fit a 64-bit RLC word beside its 1-bit flag (at most 63 bits)");
  }
  return pairs;
}

double rlc_overhead(int word_bits, int run_bits) {
  return 64.0 / (rlc_pairs_per_word(word_bits, run_bits) * word_bits) - 1;
}

double rlc_bits(double elements, double sparsity, int word_bits, int run_bits) {
  return elements * word_bits * (1 - sparsity) * (1 + rlc_overhead(word_bits, run_bits));
}

double rlc_bits(double elements, double sparsity, int word_bits) {
  return rlc_bits(elements, sparsity, word_bits, paper_rlc_run_bits(word_bits));
}

PartitionResult partition_network(const Workload& workload, const PartitionInputs& in) {
  const std::size_t n = workload.layers().size();
  if (in.client_energy_j.size() != n || in.client_latency_s.size() != n || in.ofmap_sparsity.size() != n) {
    throw std::invalid_argument("partition inputs must give every layer of the workload");
  }
  if (in.bitrate_bps <= 0 || in.tx_power_w < 0 || in.cloud_ops_per_s <= 0) {
    throw std::invalid_argument("the bit rate and cloud throughput must be positive, the Tx power not negative");
  }
  const int run_bits = in.rlc_run_bits > 0 ? in.rlc_run_bits : paper_rlc_run_bits(in.word_bits);
  rlc_pairs_per_word(in.word_bits, run_bits);  // rejects widths that cannot be coded before any work
  std::size_t inputs = 0;  // the network inputs lead the topological order: the fully cloud cut sends them
  while (inputs < n && workload.layers()[inputs].op == OpKind::kInput) ++inputs;
  std::vector<double> energy_before(n + 1, 0), seconds_before(n + 1, 0);  // prefix sums
  for (std::size_t i = 0; i < n; ++i) {
    energy_before[i + 1] = energy_before[i] + in.client_energy_j[i];
    seconds_before[i + 1] = seconds_before[i] + in.client_latency_s[i];
  }
  PartitionResult result;
  for (std::size_t count = std::max<std::size_t>(inputs, 1); count <= n; ++count) {
    CutResult cut;
    cut.client_layers = count;
    cut.last_client_layer = workload.layers()[count - 1].name;
    for (std::size_t u : crossing_layers(workload, count)) {
      const Layer& layer = workload.layers()[u];
      const double sparsity = layer.op == OpKind::kInput ? in.input_sparsity : in.ofmap_sparsity[u];
      cut.crossing.push_back(layer.name);
      // One image's tensors: a layer's batch (images processed together) does not change what one image sends.
      cut.bits += rlc_bits(input_elements(layer), sparsity, in.word_bits, run_bits);
    }
    cut.client_energy_j = energy_before[count];
    cut.transmit_energy_j = in.tx_power_w * cut.bits / in.bitrate_bps;
    cut.total_energy_j = cut.client_energy_j + cut.transmit_energy_j;
    cut.delay_s =
        seconds_before[count] + cut.bits / in.bitrate_bps + cloud_seconds(workload, count, in.cloud_ops_per_s);
    result.cuts.push_back(cut);
  }
  result.best = least_energy(result.cuts, 0);
  result.best_on_client = result.cuts.size() > 1 ? least_energy(result.cuts, 1) : 0;
  const double cloud = result.cuts.front().total_energy_j, client = result.cuts.back().total_energy_j;
  result.saving_vs_cloud_pct = cloud > 0 ? 100 * (1 - result.cuts[result.best].total_energy_j / cloud) : 0;
  result.saving_vs_client_pct = client > 0 ? 100 * (1 - result.cuts[result.best_on_client].total_energy_j / client) : 0;
  return result;
}

std::vector<double> tensor_sparsity(const Workload& workload, const Workload* table, double fallback) {
  std::map<std::string, const Layer*> rows;
  if (table != nullptr) {
    for (const Layer& layer : table->layers()) rows[layer.name] = &layer;
  }
  const auto& layers = workload.layers();
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < layers.size(); ++i) index[layers[i].name] = i;
  std::vector<double> sparsity(layers.size(), fallback);
  for (std::size_t i = 0; i < layers.size(); ++i) {  // topological order: inputs are known first
    const Layer& layer = layers[i];
    const auto row = rows.find(layer.name);
    if (layer.sparsity.ofmap > 0) {
      sparsity[i] = layer.sparsity.ofmap;
    } else if (row != rows.end() && row->second->sparsity.ofmap > 0) {
      sparsity[i] = row->second->sparsity.ofmap;
    } else if (layer.op == OpKind::kConcat) {
      double zeros = 0, elements = 0;
      for (const std::string& input : layer.input_names) {
        const double count = static_cast<double>(layers[index.at(input)].output_shape.elements());
        zeros += count * sparsity[index.at(input)];
        elements += count;
      }
      sparsity[i] = elements > 0 ? zeros / elements : fallback;
    } else if (layer.op != OpKind::kInput) {
      // The table's ifmap sparsity of a consumer that reads only this layer (e.g. after a pooling layer).
      bool found = false;
      const LayerGraph& graph = workload.graph();
      for (auto [edge, end] = boost::out_edges(i, graph); edge != end && !found; ++edge) {
        const Layer& consumer = layers[boost::target(*edge, graph)];
        const auto consumer_row = rows.find(consumer.name);
        if (consumer.input_names.size() == 1 && consumer_row != rows.end()) {
          sparsity[i] = unpadded_sparsity(*consumer_row->second, layer);
          found = true;
        }
      }
      if (!found && layer.input_names.size() == 1) sparsity[i] = sparsity[index.at(layer.input_names[0])];
    }
  }
  return sparsity;
}

Workload with_tensor_sparsity(const Workload& workload, const std::vector<double>& ofmap_sparsity) {
  const auto& layers = workload.layers();
  if (ofmap_sparsity.size() != layers.size()) {
    throw std::invalid_argument("with_tensor_sparsity needs one sparsity per layer of the workload");
  }
  constexpr double kDensest = 0.9999;  // a workload's sparsity must be below 1
  std::vector<Layer> adjusted = layers;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    adjusted[i].sparsity.ofmap = std::min(ofmap_sparsity[i], kDensest);
    if (layers[i].op == OpKind::kInput || workload.reads_network_input(layers[i])) continue;
    double zeros = 0, elements = 0;
    for (const std::string& input : layers[i].input_names) {
      const Layer* producer = workload.find_layer(input);
      const std::size_t index = static_cast<std::size_t>(producer - layers.data());
      const double count = static_cast<double>(producer->output_shape.elements());
      zeros += count * ofmap_sparsity[index];
      elements += count;
    }
    if (elements > 0) adjusted[i].sparsity.ifmap = std::min(zeros / elements, kDensest);
  }
  return Workload(workload.name(), workload.source(), workload.file(), std::move(adjusted), workload.graph());
}

Workload with_table_batches(const Workload& workload, const Workload& table) {
  std::vector<Layer> adjusted = workload.layers();
  for (Layer& layer : adjusted) {
    const Layer* row = table.find_layer(layer.name);
    if (row != nullptr) layer.batch = row->batch;
  }
  return Workload(workload.name(), workload.source(), workload.file(), std::move(adjusted), workload.graph());
}

}  // namespace ergon
