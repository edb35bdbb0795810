#include "dataflows/row_stationary/row_stationary_dataflow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "common/text.hpp"
#include "dataflows/registry.hpp"
#include "dataflows/row_stationary/row_stationary_staging.hpp"

namespace ergon {
namespace {

std::optional<std::int64_t> read_count(YamlMap& map, const char* key, std::int64_t min) {
  if (!map.has(key)) return std::nullopt;
  return map.at(key).as_int({min, std::numeric_limits<std::int64_t>::max()});
}

std::optional<bool> read_flag(YamlMap& map, const char* key) {
  if (!map.has(key)) return std::nullopt;
  return map.at(key).as_bool();
}

LoopOrder read_loop_order(const YamlView& view) {
  const std::vector<YamlView> items = view.items();
  LoopOrder order{};
  std::vector<std::string> names;
  for (const TemporalDim dim :
       LoopOrder{TemporalDim::kImages, TemporalDim::kFilters, TemporalDim::kOfmapRows, TemporalDim::kChannels}) {
    names.push_back(temporal_dim_name(dim));
  }
  const std::string expected = "give the four loops outer to inner, each once: " + join_alternatives(names);
  if (items.size() != order.size()) view.fail(expected);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string name = items[i].as_string();
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) items[i].fail("'" + name + "' is not a loop; " + expected);
    order[i] = static_cast<TemporalDim>(found - names.begin());
    if (std::find(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(i), order[i]) !=
        order.begin() + static_cast<std::ptrdiff_t>(i)) {
      items[i].fail("'" + name + "' appears twice; " + expected);
    }
  }
  return order;
}

// A layer's entry in a mapping file: the row-stationary parameters report.json shows, any of them.
MappingConstraints read_constraints(const YamlView& entry) {
  YamlMap map(entry);
  // report.json shows these too, but they follow from the others and the array.
  for (const char* derived : {"filter_rows", "filter_cols", "filter_set_columns", "group_set_columns"}) {
    if (map.has(derived)) {
      map.at(derived).fail(std::string(derived) +
                           " follows from the PE array and the other parameters (filter rows and columns are folded "
                           "evenly onto the PE rows and register files; sets go side by side where columns are "
                           "spare); remove it");
    }
  }
  MappingConstraints pins;
  pins.ofmap_rows = read_count(map, "ofmap_rows", 1);
  pins.channels_per_pe = read_count(map, "channels_per_pe", 1);
  pins.filters_per_pe = read_count(map, "filters_per_pe", 1);
  pins.channel_sets = read_count(map, "channel_sets", 1);
  pins.filter_sets = read_count(map, "filter_sets", 1);
  pins.images = read_count(map, "images", 1);
  pins.group_sets = read_count(map, "group_sets", 1);
  if (map.has("loop_order")) pins.order = read_loop_order(map.at("loop_order"));
  if (map.has("glb_slots")) {
    YamlMap slots = map.get_map("glb_slots");
    pins.ifmap_slots = read_count(slots, "ifmap", 1);
    pins.psum_slots = read_count(slots, "psum", 1);
    pins.filter_slots = read_count(slots, "filter", 0);
    slots.reject_unknown_keys();
  }
  pins.double_buffered = read_flag(map, "double_buffered");
  pins.psum_spill = read_flag(map, "psum_spill");
  map.reject_unknown_keys();
  return pins;
}

// The figures this thread's searches worked out, kept across runs: the points of a sweep (and a Python
// session's simulations) on the same array reuse what the buffers' capacity and the prices leave unchanged.
RowStationarySearchMemo& search_memo() {
  static thread_local RowStationarySearchMemo memo;
  return memo;
}

// Mappings already searched in this run, by layer shape and data encoding (networks repeat shapes).
class RowStationaryPlanner : public ILayerPlanner {
 public:
  explicit RowStationaryPlanner(MapperContext context) : context_(std::move(context)) {}

  // The search ranks mappings as if every operand came from DRAM, residency or not (docs/mapping.md).
  std::unique_ptr<LayerPlan> plan(const Layer& layer, std::int64_t batch, const DramEncoding& encoding,
                                  const YamlView* constraints, const ResidencyPlanning* /*residency*/) override {
    if (!has_loop_nest(layer)) return nullptr;
    const LoopNest nest = loop_nest_of(layer, batch);
    MapperContext context = context_;
    context.encoding = encoding;
    if (constraints == nullptr)
      return staged(std::make_unique<RowStationaryPlan>(nest, find_or_map(nest, context), encoding, context.objective));
    const MappingConstraints pins = read_constraints(*constraints);
    try {  // pinned layers are searched on their own, not cached
      return staged(std::make_unique<RowStationaryPlan>(nest, map_row_stationary(nest, context, pins), encoding,
                                                        context.objective));
    } catch (const MappingError& error) {
      constraints->fail(std::string("layer '") + layer.name + "': " + error.what());
    }
  }

