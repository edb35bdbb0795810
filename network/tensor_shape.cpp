#include "network/tensor_shape.hpp"

#include <fmt/format.h>

namespace ergon {

std::string TensorShape::to_string() const {
  return fmt::format("[{}, {}, {}]", channels, height, width);
}

}  // namespace ergon
