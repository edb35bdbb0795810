#pragma once
// The shape of one image's tensor: channels x height x width.
#include <cstdint>
#include <string>

namespace ergon {

struct TensorShape {
  std::int64_t channels = 0;
  std::int64_t height = 0;
  std::int64_t width = 0;

  std::int64_t elements() const { return channels * height * width; }
  std::string to_string() const;
  bool operator==(const TensorShape& other) const {
    return channels == other.channels && height == other.height && width == other.width;
  }
  bool operator!=(const TensorShape& other) const { return !(*this == other); }
};

}  // namespace ergon
