#include "power/area_table.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "power/accelergy_art.hpp"

namespace ergon {

std::optional<double> AreaTable::mac_um2(int word_bits) const {
  for (const MacArea& mac : macs) {
    if (mac.word_bits == word_bits) return mac.um2;
  }
  if (mac_scales_with_width && macs.size() == 1) {
    const double ratio = static_cast<double>(word_bits) / macs.front().word_bits;
    return macs.front().um2 * ratio * ratio;
  }
  return std::nullopt;
}

namespace {

// `mac_um2: {8: um2, 16: um2}`: a MAC unit's area per word width the energy tables know.
std::vector<MacArea> mac_areas(const YamlView& view) {
  if (!view.node().IsMap() || view.node().size() == 0) view.fail("give a map of word width in bits: um^2 per MAC");
  std::vector<MacArea> macs;
  for (const auto& item : view.node()) {
    const std::string key = item.first.as<std::string>();
    const YamlView value = view.child(item.second, key);
    if (key != "8" && key != "16") value.fail("a word width is 8 or 16 bits");
    macs.push_back({std::stoi(key), value.as_number(kAreaUm2)});
  }
  return macs;
}

void parse_register_files(YamlMap map, AreaTable& table) {
  table.filter_rf_um2_per_byte = map.get_number("filter", kAreaUm2);
  table.ifmap_rf_um2_per_byte = map.get_number("ifmap", kAreaUm2);
  table.psum_rf_um2_per_byte = map.get_number("psum", kAreaUm2);
  map.reject_unknown_keys();
}

AreaTable art_area_table(YamlMap& section, const std::string& table_file) {
  std::filesystem::path art_path = section.get_string("accelergy_art");
  if (art_path.is_relative()) art_path = std::filesystem::path(table_file).parent_path() / art_path;
  const YAML::Node document = load_yaml_file(art_path.string());
  if (!document.IsMap() || !document["ART"]) {
    section.at("accelergy_art").fail(art_path.string() + " is not an Accelergy ART (no ART key)");
  }
  return area_table_from_art(art_path.string(), document);
}

}  // namespace

AreaTable parse_area_section(YamlMap section, const std::string& table_file) {
  if (section.has("accelergy_art")) {
    AreaTable table = art_area_table(section, table_file);
    section.reject_unknown_keys();
    return table;
  }
  AreaTable table;
  table.file = table_file;
  table.source = section.get_string("source");
  table.macs = mac_areas(section.at("mac_um2"));
  parse_register_files(section.get_map("register_file_um2_per_byte"), table);
  table.glb_um2_per_byte = section.get_number("glb_um2_per_byte", kAreaUm2);
  if (section.has("noc_um2_per_pe")) table.noc_um2_per_pe = section.get_number("noc_um2_per_pe", kAreaUm2);
  section.reject_unknown_keys();
  return table;
}

}  // namespace ergon
