#pragma once
// Blackthorn's layer models (Lechner and Jantsch, IEEE Access 2021, seed 004; docs/blackthorn.md): a
// curve along one layer dimension, linear `m x + b` or step `d + floor(x / w) h` (its eq. 1), whose
// parameters are constants or themselves curves along the next dimension (Sec. IV-C's nested model).
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace ergon::blackthorn {

enum class TemplateKind { kLinear, kStep };

struct Curve;

// A curve parameter: a constant, or a curve along a further dimension.
struct Parameter {
  double constant = 0;
  std::shared_ptr<const Curve> curve;
};

struct Curve {
  TemplateKind kind = TemplateKind::kLinear;
  std::size_t dimension = 0;  // index into the coordinates
  // Linear: slope = first, offset = second. Step: offset d = first, height h = second, width w.
  Parameter first, second, width;
};

double evaluate(const Curve& curve, const std::vector<double>& coordinates);
double evaluate(const Parameter& parameter, const std::vector<double>& coordinates);
double template_value(TemplateKind kind, double first, double second, double width, double x);

nlohmann::ordered_json to_json(const Curve& curve);
Curve curve_from_json(const nlohmann::json& json);  // throws std::invalid_argument on a malformed model

// The leaf constants of a curve tree in a fixed order (depth first: first, second, width).
std::vector<double> leaf_constants(const Curve& curve);
// The same tree with leaf i replaced by `leaves[i]`.
Curve replace_leaves(const Curve& curve, const std::vector<Parameter>& leaves);

}  // namespace ergon::blackthorn
