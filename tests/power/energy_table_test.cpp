// Energy tables price component.action counters: the shipped table prices every energy action the
// modules count, the five-key form prices as its actions form, and an Accelergy ERT written from the
// CNNergy table prices a run to the CNNergy table's energy, each access at its component's width
// (docs/energy.md).
#include "power/energy_table.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "arch/components.hpp"
#include "common/input_error.hpp"
#include "sim/simulation.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

namespace fs = std::filesystem;

const EnergyTable& cnnergy() {
  static const EnergyTable loaded = load_energy_table(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
  return loaded;
}

AcceleratorConfig eyeriss() {
  return load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml");
}

const Workload& alexnet() {
  static const Workload loaded = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  return loaded;
}

SimulationResult simulate(const EnergyTable& table) {
  return Simulation(eyeriss(), table, alexnet(), {}).run();
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// A folder of this test's own, removed when the test ends.
struct TempFolder {
  explicit TempFolder(const std::string& name) : path(test::unique_temp_path(name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() { fs::remove_all(path); }
  fs::path path;
};

// The access widths an ERT's components declare in their `attributes` (docs/energy.md).
struct ErtWidths {
  int word_bits = 16;  // of the CNNergy table's entry the energies come from
  int register_file_and_noc_bits = 16;
  int glb_bits = 16;    // written as datawidth x block_size
  int dram_bits = 16;   // written as width
  bool written = true;  // false: the ERT gives no widths
};

// The CNNergy table's energies at `widths.word_bits` as Accelergy would write them for an Eyeriss-like
// design (ERT.yaml, version 0.3): hierarchical component names, argument variants for the storage reads
// (the random access, data_delta 1, is the table's energy; a repeated one costs less), idle actions, and
// each data energy per access of its component's width.
std::string ert_from_cnnergy_table(const ErtWidths& widths = {}) {
  const int word_bits = widths.word_bits;
  const WordWidthEnergies& e = cnnergy().at_word_bits(word_bits);
  // The energy of one access of `bits` bits.
  const auto access_pj = [&e, word_bits](const std::string& action, int bits) {
    const ActionEnergy& entry = *e.find(action);
    return entry.pj / (entry.bits_per_access > 0 ? entry.bits_per_access : word_bits) * bits;
  };
  YAML::Emitter out;
  const auto action = [&out](const std::string& name, double pj, int data_delta = -1) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name << YAML::Key << "arguments";
    if (data_delta < 0) {
      out << YAML::Value << YAML::Null;
    } else {
      out << YAML::Value << YAML::BeginMap << YAML::Key << "data_delta" << YAML::Value << data_delta << YAML::Key
          << "address_delta" << YAML::Value << 1 << YAML::EndMap;
    }
    out << YAML::Key << "energy" << YAML::Value << pj << YAML::EndMap;
  };
  // `attributes`: key-value pairs written when the ERT gives widths.
  const auto component = [&](const std::string& name, std::vector<std::pair<std::string, int>> attributes,
                             const auto& actions) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
    if (widths.written && !attributes.empty()) {
      out << YAML::Key << "attributes" << YAML::Value << YAML::BeginMap;
      for (const auto& [key, value] : attributes) out << YAML::Key << key << YAML::Value << value;
      out << YAML::EndMap;
    }
    out << YAML::Key << "actions" << YAML::Value << YAML::BeginSeq;
    actions();
    out << YAML::EndSeq << YAML::EndMap;
  };
  const auto storage = [&](const std::string& name, std::vector<std::pair<std::string, int>> attributes, int bits,
                           const std::string& read, const std::string& write) {
    component(name, attributes, [&] {
      action("read", access_pj(read, bits), 1);
      action("read", 0.5 * access_pj(read, bits), 0);
      action("write", access_pj(write, bits), 1);
      action("idle", 0);
    });
  };
  out << YAML::BeginMap << YAML::Key << "ERT" << YAML::Value << YAML::BeginMap << YAML::Key << "version" << YAML::Value
      << 0.3 << YAML::Key << "tables" << YAML::Value << YAML::BeginSeq;
  component("system.eyeriss.PE[0..167].mac", {}, [&] {
    action("mac_random", e.pj("mac.compute"));
    action("mac_reused", 0.8 * e.pj("mac.compute"));
    action("mac_gated", e.pj("mac.gated"));
    action("idle", 0);
  });
  const int rf_bits = widths.register_file_and_noc_bits;
  const std::vector<std::pair<std::string, int>> rf_width = {{"width", rf_bits}, {"depth", 12}};
  storage("system.eyeriss.PE[0..167].ifmap_spad", rf_width, rf_bits, "rf.ifmap_read", "rf.ifmap_write");
  storage("system.eyeriss.PE[0..167].weights_spad", rf_width, rf_bits, "rf.filter_read", "rf.filter_write");
  storage("system.eyeriss.PE[0..167].psum_spad", rf_width, rf_bits, "rf.psum_read", "rf.psum_write");
  component("system.eyeriss.noc", {{"datawidth", rf_bits}}, [&] {
    action("transfer", access_pj("noc.ifmap_transfer", rf_bits));
    action("hop", access_pj("noc.pe_hop", rf_bits));
  });
  storage("system.eyeriss.shared_glb", {{"datawidth", word_bits}, {"block_size", widths.glb_bits / word_bits}},
          widths.glb_bits, "glb.read", "glb.write");
  component("system.DRAM", {{"width", widths.dram_bits}}, [&] {
    action("read", access_pj("dram.read", widths.dram_bits));
    action("write", access_pj("dram.write", widths.dram_bits));
  });
  out << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
  return out.c_str();
}

// An Ergon table taking its energies from the ERT and its chip-level terms from the CNNergy table.
std::string wrapper_table(const std::string& mapping = "") {
  return "name: cnnergy_65nm_from_ert\n"
         "source: tests/power/energy_table_test.cpp\n"
         "technology_nm: 65\n"
         "nominal_voltage_v: 1.0\n"
         "clock_tree_power_mw: 106.3\n"
         "clock_reference_frequency_mhz: 200\n"
         "control_fraction: 0.15\n"
         "glb_energy_scaling: {reference_size_kib: 100, exponent: 0.5}\n"
         "accelergy_ert:\n"
         "  file: ERT.yaml\n"
         "  word_bits: 16\n" +
         mapping;
}

void expect_same_components(const EnergyBreakdown& ert, const EnergyBreakdown& table, const std::string& where) {
  for (const auto* breakdown : {&ert, &table}) {
    for (const ComponentEnergy& c : breakdown->components) {
      const double expected = table.component_pj(c.component);
      EXPECT_NEAR(ert.component_pj(c.component), expected, 1e-9 * std::max(1.0, expected))
          << where << " " << c.component;
    }
  }
}

TEST(EnergyTable, ShippedTablePricesEveryEnergyActionTheModulesCount) {
  for (int bits : {8, 16}) {
    EXPECT_NO_THROW(check_table_prices(cnnergy(), bits, every_module_counter_spec())) << bits;
  }
}

TEST(EnergyTable, FiveKeyFormPricesAsTheActionsForm) {
  TempFolder folder("five_key_table");
  const fs::path path = folder.path / "five_key.yaml";
  const WordWidthEnergies& e = cnnergy().at_word_bits(16);
  write_file(
      path,
      fmt::format("name: five_key\nsource: test\ntechnology_nm: 65\nnominal_voltage_v: 1.0\n"
                  "clock_tree_power_mw: 106.3\nclock_reference_frequency_mhz: 200\ncontrol_fraction: 0.15\n"
                  "glb_energy_scaling: {{reference_size_kib: 100, exponent: 0.5}}\n"
                  "word_widths:\n  - {{bits: 16, mac_pj: {:.17g}, rf_pj: {:.17g}, inter_pe_pj: {:.17g}, "
                  "glb_pj: {:.17g}, dram_pj: {:.17g}}}\n",
                  e.pj("mac.compute"), e.pj("rf.psum_read"), e.pj("noc.pe_hop"), e.pj("glb.read"), e.pj("dram.read")));
  const EnergyTable five_key = load_energy_table(path.string());
  const WordWidthEnergies& legacy = five_key.at_word_bits(16);
  for (const CounterSpec& counter : every_module_counter_spec()) {
    if (!counter.energy_action) continue;
    const ActionEnergy* entry = legacy.find(counter.name);
    ASSERT_NE(entry, nullptr) << counter.name;
    EXPECT_DOUBLE_EQ(per_count_pj(*entry, counter, 16), per_count_pj(*e.find(counter.name), counter, 16))
        << counter.name;
  }
}

TEST(EnergyTable, ErtBuiltFromTheCnnergyTablePricesARunToTheSameEnergy) {
  TempFolder folder("ert_same_energy");
  write_file(folder.path / "ERT.yaml", ert_from_cnnergy_table());
  write_file(folder.path / "table.yaml", wrapper_table());
  const EnergyTable from_ert = load_energy_table((folder.path / "table.yaml").string());
  EXPECT_TRUE(from_ert.notes.empty()) << from_ert.notes.front();  // every action found in the ERT

  const SimulationResult by_ert = simulate(from_ert);
  const SimulationResult by_table = simulate(cnnergy());
  ASSERT_GT(by_table.total.energy.total_pj(), 0.0);
  EXPECT_NEAR(by_ert.total.energy.total_pj(), by_table.total.energy.total_pj(),
              1e-9 * by_table.total.energy.total_pj());
  expect_same_components(by_ert.total.energy, by_table.total.energy, "total");
  for (std::size_t i = 0; i < by_table.layers.size(); ++i) {
    expect_same_components(by_ert.layers[i].energy, by_table.layers[i].energy, by_table.layers[i].name);
  }
}

// A bare ERT has no clock tree or control energy, so a mapper that weighs time against traffic may map
// differently with it; the same activity is priced alike, component by component.
TEST(EnergyTable, BareErtPricesTheSameActivityAlikeAndSaysItHasNoChipTerms) {
  TempFolder folder("bare_ert");
  write_file(folder.path / "ERT.yaml", ert_from_cnnergy_table());
  const EnergyTable bare = load_energy_table((folder.path / "ERT.yaml").string());
  ASSERT_FALSE(bare.notes.empty());
  EXPECT_NE(bare.notes.back().find("no clock tree, control or leakage"), std::string::npos) << bare.notes.back();

  const AcceleratorConfig config = eyeriss();
  const SimulationResult by_table = simulate(cnnergy());
  EXPECT_GT(by_table.total.energy.clock_pj, 0.0);
  for (const LayerResult& layer : by_table.layers) {
    const EnergyBreakdown by_ert =
        price_activity(layer.counters, {layer.cycles, 0.0}, bare, operating_point(config, bare, layer.levels));
    expect_same_components(by_ert, layer.energy, layer.name);
    EXPECT_EQ(by_ert.clock_pj, 0.0);
    EXPECT_EQ(by_ert.control_pj, 0.0);
    EXPECT_EQ(by_ert.leakage_pj, 0.0);
  }
  EXPECT_NO_THROW(simulate(bare));
}

// An 8-bit Eyeriss-like design priced by a bare ERT whose DRAM and GLB accesses are 64 bits wide: each
// access is split into the words it moves, so the run costs what the CNNergy table's 8-bit entry gives,
// component by component. Without the widths the ERT's energies are taken per word, 8 times too high for
// the DRAM and the GLB, and the notes name each component priced so.
TEST(EnergyTable, BareErtPricesEachAccessAtItsComponentsWidth) {
  TempFolder folder("ert_widths");
  ErtWidths widths;
  widths.word_bits = 8;
  widths.register_file_and_noc_bits = 8;
  widths.glb_bits = 64;
  widths.dram_bits = 64;
  write_file(folder.path / "ERT.yaml", ert_from_cnnergy_table(widths));
  widths.written = false;
  write_file(folder.path / "bare_ERT.yaml", ert_from_cnnergy_table(widths));
  const EnergyTable with_widths = load_energy_table((folder.path / "ERT.yaml").string());
  const EnergyTable without_widths = load_energy_table((folder.path / "bare_ERT.yaml").string());
  for (const std::string& note : with_widths.notes) EXPECT_EQ(note.find("no access width"), std::string::npos) << note;
  for (const char* component :
       {"system.DRAM", "system.eyeriss.shared_glb", "system.eyeriss.noc", "system.eyeriss.PE[0..167].psum_spad"}) {
    const bool noted = std::any_of(without_widths.notes.begin(), without_widths.notes.end(), [&](const auto& note) {
      return note.find(std::string("gives no access width for ") + component + " ") != std::string::npos;
    });
    EXPECT_TRUE(noted) << component;
  }

  const AcceleratorConfig config =
      load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml", {"pe_array.word_bits=8"});
  const Workload resnet8 = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  const SimulationResult by_table = Simulation(config, cnnergy(), resnet8, {}).run();
  ASSERT_GT(by_table.total.energy.component_pj("dram"), 0.0);
  for (const LayerResult& layer : by_table.layers) {
    if (!layer.executed) continue;
    const auto priced = [&](const EnergyTable& table) {
      return price_activity(layer.counters, {layer.cycles, 0.0}, table, operating_point(config, table, layer.levels));
    };
    expect_same_components(priced(with_widths), layer.energy, layer.name);
    const EnergyBreakdown per_word_of_each_access = priced(without_widths);
    for (const char* component : {"dram", "glb"}) {
      EXPECT_NEAR(per_word_of_each_access.component_pj(component), 8 * layer.energy.component_pj(component),
                  1e-9 * per_word_of_each_access.component_pj(component))
          << layer.name << " " << component;
    }
  }
}

TEST(EnergyTable, ErtActionsAbsentFromTheErtCostNothingAndAreNoted) {
  TempFolder folder("ert_without_noc");
  std::string ert = ert_from_cnnergy_table();
  YAML::Node document = YAML::Load(ert);
  YAML::Node kept(YAML::NodeType::Sequence);
  for (const YAML::Node& table : document["ERT"]["tables"]) {
    if (table["name"].as<std::string>() != "system.eyeriss.noc") kept.push_back(table);
  }
  document["ERT"]["tables"] = kept;
  write_file(folder.path / "ERT.yaml", YAML::Dump(document));
  const EnergyTable bare = load_energy_table((folder.path / "ERT.yaml").string());
  EXPECT_EQ(bare.at_word_bits(16).pj("noc.pe_hop"), 0.0);
  ASSERT_GE(bare.notes.size(), 2u);
  EXPECT_NE(bare.notes.front().find("noc.pe_hop"), std::string::npos) << bare.notes.front();
}

TEST(EnergyTable, AmbiguousErtComponentsAskForAnExplicitMapping) {
  TempFolder folder("ert_ambiguous");
  YAML::Node document = YAML::Load(ert_from_cnnergy_table());
  YAML::Node second = YAML::Clone(document["ERT"]["tables"][5]);  // the shared GLB
  ASSERT_EQ(second["name"].as<std::string>(), "system.eyeriss.shared_glb");
  second["name"] = "system.eyeriss.weight_buffer";
  document["ERT"]["tables"].push_back(second);
  write_file(folder.path / "ERT.yaml", YAML::Dump(document));
  write_file(folder.path / "table.yaml", wrapper_table());
  try {
    load_energy_table((folder.path / "table.yaml").string());
    FAIL() << "two GLB-like components were accepted";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("system.eyeriss.shared_glb"), std::string::npos) << message;
    EXPECT_NE(message.find("system.eyeriss.weight_buffer"), std::string::npos) << message;
    EXPECT_NE(message.find("accelergy_ert.actions"), std::string::npos) << message;
  }
  // Saying which component prices the GLB's actions resolves it.
  write_file(folder.path / "table.yaml",
             wrapper_table("  actions:\n"
                           "    glb.read: system.eyeriss.shared_glb.read\n"
                           "    glb.write: {energy_of: system.eyeriss.shared_glb.write}\n"));
  const EnergyTable table = load_energy_table((folder.path / "table.yaml").string());
  EXPECT_DOUBLE_EQ(table.at_word_bits(16).pj("glb.read"), cnnergy().at_word_bits(16).pj("glb.read"));
}

TEST(EnergyTable, ExplicitMappingNamesAMissingErtComponent) {
  TempFolder folder("ert_missing_component");
  write_file(folder.path / "ERT.yaml", ert_from_cnnergy_table());
  write_file(folder.path / "table.yaml", wrapper_table("  actions:\n    glb.read: system.eyeriss.gbuf.read\n"));
  try {
    load_energy_table((folder.path / "table.yaml").string());
    FAIL() << "a missing ERT component was accepted";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("table.yaml:13"), std::string::npos) << message;
    EXPECT_NE(message.find("no component 'system.eyeriss.gbuf'"), std::string::npos) << message;
    EXPECT_NE(message.find("system.eyeriss.shared_glb"), std::string::npos) << message;  // what it has
  }
}

TEST(EnergyTable, TableWithAnUncountedOrUnpricedActionIsRefusedBeforeARun) {
  TempFolder folder("table_actions");
  std::string text;
  {
    std::ifstream in(test::source_dir() + "/power/tables/cnnergy_65nm.yaml");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto refused = [&](const std::string& changed, const std::string& expected) {
    write_file(folder.path / "table.yaml", changed);
    try {
      Simulation(eyeriss(), load_energy_table((folder.path / "table.yaml").string()), alexnet(), {});
      ADD_FAILURE() << "accepted; expected " << expected;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
  };
  std::string typo = text;
  typo.replace(typo.find("glb.write"), 9, "glb.wirte");
  refused(typo, "no component counts 'glb.wirte'");
  std::string missing = text;
  const auto line = missing.find("      noc.pe_hop");
  missing.erase(line, missing.find('\n', line) + 1 - line);
  refused(missing, "does not price noc.pe_hop");
}

}  // namespace
}  // namespace ergon
