#include "dataflows/systolic/systolic_dataflow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dataflows/elementwise/elementwise_dataflow.hpp"
#include "dataflows/integer_math.hpp"
#include "dataflows/registry.hpp"
#include "dataflows/systolic/systolic_cost.hpp"

namespace ergon {
namespace {

SystolicDataflow systolic_dataflow_of(const std::string& name) {
  return name == "ws"   ? SystolicDataflow::kWeightStationary
         : name == "is" ? SystolicDataflow::kInputStationary
                        : SystolicDataflow::kOutputStationary;
}

// The part of glb.size_kib that holds ofmaps (the rest holds ifmaps).
double ofmap_buffer_kib(const GlbConfig& glb) {
  return glb.ofmap_size_kib > 0 ? glb.ofmap_size_kib : glb.size_kib / 2;
}

// The configured buffers for weights of `weight_bits` (packed into the filter buffer); under glb.unified, an
// even three-way split of size_kib that the planner varies.
SystolicBuffers systolic_buffers(const AcceleratorConfig& config, int weight_bits) {
  const int bits = config.pe_array.word_bits;
  SystolicBuffers buffers;
  buffers.word_bits = bits;
  buffers.weight_bits = weight_bits;
  if (config.glb.unified) {
    const std::int64_t total = words_of_kib(config.glb.size_kib, bits);
    buffers.ofmap_words = total / 3;
    buffers.filter_words = buffers.weights_in(total / 3);
    buffers.ifmap_words = total - 2 * (total / 3);
    buffers.split_by_planner = true;
  } else {
    const double ofmap_kib = ofmap_buffer_kib(config.glb);
    buffers.ifmap_words = words_of_kib(config.glb.size_kib - ofmap_kib, bits);
    buffers.filter_words = words_of_kib(config.glb.filter_size_kib, weight_bits);
    buffers.ofmap_words = words_of_kib(ofmap_kib, bits);
  }
  buffers.reuse = config.glb.fold_reuse;
  buffers.accumulator_bits = config.pe_array.psum_bits();
  buffers.pipelined_folds = config.pe_array.pipelined_folds;
  return buffers;
}

// Pooling on a systolic array: its tensors stream through the buffers like an element-wise layer.
bool pooling_work(const Layer& layer, std::int64_t images, ElementwiseWork& work) {
  if (!has_loop_nest(layer) || layer.op == OpKind::kConv || layer.op == OpKind::kFullyConnected ||
      layer.op == OpKind::kMatMul) {
    return false;
  }
  const auto n = static_cast<std::uint64_t>(images);
  work.input_words = n * static_cast<std::uint64_t>(layer.input_shapes.at(0).elements());
  work.output_words = n * static_cast<std::uint64_t>(layer.output_shape.elements());
  work.operations = loop_nest_of(layer, images).operations();
  return true;
}

const char* fold_order_name(SystolicFoldOrder order) {
  return order == SystolicFoldOrder::kRowsOuter ? "rows_outer" : "columns_outer";
}

// Parameters a mapping file pins for a systolic layer.
struct SystolicPins {
  std::optional<SystolicDataflow> dataflow;
  std::optional<SystolicFoldOrder> order;
  std::optional<std::int64_t> stream_tile;
};

SystolicPins read_pins(const YamlView& entry) {
  YamlMap map(entry);
  SystolicPins pins;
  if (map.has("dataflow")) {
    const YamlView value = map.at("dataflow");
    // Reports print os, ws or is; mapping files written from older reports say systolic_os.
    std::string name = value.as_string();
    if (name.rfind("systolic_", 0) == 0) name.erase(0, std::string("systolic_").size());
    if (name != "os" && name != "ws" && name != "is") value.fail("give os, ws or is");
    pins.dataflow = systolic_dataflow_of(name);
  }
  if (map.has("fold_order")) {
    const YamlView value = map.at("fold_order");
    const std::string name = value.as_string();
    if (name != "columns_outer" && name != "rows_outer") value.fail("give columns_outer or rows_outer");
    pins.order = name == "rows_outer" ? SystolicFoldOrder::kRowsOuter : SystolicFoldOrder::kColumnsOuter;
  }
  if (map.has("stream_tile")) pins.stream_tile = map.get_int("stream_tile", kPositiveInt);
  map.reject_unknown_keys();
  return pins;
}

// Chooses per layer the fold order and, with `pe_array.dataflow: auto`, the dataflow, by the mapper's
// objective; reuse follows from the buffer sizes (SystolicSchedule).
class SystolicPlanner : public ILayerPlanner {
 public:
  SystolicPlanner(const AcceleratorConfig& config, const AccessPrices& prices)
      : config_(config), prices_(prices), objective_(config.mapper.objective) {}

