#include "network/importers/onnx/onnx_folding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>

#include "network/importers/onnx/onnx_attributes.hpp"

namespace ergon {
namespace {

using onnx::TensorProto;
using Dims = std::vector<std::int64_t>;

std::int64_t count_of(const Dims& dims) {
  std::int64_t count = 1;
  for (const std::int64_t d : dims) count *= d;
  return count;
}

Dims strides_of(const Dims& dims) {
  Dims strides(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

std::int64_t normalized_axis(std::int64_t axis, std::size_t rank, const std::string& what) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r) throw FoldError(fmt::format("{} {} is outside a rank-{} tensor", what, axis, rank));
  return axis < 0 ? axis + r : axis;
}

std::optional<Dims> ints_attribute(const onnx::NodeProto& node, const std::string& name) {
  const auto* a = find_attribute(node, name);
  if (a == nullptr) return std::nullopt;
  return Dims(a->ints().begin(), a->ints().end());
}

OnnxConstant with_values(std::int32_t type, Dims dims) {
  OnnxConstant c;
  c.data_type = type;
  c.dims = std::move(dims);
  c.has_values = true;
  return c;
}

OnnxConstant dims_only(std::int32_t type, Dims dims) {
  OnnxConstant c;
  c.data_type = type;
  c.dims = std::move(dims);
  return c;
}

OnnxConstant int64_vector(const Dims& values) {
  OnnxConstant c = with_values(TensorProto::INT64, {static_cast<std::int64_t>(values.size())});
  c.ints = values;
  return c;
}

// Copies element `from` of `in` to the end of `out` (same kind of type).
void push_element(OnnxConstant& out, const OnnxConstant& in, std::size_t from) {
  if (out.is_integer()) {
    out.ints.push_back(in.integer(from));
  } else {
    out.reals.push_back(in.real(from));
  }
}

// numpy broadcasting of several shapes.
Dims broadcast_dims(const std::vector<Dims>& shapes) {
  std::size_t rank = 0;
  for (const Dims& s : shapes) rank = std::max(rank, s.size());
  Dims out(rank, 1);
  for (const Dims& s : shapes) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::int64_t& o = out[rank - s.size() + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o != 1) throw FoldError("operand shapes do not broadcast");
      o = s[i];
    }
  }
  return out;
}

// The flat index into an operand of shape `dims` for the flat output index `flat` of a broadcast result.
std::size_t broadcast_index(std::int64_t flat, const Dims& out, const Dims& dims) {
  std::size_t index = 0;
  std::int64_t stride = 1;
  for (std::size_t i = dims.size(); i-- > 0;) {
    const std::size_t axis = out.size() - dims.size() + i;
    const std::int64_t out_stride = count_of(Dims(out.begin() + static_cast<std::ptrdiff_t>(axis) + 1, out.end()));
    const std::int64_t coordinate = (flat / out_stride) % out[axis];
    if (dims[i] != 1) index += static_cast<std::size_t>(coordinate * stride);
    stride *= dims[i];
  }
  return index;
}

bool all_known(const std::vector<FoldInput>& inputs, std::size_t first = 0) {
  for (std::size_t i = first; i < inputs.size(); ++i) {
    if (inputs[i].constant == nullptr || !inputs[i].constant->has_values) return false;
  }
  return true;
}

const OnnxConstant& at(const std::vector<FoldInput>& inputs, std::size_t i) {
  return *inputs.at(i).constant;
}

Dims values_of(const OnnxConstant& c) {
  return *c.as_ints();
}

// Element-wise over broadcast operands: `integer` when every operand is an integer tensor, else `real`.
using IntegerOp = std::function<std::int64_t(const std::vector<std::int64_t>&)>;
using RealOp = std::function<double(const std::vector<double>&)>;