 private:
  // The plan with the GLB words its mapping's slots hold (and its filter slots, without a filter store).
  std::unique_ptr<LayerPlan> staged(std::unique_ptr<RowStationaryPlan> plan) const {
    const MappingFootprint footprint = mapping_footprint(plan->schedule().nest(), plan->schedule().mapping());
    const bool filters_in_glb = context_.hw.filter_store_words == 0;
    plan->set_glb_staging_words(
        static_cast<std::uint64_t>(footprint.glb_words + (filters_in_glb ? footprint.filter_words : 0)));
    return plan;
  }

  const MappingChoice& find_or_map(const LoopNest& nest, const MapperContext& context) {
    const Key key{
        {nest.images, nest.groups, nest.filters, nest.channels, nest.ofmap_h, nest.ofmap_w, nest.filter_h,
         nest.filter_w, nest.stride_h, nest.stride_w, nest.dilation_h, nest.dilation_w, nest.input_h, nest.input_w,
         nest.pad_top, nest.pad_left, static_cast<std::int64_t>(nest.kind), context.encoding.ifmap_raw ? 1 : 0},
        {context.encoding.ifmap_density, context.encoding.ofmap_density}};
    const auto found = choices_.find(key);
    if (found != choices_.end()) return found->second;
    return choices_.emplace(key, map_row_stationary(nest, context, {}, &search_memo())).first->second;
  }

  using Key = std::pair<std::vector<std::int64_t>, std::vector<double>>;
  MapperContext context_;
  std::map<Key, MappingChoice> choices_;
};

class RowStationaryDataflow : public IDataflow {
 public:
  void check_config(YamlMap& /*root*/, const AcceleratorConfig& /*config*/) const override {}
  bool compresses_activations() const override { return true; }  // Eyeriss codes activations run-length
  std::unique_ptr<ILayerPlanner> planner(const AcceleratorConfig& config, const AccessPrices& prices) const override {
    return std::make_unique<RowStationaryPlanner>(mapper_context(config, prices));
  }
};

}  // namespace

RowStationaryPlan::RowStationaryPlan(const LoopNest& nest, const MappingChoice& choice, const DramEncoding& encoding,
                                     MapperObjective objective)
    : LayerPlan(encoding), schedule_(nest, choice.mapping), choice_(choice), objective_(objective) {}

MappingSummary RowStationaryPlan::mapping() const {
  MappingSummary summary;
  summary.parameters = mapping_parameters(choice_.mapping);
  MappingSummary::Estimate estimate;
  estimate.objective = mapper_objective_name(objective_);
  estimate.cycles = choice_.cost.cycles;
  estimate.energy_pj = choice_.cost.energy_pj;
  estimate.dram_bytes = choice_.cost.dram_read_bytes + choice_.cost.dram_write_bytes;
  estimate.glb_accesses = choice_.cost.glb_reads + choice_.cost.glb_writes;
  estimate.candidates = choice_.candidates;
  estimate.best_objective = choice_.ranked_objective;  // the spread is the closed form's
  estimate.median_objective = choice_.median_objective;
  estimate.worst_objective = choice_.worst_objective;
  summary.estimate = estimate;
  return summary;
}

std::vector<std::string> RowStationaryPlan::loop_nest() const {
  const LoopNest& n = schedule_.nest();
  const RowStationaryTiling& t = schedule_.tiling();
  const BlockCounts& b = schedule_.blocks();
  const auto block_of = [&](TemporalDim dim) -> std::string {
    switch (dim) {
      case TemporalDim::kImages: return fmt::format("{} of {} images", t.images, n.images);
      case TemporalDim::kFilters: return fmt::format("{} of {} filters", t.filters_per_step(), n.filters);
      case TemporalDim::kOfmapRows: return fmt::format("{} of {} ofmap rows", t.ofmap_rows, n.ofmap_h);
      case TemporalDim::kChannels: return fmt::format("{} of {} channels", t.channels_per_step(), n.channels);
    }
    return "";
  };
  std::vector<std::string> lines;
  const auto loop = [&](const std::string& name, std::int64_t bound, const std::string& what) {
    lines.push_back(fmt::format("{}for {} in [0, {})  # {}", std::string(2 * lines.size(), ' '), name, bound, what));
  };
  loop("group_block", b.groups, fmt::format("{} of {} groups", t.group_sets, n.groups));
  for (const TemporalDim dim : schedule_.mapping().order) {
    loop(std::string(temporal_dim_name(dim)) + "_block", b.of(dim), block_of(dim));
  }
  loop("filter_row_fold", b.filter_rows, fmt::format("{} of {} filter rows", t.filter_rows, n.filter_h));
  loop("filter_col_fold", b.filter_cols, fmt::format("{} of {} filter columns", t.filter_cols, n.filter_w));
  const std::string indent(2 * lines.size(), ' ');
  lines.push_back(fmt::format(
      "{}parallel: {} group x {} filter x {} channel sets, each {} PE rows (filter rows) x {} "
      "ofmap rows ({} columns side by side)",
      indent, t.group_sets, t.filter_sets, t.channel_sets, t.filter_rows, t.ofmap_rows, t.filter_set_columns));
  lines.push_back(
      fmt::format("{}per PE: {} filters x {} channels x {} filter columns over {} ofmap columns of {} "
                  "image(s); psums ripple up the {} channel set(s)",
                  indent, t.filters_per_pe, t.channels_per_pe, t.filter_cols, n.ofmap_w, t.images, t.channel_sets));
  return lines;
}

