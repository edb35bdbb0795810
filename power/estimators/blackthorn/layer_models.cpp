#include "power/estimators/blackthorn/layer_models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "power/estimators/blackthorn/measured_latencies.hpp"

namespace ergon::blackthorn {
namespace {

// 2: step widths are constants of each curve, width and height are separate dimensions, ceil steps.
constexpr int kModelsSchema = 2;

int scaled(int value, double scale) {
  return std::max(2, static_cast<int>(std::lround(value * scale)));
}

SubModelSpec conv_model(LayerKind kind, int kernel, int stride, double scale) {
  const int max_size = kernel >= 7 ? 230 : 112;  // the networks' large-kernel layers see the image
  const bool pooling = kind == LayerKind::kMaxPool || kind == LayerKind::kAvgPool;
  SubModelSpec spec{kind, kernel, stride, {}};
  if (kind == LayerKind::kConv) spec.dimensions.push_back({"filters", integer_grid(1, scaled(1024, scale))});
  spec.dimensions.push_back({"channels", integer_grid(1, scaled(pooling ? 512 : 1024, scale))});
  const std::vector<double> sides = integer_grid(kernel, std::max(kernel + 1, scaled(max_size, scale)));
  spec.dimensions.push_back({"width", sides});
  spec.dimensions.push_back({"height", sides});
  return spec;
}

// Add and global pooling: no window; channels, width and height.
SubModelSpec elementwise_model(LayerKind kind, double scale) {
  const std::vector<double> sides = integer_grid(1, scaled(112, scale));
  return {kind, 0, 0, {{"channels", integer_grid(1, scaled(2048, scale))}, {"width", sides}, {"height", sides}}};
}

LayerKind kind_from_name(const std::string& name) {
  if (const auto kind = layer_kind_from_name(name)) return *kind;
  throw std::invalid_argument("unknown layer kind '" + name + "' in the models");
}

}  // namespace

const std::vector<LayerKind>& all_layer_kinds() {
  static const std::vector<LayerKind> kinds = {
      LayerKind::kConv,    LayerKind::kDepthwise, LayerKind::kFullyConnected, LayerKind::kMaxPool,
      LayerKind::kAvgPool, LayerKind::kAdd,       LayerKind::kGlobalAvgPool};
  return kinds;
}

const char* layer_kind_name(LayerKind kind) {
  switch (kind) {
    case LayerKind::kConv: return "conv";
    case LayerKind::kDepthwise: return "depthwise";
    case LayerKind::kFullyConnected: return "fc";
    case LayerKind::kMaxPool: return "maxpool";
    case LayerKind::kAvgPool: return "avgpool";
    case LayerKind::kAdd: return "add";
    case LayerKind::kGlobalAvgPool: return "global_avgpool";
  }
  return "?";
}

std::optional<LayerKind> layer_kind_from_name(const std::string& name) {
  for (LayerKind kind : all_layer_kinds()) {
    if (name == layer_kind_name(kind)) return kind;
  }
  return std::nullopt;
}

bool has_window(LayerKind kind) {
  switch (kind) {
    case LayerKind::kFullyConnected:
    case LayerKind::kAdd:
    case LayerKind::kGlobalAvgPool: return false;
    default: return true;
  }
}

std::string sub_model_name(LayerKind kind, int kernel, int stride) {
  return has_window(kind) ? fmt::format("{} k{}s{}", layer_kind_name(kind), kernel, stride) : layer_kind_name(kind);
}

std::vector<SubModelSpec> default_sub_models(double scale) {
  std::vector<SubModelSpec> specs;
  for (auto [k, s] : {std::pair{1, 1}, {1, 2}, {3, 1}, {3, 2}, {5, 1}, {7, 2}, {11, 4}}) {
    specs.push_back(conv_model(LayerKind::kConv, k, s, scale));
  }
  for (auto [k, s] : {std::pair{3, 1}, {3, 2}, {5, 1}, {5, 2}})
    specs.push_back(conv_model(LayerKind::kDepthwise, k, s, scale));
  for (auto [k, s] : {std::pair{2, 2}, {3, 1}, {3, 2}}) specs.push_back(conv_model(LayerKind::kMaxPool, k, s, scale));
  specs.push_back(conv_model(LayerKind::kAvgPool, 3, 1, scale));
  specs.push_back(
      {LayerKind::kFullyConnected,
       0,
       0,
       {{"outputs", integer_grid(1, scaled(4096, scale))}, {"inputs", integer_grid(1, scaled(9216, scale))}}});
  for (LayerKind kind : {LayerKind::kAdd, LayerKind::kGlobalAvgPool}) specs.push_back(elementwise_model(kind, scale));
  return specs;
}

LayerSpec layer_at(const SubModelSpec& spec, const std::vector<double>& c) {
  LayerSpec layer;
  layer.kind = spec.kind;
  layer.kernel = spec.kernel;
  layer.stride = spec.stride;
  layer.padding = profiled_padding(spec.kind, spec.kernel);
  const auto at = [&](std::size_t i) { return static_cast<int>(std::lround(c.at(i))); };
  switch (spec.kind) {
    case LayerKind::kConv:
      layer.filters = at(0);
      layer.channels = at(1);
      layer.width = at(2);
      layer.height = at(3);
      break;
    case LayerKind::kFullyConnected:
      layer.outputs = at(0);
      layer.inputs = at(1);
      break;
    default:
      layer.channels = at(0);
      layer.width = at(1);
      layer.height = at(2);
      break;
  }
  return layer;
}

std::vector<double> coordinates_of(const LayerSpec& l) {
  switch (l.kind) {
    case LayerKind::kConv: return {double(l.filters), double(l.channels), double(l.width), double(l.height)};
    case LayerKind::kFullyConnected: return {double(l.outputs), double(l.inputs)};
    default: return {double(l.channels), double(l.width), double(l.height)};
  }
}

SubModel profile_sub_model(const SubModelSpec& spec, ILatencyBackend& backend, const ProfileSettings& settings) {
  const LatencyFunction latency = [&](const std::vector<double>& c) { return backend.latency_ms(layer_at(spec, c)); };
  const ProfileResult result = profile_dimensions(spec.dimensions, latency, settings);
  SubModel model;
  model.kind = spec.kind;
  model.kernel = spec.kernel;
  model.stride = spec.stride;
  for (const Dimension& d : spec.dimensions) {
    model.dimension_names.push_back(d.name);
    model.lower.push_back(d.grid.front());
    model.upper.push_back(d.grid.back());
  }
  for (double constant : leaf_constants(result.model)) {
    if (!std::isfinite(constant)) {  // e.g. a backend that reports 0 ms everywhere: nothing to fit
      throw std::runtime_error(
          fmt::format("the {} model fitted a non-finite constant; are the backend's latencies for these layers zero?",
                      sub_model_name(spec.kind, spec.kernel, spec.stride)));
    }
  }
  model.curve = result.model;
  model.measurements = result.measurements;
  model.converged = result.converged();
  model.fits = result.fits;
  model.fits_at_budget = result.fits_at_budget;
  return model;
}

const SubModel* BlackthornModels::find(LayerKind kind, int kernel, int stride) const {
  for (const SubModel& m : models) {
    if (m.kind == kind && (!has_window(kind) || (m.kernel == kernel && m.stride == stride))) return &m;
  }
  return nullptr;
}

std::size_t BlackthornModels::measurements() const {
  std::size_t total = 0;
  for (const SubModel& m : models) total += m.measurements;
  return total;
}

nlohmann::ordered_json models_json(const BlackthornModels& models) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const SubModel& m : models.models) {
    list.push_back({{"kind", layer_kind_name(m.kind)},
                    {"kernel", m.kernel},
                    {"stride", m.stride},
                    {"dimensions", m.dimension_names},
                    {"lower", m.lower},
                    {"upper", m.upper},
                    {"measurements", m.measurements},
                    {"converged", m.converged},
                    {"fits", m.fits},
                    {"fits_at_budget", m.fits_at_budget},
                    {"model", to_json(m.curve)}});
  }
  nlohmann::ordered_json json = {{"schema_version", kModelsSchema}, {"backend", models.backend}};
  if (models.batch > 0) {
    json["batch"] = models.batch;
    json["fidelity"] = models.fidelity;
  }
  json["models"] = list;
  return json;
}