OnnxConstant elementwise(const std::vector<const OnnxConstant*>& operands, const IntegerOp& integer, const RealOp& real,
                         std::optional<std::int32_t> result_type = std::nullopt) {
  std::vector<Dims> shapes;
  bool integers = true;
  for (const auto* o : operands) {
    shapes.push_back(o->dims);
    integers = integers && o->is_integer();
  }
  const Dims out = broadcast_dims(shapes);
  const std::int32_t type = result_type.value_or(integers ? operands.front()->data_type : TensorProto::FLOAT);
  OnnxConstant c = with_values(type, out);
  const std::int64_t n = count_of(out);
  if (n > kMaxConstantValues) return dims_only(type, out);
  for (std::int64_t flat = 0; flat < n; ++flat) {
    if (integers) {
      std::vector<std::int64_t> args;
      for (const auto* o : operands) args.push_back(o->integer(broadcast_index(flat, out, o->dims)));
      const std::int64_t value = integer(args);
      if (c.is_integer()) {
        c.ints.push_back(value);
      } else {
        c.reals.push_back(static_cast<double>(value));
      }
    } else {
      std::vector<double> args;
      for (const auto* o : operands) args.push_back(o->real(broadcast_index(flat, out, o->dims)));
      const double value = real(args);
      if (c.is_integer()) {
        c.ints.push_back(static_cast<std::int64_t>(value));
      } else {
        c.reals.push_back(value);
      }
    }
  }
  return c;
}

std::vector<const OnnxConstant*> operands_of(const std::vector<FoldInput>& inputs) {
  std::vector<const OnnxConstant*> operands;
  for (const auto& input : inputs) operands.push_back(input.constant);
  return operands;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  if (b == 0) throw FoldError("integer division by zero");
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::optional<OnnxConstant> binary(const std::string& op, const std::vector<FoldInput>& inputs,
                                   const onnx::NodeProto& node) {
  const auto operands = operands_of(inputs);
  using I = std::vector<std::int64_t>;
  using R = std::vector<double>;
  if (op == "Add")
    return elementwise(
        operands, [](const I& v) { return v[0] + v[1]; }, [](const R& v) { return v[0] + v[1]; });
  if (op == "Sub")
    return elementwise(
        operands, [](const I& v) { return v[0] - v[1]; }, [](const R& v) { return v[0] - v[1]; });
  if (op == "Mul")
    return elementwise(
        operands, [](const I& v) { return v[0] * v[1]; }, [](const R& v) { return v[0] * v[1]; });
  if (op == "Div") {
    // Integer Div truncates toward zero as C does (onnxruntime); shape arithmetic divides non-negatives.
    return elementwise(
        operands,
        [](const I& v) {
          if (v[1] == 0) throw FoldError("integer division by zero");
          return v[0] / v[1];
        },
        [](const R& v) { return v[0] / v[1]; });
  }
  if (op == "Pow") {
    return elementwise(
        operands, [](const I& v) { return static_cast<std::int64_t>(std::llround(std::pow(v[0], v[1]))); },
        [](const R& v) { return std::pow(v[0], v[1]); }, operands[0]->data_type);
  }
  if (op == "Mod") {
    const bool fmod = int_attribute(node, "fmod", 0) != 0;
    return elementwise(
        operands,
        [fmod](const I& v) {
          if (v[1] == 0) throw FoldError("Mod by zero");
          return fmod ? v[0] % v[1] : v[0] - floor_div(v[0], v[1]) * v[1];
        },
        [](const R& v) { return std::fmod(v[0], v[1]); });
  }
  const auto compare = [&](const std::function<bool(double, double)>& test) {
    return elementwise(
        operands,
        [&](const I& v) {
          return static_cast<std::int64_t>(test(static_cast<double>(v[0]), static_cast<double>(v[1])));
        },
        [&](const R& v) { return test(v[0], v[1]) ? 1.0 : 0.0; }, TensorProto::BOOL);
  };
  if (op == "Equal") return compare([](double a, double b) { return a == b; });
  if (op == "Less") return compare([](double a, double b) { return a < b; });
  if (op == "Greater") return compare([](double a, double b) { return a > b; });
  if (op == "LessOrEqual") return compare([](double a, double b) { return a <= b; });
  if (op == "GreaterOrEqual") return compare([](double a, double b) { return a >= b; });
  if (op == "And") return compare([](double a, double b) { return a != 0 && b != 0; });
  if (op == "Or") return compare([](double a, double b) { return a != 0 || b != 0; });
  if (op == "Xor") return compare([](double a, double b) { return (a != 0) != (b != 0); });
  return std::nullopt;
}

std::optional<OnnxConstant> variadic(const std::string& op, const std::vector<FoldInput>& inputs) {
  const auto operands = operands_of(inputs);
  using I = std::vector<std::int64_t>;
  using R = std::vector<double>;
  if (op == "Max") {
    return elementwise(
        operands, [](const I& v) { return *std::max_element(v.begin(), v.end()); },
        [](const R& v) { return *std::max_element(v.begin(), v.end()); });
  }
  if (op == "Min") {
    return elementwise(
        operands, [](const I& v) { return *std::min_element(v.begin(), v.end()); },
        [](const R& v) { return *std::min_element(v.begin(), v.end()); });
  }
  if (op == "Sum") {
    return elementwise(
        operands, [](const I& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); },
        [](const R& v) { return std::accumulate(v.begin(), v.end(), 0.0); });
  }
  if (op == "Where") {
    return elementwise(
        operands, [](const I& v) { return v[0] != 0 ? v[1] : v[2]; },
        [](const R& v) { return v[0] != 0 ? v[1] : v[2]; }, operands[1]->data_type);
  }
  return std::nullopt;
}

