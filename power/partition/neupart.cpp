#include "power/partition/neupart.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

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
    macs += static_cast<double>(workload.layers()[i].macs) * static_cast<double>(workload.layers()[i].batch);
  }
  return 2 * macs / ops_per_s;
}

}  // namespace

double rlc_bits(double elements, double sparsity, int word_bits) {
  const double alpha = word_bits == 8 ? 3.0 / 5.0 : 1.0 / 3.0;  // run-length field overhead (eq. 25)
  return elements * word_bits * (1 - sparsity) * (1 + alpha);
}

PartitionResult partition_network(const Workload& workload, const PartitionInputs& in) {
  const std::size_t n = workload.layers().size();
  if (in.client_energy_j.size() != n || in.client_latency_s.size() != n || in.ofmap_sparsity.size() != n) {
    throw std::invalid_argument("partition inputs must give every layer of the workload");
  }
  if (in.bitrate_bps <= 0 || in.tx_power_w < 0 || in.cloud_ops_per_s <= 0) {
    throw std::invalid_argument("the bit rate and cloud throughput must be positive, the Tx power not negative");
  }
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
      cut.bits += rlc_bits(input_elements(layer) * static_cast<double>(layer.batch), sparsity, in.word_bits);
    }
    cut.client_energy_j = energy_before[count];
    cut.transmit_energy_j = in.tx_power_w * cut.bits / in.bitrate_bps;
    cut.total_energy_j = cut.client_energy_j + cut.transmit_energy_j;
    cut.delay_s =
        seconds_before[count] + cut.bits / in.bitrate_bps + cloud_seconds(workload, count, in.cloud_ops_per_s);
    result.cuts.push_back(cut);
  }
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < result.cuts.size(); ++i) {
    if (result.cuts[i].total_energy_j < least * (1 - 1e-12)) {
      least = result.cuts[i].total_energy_j;
      result.best = i;
    }
  }
  const double cloud = result.cuts.front().total_energy_j, client = result.cuts.back().total_energy_j;
  result.saving_vs_cloud_pct = cloud > 0 ? 100 * (1 - least / cloud) : 0;
  result.saving_vs_client_pct = client > 0 ? 100 * (1 - least / client) : 0;
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
          sparsity[i] = consumer_row->second->sparsity.ifmap;
          found = true;
        }
      }
      if (!found && layer.input_names.size() == 1) sparsity[i] = sparsity[index.at(layer.input_names[0])];
    }
  }
  return sparsity;
}

}  // namespace ergon