BlackthornModels models_from_json(const nlohmann::json& json) {
  try {
    const int schema = json.at("schema_version").get<int>();
    if (schema != kModelsSchema) {
      throw std::invalid_argument(fmt::format(
          "schema_version {} (this Ergon reads {}: profile the models again with `ergon profile blackthorn`)", schema,
          kModelsSchema));
    }
    BlackthornModels models;
    models.backend = json.at("backend").get<std::string>();
    models.batch = json.value("batch", std::int64_t{0});  // absent for measurements and older files
    models.fidelity = json.value("fidelity", std::string());
    for (const auto& entry : json.at("models")) {
      SubModel m;
      m.kind = kind_from_name(entry.at("kind").get<std::string>());
      m.kernel = entry.at("kernel").get<int>();
      m.stride = entry.at("stride").get<int>();
      m.dimension_names = entry.at("dimensions").get<std::vector<std::string>>();
      m.lower = entry.at("lower").get<std::vector<double>>();
      m.upper = entry.at("upper").get<std::vector<double>>();
      m.measurements = entry.at("measurements").get<std::size_t>();
      m.converged = entry.at("converged").get<bool>();
      m.fits = entry.value("fits", std::size_t{0});  // absent from files written before they were counted
      m.fits_at_budget = entry.value("fits_at_budget", std::size_t{0});
      m.curve = curve_from_json(entry.at("model"));
      models.models.push_back(std::move(m));
    }
    return models;
  } catch (const nlohmann::json::exception& error) {
    throw std::invalid_argument(std::string("malformed Blackthorn models: ") + error.what());
  }
}