std::optional<OnnxConstant> unary(const std::string& op, const OnnxConstant& x) {
  const std::vector<const OnnxConstant*> operands{&x};
  using I = std::vector<std::int64_t>;
  using R = std::vector<double>;
  const auto real = [&](double (*f)(double)) {
    return elementwise(
        operands, [f](const I& v) { return static_cast<std::int64_t>(f(static_cast<double>(v[0]))); },
        [f](const R& v) { return f(v[0]); }, x.data_type);
  };
  if (op == "Neg")
    return elementwise(
        operands, [](const I& v) { return -v[0]; }, [](const R& v) { return -v[0]; });
  if (op == "Abs") return real([](double v) { return std::fabs(v); });
  if (op == "Sqrt") return real([](double v) { return std::sqrt(v); });
  if (op == "Floor") return real([](double v) { return std::floor(v); });
  if (op == "Ceil") return real([](double v) { return std::ceil(v); });
  if (op == "Round") return real([](double v) { return std::nearbyint(v); });
  if (op == "Exp") return real([](double v) { return std::exp(v); });
  if (op == "Log") return real([](double v) { return std::log(v); });
  if (op == "Reciprocal") return real([](double v) { return 1.0 / v; });
  if (op == "Relu") return real([](double v) { return std::max(v, 0.0); });
  if (op == "Sign") return real([](double v) { return static_cast<double>((v > 0) - (v < 0)); });
  if (op == "Not") {
    return elementwise(
        operands, [](const I& v) { return static_cast<std::int64_t>(v[0] == 0); },
        [](const R& v) { return v[0] == 0 ? 1.0 : 0.0; }, TensorProto::BOOL);
  }
  return std::nullopt;
}

OnnxConstant cast(const OnnxConstant& x, std::int32_t to) {
  if (!x.has_values) return dims_only(to, x.dims);
  OnnxConstant c = with_values(to, x.dims);
  for (std::size_t i = 0; i < static_cast<std::size_t>(x.elements()); ++i) {
    if (to == TensorProto::BOOL) {
      c.ints.push_back(x.real(i) != 0 ? 1 : 0);
    } else if (c.is_integer()) {
      c.ints.push_back(x.is_integer() ? x.ints[i] : static_cast<std::int64_t>(std::trunc(x.reals[i])));
    } else {
      c.reals.push_back(x.real(i));
    }
  }
  return c;
}

OnnxConstant gather(const OnnxConstant& data, const OnnxConstant& indices, std::int64_t axis_attribute) {
  if (data.dims.empty()) throw FoldError("Gather needs data of rank 1 or more");
  const auto axis = static_cast<std::size_t>(normalized_axis(axis_attribute, data.dims.size(), "axis"));
  Dims out(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis));
  out.insert(out.end(), indices.dims.begin(), indices.dims.end());
  out.insert(out.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.dims.end());
  OnnxConstant c = with_values(data.data_type, out);
  const std::int64_t outer = count_of(Dims(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis)));
  const std::int64_t inner = count_of(Dims(data.dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.dims.end()));
  const std::int64_t extent = data.dims[axis];
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(indices.elements()); ++k) {
      std::int64_t index = indices.integer(k);
      if (index < -extent || index >= extent) {
        throw FoldError(fmt::format("Gather index {} is outside an axis of {}", index, extent));
      }
      if (index < 0) index += extent;
      for (std::int64_t i = 0; i < inner; ++i) {
        push_element(c, data, static_cast<std::size_t>((o * extent + index) * inner + i));
      }
    }
  }
  return c;
}