  std::unique_ptr<LayerPlan> plan(const Layer& layer, std::int64_t batch, const DramEncoding& encoding,
                                  const YamlView* constraints, const ResidencyPlanning* residency) override {
    ElementwiseWork work;
    if (pooling_work(layer, batch, work)) {
      if (constraints != nullptr) constraints->fail("pooling streams through the buffers: it has no mapping to pin");
      return std::make_unique<ElementwisePlan>(work, config_, encoding, "pooling, streamed through the buffers");
    }
    if (!has_loop_nest(layer)) return nullptr;
    const SystolicPins pins = constraints != nullptr ? read_pins(*constraints) : SystolicPins{};
    const LoopNest nest = loop_nest_of(layer, batch);
    std::vector<SystolicDataflow> dataflows = {SystolicDataflow::kOutputStationary, SystolicDataflow::kWeightStationary,
                                               SystolicDataflow::kInputStationary};
    if (pins.dataflow) {
      dataflows = {*pins.dataflow};
    } else if (config_.pe_array.dataflow) {  // else `auto`: each layer's best
      dataflows = {*config_.pe_array.dataflow};
    }
    std::optional<SystolicSchedule> best;
    MappingSummary::Estimate best_estimate;
    std::vector<double> objectives;
    const bool im2col = config_.glb.operand_fetch == OperandFetch::kIm2col;
    const SystolicBuffers configured = systolic_buffers(config_, encoding.weight_width());  // this layer's weights
    for (const std::int64_t group : channel_groups(nest)) {
      const LoopNest run_nest = grouped_nest(nest, group);
      for (const SystolicBuffers& buffers : buffer_splits(run_nest, im2col, configured)) {
        for (const SystolicDataflow dataflow : dataflows) {
          for (const SystolicFoldOrder order : {SystolicFoldOrder::kColumnsOuter, SystolicFoldOrder::kRowsOuter}) {
            if (pins.order && *pins.order != order) continue;
            const std::vector<std::int64_t> tiles = pins.stream_tile ? std::vector<std::int64_t>{*pins.stream_tile}
                                                                     : stream_tiles(nest, dataflow, order, buffers);
            for (const std::int64_t tile : tiles) {
              SystolicSchedule candidate(run_nest, dataflow, config_.pe_array.rows, config_.pe_array.cols, buffers,
                                         order, im2col, tile, group);
              const MappingSummary::Estimate estimate =
                  estimate_schedule(candidate, config_, encoding, prices_, objective_,
                                    residency ? residency->residency : LayerResidency{});
              objectives.push_back(estimate.best_objective);
              const bool better = !best || ranks_before(objective_, estimate.energy_pj, estimate.cycles,
                                                        best_estimate.energy_pj, best_estimate.cycles);
              // full ties keep SCALE-Sim's order; with residency, the staging must leave the kept tensors room
              if (better && (!residency || candidate.staging_words() <= residency->max_staging_words)) {
                best = std::move(candidate);
                best_estimate = estimate;
              }
            }
          }
        }
      }
    }
    if (!best) throw std::logic_error("no systolic schedule stages within the residency plan's room");
    best_estimate.objective = mapper_objective_name(objective_);
    best_estimate.candidates = objectives.size();
    std::sort(objectives.begin(), objectives.end());
    best_estimate.median_objective = objectives[objectives.size() / 2];
    best_estimate.worst_objective = objectives.back();
    // Only read when outputs may stay on chip: it walks every fold once more.
    const std::uint64_t staging = config_.glb.keeps_tensors() ? best->staging_words() : 0;
    const SystolicBuffers chosen = best->buffers();
    auto plan = std::make_unique<SystolicPlan>(std::move(*best), encoding, best_estimate);
    plan->set_stream_timing(stream_timing(encoding, chosen));
    plan->set_glb_staging_words(staging);
    return plan;
  }

