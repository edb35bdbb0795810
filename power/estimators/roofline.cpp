// The roofline bound. Its memory term is the traffic the simulated hardware cannot avoid, counted as the
// simulator stores tensors (dataflows/dram_encoding.hpp), so that no simulated layer beats it:
// - weights once per batch, raw;
// - the input values some window reads, once per image (padding is never stored, and a strided window
//   may skip rows and columns);
// - the outputs once per image;
// - activations run-length coded when the dataflow codes them, at the layer's stated sparsity and the
//   coding's best packing (a 64-bit word full of non-zero values), else raw; the network's input raw.
// Partial sums spilled, tiles fetched twice, burst granularity and DRAM latency only add to it.
// With glb.keep_activations: when_fits any activation passed between layers may stay on chip, so only the
// network's input and outputs count among the activations; with glb.keep_weights: when_fits no weights count.
#include "power/estimators/roofline.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>

#include "dataflows/elementwise/elementwise.hpp"
#include "dataflows/loop_nest.hpp"
#include "dataflows/registry.hpp"

namespace ergon {
namespace {

// Positions of the stored input along one dimension that some window reads.
std::int64_t read_positions(std::int64_t outputs, std::int64_t stride, std::int64_t kernel, std::int64_t dilation,
                            std::int64_t padding, std::int64_t stored) {
  std::vector<bool> read(static_cast<std::size_t>(stored), false);
  for (std::int64_t o = 0; o < outputs; ++o) {
    for (std::int64_t k = 0; k < kernel; ++k) {
      const std::int64_t position = o * stride + k * dilation - padding;
      if (position >= 0 && position < stored) read[static_cast<std::size_t>(position)] = true;
    }
  }
  return std::count(read.begin(), read.end(), true);
}

// The least bytes `values` activations of `density` non-zero share occupy in DRAM.
double activation_bytes(const DramEncoding& encoding, double values, double density, bool raw) {
  const double raw_bytes = values * encoding.word_bits / 8.0;
  if (raw || !encoding.compressed_activations) return raw_bytes;
  const double coded_bytes = values * density * 8.0 / static_cast<double>(encoding.nonzeros_per_coded_word());
  return std::min(raw_bytes, coded_bytes);
}

CompulsoryTraffic loop_nest_traffic(const LoopNest& nest, const DramEncoding& encoding) {
  const auto n = static_cast<double>(nest.images);
  const double rows = static_cast<double>(
      read_positions(nest.ofmap_h, nest.stride_h, nest.filter_h, nest.dilation_h, nest.pad_top, nest.input_h));
  const double cols = static_cast<double>(
      read_positions(nest.ofmap_w, nest.stride_w, nest.filter_w, nest.dilation_w, nest.pad_left, nest.input_w));
  const double groups = static_cast<double>(nest.groups), filters = static_cast<double>(nest.filters);
  const double channels = static_cast<double>(nest.channels);
  CompulsoryTraffic traffic;
  if (nest.kind == LoopNestKind::kConv) {
    const double weights =
        groups * filters * channels * static_cast<double>(nest.filter_h) * static_cast<double>(nest.filter_w);
    traffic.weight_bytes = weights * encoding.weight_width() / 8.0;
  }
  traffic.ifmap_bytes =
      activation_bytes(encoding, n * groups * channels * rows * cols, encoding.ifmap_density, encoding.ifmap_raw);
  const double outputs = n * groups * filters * static_cast<double>(nest.ofmap_h) * static_cast<double>(nest.ofmap_w);
  traffic.ofmap_bytes = activation_bytes(encoding, outputs, encoding.ofmap_density, false);
  return traffic;
}

CompulsoryTraffic elementwise_traffic(const ElementwiseWork& work, const DramEncoding& encoding) {
  CompulsoryTraffic traffic;
  traffic.ifmap_bytes =
      activation_bytes(encoding, static_cast<double>(work.input_words), encoding.ifmap_density, encoding.ifmap_raw);
  traffic.ofmap_bytes =
      activation_bytes(encoding, static_cast<double>(work.output_words), encoding.ofmap_density, false);
  return traffic;
}

}  // namespace

double compute_ceiling_gops(const AcceleratorConfig& config) {
  const double pes = static_cast<double>(config.pe_array.rows) * static_cast<double>(config.pe_array.cols);
  return 2.0 * pes * config.clock.frequency_mhz / 1e3;
}

double Roofline::total_ms_per_image() const {
  double total = 0;
  for (const RooflineLayer& layer : layers) total += layer.latency_ms_per_image();
  return total;
}

Roofline roofline_bound(const Workload& workload, const AcceleratorConfig& config, std::optional<std::int64_t> batch) {
  Roofline r;
  r.workload = workload.name();
  r.config = config.name;
  r.batch = batch;
  r.compute_ceiling_gops = compute_ceiling_gops(config);
  r.dram_bandwidth_gbps = config.dram.bandwidth_gbps;
  const double pe_ops_per_ms = r.compute_ceiling_gops / 2 * 1e6;  // one MAC or vector operation per PE-cycle
  const double bytes_per_ms = config.dram.bandwidth_gbps * 1e6;
  for (const Layer& layer : workload.layers()) {
    if (layer.op == OpKind::kInput) continue;
    RooflineLayer l;
    l.batch = batch.value_or(layer.batch);
    const DramEncoding encoding = dram_encoding(config, layer, workload.reads_network_input(layer));
    ElementwiseWork streamed;
    if (has_loop_nest(layer)) {
      l.traffic = loop_nest_traffic(loop_nest_of(layer, l.batch), encoding);
    } else if (elementwise_work(layer, l.batch, streamed)) {
      l.traffic = elementwise_traffic(streamed, encoding);
    } else {
      r.skipped.push_back(layer.name);
      continue;
    }
    if (config.glb.keep_activations == KeepActivations::kWhenFits) {
      const auto index = static_cast<std::size_t>(&layer - workload.layers().data());
      if (!workload.reads_network_input(layer)) l.traffic.ifmap_bytes = 0;
      if (boost::out_degree(index, workload.graph()) > 0) l.traffic.ofmap_bytes = 0;
    }
    if (config.glb.keep_weights == KeepActivations::kWhenFits) l.traffic.weight_bytes = 0;  // may be cached
    l.name = layer.name;
    l.op = op_name(layer.op);
    l.macs = layer.macs * static_cast<std::uint64_t>(l.batch);
    l.vector_ops = layer.vector_ops * static_cast<std::uint64_t>(l.batch);
    l.compute_ms = static_cast<double>(l.macs + l.vector_ops) / pe_ops_per_ms;
    l.memory_ms = l.traffic.total_bytes() / bytes_per_ms;
    r.layers.push_back(l);
  }
  return r;
}

}  // namespace ergon
