#include "studies/stm32n6/soc_config.hpp"

#include <stdexcept>

namespace ergon {
namespace {
constexpr const char* kSection = "soc";
}

const SocConfig* find_soc(const AcceleratorConfig& config) {
  const auto found = config.study_sections.find(kSection);
  return found == config.study_sections.end() ? nullptr : std::any_cast<SocConfig>(&found->second);
}

SocConfig& soc_of(AcceleratorConfig& config) {
  std::any& section = config.study_sections[kSection];
  if (!section.has_value()) section = SocConfig{};
  return std::any_cast<SocConfig&>(section);
}

const SocConfig& soc_of(const AcceleratorConfig& config) {
  static const SocConfig kDefaults;
  const SocConfig* soc = find_soc(config);
  return soc != nullptr ? *soc : kDefaults;
}

const SocRail& SocConfig::rail_of(const std::string& block) const {
  for (const SocRail& rail : rails) {
    for (const std::string& b : rail.blocks) {
      if (b == block) return rail;
    }
  }
  throw std::invalid_argument("no supply rail feeds block '" + block + "'");
}

const SocOperatingPoint& SocConfig::point(const std::string& name) const {
  for (const SocOperatingPoint& p : operating_points) {
    if (p.name == name) return p;
  }
  std::string known;
  for (const SocOperatingPoint& p : operating_points) known += (known.empty() ? "" : ", ") + p.name;
  throw std::invalid_argument("no operating point '" + name + "'; the config has: " + known);
}

}  // namespace ergon