std::optional<LayerSpec> layer_spec(const Layer& layer, std::string& why_not) {
  LayerSpec spec;
  const TensorShape* in = layer.input_shapes.empty() ? nullptr : &layer.input_shapes.front();
  const auto square = [&](const Window& w) {
    if (w.kernel_h != w.kernel_w || w.stride_h != w.stride_w) {
      why_not = "the models cover square kernels and strides";
      return false;
    }
    spec.channels = static_cast<int>(in->channels);
    spec.height = static_cast<int>(in->height);
    spec.width = static_cast<int>(in->width);
    spec.kernel = static_cast<int>(w.kernel_h);
    spec.stride = static_cast<int>(w.stride_h);
    return true;
  };
  switch (layer.op) {
    case OpKind::kConv: {
      const ConvParams& conv = layer.conv();
      if (!square(conv.window)) return std::nullopt;
      const bool depthwise = conv.groups > 1 && conv.groups == in->channels && conv.filters == in->channels;
      spec.kind = depthwise ? LayerKind::kDepthwise : LayerKind::kConv;
      spec.filters = static_cast<int>(conv.filters);
      if (!depthwise && conv.groups > 1) {  // as `groups` dense convolutions, one after the other
        spec.groups = static_cast<int>(conv.groups);
        spec.channels /= spec.groups;
        spec.filters /= spec.groups;
      }
      return spec;
    }
    case OpKind::kFullyConnected:
      spec.kind = LayerKind::kFullyConnected;
      spec.inputs = static_cast<int>(in->elements());
      spec.outputs = static_cast<int>(layer.output_shape.elements());
      return spec;
    case OpKind::kMaxPool:
    case OpKind::kAvgPool:
      spec.kind = layer.op == OpKind::kMaxPool ? LayerKind::kMaxPool : LayerKind::kAvgPool;
      if (!square(std::get<PoolParams>(layer.params).window)) return std::nullopt;
      return spec;
    case OpKind::kAdd:
    case OpKind::kGlobalAvgPool:
      if (layer.op == OpKind::kAdd && layer.input_shapes.size() != 2) {
        why_not = "the add model covers two inputs";
        return std::nullopt;
      }
      if (layer.op == OpKind::kAdd && !(layer.input_shapes[0] == layer.input_shapes[1])) {
        why_not = "the add model covers inputs of one shape (no broadcasting)";
        return std::nullopt;
      }
      spec.kind = layer.op == OpKind::kAdd ? LayerKind::kAdd : LayerKind::kGlobalAvgPool;
      spec.channels = static_cast<int>(in->channels);
      spec.height = static_cast<int>(in->height);
      spec.width = static_cast<int>(in->width);
      spec.kernel = spec.stride = 0;
      return spec;
    default: why_not = "no model for this layer type (ignored, as in the paper)"; return std::nullopt;
  }
}