// Copies the elements of `x` at the positions a strided box selects: per axis, start and step and count.
OnnxConstant select_box(const OnnxConstant& x, const Dims& starts, const Dims& steps, const Dims& counts) {
  OnnxConstant c = with_values(x.data_type, counts);
  const Dims strides = strides_of(x.dims);
  const std::int64_t n = count_of(counts);
  for (std::int64_t flat = 0; flat < n; ++flat) {
    std::int64_t rest = flat, index = 0;
    for (std::size_t i = counts.size(); i-- > 0;) {
      const std::int64_t coordinate = rest % counts[i];
      rest /= counts[i];
      index += (starts[i] + coordinate * steps[i]) * strides[i];
    }
    push_element(c, x, static_cast<std::size_t>(index));
  }
  return c;
}

OnnxConstant slice(const OnnxConstant& x, const Dims& starts, const Dims& ends, std::optional<Dims> axes,
                   std::optional<Dims> steps) {
  const std::size_t rank = x.dims.size();
  if (!axes) {
    axes = Dims(starts.size());
    std::iota(axes->begin(), axes->end(), 0);
  }
  if (!steps) steps = Dims(starts.size(), 1);
  if (ends.size() != starts.size() || axes->size() != starts.size() || steps->size() != starts.size()) {
    throw FoldError("Slice's starts, ends, axes and steps differ in length");
  }
  Dims begin(rank, 0), step(rank, 1), count = x.dims;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const auto axis = static_cast<std::size_t>(normalized_axis((*axes)[i], rank, "Slice axis"));
    const std::int64_t dim = x.dims[axis], s = (*steps)[i];
    if (s == 0) throw FoldError("Slice step 0");
    std::int64_t first = starts[i], last = ends[i];
    if (first < 0) first += dim;
    if (last < 0 && last > std::numeric_limits<std::int64_t>::min() + dim) last += dim;
    if (s > 0) {
      first = std::clamp<std::int64_t>(first, 0, dim);
      last = std::clamp<std::int64_t>(last, 0, dim);
      count[axis] = std::max<std::int64_t>((last - first + s - 1) / s, 0);
    } else {
      first = std::clamp<std::int64_t>(first, 0, dim - 1);
      last = std::clamp<std::int64_t>(last, -1, dim - 1);
      count[axis] = std::max<std::int64_t>((first - last + (-s) - 1) / (-s), 0);
    }
    begin[axis] = first;
    step[axis] = s;
  }
  return select_box(x, begin, step, count);
}

OnnxConstant concat(const std::vector<FoldInput>& inputs, std::int64_t axis_attribute) {
  const OnnxConstant& first = at(inputs, 0);
  const auto axis = static_cast<std::size_t>(normalized_axis(axis_attribute, first.dims.size(), "Concat axis"));
  Dims out = first.dims;
  out[axis] = 0;
  for (const auto& input : inputs) {
    if (input.constant->dims.size() != first.dims.size()) throw FoldError("Concat of tensors of different ranks");
    out[axis] += input.constant->dims[axis];
  }
  OnnxConstant c = with_values(first.data_type, out);
  if (count_of(out) > kMaxConstantValues) return dims_only(first.data_type, out);
  const std::int64_t outer = count_of(Dims(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(axis)));
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const auto& input : inputs) {
      const OnnxConstant& part = *input.constant;
      const std::int64_t block = count_of(Dims(part.dims.begin() + static_cast<std::ptrdiff_t>(axis), part.dims.end()));
      for (std::int64_t i = 0; i < block; ++i) push_element(c, part, static_cast<std::size_t>(o * block + i));
    }
  }
  return c;
}

