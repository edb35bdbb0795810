#include "common/busy_registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace ergon {

std::string ResourceSpec::share_column() const {
  std::string column = name;
  std::replace(column.begin(), column.end(), '.', '_');
  return column + "_busy_share";
}

void BusyRegistry::add(ResourceSpec spec, const std::uint64_t& source) {
  const bool allowed = !spec.name.empty() && std::all_of(spec.name.begin(), spec.name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
  if (!allowed) throw std::logic_error("resource name '" + spec.name + "' is not lower case, digits, '_' and '.'");
  for (const ResourceSpec& existing : specs_) {
    if (existing.name == spec.name) throw std::logic_error("resource '" + spec.name + "' is registered twice");
  }
  specs_.push_back(std::move(spec));
  sources_.push_back(&source);
}

std::vector<std::uint64_t> BusyRegistry::snapshot() const {
  std::vector<std::uint64_t> values;
  values.reserve(sources_.size());
  for (const std::uint64_t* source : sources_) values.push_back(*source);
  return values;
}

ResourceId busiest(const std::vector<std::uint64_t>& busy) {
  ResourceId best = kNoResource;
  for (ResourceId id = 0; id < busy.size(); ++id) {
    if (busy[id] > 0 && (best == kNoResource || busy[id] > busy[best])) best = id;
  }
  return best;
}

}  // namespace ergon
