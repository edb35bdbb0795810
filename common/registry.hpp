#pragma once
// Self-registration: a part (a DRAM model, a dataflow, an estimator, a CLI command, a config section)
// registers itself from its own .cpp with ERGON_REGISTER, so adding one is that file plus a build line.
//
// Registrations run during static initialisation, in whatever order the linker chose; a registry therefore
// keeps its entries sorted by `order` then name, never by registration order. Libraries holding
// registrations must be linked whole (ergon_link_whole_archive in CMake), or the linker drops the objects
// nothing refers to by name.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/text.hpp"

namespace ergon {

template <typename Entry>
class Registry {
 public:
  struct Item {
    std::string name;
    int order = 0;  // listing order (help, reports); ties by name
    Entry entry;
  };

  // The one registry of this entry type.
  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  // Throws std::logic_error for a name registered twice (names compare case-insensitively).
  void add(std::string name, Entry entry, int order = 0) {
    if (find(name) != nullptr) throw std::logic_error("'" + name + "' is registered twice");
    items_.push_back(Item{std::move(name), order, std::move(entry)});
    std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) {
      return a.order != b.order ? a.order < b.order : a.name < b.name;
    });
  }

  // Case-insensitive, as users write names on the command line and in YAML. Null when unknown.
  const Entry* find(const std::string& name) const {
    const std::string wanted = ascii_lower(name);
    for (const Item& item : items_) {
      if (ascii_lower(item.name) == wanted) return &item.entry;
    }
    return nullptr;
  }
  const std::vector<Item>& items() const { return items_; }
  std::vector<std::string> names() const {
    std::vector<std::string> names;
    for (const Item& item : items_) names.push_back(item.name);
    return names;
  }

 private:
  Registry() = default;
  std::vector<Item> items_;
};

}  // namespace ergon

#define ERGON_REGISTRY_CONCAT_INNER(a, b) a##b
#define ERGON_REGISTRY_CONCAT(a, b) ERGON_REGISTRY_CONCAT_INNER(a, b)
// ERGON_REGISTER(EntryType, "name", entry_expression[, order]) at namespace scope in the part's own .cpp.
#define ERGON_REGISTER(EntryType, ...)                                                                            \
  namespace {                                                                                                     \
  const bool ERGON_REGISTRY_CONCAT(ergon_registered_,                                                             \
                                   __LINE__) = (::ergon::Registry<EntryType>::instance().add(__VA_ARGS__), true); \
  }
