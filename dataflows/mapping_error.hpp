#pragma once
// No mapping of a layer fits the hardware (or the user's constraints exclude every one); the message names
// what does not fit.
#include <stdexcept>

namespace ergon {

class MappingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ergon
