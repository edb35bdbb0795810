#include "power/estimators/cnnergy_report.hpp"

#include <fmt/format.h>

#include "common/text.hpp"

namespace ergon {
namespace {

constexpr double kPicojoulesPerMillijoule = 1e9;

double mj(double pj) {
  return pj / kPicojoulesPerMillijoule;
}

nlohmann::ordered_json breakdown_json(const CnnergyEnergy& e) {
  return {{"mac_mj", mj(e.mac_pj)},        {"rf_mj", mj(e.rf_pj)},     {"inter_pe_mj", mj(e.inter_pe_pj)},
          {"glb_mj", mj(e.glb_pj)},        {"dram_mj", mj(e.dram_pj)}, {"clock_mj", mj(e.clock_pj)},
          {"control_mj", mj(e.control_pj)}};
}

std::string options_line(const CnnergyEstimate& estimate) {
  return fmt::format("CNNergy estimate of {} ({}-bit, control and clock {}); energy per image in mJ", estimate.workload,
                     estimate.options.word_bits, estimate.options.include_control_and_clock ? "included" : "excluded");
}

}  // namespace

std::string cnnergy_table(const CnnergyEstimate& estimate) {
  std::string out = options_line(estimate) + "\n";
  const auto row = [](const std::string& name, const std::string& op, const std::string& macs, const auto&... cells) {
    return fmt::format("{:<28} {:<8} {:>14}", name, op, macs) + (fmt::format(" {:>9}", cells) + ...) + "\n";
  };
  out += row("layer", "op", "MACs", "MAC", "RF", "inter-PE", "GLB", "DRAM", "clock", "control", "total");
  std::string not_modelled;
  for (const auto& layer : estimate.layers) {
    if (!layer.modelled) {
      not_modelled += fmt::format("  {} ({}): {}\n", layer.name, layer.op, layer.not_modelled_reason);
      continue;
    }
    const CnnergyEnergy& e = layer.energy;
    const auto cell = [](double pj) { return fmt::format("{:.4f}", mj(pj)); };
    out += row(layer.name, layer.op, std::to_string(layer.macs), cell(e.mac_pj), cell(e.rf_pj), cell(e.inter_pe_pj),
               cell(e.glb_pj), cell(e.dram_pj), cell(e.clock_pj), cell(e.control_pj), cell(e.total_pj()));
  }
  const CnnergyEnergy& t = estimate.total;
  const auto cell = [](double pj) { return fmt::format("{:.4f}", mj(pj)); };
  out += row("total", "", std::to_string(estimate.total_macs), cell(t.mac_pj), cell(t.rf_pj), cell(t.inter_pe_pj),
             cell(t.glb_pj), cell(t.dram_pj), cell(t.clock_pj), cell(t.control_pj), cell(t.total_pj()));
  out += fmt::format("total energy: {:.4f} mJ per image\n", mj(t.total_pj()));
  if (estimate.modelled_macs != estimate.total_macs) {
    out += fmt::format("modelled MACs: {} of {}\n", estimate.modelled_macs, estimate.total_macs);
  }
  if (!not_modelled.empty()) out += "not modelled (no energy counted):\n" + not_modelled;
  return out;
}

nlohmann::ordered_json cnnergy_json(const CnnergyEstimate& estimate) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const auto& layer : estimate.layers) {
    nlohmann::ordered_json entry = {{"name", layer.name},         {"op", layer.op},
                                    {"modelled", layer.modelled}, {"energy_mj", mj(layer.energy.total_pj())},
                                    {"macs", layer.macs},         {"batch", layer.batch}};
    if (!layer.modelled) {
      entry["not_modelled_reason"] = layer.not_modelled_reason;
    } else {
      entry["breakdown"] = breakdown_json(layer.energy);
      const CnnergyAccesses& a = layer.accesses;
      entry["accesses"] = {{"nonzero_macs", a.macs},
                           {"rf", a.rf},
                           {"inter_pe", a.inter_pe},
                           {"glb", a.glb},
                           {"dram_words", a.dram_words}};
      const CnnergyMapping& m = layer.mapping;
      entry["mapping"] = {{"channels_per_set", m.channels_per_set},
                          {"channels_per_pass", m.channels_per_pass},
                          {"filters_per_pass", m.filters_per_pass},
                          {"ofmap_rows_per_pass", m.ofmap_rows_per_pass},
                          {"ofmap_columns_per_pass", m.ofmap_columns_per_pass},
                          {"passes", m.passes}};
    }
    layers.push_back(std::move(entry));
  }
  return {{"schema_version", kCnnergyReportSchemaVersion},
          {"estimator", "cnnergy"},
          {"workload", estimate.workload},
          {"word_bits", estimate.options.word_bits},
          {"include_control_and_clock", estimate.options.include_control_and_clock},
          {"unit_note", "energies are per image"},
          {"total_energy_mj", mj(estimate.total.total_pj())},
          {"total_macs", estimate.total_macs},
          {"modelled_macs", estimate.modelled_macs},
          {"total_breakdown", breakdown_json(estimate.total)},
          {"layers", layers}};
}

std::string cnnergy_csv(const CnnergyEstimate& estimate) {
  std::string out =
      "layer,op,modelled,macs,batch,mac_mj,rf_mj,inter_pe_mj,glb_mj,dram_mj,clock_mj,control_mj,energy_mj,note\n";
  for (const auto& layer : estimate.layers) {
    const CnnergyEnergy& e = layer.energy;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_quoted(layer.name), layer.op,
                       layer.modelled ? 1 : 0, layer.macs, layer.batch, mj(e.mac_pj), mj(e.rf_pj), mj(e.inter_pe_pj),
                       mj(e.glb_pj), mj(e.dram_pj), mj(e.clock_pj), mj(e.control_pj), mj(e.total_pj()),
                       csv_quoted(layer.not_modelled_reason));
  }
  return out;
}

}  // namespace ergon
