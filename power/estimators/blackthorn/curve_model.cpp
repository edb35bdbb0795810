#include "power/estimators/blackthorn/curve_model.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ergon::blackthorn {
namespace {

// A step width read from a models file must be a usable whole number; the fitter only picks widths
// from its searched range, so anything else is a damaged or hand-edited file.
constexpr double kMaxStepWidth = 1 << 20;

nlohmann::ordered_json parameter_json(const Parameter& p) {
  return p.curve ? to_json(*p.curve) : nlohmann::ordered_json(p.constant);
}

Parameter parameter_from_json(const nlohmann::json& json) {
  Parameter p;
  if (json.is_number()) {
    p.constant = json.get<double>();
  } else {
    p.curve = std::make_shared<const Curve>(curve_from_json(json));
  }
  return p;
}

void collect(const Parameter& p, std::vector<double>& leaves) {
  if (p.curve) {
    const std::vector<double> inner = leaf_constants(*p.curve);
    leaves.insert(leaves.end(), inner.begin(), inner.end());
  } else {
    leaves.push_back(p.constant);
  }
}

Parameter replace(const Parameter& p, const std::vector<Parameter>& leaves, std::size_t& next) {
  if (!p.curve) return leaves.at(next++);
  Curve inner = *p.curve;
  inner.first = replace(inner.first, leaves, next);
  inner.second = replace(inner.second, leaves, next);
  Parameter replaced;
  replaced.curve = std::make_shared<const Curve>(inner);
  return replaced;
}

}  // namespace

const char* template_name(TemplateKind kind) {
  switch (kind) {
    case TemplateKind::kLinear: return "linear";
    case TemplateKind::kStep: return "step";
    case TemplateKind::kCeilStep: return "ceil_step";
  }
  return "?";
}

std::optional<TemplateKind> template_from_name(const std::string& name) {
  for (TemplateKind kind : {TemplateKind::kLinear, TemplateKind::kStep, TemplateKind::kCeilStep}) {
    if (name == template_name(kind)) return kind;
  }
  return std::nullopt;
}

bool is_step(TemplateKind kind) {
  return kind != TemplateKind::kLinear;
}

double template_value(TemplateKind kind, double first, double second, double width, double x) {
  if (kind == TemplateKind::kLinear) return first * x + second;
  const double w = std::max(1.0, std::round(width));  // step widths are whole numbers (Sec. IV-B1)
  const double steps = kind == TemplateKind::kStep ? std::floor(x / w) : std::ceil(x / w);
  return first + steps * second;
}

double evaluate(const Parameter& parameter, const std::vector<double>& coordinates) {
  return parameter.curve ? evaluate(*parameter.curve, coordinates) : parameter.constant;
}

double evaluate(const Curve& curve, const std::vector<double>& coordinates) {
  return template_value(curve.kind, evaluate(curve.first, coordinates), evaluate(curve.second, coordinates),
                        curve.width, coordinates.at(curve.dimension));
}

nlohmann::ordered_json to_json(const Curve& curve) {
  nlohmann::ordered_json json = {{"template", template_name(curve.kind)},
                                 {"dimension", curve.dimension},
                                 {"first", parameter_json(curve.first)},
                                 {"second", parameter_json(curve.second)}};
  if (is_step(curve.kind)) json["width"] = curve.width;
  return json;
}

Curve curve_from_json(const nlohmann::json& json) {
  try {
    Curve curve;
    const std::string kind = json.at("template").get<std::string>();
    const std::optional<TemplateKind> parsed = template_from_name(kind);
    if (!parsed) throw std::invalid_argument("template '" + kind + "' (linear, step or ceil_step)");
    curve.kind = *parsed;
    curve.dimension = json.at("dimension").get<std::size_t>();
    curve.first = parameter_from_json(json.at("first"));
    curve.second = parameter_from_json(json.at("second"));
    if (is_step(curve.kind)) {
      curve.width = json.at("width").get<double>();
      if (!(curve.width >= 1 && curve.width <= kMaxStepWidth) || curve.width != std::round(curve.width)) {
        throw std::invalid_argument("step width " + std::to_string(curve.width) + " is not a whole number >= 1");
      }
    }
    return curve;
  } catch (const nlohmann::json::exception& error) {
    throw std::invalid_argument(std::string("malformed Blackthorn curve: ") + error.what());
  }
}

std::vector<double> leaf_constants(const Curve& curve) {
  std::vector<double> leaves;
  collect(curve.first, leaves);
  collect(curve.second, leaves);
  return leaves;
}

Curve replace_leaves(const Curve& curve, const std::vector<Parameter>& leaves) {
  std::size_t next = 0;
  Curve replaced = curve;
  replaced.first = replace(curve.first, leaves, next);
  replaced.second = replace(curve.second, leaves, next);
  if (next != leaves.size()) throw std::invalid_argument("replace_leaves: leaf count differs");
  return replaced;
}

}  // namespace ergon::blackthorn