 private:
  // How many groups of a grouped convolution run at once (pe_array.depthwise): one (serial), and with
  // channel groups the most whose filters fit the array's columns, whose window fits its rows, and both, each
  // a divisor of the group count.
  std::vector<std::int64_t> channel_groups(const LoopNest& nest) const {
    const DepthwiseMode mode = config_.pe_array.depthwise;
    if (mode == DepthwiseMode::kSerial || nest.groups == 1 || nest.kind != LoopNestKind::kConv) return {1};
    std::vector<std::int64_t> sizes;
    if (mode == DepthwiseMode::kAuto) sizes.push_back(1);
    const std::int64_t by_columns = config_.pe_array.cols / nest.filters;
    const std::int64_t by_rows = config_.pe_array.rows / (nest.filter_h * nest.filter_w * nest.channels);
    for (const std::int64_t limit : {by_columns, by_rows, std::min(by_columns, by_rows)}) {
      std::int64_t size = std::min(limit, nest.groups);
      while (size > 1 && nest.groups % size != 0) --size;
      if (size > 1 && std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
    }
    if (sizes.empty()) sizes.push_back(1);  // no two groups fit side by side
    return sizes;
  }

  // The buffers a layer may use: the configured split, or under glb.unified a few splits of the one
  // capacity: the filters get an eighth, a quarter or half (no more than they need), the ofmaps an eighth or
  // a quarter, the ifmaps the rest; and when the layer's filters and ifmap fit whole, exactly those. A split
  // leaving any buffer less than a double-buffered wavefront is not tried.
  std::vector<SystolicBuffers> buffer_splits(const LoopNest& nest, bool im2col,
                                             const SystolicBuffers& configured) const {
    if (!config_.glb.unified) return {configured};
    // In words of word_bits; the filter part holds weights_in() its words.
    const std::int64_t total =
        configured.ifmap_words + configured.words_for_weights(configured.filter_words) + configured.ofmap_words;
    const std::int64_t wavefront = systolic_wavefront_words(config_.pe_array.rows, config_.pe_array.cols);
    const std::int64_t filters =
        configured.words_for_weights(nest.groups * nest.filters * nest.filter_h * nest.filter_w * nest.channels);
    const std::int64_t ifmap = nest.groups * group_ifmap_words(nest, im2col);
    std::vector<SystolicBuffers> splits;
    const auto add = [&](std::int64_t filter_words, std::int64_t ifmap_words) {
      filter_words = std::max(filter_words, wavefront);
      const std::int64_t ofmap_words = total - filter_words - ifmap_words;
      if (ifmap_words < wavefront || ofmap_words < wavefront) return;
      SystolicBuffers split = configured;
      split.filter_words = split.weights_in(filter_words), split.ifmap_words = ifmap_words,
      split.ofmap_words = ofmap_words;
      for (const SystolicBuffers& other : splits) {
        if (other.filter_words == split.filter_words && other.ifmap_words == ifmap_words) return;
      }
      splits.push_back(split);
    };
    for (const std::int64_t filter_eighths : {1, 2, 4}) {
      const std::int64_t filter_words = std::min(total * filter_eighths / 8, filters);
      for (const std::int64_t ofmap_eighths : {1, 2})
        add(filter_words, total - filter_words - total * ofmap_eighths / 8);
    }
    if (filters + ifmap < total) add(filters, ifmap);
    if (splits.empty()) splits.push_back(configured);  // the config check keeps the default split possible
    return splits;
  }

  // The stream lengths to try: the whole stream, and under capacity-driven reuse (weight and input
  // stationary) the longest tile whose partial sums, live across the inner folds, fit half the ofmap buffer
  // at the accumulator width (the other half drains the previous tile), in whole chunks of the array's rows.
  std::vector<std::int64_t> stream_tiles(const LoopNest& nest, SystolicDataflow dataflow, SystolicFoldOrder order,
                                         const SystolicBuffers& buffers) const {
    std::vector<std::int64_t> tiles = {0};
    if (buffers.reuse != FoldReuse::kCapacity || dataflow == SystolicDataflow::kOutputStationary) return tiles;
    const std::int64_t rows = config_.pe_array.rows, cols = config_.pe_array.cols;
    const std::int64_t pixels = nest.images * nest.ofmap_h * nest.ofmap_w;
    const std::int64_t spatial_cols = dataflow == SystolicDataflow::kWeightStationary ? nest.filters : pixels;
    const std::int64_t temporal = dataflow == SystolicDataflow::kWeightStationary ? pixels : nest.filters;
    const std::int64_t live_cols =
        order == SystolicFoldOrder::kColumnsOuter ? std::min(cols, spatial_cols) : spatial_cols;
    const std::int64_t psums = buffers.ofmap_words * buffers.word_bits / buffers.accumulator_bits;
    std::int64_t tile = psums / 2 / live_cols;
    if (tile >= rows) tile = tile / rows * rows;
    if (tile >= 1 && tile < temporal) tiles.push_back(tile);
    return tiles;
  }

  // SCALE-Sim's read buffers (docs/scalesim-reference.md): the first fill of each buffer's active half is
  // free, and prefetches follow each other without waiting for the array.
  StreamTiming stream_timing(const DramEncoding& encoding, const SystolicBuffers& buffers) const {
    StreamTiming timing;
    if (config_.glb.first_fill == FirstFill::kFree) {
      timing.free_filter_bytes = encoding.weight_bytes(as_count(buffers.filter_words / 2));
      timing.free_ifmap_bytes = encoding.raw_bytes(as_count(buffers.ifmap_words / 2));
    }
    timing.run_ahead = config_.glb.prefetch == Prefetch::kRunAhead;
    return timing;
  }

  AcceleratorConfig config_;
  AccessPrices prices_;
  MapperObjective objective_;
};

// Each buffer must hold one operand wavefront of the array, double-buffered (systolic_wavefront_words); with
// less, the fold model would silently assume it feeds the array.
void check_systolic_buffers(YamlMap glb_map, const AcceleratorConfig& config) {
  const GlbConfig& glb = config.glb;
  const double words_per_kib = 1024.0 * 8.0 / config.pe_array.word_bits;
  const std::int64_t wavefront = systolic_wavefront_words(config.pe_array.rows, config.pe_array.cols);
  if (glb.unified) {
    const auto words = static_cast<std::int64_t>(glb.size_kib * words_per_kib);
    if (words < 3 * wavefront) {
      glb_map.at("size_kib")
          .fail(fmt::format("the unified buffer holds {} words, less than three operand wavefronts of the {}x{} array, "
                            "double-buffered ({} words); enlarge glb.size_kib to at least {:g} KiB",
                            words, config.pe_array.rows, config.pe_array.cols, 3 * wavefront,
                            static_cast<double>(3 * wavefront) / words_per_kib));
    }
    return;
  }
  if (glb.filter_size_kib <= 0) {
    glb_map.view().fail("a systolic array needs a filter buffer: set filter_size_kib, or glb.unified: true");
  }
  const double ofmap_kib = ofmap_buffer_kib(glb);
  const struct {
    const char* buffer;
    double kib;
    const char* key;
  } buffers[] = {{"ifmap", glb.size_kib - ofmap_kib, "size_kib"},
                 {"filter", glb.filter_size_kib, "filter_size_kib"},
                 {"ofmap", ofmap_kib, glb.ofmap_size_kib > 0 ? "ofmap_size_kib" : "size_kib"}};
  for (const auto& entry : buffers) {
    const auto words = static_cast<std::int64_t>(entry.kib * words_per_kib);
    if (words < wavefront) {
      glb_map.at(entry.key).fail(fmt::format(
          "the {} buffer holds {} words, less than one operand wavefront of the {}x{} array, double-buffered "
          "({} words); enlarge glb.{} so the {} buffer has at least {:g} KiB",
          entry.buffer, words, config.pe_array.rows, config.pe_array.cols, wavefront, entry.key, entry.buffer,
          static_cast<double>(wavefront) / words_per_kib));
    }
  }
}

class SystolicDataflowPlugin : public IDataflow {
 public:
  void check_config(YamlMap& root, const AcceleratorConfig& config) const override {
    check_systolic_buffers(root.get_map("glb"), config);
  }
  bool compresses_activations() const override { return false; }  // TPU-like arrays store raw tensors
  std::unique_ptr<ILayerPlanner> planner(const AcceleratorConfig& config, const AccessPrices& prices) const override {
    return std::make_unique<SystolicPlanner>(config, prices);
  }
};

}  // namespace

SystolicPlan::SystolicPlan(SystolicSchedule schedule, const DramEncoding& encoding, MappingSummary::Estimate estimate)
    : LayerPlan(encoding), schedule_(std::move(schedule)), estimate_(std::move(estimate)) {}

const char* systolic_dataflow_name(SystolicDataflow dataflow) {
  switch (dataflow) {
    case SystolicDataflow::kWeightStationary: return "ws";
    case SystolicDataflow::kInputStationary: return "is";
    case SystolicDataflow::kOutputStationary: break;
  }
  return "os";
}

MappingSummary SystolicPlan::mapping() const {
  const SystolicSchedule& s = schedule_;
  MappingSummary summary;
  summary.parameters = {{"dataflow", systolic_dataflow_name(s.dataflow())},
                        {"spatial_rows", s.spatial_rows()},
                        {"spatial_cols", s.spatial_cols()},
                        {"temporal", s.temporal()},
                        {"folds", s.fold_count()},
                        {"stream_tile", s.stream_tile()},
                        {"fold_order", fold_order_name(s.fold_order())}};
  if (s.channel_group() > 1) summary.parameters["channel_groups"] = s.channel_group();
  if (s.buffers().split_by_planner) {  // glb.unified: the split chosen for this layer
    const double words_per_kib = 1024.0 * 8.0 / s.buffers().word_bits;
    summary.parameters["ifmap_buffer_kib"] = static_cast<double>(s.buffers().ifmap_words) / words_per_kib;
    summary.parameters["filter_buffer_kib"] =
        static_cast<double>(s.buffers().words_for_weights(s.buffers().filter_words)) / words_per_kib;
    summary.parameters["ofmap_buffer_kib"] = static_cast<double>(s.buffers().ofmap_words) / words_per_kib;
  }
  summary.estimate = estimate_;
  return summary;
}

std::vector<std::string> SystolicPlan::loop_nest() const {
  const SystolicSchedule& s = schedule_;
  const std::int64_t row_folds = (s.spatial_rows() + s.array_rows() - 1) / s.array_rows();
  const std::int64_t col_folds = (s.spatial_cols() + s.array_cols() - 1) / s.array_cols();
  const std::int64_t tiles = (s.temporal() + s.stream_tile() - 1) / s.stream_tile();
  const bool columns_outer = s.fold_order() == SystolicFoldOrder::kColumnsOuter;
  const std::string column_loop = fmt::format("for column_fold in [0, {})  # {} of {} spatial columns", col_folds,
                                              s.array_cols(), s.spatial_cols());
  const std::string row_loop =
      fmt::format("for row_fold in [0, {})  # {} of {} spatial rows", row_folds, s.array_rows(), s.spatial_rows());
  const std::string groups = s.channel_group() > 1
                                 ? fmt::format("for group in [0, {})  # {} groups at once, block-diagonal filters",
                                               s.nest().groups, s.channel_group())
                                 : fmt::format("for group in [0, {})", s.nest().groups);
  return {groups,
          fmt::format("  for stream_tile in [0, {})  # {} of {} streamed steps", tiles, s.stream_tile(), s.temporal()),
          "    " + (columns_outer ? column_loop : row_loop), "      " + (columns_outer ? row_loop : column_loop),
          fmt::format("        stream {} steps through the {}x{} array ({} stationary)", s.stream_tile(),
                      s.array_rows(), s.array_cols(), systolic_dataflow_name(s.dataflow()))};
}

void SystolicPlan::for_each_step(GlbContents& /*glb*/, const LayerTensors* tensors, const StepVisitor& visit) const {
  schedule_.for_each_fold([&](const SystolicFold& fold, StepTraffic traffic) {
    LayerStep step;
    step.traffic = std::move(traffic);
    step.stored_ifmap_nonzeros = DramEncoding::expected(step.traffic.ifmap_dram_stored_words, encoding().ifmap_density);
    if (tensors != nullptr) {
      auto detail = std::make_shared<SystolicStepDetail>();
      detail->fold = fold;
      step.detail = std::move(detail);
    }
    visit(std::move(step));
  });
}

const IDataflow& systolic_dataflow() {
  static const SystolicDataflowPlugin dataflow;
  return dataflow;
}

ERGON_REGISTER(DataflowPlugin, "systolic", &systolic_dataflow())

}  // namespace ergon
