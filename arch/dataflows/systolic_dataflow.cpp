#include "arch/dataflows/systolic_dataflow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "arch/dataflows/elementwise_dataflow.hpp"
#include "arch/pe_array/impl/systolic_array.hpp"
#include "arch/pe_array/impl/systolic_cycle_array.hpp"

namespace ergon {
namespace {

SystolicDataflow systolic_dataflow_of(const std::string& name) {
  return name == "ws"   ? SystolicDataflow::kWeightStationary
         : name == "is" ? SystolicDataflow::kInputStationary
                        : SystolicDataflow::kOutputStationary;
}

SystolicBuffers systolic_buffers(const AcceleratorConfig& config) {
  const int bits = config.pe_array.word_bits;
  const double ofmap_kib = config.glb.ofmap_size_kib > 0 ? config.glb.ofmap_size_kib : config.glb.size_kib / 2;
  return {words_of_kib(config.glb.size_kib - ofmap_kib, bits), words_of_kib(config.glb.filter_size_kib, bits),
          words_of_kib(ofmap_kib, bits)};
}

// Pooling on a systolic array: its tensors stream through the buffers like an element-wise layer.
bool pooling_work(const Layer& layer, std::int64_t images, ElementwiseWork& work) {
  if (!has_loop_nest(layer) || layer.op == OpKind::kConv || layer.op == OpKind::kFullyConnected) return false;
  const auto n = static_cast<std::uint64_t>(images);
  work.input_words = n * static_cast<std::uint64_t>(layer.input_shapes.at(0).elements());
  work.output_words = n * static_cast<std::uint64_t>(layer.output_shape.elements());
  work.operations = loop_nest_of(layer, images).operations();
  return true;
}

class SystolicPlanner : public ILayerPlanner {
 public:
  explicit SystolicPlanner(const AcceleratorConfig& config) : config_(config) {}
  std::unique_ptr<LayerPlan> plan(const Layer& layer, std::int64_t batch, const DramEncoding& encoding,
                                  const YamlView* constraints) override {
    ElementwiseWork work;
    if (pooling_work(layer, batch, work)) {
      if (constraints != nullptr) constraints->fail("pooling streams through the buffers: it has no mapping to pin");
      return std::make_unique<ElementwisePlan>(work, config_, encoding, "pooling, streamed through the buffers");
    }
    if (!has_loop_nest(layer)) return nullptr;
    if (constraints != nullptr) {
      constraints->fail("a systolic layer's folds follow pe_array.dataflow (" + config_.pe_array.dataflow +
                        "): there are no mapping parameters to pin yet");
    }
    const PeArrayConfig& array = config_.pe_array;
    SystolicSchedule schedule(loop_nest_of(layer, batch), systolic_dataflow_of(array.dataflow), array.rows, array.cols,
                              systolic_buffers(config_));
    return std::make_unique<SystolicPlan>(std::move(schedule), encoding);
  }

 private:
  AcceleratorConfig config_;
};

// Each buffer must hold one operand wavefront of the array, double-buffered (systolic_wavefront_words); with
// less, the fold model would silently assume it feeds the array.
void check_systolic_buffers(YamlMap glb_map, const AcceleratorConfig& config) {
  const GlbConfig& glb = config.glb;
  if (glb.filter_size_kib <= 0) glb_map.view().fail("a systolic array needs a filter buffer: set filter_size_kib");
  const double words_per_kib = 1024.0 * 8.0 / config.pe_array.word_bits;
  const std::int64_t wavefront = systolic_wavefront_words(config.pe_array.rows, config.pe_array.cols);
  const double ofmap_kib = glb.ofmap_size_kib > 0 ? glb.ofmap_size_kib : glb.size_kib / 2;
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
  std::vector<std::string> variants() const override { return {"os", "ws", "is"}; }
  bool has_register_files() const override { return false; }
  void check_config(YamlMap& root, const AcceleratorConfig& config) const override {
    check_systolic_buffers(root.get_map("glb"), config);
  }
  bool compresses_activations() const override { return false; }  // TPU-like arrays store raw tensors
  std::unique_ptr<ILayerPlanner> planner(const AcceleratorConfig& config,
                                         const AccessPrices& /*prices*/) const override {
    return std::make_unique<SystolicPlanner>(config);
  }
  std::unique_ptr<IPeArray> make_array(const AcceleratorConfig& config) const override {
    return std::make_unique<SystolicArray>("pe_array", config.pe_array.rows, config.pe_array.cols,
                                           systolic_dataflow_of(config.pe_array.dataflow));
  }
  std::unique_ptr<ICycleArray> make_cycle_array(const AcceleratorConfig& /*config*/, INoc& noc, IGlobalBuffer& glb,
                                                IPeArray& counters, const ClockDomain& clock) const override {
    return std::make_unique<SystolicCycleArray>("cycle_systolic_array", noc, glb, counters, clock);
  }
};

}  // namespace

SystolicPlan::SystolicPlan(SystolicSchedule schedule, const DramEncoding& encoding)
    : LayerPlan(encoding), schedule_(std::move(schedule)) {}

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
  summary.parameters = {{"dataflow", fmt::format("systolic_{}", systolic_dataflow_name(s.dataflow()))},
                        {"spatial_rows", s.spatial_rows()},
                        {"spatial_cols", s.spatial_cols()},
                        {"temporal", s.temporal()},
                        {"folds", s.fold_count()},
                        {"fold_order", nlohmann::ordered_json::array({"groups", "column_folds", "row_folds"})}};
  return summary;
}

std::vector<std::string> SystolicPlan::loop_nest() const {
  const SystolicSchedule& s = schedule_;
  const std::int64_t row_folds = (s.spatial_rows() + s.array_rows() - 1) / s.array_rows();
  const std::int64_t col_folds = (s.spatial_cols() + s.array_cols() - 1) / s.array_cols();
  return {
      fmt::format("for group in [0, {})", s.nest().groups),
      fmt::format("  for column_fold in [0, {})  # {} of {} spatial columns", col_folds, s.array_cols(),
                  s.spatial_cols()),
      fmt::format("    for row_fold in [0, {})  # {} of {} spatial rows", row_folds, s.array_rows(), s.spatial_rows()),
      fmt::format("      stream {} steps through the {}x{} array ({} stationary)", s.temporal(), s.array_rows(),
                  s.array_cols(), systolic_dataflow_name(s.dataflow()))};
}

void SystolicPlan::for_each_step(GlbContents& /*glb*/, const LayerTensors* tensors, const StepVisitor& visit) const {
  std::optional<SystolicFold> previous;
  const std::uint64_t folds = schedule_.fold_count();
  for (std::uint64_t i = 0; i < folds; ++i) {
    const SystolicFold fold = schedule_.fold(i);
    LayerStep step;
    step.traffic = schedule_.traffic(fold, previous);
    step.stored_ifmap_nonzeros = DramEncoding::expected(step.traffic.ifmap_dram_stored_words, encoding().ifmap_density);
    if (tensors != nullptr) {
      auto detail = std::make_shared<SystolicStep>();
      detail->fold = fold;
      step.detail = std::move(detail);
    }
    previous = fold;
    visit(std::move(step));
  }
}

const IDataflow& systolic_dataflow() {
  static const SystolicDataflowPlugin dataflow;
  return dataflow;
}

}  // namespace ergon
