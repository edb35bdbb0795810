#include "network/importers/onnx/onnx_constant.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace ergon {
namespace {

using onnx::TensorProto;

std::size_t element_bytes(std::int32_t data_type) {
  switch (data_type) {
    case TensorProto::BOOL:
    case TensorProto::INT8:
    case TensorProto::UINT8: return 1;
    case TensorProto::INT16:
    case TensorProto::UINT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16: return 2;
    case TensorProto::INT32:
    case TensorProto::UINT32:
    case TensorProto::FLOAT: return 4;
    case TensorProto::INT64:
    case TensorProto::UINT64:
    case TensorProto::DOUBLE: return 8;
    default: return 0;
  }
}

template <typename T>
T load(const char* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

// IEEE half and bfloat16 to double (values of shape arithmetic are small; exactness matters for integers).
double half_to_double(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa == 0 ? sign * std::numeric_limits<double>::infinity() : std::nan("");
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

double bfloat_to_double(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  return load<float>(reinterpret_cast<const char*>(&wide));
}

// One element of raw (little-endian) data.
void append_raw(OnnxConstant& c, const char* p) {
  switch (c.data_type) {
    case TensorProto::BOOL:
    case TensorProto::UINT8: c.ints.push_back(load<std::uint8_t>(p)); break;
    case TensorProto::INT8: c.ints.push_back(load<std::int8_t>(p)); break;
    case TensorProto::INT16: c.ints.push_back(load<std::int16_t>(p)); break;
    case TensorProto::UINT16: c.ints.push_back(load<std::uint16_t>(p)); break;
    case TensorProto::INT32: c.ints.push_back(load<std::int32_t>(p)); break;
    case TensorProto::UINT32: c.ints.push_back(load<std::uint32_t>(p)); break;
    case TensorProto::INT64: c.ints.push_back(load<std::int64_t>(p)); break;
    case TensorProto::UINT64: c.ints.push_back(static_cast<std::int64_t>(load<std::uint64_t>(p))); break;
    case TensorProto::FLOAT: c.reals.push_back(load<float>(p)); break;
    case TensorProto::DOUBLE: c.reals.push_back(load<double>(p)); break;
    case TensorProto::FLOAT16: c.reals.push_back(half_to_double(load<std::uint16_t>(p))); break;
    case TensorProto::BFLOAT16: c.reals.push_back(bfloat_to_double(load<std::uint16_t>(p))); break;
    default: break;
  }
}

// The typed repeated fields, as the ONNX spec assigns them per data type.
bool read_typed_fields(const TensorProto& t, OnnxConstant& c) {
  const auto count = static_cast<std::size_t>(c.elements());
  switch (c.data_type) {
    case TensorProto::FLOAT:
      if (static_cast<std::size_t>(t.float_data_size()) != count) return false;
      c.reals.assign(t.float_data().begin(), t.float_data().end());
      return true;
    case TensorProto::DOUBLE:
      if (static_cast<std::size_t>(t.double_data_size()) != count) return false;
      c.reals.assign(t.double_data().begin(), t.double_data().end());
      return true;
    case TensorProto::INT64:
      if (static_cast<std::size_t>(t.int64_data_size()) != count) return false;
      c.ints.assign(t.int64_data().begin(), t.int64_data().end());
      return true;
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      if (static_cast<std::size_t>(t.uint64_data_size()) != count) return false;
      for (const auto v : t.uint64_data()) c.ints.push_back(static_cast<std::int64_t>(v));
      return true;
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16:
      if (static_cast<std::size_t>(t.int32_data_size()) != count) return false;
      for (const auto v : t.int32_data()) {
        const auto bits = static_cast<std::uint16_t>(v);
        c.reals.push_back(c.data_type == TensorProto::FLOAT16 ? half_to_double(bits) : bfloat_to_double(bits));
      }
      return true;
    default:
      if (element_bytes(c.data_type) == 0 || static_cast<std::size_t>(t.int32_data_size()) != count) return false;
      c.ints.assign(t.int32_data().begin(), t.int32_data().end());
      return true;
  }
}

OnnxConstant scalar_constant(std::int32_t type, std::vector<std::int64_t> dims) {
  OnnxConstant c;
  c.data_type = type;
  c.dims = std::move(dims);
  c.has_values = true;
  return c;
}

}  // namespace

std::int32_t declared_element_type(const onnx::GraphProto& graph, const std::string& tensor) {
  for (const auto* values : {&graph.input(), &graph.value_info(), &graph.output()}) {
    for (const auto& value : *values) {
      if (value.name() == tensor && value.type().tensor_type().elem_type() != 0) {
        return value.type().tensor_type().elem_type();
      }
    }
  }
  for (const auto& init : graph.initializer()) {
    if (init.name() == tensor) return init.data_type();
  }
  return onnx::TensorProto::FLOAT;
}

int quantised_type_bits(std::int32_t data_type) {
  switch (data_type) {
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::UINT8: return 8;
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::UINT16: return 16;
    case 21:            // UINT4 (ONNX 1.16; this library predates it)
    case 22: return 4;  // INT4
    default: return 0;
  }
}

bool is_integer_type(std::int32_t data_type) {
  switch (data_type) {
    case TensorProto::FLOAT:
    case TensorProto::DOUBLE:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16: return false;
    default: return true;
  }
}

bool OnnxConstant::is_integer() const {
  return is_integer_type(data_type);
}

std::int64_t OnnxConstant::elements() const {
  std::int64_t count = 1;
  for (const std::int64_t d : dims) {
    if (d < 0 || (d > 0 && count > std::numeric_limits<std::int64_t>::max() / d)) return -1;
    count *= d;
  }
  return count;
}

std::optional<std::vector<std::int64_t>> OnnxConstant::as_ints() const {
  if (!has_values) return std::nullopt;
  if (is_integer()) return ints;
  std::vector<std::int64_t> values;
  for (const double v : reals) values.push_back(static_cast<std::int64_t>(v));
  return values;
}

OnnxConstant constant_from_proto(const TensorProto& t) {
  OnnxConstant c;
  c.dims.assign(t.dims().begin(), t.dims().end());
  c.data_type = t.data_type();
  const std::int64_t count = c.elements();
  const std::size_t bytes = element_bytes(c.data_type);
  if (count < 0 || count > kMaxConstantValues || bytes == 0) return c;
  if (t.data_location() == TensorProto::EXTERNAL) return c;
  if (t.has_raw_data()) {
    if (t.raw_data().size() != static_cast<std::size_t>(count) * bytes) return c;
    for (std::int64_t i = 0; i < count; ++i) append_raw(c, t.raw_data().data() + static_cast<std::size_t>(i) * bytes);
    c.has_values = true;
    return c;
  }
  c.has_values = read_typed_fields(t, c);
  if (!c.has_values) {
    c.ints.clear();
    c.reals.clear();
  }
  return c;
}

TensorProto constant_to_proto(const OnnxConstant& c, const std::string& name) {
  TensorProto t;
  t.set_name(name);
  for (const std::int64_t d : c.dims) t.add_dims(d);
  // Shape inference reads values of int64 shape inputs and float scales; other types keep their type, with
  // values re-encoded in the widest field of their kind.
  t.set_data_type(c.data_type);
  if (!c.has_values) return t;
  if (c.is_integer()) {
    t.set_data_type(c.data_type == TensorProto::BOOL || c.data_type == TensorProto::INT32 ? c.data_type
                                                                                          : TensorProto::INT64);
    if (t.data_type() == TensorProto::INT64) {
      for (const std::int64_t v : c.ints) t.add_int64_data(v);
    } else {
      for (const std::int64_t v : c.ints) t.add_int32_data(static_cast<std::int32_t>(v));
    }
  } else {
    t.set_data_type(c.data_type == TensorProto::DOUBLE ? TensorProto::DOUBLE : TensorProto::FLOAT);
    for (const double v : c.reals) {
      if (t.data_type() == TensorProto::DOUBLE) {
        t.add_double_data(v);
      } else {
        t.add_float_data(static_cast<float>(v));
      }
    }
  }
  return t;
}

std::optional<OnnxConstant> constant_node_value(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    if (a.name() == "value" && a.has_t()) return constant_from_proto(a.t());
    if (a.name() == "value_int") {
      OnnxConstant c = scalar_constant(TensorProto::INT64, {});
      c.ints.push_back(a.i());
      return c;
    }
    if (a.name() == "value_ints") {
      OnnxConstant c = scalar_constant(TensorProto::INT64, {a.ints_size()});
      c.ints.assign(a.ints().begin(), a.ints().end());
      return c;
    }
    if (a.name() == "value_float") {
      OnnxConstant c = scalar_constant(TensorProto::FLOAT, {});
      c.reals.push_back(a.f());
      return c;
    }
    if (a.name() == "value_floats") {
      OnnxConstant c = scalar_constant(TensorProto::FLOAT, {a.floats_size()});
      c.reals.assign(a.floats().begin(), a.floats().end());
      return c;
    }
  }
  return std::nullopt;
}

}  // namespace ergon