// The output dims of Reshape (0 copies the input's dim unless allowzero, -1 is inferred).
Dims reshape_dims(const Dims& in, const Dims& target, bool allow_zero) {
  Dims out = target;
  std::int64_t known = 1;
  std::optional<std::size_t> inferred;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0 && !allow_zero) {
      if (i >= in.size()) throw FoldError("Reshape copies a dimension the input does not have");
      out[i] = in[i];
    }
    if (out[i] == -1) {
      if (inferred) throw FoldError("Reshape has more than one -1");
      inferred = i;
    } else if (out[i] < 0) {
      throw FoldError(fmt::format("Reshape to a negative dimension {}", out[i]));
    } else {
      known *= out[i];
    }
  }
  const std::int64_t total = count_of(in);
  if (inferred) {
    if (known == 0 || total % known != 0) throw FoldError("Reshape cannot infer its -1 dimension");
    out[*inferred] = total / known;
  }
  if (count_of(out) != total) {
    throw FoldError(fmt::format("Reshape of {} elements to {} elements", total, count_of(out)));
  }
  return out;
}

OnnxConstant reshaped(const OnnxConstant& x, Dims dims) {
  OnnxConstant c = x;
  c.dims = std::move(dims);
  return c;
}

Dims unsqueeze_dims(const Dims& in, const Dims& axes) {
  const std::size_t rank = in.size() + axes.size();
  std::vector<bool> inserted(rank, false);
  for (const std::int64_t a : axes) {
    const auto axis = static_cast<std::size_t>(normalized_axis(a, rank, "Unsqueeze axis"));
    if (inserted[axis]) throw FoldError("Unsqueeze repeats an axis");
    inserted[axis] = true;
  }
  Dims out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? 1 : in.at(next++));
  return out;
}

Dims squeeze_dims(const Dims& in, const std::optional<Dims>& axes) {
  std::vector<bool> removed(in.size(), false);
  if (axes) {
    for (const std::int64_t a : *axes) {
      const auto axis = static_cast<std::size_t>(normalized_axis(a, in.size(), "Squeeze axis"));
      if (in[axis] != 1) throw FoldError(fmt::format("Squeeze of axis {} whose size is {}", a, in[axis]));
      removed[axis] = true;
    }
  } else {
    for (std::size_t i = 0; i < in.size(); ++i) removed[i] = in[i] == 1;
  }
  Dims out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!removed[i]) out.push_back(in[i]);
  }
  return out;
}

OnnxConstant transpose(const OnnxConstant& x, std::optional<Dims> perm) {
  const std::size_t rank = x.dims.size();
  if (!perm) {
    perm = Dims(rank);
    for (std::size_t i = 0; i < rank; ++i) (*perm)[i] = static_cast<std::int64_t>(rank - 1 - i);
  }
  if (perm->size() != rank) throw FoldError("Transpose perm does not match the input's rank");
  Dims out(rank);
  for (std::size_t i = 0; i < rank; ++i)
    out[i] = x.dims.at(static_cast<std::size_t>(normalized_axis((*perm)[i], rank, "perm")));
  if (!x.has_values) return dims_only(x.data_type, out);
  OnnxConstant c = with_values(x.data_type, out);
  const Dims in_strides = strides_of(x.dims);
  for (std::int64_t flat = 0; flat < count_of(out); ++flat) {
    std::int64_t rest = flat, index = 0;
    for (std::size_t i = rank; i-- > 0;) {
      index += (rest % out[i]) * in_strides[static_cast<std::size_t>((*perm)[i])];
      rest /= out[i];
    }
    push_element(c, x, static_cast<std::size_t>(index));
  }
  return c;
}

