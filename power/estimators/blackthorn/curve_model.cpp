#include "power/estimators/blackthorn/curve_model.hpp"

#include <cmath>
#include <stdexcept>

namespace ergon::blackthorn {
namespace {

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
  inner.width = replace(inner.width, leaves, next);
  Parameter replaced;
  replaced.curve = std::make_shared<const Curve>(inner);
  return replaced;
}

}  // namespace

double template_value(TemplateKind kind, double first, double second, double width, double x) {
  if (kind == TemplateKind::kLinear) return first * x + second;
  const double w = std::max(1.0, std::round(width));  // step widths are whole numbers (Sec. IV-B1)
  return first + std::floor(x / w) * second;
}

double evaluate(const Parameter& parameter, const std::vector<double>& coordinates) {
  return parameter.curve ? evaluate(*parameter.curve, coordinates) : parameter.constant;
}

double evaluate(const Curve& curve, const std::vector<double>& coordinates) {
  return template_value(curve.kind, evaluate(curve.first, coordinates), evaluate(curve.second, coordinates),
                        evaluate(curve.width, coordinates), coordinates.at(curve.dimension));
}

nlohmann::ordered_json to_json(const Curve& curve) {
  return {{"template", curve.kind == TemplateKind::kLinear ? "linear" : "step"},
          {"dimension", curve.dimension},
          {"first", parameter_json(curve.first)},
          {"second", parameter_json(curve.second)},
          {"width", parameter_json(curve.width)}};
}

Curve curve_from_json(const nlohmann::json& json) {
  try {
    Curve curve;
    const std::string kind = json.at("template").get<std::string>();
    if (kind != "linear" && kind != "step") throw std::invalid_argument("template '" + kind + "'");
    curve.kind = kind == "linear" ? TemplateKind::kLinear : TemplateKind::kStep;
    curve.dimension = json.at("dimension").get<std::size_t>();
    curve.first = parameter_from_json(json.at("first"));
    curve.second = parameter_from_json(json.at("second"));
    curve.width = parameter_from_json(json.at("width"));
    return curve;
  } catch (const nlohmann::json::exception& error) {
    throw std::invalid_argument(std::string("malformed Blackthorn curve: ") + error.what());
  }
}

std::vector<double> leaf_constants(const Curve& curve) {
  std::vector<double> leaves;
  collect(curve.first, leaves);
  collect(curve.second, leaves);
  collect(curve.width, leaves);
  return leaves;
}

Curve replace_leaves(const Curve& curve, const std::vector<Parameter>& leaves) {
  std::size_t next = 0;
  Curve replaced = curve;
  replaced.first = replace(curve.first, leaves, next);
  replaced.second = replace(curve.second, leaves, next);
  replaced.width = replace(curve.width, leaves, next);
  if (next != leaves.size()) throw std::invalid_argument("replace_leaves: leaf count differs");
  return replaced;
}

}  // namespace ergon::blackthorn
