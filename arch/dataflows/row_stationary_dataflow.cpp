#include "arch/dataflows/row_stationary_dataflow.hpp"

#include <map>
#include <utility>

#include "arch/pe_array/impl/row_stationary_array.hpp"
#include "arch/pe_array/impl/row_stationary_cycle_array.hpp"
#include "dataflow/row_stationary/row_stationary_staging.hpp"

namespace ergon {
namespace {

const char* objective_name(MapperObjective objective) {
  switch (objective) {
    case MapperObjective::kLatency: return "latency";
    case MapperObjective::kEnergyDelay: return "edp";
    case MapperObjective::kEnergy: break;
  }
  return "energy";
}

// Mappings already searched in this run, by layer shape and data encoding (networks repeat shapes).
class RowStationaryPlanner : public ILayerPlanner {
 public:
  explicit RowStationaryPlanner(MapperContext context) : context_(std::move(context)) {}

  std::unique_ptr<LayerPlan> plan(const Layer& layer, std::int64_t batch, const DramEncoding& encoding) override {
    if (!has_loop_nest(layer)) return nullptr;
    const LoopNest nest = loop_nest_of(layer, batch);
    MapperContext context = context_;
    context.encoding = encoding;
    return std::make_unique<RowStationaryPlan>(nest, find_or_map(nest, context), encoding, context.objective);
  }

 private:
  const MappingChoice& find_or_map(const LoopNest& nest, const MapperContext& context) {
    const Key key{
        {nest.images, nest.groups, nest.filters, nest.channels, nest.ofmap_h, nest.ofmap_w, nest.filter_h,
         nest.filter_w, nest.stride_h, nest.stride_w, nest.dilation_h, nest.dilation_w, nest.input_h, nest.input_w,
         nest.pad_top, nest.pad_left, static_cast<std::int64_t>(nest.kind), context.encoding.ifmap_raw ? 1 : 0},
        {context.encoding.ifmap_density, context.encoding.ofmap_density}};
    const auto found = choices_.find(key);
    if (found != choices_.end()) return found->second;
    return choices_.emplace(key, map_row_stationary(nest, context)).first->second;
  }

  using Key = std::pair<std::vector<std::int64_t>, std::vector<double>>;
  MapperContext context_;
  std::map<Key, MappingChoice> choices_;
};

class RowStationaryDataflow : public IDataflow {
 public:
  bool has_register_files() const override { return true; }
  void check_config(YamlMap& /*root*/, const AcceleratorConfig& /*config*/) const override {}
  bool compresses_activations() const override { return true; }  // Eyeriss codes activations run-length
  std::unique_ptr<ILayerPlanner> planner(const AcceleratorConfig& config, const AccessPrices& prices) const override {
    return std::make_unique<RowStationaryPlanner>(mapper_context(config, prices));
  }
  std::unique_ptr<IPeArray> make_array(const AcceleratorConfig& config) const override {
    return std::make_unique<RowStationaryArray>("pe_array", config.pe_array);
  }
  std::unique_ptr<ICycleArray> make_cycle_array(const AcceleratorConfig& config, INoc& noc, IGlobalBuffer& glb,
                                                IPeArray& counters, const ClockDomain& clock) const override {
    return std::make_unique<RowStationaryCycleArray>("cycle_pe_array", config.pe_array, noc, glb, counters, clock);
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
  estimate.objective = objective_name(objective_);
  estimate.cycles = choice_.cost.cycles;
  estimate.energy_pj = choice_.cost.energy_pj;
  estimate.candidates = choice_.candidates;
  estimate.best_objective = choice_.cost.objective;
  estimate.median_objective = choice_.median_objective;
  estimate.worst_objective = choice_.worst_objective;
  summary.estimate = estimate;
  return summary;
}

void RowStationaryPlan::for_each_step(GlbContents& glb, const LayerTensors* tensors, const StepVisitor& visit) const {
  const DramEncoding& coding = encoding();
  const LoopNest& layer_nest = schedule_.nest();
  RowStationaryStaging staging(schedule_, glb, coding.ifmap_density);
  schedule_.for_each_pass([&](const RowStationaryPass& pass) {
    LayerStep step;
    step.traffic = staging.stage(pass);
    const std::uint64_t stored = step.traffic.ifmap_dram_stored_words;
    if (tensors == nullptr) {  // the expected share of zeros
      step.stored_ifmap_nonzeros = DramEncoding::expected(stored, coding.ifmap_density);
    } else {  // the values the pass fetches, and its zeros counted on them
      auto detail = std::make_shared<RowStationaryStep>();
      detail->pass = pass;
      if (step.traffic.filter_bus_words > 0) {
        detail->staged.filter_tile =
            std::make_shared<const std::vector<std::int16_t>>(filter_tile(layer_nest, *tensors, pass));
      }
      detail->staged.ifmap_tile =
          std::make_shared<const std::vector<std::int16_t>>(ifmap_tile(layer_nest, *tensors, pass));
      detail->staged.deposited_words = step.traffic.deposited_words();
      step.stored_ifmap_nonzeros = stored_nonzeros(layer_nest, *tensors, pass, staging.fetched_ifmap_rows());
      step.detail = std::move(detail);
    }
    visit(std::move(step));
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
  ArrayTiming& timing = context.timing;
  timing.filter_bus_words = config.noc.filter_bus_words;
  timing.ifmap_bus_words = config.noc.ifmap_bus_words;
  timing.psum_read_bus_words = config.noc.psum_read_bus_words;
  timing.psum_write_bus_words = config.noc.psum_write_bus_words;
  timing.glb_read_words = glb.port_words_per_cycle(glb.read_ports_per_bank, array.word_bits);
  timing.glb_write_words = glb.port_words_per_cycle(glb.write_ports_per_bank, array.word_bits);
  timing.ifmap_rf_words = array.rf.ifmap_entries;
  timing.filter_rf_double_buffered = array.rf.filter_double_buffered;
  timing.dram_bytes_per_cycle = config.dram.bandwidth_gbps * 1e3 / config.clock.frequency_mhz;
  timing.dram_latency_cycles = config.dram.latency_ns * config.clock.frequency_mhz / 1e3;
  context.energies = prices;
  const std::string& objective = config.mapper.objective;
  context.objective = objective == "latency" ? MapperObjective::kLatency
                      : objective == "edp"   ? MapperObjective::kEnergyDelay
                                             : MapperObjective::kEnergy;
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

}  // namespace ergon