OnnxConstant reduce(const std::string& op, const OnnxConstant& x, std::optional<Dims> axes, bool keep_dims) {
  const std::size_t rank = x.dims.size();
  std::vector<bool> reduced(rank, !axes || axes->empty());
  if (axes) {
    for (const std::int64_t a : *axes) reduced[static_cast<std::size_t>(normalized_axis(a, rank, "axis"))] = true;
  }
  Dims out, kept;
  for (std::size_t i = 0; i < rank; ++i) {
    if (!reduced[i]) kept.push_back(x.dims[i]);
    if (!reduced[i] || keep_dims) out.push_back(reduced[i] ? 1 : x.dims[i]);
  }
  const bool integer = x.is_integer() && op != "ReduceMean";
  OnnxConstant c = with_values(integer ? x.data_type : TensorProto::FLOAT, out);
  std::vector<double> acc(static_cast<std::size_t>(count_of(kept)), op == "ReduceProd" ? 1.0 : 0.0);
  std::vector<bool> first(acc.size(), true);
  const Dims strides = strides_of(x.dims);
  std::int64_t per_output = 1;
  for (std::size_t i = 0; i < rank; ++i) per_output *= reduced[i] ? x.dims[i] : 1;
  for (std::int64_t flat = 0; flat < x.elements(); ++flat) {
    std::size_t target = 0;
    for (std::size_t i = 0; i < rank; ++i) {
      if (!reduced[i])
        target =
            target * static_cast<std::size_t>(x.dims[i]) + static_cast<std::size_t>((flat / strides[i]) % x.dims[i]);
    }
    const double v = x.real(static_cast<std::size_t>(flat));
    double& a = acc[target];
    if (op == "ReduceProd") a *= v;
    if (op == "ReduceSum" || op == "ReduceMean") a += v;
    if (op == "ReduceMax") a = first[target] ? v : std::max(a, v);
    if (op == "ReduceMin") a = first[target] ? v : std::min(a, v);
    first[target] = false;
  }
  for (double a : acc) {
    if (op == "ReduceMean") a /= static_cast<double>(per_output);
    if (integer) {
      c.ints.push_back(static_cast<std::int64_t>(a));
    } else {
      c.reals.push_back(a);
    }
  }
  return c;
}

// An optional int-list input (index `i`) or, in older opsets, the attribute of the same name.
std::optional<Dims> list_operand(const onnx::NodeProto& node, const std::vector<FoldInput>& inputs, std::size_t i,
                                 const std::string& attribute) {
  if (i < inputs.size() && inputs[i].constant != nullptr) return values_of(*inputs[i].constant);
  return ints_attribute(node, attribute);
}

std::vector<OnnxConstant> split(const onnx::NodeProto& node, const std::vector<FoldInput>& inputs) {
  const OnnxConstant& x = at(inputs, 0);
  const auto axis =
      static_cast<std::size_t>(normalized_axis(int_attribute(node, "axis", 0), x.dims.size(), "Split axis"));
  const auto outputs = static_cast<std::int64_t>(node.output_size());
  std::optional<Dims> sizes = list_operand(node, inputs, 1, "split");
  if (!sizes) {
    const std::int64_t dim = x.dims[axis];
    const std::int64_t part = (dim + outputs - 1) / outputs;
    sizes = Dims();
    for (std::int64_t start = 0; start < dim; start += part) sizes->push_back(std::min(part, dim - start));
  }
  if (static_cast<std::int64_t>(sizes->size()) != outputs ||
      std::accumulate(sizes->begin(), sizes->end(), std::int64_t{0}) != x.dims[axis]) {
    throw FoldError("Split sizes do not add up to the axis");
  }
  std::vector<OnnxConstant> parts;
  std::int64_t start = 0;
  for (const std::int64_t size : *sizes) {
    Dims begin(x.dims.size(), 0), step(x.dims.size(), 1), count = x.dims;
    begin[axis] = start;
    count[axis] = size;
    parts.push_back(select_box(x, begin, step, count));
    start += size;
  }
  return parts;
}

OnnxConstant range(const OnnxConstant& start, const OnnxConstant& limit, const OnnxConstant& delta) {
  const double first = start.real(0), last = limit.real(0), step = delta.real(0);
  if (step == 0) throw FoldError("Range with delta 0");
  const auto n = static_cast<std::int64_t>(std::max(std::ceil((last - first) / step), 0.0));
  if (n > kMaxConstantValues) return dims_only(start.data_type, {n});
  OnnxConstant c = with_values(start.data_type, {n});
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = first + static_cast<double>(i) * step;
    if (c.is_integer()) {
      c.ints.push_back(static_cast<std::int64_t>(v));
    } else {
      c.reals.push_back(v);
    }
  }
  return c;
}