void RowStationaryPlan::for_each_step(GlbContents& glb, const LayerTensors* tensors, const StepVisitor& visit) const {
  const DramEncoding& coding = encoding();
  const LoopNest& layer_nest = schedule_.nest();
  RowStationaryStaging staging(schedule_, glb, coding.ifmap_density);
  schedule_.for_each_step([&](const RowStationaryStep& step) {
    LayerStep layer_step;
    layer_step.traffic = staging.stage(step);
    const std::uint64_t stored = layer_step.traffic.ifmap_dram_stored_words;
    if (tensors == nullptr) {  // the expected share of zeros
      layer_step.stored_ifmap_nonzeros = DramEncoding::expected(stored, coding.ifmap_density);
    } else {  // the values the step fetches, and its zeros counted on them
      auto detail = std::make_shared<RowStationaryStepDetail>();
      detail->step = step;
      if (layer_step.traffic.filter_bus_words > 0) {
        detail->staged.filter_tile =
            std::make_shared<const std::vector<std::int16_t>>(filter_tile(layer_nest, *tensors, step));
      }
      detail->staged.ifmap_tile =
          std::make_shared<const std::vector<std::int16_t>>(ifmap_tile(layer_nest, *tensors, step));
      detail->staged.deposited_words = layer_step.traffic.deposited_words();
      layer_step.stored_ifmap_nonzeros = stored_nonzeros(layer_nest, *tensors, step, staging.fetched_ifmap_rows());
      layer_step.detail = std::move(detail);
    }
    visit(std::move(layer_step));
  });
}

MapperContext mapper_context(const AcceleratorConfig& config, const AccessPrices& prices) {
  MapperContext context;
  const PeArrayConfig& array = config.pe_array;
  const GlbConfig& glb = config.glb;
  context.hw = {array.rows,
                array.cols,
                array.rf.filter_entries,
                array.rf.ifmap_entries,
                array.rf.psum_entries,
                words_of_kib(glb.size_kib, array.word_bits),
                words_of_kib(glb.filter_size_kib, array.word_bits),
                array.rf.filter_double_buffered};
  context.timing = array_timing(config);
  context.energies = prices;
  context.objective = config.mapper.objective;
  return context;
}

nlohmann::ordered_json mapping_parameters(const RowStationaryMapping& mapping) {
  const RowStationaryTiling& t = mapping.tiling;
  nlohmann::ordered_json order = nlohmann::ordered_json::array();
  for (const TemporalDim dim : mapping.order) order.push_back(temporal_dim_name(dim));
  return {
      {"dataflow", "row_stationary"},
      {"filter_rows", t.filter_rows},
      {"filter_cols", t.filter_cols},
      {"ofmap_rows", t.ofmap_rows},
      {"channels_per_pe", t.channels_per_pe},
      {"filters_per_pe", t.filters_per_pe},
      {"channel_sets", t.channel_sets},
      {"filter_sets", t.filter_sets},
      {"filter_set_columns", t.filter_set_columns},
      {"group_sets", t.group_sets},
      {"group_set_columns", t.group_set_columns},
      {"images", t.images},
      {"loop_order", order},
      {"glb_slots", {{"ifmap", mapping.slots.ifmap}, {"psum", mapping.slots.psum}, {"filter", mapping.slots.filter}}},
      {"double_buffered", mapping.double_buffered}};
}

const IDataflow& row_stationary_dataflow() {
  static const RowStationaryDataflow dataflow;
  return dataflow;
}

ERGON_REGISTER(DataflowPlugin, "row_stationary", &row_stationary_dataflow())

}  // namespace ergon
