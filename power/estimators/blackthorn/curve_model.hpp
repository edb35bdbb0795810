#pragma once
// Blackthorn's layer models (Lechner and Jantsch, IEEE Access 2021, seed 004; docs/blackthorn.md): a
// curve along one layer dimension, linear `m x + b` or a step function `d + floor(x / w) h` (its eq. 1),
// whose offset and slope or height are constants or themselves curves along the next dimension
// (Sec. IV-C's nested model). A step's width is a whole number fixed by the first fit along its
// dimension and carried unchanged through the nesting.
//
// Ergon adds a second step template, `d + ceil(x / w) h`: an array of w columns runs 64 filters in one
// pass and 65 in two, so its latency steps just after multiples of w, where floor steps at them.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace ergon::blackthorn {

enum class TemplateKind { kLinear, kStep, kCeilStep };
const char* template_name(TemplateKind kind);
std::optional<TemplateKind> template_from_name(const std::string& name);
bool is_step(TemplateKind kind);

// A template and, for the step templates, its whole-number width.
struct TemplateChoice {
  TemplateKind kind = TemplateKind::kLinear;
  double width = 0;
};

struct Curve;

// A curve parameter: a constant, or a curve along a further dimension.
struct Parameter {
  double constant = 0;
  std::shared_ptr<const Curve> curve;
};

struct Curve {
  TemplateKind kind = TemplateKind::kLinear;
  std::size_t dimension = 0;  // index into the coordinates
  // Linear: slope = first, offset = second. Steps: offset d = first, height h = second.
  Parameter first, second;
  double width = 0;  // steps only
};

double evaluate(const Curve& curve, const std::vector<double>& coordinates);
double evaluate(const Parameter& parameter, const std::vector<double>& coordinates);
double template_value(TemplateKind kind, double first, double second, double width, double x);

nlohmann::ordered_json to_json(const Curve& curve);
Curve curve_from_json(const nlohmann::json& json);  // throws std::invalid_argument on a malformed model

// The fitted leaf constants of a curve tree (offsets, slopes and heights; never widths) in a fixed order:
// depth first, first before second.
std::vector<double> leaf_constants(const Curve& curve);
// The same tree with leaf i replaced by `leaves[i]`.
Curve replace_leaves(const Curve& curve, const std::vector<Parameter>& leaves);

}  // namespace ergon::blackthorn