double predict_ms(const BlackthornModels& models, const LayerSpec& layer) {
  const SubModel* model = models.find(layer.kind, layer.kernel, layer.stride);
  if (model == nullptr && !has_window(layer.kind)) {
    throw std::invalid_argument(
        fmt::format("no {} model (models profiled before Ergon had one: profile again)", layer_kind_name(layer.kind)));
  }
  if (model == nullptr) {
    throw std::invalid_argument(
        fmt::format("no {} model for kernel {} stride {}", layer_kind_name(layer.kind), layer.kernel, layer.stride));
  }
  return evaluate(model->curve, coordinates_of(layer));
}

std::string outside_profiled_range(const SubModel& model, const LayerSpec& layer) {
  const std::vector<double> coordinates = coordinates_of(layer);
  std::string outside;
  for (std::size_t d = 0; d < coordinates.size() && d < model.lower.size(); ++d) {
    if (coordinates[d] < model.lower[d] || coordinates[d] > model.upper[d]) {
      outside += fmt::format("{}{} {:g} outside {:g}-{:g}", outside.empty() ? "" : ", ", model.dimension_names[d],
                             coordinates[d], model.lower[d], model.upper[d]);
    }
  }
  return outside;
}

namespace {

// One workload layer's estimate: a latency, or the reason it has none.
void estimate_layer(const Layer& layer, const BlackthornModels& models, BlackthornLayerEstimate& entry,
                    bool& uncovered) {
  if (layer.op == OpKind::kActivation) {
    entry.note = "fused into the layer before (the paper's layer fusion; Ergon applies it on write-back)";
    return;
  }
  std::string why_not;
  const std::optional<LayerSpec> spec = layer_spec(layer, why_not);
  if (!spec) {
    entry.note = why_not;
    return;
  }
  try {
    const double per_image_ms = predict_ms(models, *spec);
    const std::string outside = outside_profiled_range(*models.find(spec->kind, spec->kernel, spec->stride), *spec);
    if (per_image_ms <= 0) {
      uncovered = true;
      entry.note = fmt::format("not covered: the model gives {:.4g} ms here{}", per_image_ms,
                               outside.empty() ? "" : " (" + outside + ")");
      return;
    }
    entry.latency_ms = per_image_ms * spec->groups * static_cast<double>(layer.batch);
    entry.modelled = true;
    if (spec->groups > 1) entry.note = fmt::format("as {} dense convolutions of one group each", spec->groups);
    if (!outside.empty()) entry.note += (entry.note.empty() ? "" : "; ") + ("extrapolated: " + outside);
  } catch (const std::invalid_argument& error) {
    entry.note = error.what();
  }
}

}  // namespace

BlackthornEstimate estimate_blackthorn(const Workload& workload, const BlackthornModels& models) {
  BlackthornEstimate estimate;
  estimate.workload = workload.name();
  for (const Layer& layer : workload.layers()) {
    BlackthornLayerEstimate entry{layer.name, op_name(layer.op), false, "", 0};
    bool uncovered = false;
    estimate_layer(layer, models, entry, uncovered);
    if (!entry.modelled && layer.op != OpKind::kInput && layer.op != OpKind::kActivation) ++estimate.unmodelled;
    if (uncovered) ++estimate.uncovered;
    estimate.total_ms += entry.latency_ms;
    estimate.layers.push_back(std::move(entry));
  }
  return estimate;
}

}  // namespace ergon::blackthorn
