#include "power/accelergy_art.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "power/accelergy_ert.hpp"

namespace ergon {
namespace {

constexpr IntRule kAttributeInt{1, 1LL << 40};

// What an ART entry's `attributes` say of its size: capacity for a storage, width for a MAC.
void read_size(YamlMap& component, ArtArea& area) {
  if (!component.has("attributes") || component.at("attributes").node().IsNull()) return;
  YamlMap attributes = component.get_map("attributes");
  const int access_bits = accelergy_access_bits(component);
  if (attributes.has("depth") && access_bits > 0) {
    area.capacity_bytes = static_cast<double>(attributes.get_int("depth", kAttributeInt)) * access_bits / 8.0;
  }
  for (const char* key : {"multiplier_width", "datawidth"}) {
    if (attributes.has(key)) {
      area.mac_bits = static_cast<int>(attributes.get_int(key, IntRule{1, 64}));
      break;
    }
  }
}

std::string joined(const std::vector<const ArtArea*>& areas) {
  std::string out;
  for (const ArtArea* area : areas) out += (out.empty() ? "" : ", ") + area->component;
  return out;
}

std::vector<const ArtArea*> of_kind(const std::vector<ArtArea>& areas, const std::string& kind) {
  std::vector<const ArtArea*> found;
  for (const ArtArea& area : areas) {
    if (accelergy_component_kind(area.component) == kind) found.push_back(&area);
  }
  return found;
}

// The one component of `candidates`; nullptr when there is none; an error naming them when several.
const ArtArea* the_one(const std::vector<const ArtArea*>& candidates, const std::string& path,
                       const std::string& what) {
  if (candidates.size() > 1) {
    throw InputError(
        {path, 0, 0, {}}, "ART.tables",
        fmt::format("several components could be the {}: {}; keep one in the ART", what, joined(candidates)));
  }
  return candidates.empty() ? nullptr : candidates.front();
}

// A storage's area per byte of its capacity (its `attributes`).
double per_byte_um2(const ArtArea& area, const std::string& path) {
  if (area.capacity_bytes <= 0) {
    throw InputError(area.where, area.key_path,
                     fmt::format("the ART {} gives no size for {}: add attributes: {{depth, width}} (bits per row) "
                                 "from the architecture",
                                 path, area.component));
  }
  return area.um2 / area.capacity_bytes;
}

// The register file of `operand`: the one whose name holds it, else the only one; 0 and a note when none.
double register_file_um2_per_byte(const std::vector<ArtArea>& areas, const std::string& operand,
                                  const std::string& path, AreaTable& table) {
  std::vector<const ArtArea*> files = of_kind(areas, "rf");
  if (files.size() > 1) {
    std::vector<const ArtArea*> holding;
    for (const ArtArea* file : files) {
      if (accelergy_holds_operand(file->component, operand)) holding.push_back(file);
    }
    files = holding;
  }
  const ArtArea* file = the_one(files, path, operand + " register file");
  if (file == nullptr) {
    table.notes.push_back(fmt::format("the ART {} has no {} register file: its area is 0", path, operand));
    return 0;
  }
  return per_byte_um2(*file, path);
}

void add_mac(const std::vector<ArtArea>& areas, const std::string& path, AreaTable& table) {
  const ArtArea* mac = the_one(of_kind(areas, "mac"), path, "MAC");
  if (mac == nullptr) throw InputError({path, 0, 0, {}}, "ART.tables", "the ART has no MAC (a component named *mac*)");
  if (mac->mac_bits == 0) {
    throw InputError(
        mac->where, mac->key_path,
        fmt::format("the ART {} gives no width for {}: add attributes: {{multiplier_width}}", path, mac->component));
  }
  table.macs = {{mac->mac_bits, mac->um2}};
  table.mac_scales_with_width = true;
}

void note_left_out(const std::vector<ArtArea>& areas, const std::string& path, AreaTable& table) {
  std::vector<const ArtArea*> left_out;
  for (const ArtArea& area : areas) {
    const std::string kind = accelergy_component_kind(area.component);
    if (kind.empty() || kind == "noc") left_out.push_back(&area);
  }
  if (!left_out.empty()) {
    table.notes.push_back(
        fmt::format("the ART {} components not counted (no Ergon part, or a NoC the ART sizes per "
                    "instance, not per PE): {}",
                    path, joined(left_out)));
  }
}

}  // namespace

std::vector<ArtArea> read_art(const std::string& path, const YAML::Node& document) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(document, origin, ""));
  YamlMap art = root.get_map("ART");
  std::vector<ArtArea> areas;
  for (const YamlView& entry : art.at("tables").items()) {
    YamlMap component(entry);
    ArtArea area;
    area.component = component.get_string("name");
    const YamlView value = component.at("area");
    area.um2 = value.as_number(kAreaUm2);
    area.where = value.location();
    area.key_path = value.path();
    read_size(component, area);
    areas.push_back(area);
  }
  if (areas.empty()) art.at("tables").fail("the ART gives no area");
  return areas;
}

AreaTable area_table_from_art(const std::string& path, const YAML::Node& document) {
  const std::vector<ArtArea> areas = read_art(path, document);
  AreaTable table;
  table.file = path;
  table.source = "Accelergy ART " + path;
  add_mac(areas, path, table);
  table.filter_rf_um2_per_byte = register_file_um2_per_byte(areas, "filter", path, table);
  table.ifmap_rf_um2_per_byte = register_file_um2_per_byte(areas, "ifmap", path, table);
  table.psum_rf_um2_per_byte = register_file_um2_per_byte(areas, "psum", path, table);
  const ArtArea* glb = the_one(of_kind(areas, "glb"), path, "global buffer");
  if (glb == nullptr)
    throw InputError({path, 0, 0, {}}, "ART.tables", "the ART has no global buffer (*glb*, *buffer*)");
  table.glb_um2_per_byte = per_byte_um2(*glb, path);
  note_left_out(areas, path, table);
  return table;
}

std::string sibling_art_path(const std::string& ert_path) {
  const std::filesystem::path path(ert_path);
  std::string name = path.filename().string();
  const std::size_t at = name.rfind("ERT");
  if (at == std::string::npos) return "";
  name.replace(at, 3, "ART");
  return (path.parent_path() / name).string();
}

}  // namespace ergon
