#pragma once
// Blackthorn's layer models and network estimate (seed 004, Secs. IV-C and V): one nested curve model per
// layer kind and discrete setting (kernel size, stride), profiled on a platform backend; a network's
// latency is the sum of its layers' predictions. The backend is an interface: the first one simulates
// the layer with Ergon (studies/blackthorn/ergon_latency_backend.hpp); analytical code here never calls
// the simulator itself.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "network/workload.hpp"
#include "power/estimators/blackthorn/profiler.hpp"

namespace ergon::blackthorn {

// The paper models convolutions, fully connected and pooling layers and fuses activations into them
// (Sec. V); the rest "have a total runtime of 0.06 ms, which is negligible" on a GPU. On an accelerator
// whose element-wise layers stream through DRAM they are not (a fifth of ResNet-50 on the HPC TPU), so
// Ergon adds models of the same form for them: add and global average pooling. Standalone activations
// are fused into the layer before, as the paper fuses them (and as Ergon applies them on write-back).
enum class LayerKind { kConv, kDepthwise, kFullyConnected, kMaxPool, kAvgPool, kAdd, kGlobalAvgPool };
const std::vector<LayerKind>& all_layer_kinds();
const char* layer_kind_name(LayerKind kind);
std::optional<LayerKind> layer_kind_from_name(const std::string& name);
// Whether layers of the kind have a kernel and stride (a sub-model per setting) or none.
bool has_window(LayerKind kind);
// A sub-model's name in messages and reports: "conv k3s1", or the kind alone ("add") without a window.
std::string sub_model_name(LayerKind kind, int kernel, int stride);

// One layer as the models see it: square kernels and strides, inputs of any width and height.
struct LayerSpec {
  LayerKind kind = LayerKind::kConv;
  int channels = 0, height = 0, width = 0, filters = 0, kernel = 1, stride = 1;  // conv, depthwise, pooling
  int padding = 0;              // per side; profiled at the usual one (conv k/2, except 11x11 and pooling: none)
  int inputs = 0, outputs = 0;  // fully connected
  // A grouped convolution is estimated as `groups` dense ones of channels/groups -> filters/groups (the
  // filters and channels above are per group); every other layer has 1.
  int groups = 1;
};

class ILatencyBackend {
 public:
  virtual ~ILatencyBackend() = default;
  virtual double latency_ms(const LayerSpec& layer) = 0;
  virtual std::string describe() const = 0;
};

// A sub-model to profile: a layer kind at one discrete setting, over its continuous dimensions.
struct SubModelSpec {
  LayerKind kind = LayerKind::kConv;
  int kernel = 0, stride = 0;  // 0 for fully connected
  std::vector<Dimension> dimensions;
};

// Conv: filters (innermost, as in the paper's Fig. 6), input channels, input width, input height (the
// paper's w_in and h_in, each its own dimension); depthwise, pooling and element-wise layers: channels,
// width, height; fully connected: outputs, inputs. Filters and channels span 1-1024 as the paper's
// sweeps do (1-2048 for the element-wise layers, which see ResNet-50's widest tensors). The discrete
// settings are those of the shipped networks. `scale` shrinks every range (tests and quick looks).
std::vector<SubModelSpec> default_sub_models(double scale = 1.0);

LayerSpec layer_at(const SubModelSpec& spec, const std::vector<double>& coordinates);
std::vector<double> coordinates_of(const LayerSpec& layer);

struct SubModel {
  LayerKind kind = LayerKind::kConv;
  int kernel = 0, stride = 0;
  std::vector<std::string> dimension_names;
  std::vector<double> lower, upper;  // the profiled ranges (beyond them the model extrapolates)
  Curve curve;
  std::size_t measurements = 0;
  bool converged = true;
  std::size_t fits = 0, fits_at_budget = 0;  // 1-D fits made; of them, stopped at their budget (0, 0: unknown)
};

SubModel profile_sub_model(const SubModelSpec& spec, ILatencyBackend& backend, const ProfileSettings& settings);

struct BlackthornModels {
  std::string backend;
  // A simulated backend's --batch and --fidelity (`ergon profile blackthorn`): the images each profiled layer
  // processed together, the models giving its latency per image at that batch, and "tlm" or "cycle". 0 and
  // empty for measurements.
  std::int64_t batch = 0;
  std::string fidelity;
  std::vector<SubModel> models;
  const SubModel* find(LayerKind kind, int kernel, int stride) const;
  std::size_t measurements() const;
};

nlohmann::ordered_json models_json(const BlackthornModels& models);
BlackthornModels models_from_json(const nlohmann::json& json);  // throws std::invalid_argument

// The layer a workload layer is, or nullopt (with the reason) for layers without a model.
std::optional<LayerSpec> layer_spec(const Layer& layer, std::string& why_not);

struct BlackthornLayerEstimate {
  std::string name, op;
  bool modelled = false;
  std::string note;
  double latency_ms = 0;
};
struct BlackthornEstimate {
  std::string workload;
  std::vector<BlackthornLayerEstimate> layers;
  double total_ms = 0;
  std::size_t unmodelled = 0;  // layers with work but no model (ignored, as in the paper); not fused activations
  std::size_t uncovered = 0;   // of those, layers whose model predicts <= 0 there
};

// The model's value for a layer; throws std::invalid_argument when no sub-model has its kind and setting.
// The value can be <= 0 where a fitted model leaves the region it was fitted on: such a layer is not
// covered (estimate_blackthorn reports it so, never as a latency).
double predict_ms(const BlackthornModels& models, const LayerSpec& layer);
// The dimensions of a layer outside its sub-model's profiled ranges ("" when inside).
std::string outside_profiled_range(const SubModel& model, const LayerSpec& layer);
BlackthornEstimate estimate_blackthorn(const Workload& workload, const BlackthornModels& models);

}  // namespace ergon::blackthorn
