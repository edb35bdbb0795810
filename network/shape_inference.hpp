#pragma once
// Infers a layer's output shape, MACs and parameters from its input shapes, or explains why the
// shapes do not fit (InputError located at the layer).
#include "network/layer.hpp"

namespace ergon {

// `layer.input_shapes` must be set; fills output_shape, macs and params_count (and resolves
// depthwise filters and "same" padding).
void infer_layer_shape(Layer& layer);

}  // namespace ergon