OnnxConstant constant_of_shape(const onnx::NodeProto& node, const Dims& dims) {
  OnnxConstant fill = with_values(TensorProto::FLOAT, {1});
  fill.reals = {0.0};
  if (const auto* a = find_attribute(node, "value"); a != nullptr && a->has_t()) fill = constant_from_proto(a->t());
  for (const std::int64_t d : dims) {
    if (d < 0) throw FoldError(fmt::format("ConstantOfShape with a negative dimension {}", d));
  }
  if (count_of(dims) > kMaxConstantValues || !fill.has_values) return dims_only(fill.data_type, dims);
  OnnxConstant c = with_values(fill.data_type, dims);
  for (std::int64_t i = 0; i < count_of(dims); ++i) push_element(c, fill, 0);
  return c;
}

OnnxConstant expand(const OnnxConstant& x, const Dims& shape) {
  const Dims out = broadcast_dims({x.dims, shape});
  if (count_of(out) > kMaxConstantValues || !x.has_values) return dims_only(x.data_type, out);
  OnnxConstant c = with_values(x.data_type, out);
  for (std::int64_t flat = 0; flat < count_of(out); ++flat) push_element(c, x, broadcast_index(flat, out, x.dims));
  return c;
}

OnnxConstant tile(const OnnxConstant& x, const Dims& repeats) {
  if (repeats.size() != x.dims.size()) throw FoldError("Tile repeats do not match the input's rank");
  Dims out = x.dims;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] *= repeats[i];
  if (count_of(out) > kMaxConstantValues || !x.has_values) return dims_only(x.data_type, out);
  OnnxConstant c = with_values(x.data_type, out);
  const Dims strides = strides_of(x.dims);
  for (std::int64_t flat = 0; flat < count_of(out); ++flat) {
    std::int64_t rest = flat, index = 0;
    for (std::size_t i = out.size(); i-- > 0;) {
      index += ((rest % out[i]) % x.dims[i]) * strides[i];
      rest /= out[i];
    }
    push_element(c, x, static_cast<std::size_t>(index));
  }
  return c;
}

std::int32_t cast_target(const onnx::NodeProto& node, const std::vector<FoldInput>& inputs) {
  if (node.op_type() == "CastLike") return at(inputs, 1).data_type;
  return static_cast<std::int32_t>(int_attribute(node, "to", TensorProto::FLOAT));
}

// Layout operators fold even for weights without values (tf2onnx transposes weights, fp16 exports cast
// them): only their dims are needed.
std::optional<std::vector<OnnxConstant>> fold_layout(const onnx::NodeProto& node, const std::vector<FoldInput>& inputs,
                                                     std::int64_t opset) {
  const std::string& op = node.op_type();
  const OnnxConstant& x = at(inputs, 0);
  const auto one = [](OnnxConstant c) { return std::vector<OnnxConstant>{std::move(c)}; };
  if (op == "Identity" || op == "Dropout") return one(x);
  if (op == "Cast" || op == "CastLike") return one(cast(x, cast_target(node, inputs)));
  if (op == "Transpose") return one(transpose(x, ints_attribute(node, "perm")));
  if (op == "Flatten") {
    const auto axis =
        static_cast<std::size_t>(normalized_axis(int_attribute(node, "axis", 1), x.dims.size() + 1, "Flatten axis"));
    const Dims outer(x.dims.begin(), x.dims.begin() + static_cast<std::ptrdiff_t>(axis));
    const Dims inner(x.dims.begin() + static_cast<std::ptrdiff_t>(axis), x.dims.end());
    return one(reshaped(x, {count_of(outer), count_of(inner)}));
  }
  if (op == "Reshape") {
    if (!all_known(inputs, 1)) return std::nullopt;
    return one(reshaped(x, reshape_dims(x.dims, values_of(at(inputs, 1)), int_attribute(node, "allowzero", 0) != 0)));
  }
  if (op == "Unsqueeze" || op == "Squeeze") {
    const std::optional<Dims> axes = opset >= 13 ? list_operand(node, inputs, 1, "") : ints_attribute(node, "axes");
    if (inputs.size() > 1 && (inputs[1].constant == nullptr || !inputs[1].constant->has_values)) return std::nullopt;
    if (op == "Unsqueeze") {
      if (!axes) throw FoldError("Unsqueeze needs axes");
      return one(reshaped(x, unsqueeze_dims(x.dims, *axes)));
    }
    return one(reshaped(x, squeeze_dims(x.dims, axes)));
  }
  if (op == "DequantizeLinear" || op == "QuantizeLinear") {
    OnnxConstant out = dims_only(op == "DequantizeLinear" ? TensorProto::FLOAT : TensorProto::UINT8, x.dims);
    return one(out);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<OnnxConstant>> fold_node(const onnx::NodeProto& node, const std::vector<FoldInput>& inputs,
                                                   std::int64_t opset) {
  const std::string& op = node.op_type();
  const auto one = [](OnnxConstant c) { return std::optional<std::vector<OnnxConstant>>{{std::move(c)}}; };
  if (op == "Shape" || op == "Size") {
    if (inputs.empty() || !inputs[0].shape) return std::nullopt;
    const Dims& dims = *inputs[0].shape;
    if (std::any_of(dims.begin(), dims.end(), [](std::int64_t d) { return d < 0; })) return std::nullopt;
    if (op == "Size") {
      OnnxConstant c = with_values(TensorProto::INT64, {});
      c.ints = {count_of(dims)};
      return one(c);
    }
    const auto rank = static_cast<std::int64_t>(dims.size());
    std::int64_t start = int_attribute(node, "start", 0), end = int_attribute(node, "end", rank);
    start = std::clamp<std::int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<std::int64_t>(end < 0 ? end + rank : end, 0, rank);
    return one(int64_vector(Dims(dims.begin() + start, dims.begin() + std::max(start, end))));
  }
  if (inputs.empty()) return std::nullopt;
  for (const auto& input : inputs) {
    if (input.constant == nullptr) return std::nullopt;
  }
  if (auto folded = fold_layout(node, inputs, opset)) return folded;
  if (!all_known(inputs)) return std::nullopt;
  const OnnxConstant& x = at(inputs, 0);
  if (inputs.size() == 2) {
    if (auto result = binary(op, inputs, node)) return one(*result);
  }
  if (auto result = variadic(op, inputs)) return one(*result);
  if (inputs.size() == 1) {
    if (auto result = unary(op, x)) return one(*result);
  }
  if (op == "Gather") return one(gather(x, at(inputs, 1), int_attribute(node, "axis", 0)));
  if (op == "Slice") {
    if (opset < 10) {
      return one(slice(x, ints_attribute(node, "starts").value_or(Dims{}),
                       ints_attribute(node, "ends").value_or(Dims{}), ints_attribute(node, "axes"), std::nullopt));
    }
    if (inputs.size() < 3) throw FoldError("Slice needs starts and ends");
    return one(slice(x, values_of(at(inputs, 1)), values_of(at(inputs, 2)), list_operand(node, inputs, 3, ""),
                     list_operand(node, inputs, 4, "")));
  }
  if (op == "Concat") return one(concat(inputs, int_attribute(node, "axis", 0)));
  if (op == "Split") return split(node, inputs);
  if (op == "ConstantOfShape") return one(constant_of_shape(node, values_of(x)));
  if (op == "Range" && inputs.size() == 3) return one(range(x, at(inputs, 1), at(inputs, 2)));
  if (op == "Expand" && inputs.size() == 2) return one(expand(x, values_of(at(inputs, 1))));
  if (op == "Tile" && inputs.size() == 2) return one(tile(x, values_of(at(inputs, 1))));
  if (op.rfind("Reduce", 0) == 0) {
    const bool axes_input = opset >= 18 || (op == "ReduceSum" && opset >= 13);
    const std::optional<Dims> axes = axes_input ? list_operand(node, inputs, 1, "") : ints_attribute(node, "axes");
    if (op == "ReduceMax" || op == "ReduceMin" || op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMean") {
      return one(reduce(op, x, axes, int_attribute(node, "keepdims", 1) != 0));
    }
  }
  return std::nullopt;
}

}  // namespace ergon
