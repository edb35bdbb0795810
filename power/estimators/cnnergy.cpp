#include "power/estimators/cnnergy.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ergon {

CnnergyEnergy& CnnergyEnergy::operator+=(const CnnergyEnergy& other) {
  mac_pj += other.mac_pj;
  rf_pj += other.rf_pj;
  inter_pe_pj += other.inter_pe_pj;
  glb_pj += other.glb_pj;
  dram_pj += other.dram_pj;
  clock_pj += other.clock_pj;
  control_pj += other.control_pj;
  return *this;
}

CnnergyAccesses& CnnergyAccesses::operator+=(const CnnergyAccesses& other) {
  macs += other.macs;
  rf += other.rf;
  inter_pe += other.inter_pe;
  glb += other.glb;
  dram_words += other.dram_words;
  return *this;
}

namespace {

// The five energies CNNergy's model prices. It counts RF and GLB accesses without telling reads from
// writes, or one operand's register file from another's, so it takes the mean of the table's read and write
// energies (equal in CNNergy's own table); DRAM energy is per word.
struct AccessEnergies {
  double mac_pj = 0;
  double rf_pj = 0;
  double inter_pe_pj = 0;
  double glb_pj = 0;
  double dram_pj = 0;
};

AccessEnergies access_energies(const EnergyTable& table, int word_bits) {
  const WordWidthEnergies& width = table.at_word_bits(word_bits);
  const auto energy = [&](const char* action, const char* unit) {
    const ActionEnergy* entry = width.find(action);
    if (entry == nullptr) {
      throw InputError({table.file, 0, 0, {}}, fmt::format("word_widths[bits={}]", word_bits),
                       fmt::format("CNNergy needs the energy of '{}'; the table does not price it", action));
    }
    return per_count_pj(*entry, CounterSpec{action, unit, "", ""}, word_bits);
  };
  const auto mean = [&](std::initializer_list<const char*> actions, const char* unit) {
    double sum = 0;
    for (const char* action : actions) sum += energy(action, unit);
    return sum / static_cast<double>(actions.size());
  };
  AccessEnergies e;
  e.mac_pj = energy("mac.compute", "MACs");
  e.rf_pj =
      mean({"rf.ifmap_read", "rf.ifmap_write", "rf.filter_read", "rf.filter_write", "rf.psum_read", "rf.psum_write"},
           "words");
  e.inter_pe_pj = energy("noc.pe_hop", "words");
  e.glb_pj = mean({"glb.read", "glb.write"}, "words");
  e.dram_pj = mean({"dram.read", "dram.write"}, "bytes") * word_bits / 8;
  return e;
}

// One group of a conv layer in CNNergy's notation (docs/cnnergy.md).
struct ConvProblem {
  double R = 0;              // filter height = width
  double M = 0;              // filters
  double C = 0;              // channels
  double H = 0;              // padded ifmap height = width, (E-1)*U + R
  double U = 1;              // stride
  double E = 0;              // ofmap height = width
  double nonzero_ifmap = 1;  // NZ = 1 - ifmap sparsity over the padded volume
  double ofmap_sparsity = 0;
  double n = 1;                // images processed together
  bool network_input = false;  // the ifmap is read uncompressed
};

// The model's hardware in the units of the chosen word width.
struct ModelHardware {
  double rows, cols, filter_rf, ifmap_rf, psum_rf, glb_kib, word_bits, rlc_factor;
};

ModelHardware model_hardware(const CnnergyHardware& hardware, int word_bits) {
  const double entries_scale = 16.0 / word_bits;  // same bytes at a narrower word: every RF holds more
  const auto real = [](std::int64_t value) { return static_cast<double>(value); };
  return {real(hardware.pe_rows),
          real(hardware.pe_cols),
          real(hardware.filter_rf_entries) * entries_scale,
          real(hardware.ifmap_rf_entries) * entries_scale,
          real(hardware.psum_rf_entries) * entries_scale,
          hardware.glb_kib,
          static_cast<double>(word_bits),
          word_bits == 8 ? 5.0 : 3.0};  // RLC: non-zero values per 64-bit word
}

struct Mapping {
  double set_per_pass = 0, ch_per_set = 0, ch_per_pass = 0;
  double diff_filt_per_set = 0, diff_filt_per_pass = 0;
  bool all_ch = false;
  double x_ifmap = 0, y_ifmap = 0, y_ofmap = 0, x_ofmap_comp = 0, y_ofmap_comp = 0;
};

// Mapping rules 1-5: how many channels and filters one pass holds.
void map_channels_and_filters(const ConvProblem& p, const ModelHardware& hw, Mapping& m) {
  m.set_per_pass = std::floor(hw.rows / p.R);
  m.ch_per_set = std::floor(hw.ifmap_rf / p.R);
  const double filt_per_set_total = std::floor(hw.filter_rf / p.R);
  m.diff_filt_per_set = std::floor(filt_per_set_total / m.ch_per_set);
  if (m.ch_per_set >= p.C) {  // rule 1
    m.ch_per_set = p.C;
    m.ch_per_pass = p.C;
    m.all_ch = true;
    m.diff_filt_per_set = std::floor(filt_per_set_total / p.C);
    m.diff_filt_per_pass = m.diff_filt_per_set * m.set_per_pass;
  } else {
    m.ch_per_pass = m.ch_per_set * m.set_per_pass;
    m.diff_filt_per_pass = m.diff_filt_per_set;
  }
  if (m.ch_per_set < p.C && m.ch_per_pass > p.C) {  // rule 2
    m.ch_per_pass = p.C;
    const double sets_for_all_ch = std::ceil(p.C / m.ch_per_set);
    const double super_set = std::floor(m.set_per_pass / sets_for_all_ch);
    m.diff_filt_per_pass = m.diff_filt_per_set * super_set;
    m.all_ch = true;
  }
  if (p.R == 1 && p.E != 1 && !m.all_ch) {  // rule 3: 1x1 filters
    m.ch_per_pass = 72;
    const double sets_for_all_ch = std::ceil(72 / m.ch_per_set);
    const double super_set = std::floor(m.set_per_pass / sets_for_all_ch);
    if (p.M <= 18) {
      m.diff_filt_per_set = p.M;
      m.diff_filt_per_pass = p.M;
    } else if (p.M < 36) {
      m.diff_filt_per_set = p.M / super_set;
      m.diff_filt_per_pass = m.diff_filt_per_set * super_set;
    } else {
      m.diff_filt_per_pass = m.diff_filt_per_set * super_set;
    }
  }
  if (m.diff_filt_per_pass > p.M) {  // rule 4
    m.diff_filt_per_set = p.M / m.set_per_pass;
    m.diff_filt_per_pass = p.M;
  }
  if (hw.psum_rf < m.diff_filt_per_set) {  // rule 5
    m.diff_filt_per_set = hw.psum_rf;
    m.diff_filt_per_pass = hw.psum_rf * m.set_per_pass;
  }
}

double kib(double words, double word_bits) {
  return words * word_bits / 8192.0;
}

// The GLB fit: shrink the ifmap tile (and if needed the psum tile or filters) until it fits.
void fit_tile_in_glb(const ConvProblem& p, const ModelHardware& hw, Mapping& m) {
  m.x_ifmap = p.H;
  const double y = p.U * (hw.cols - 1) + p.R;
  m.y_ifmap = y >= p.H ? p.H : y;
  m.y_ofmap = y >= p.H ? p.E : hw.cols;

  double ifmap_kb = kib(m.x_ifmap * m.y_ifmap * m.ch_per_pass, hw.word_bits);
  double psum_kb = kib(p.E * p.E * m.diff_filt_per_pass, hw.word_bits);
  double n_max = hw.glb_kib / (ifmap_kb + psum_kb);
  m.x_ofmap_comp = p.E;
  while (ifmap_kb >= hw.glb_kib) {
    m.x_ifmap /= 2;
    m.x_ofmap_comp = (m.x_ifmap - p.R) / p.U + 1;
    ifmap_kb = kib(m.x_ifmap * m.y_ifmap * m.ch_per_pass, hw.word_bits);
    psum_kb = kib(m.x_ofmap_comp * p.E * m.diff_filt_per_pass, hw.word_bits);
    n_max = hw.glb_kib / (ifmap_kb + psum_kb);
  }
  const auto fits = [&] {
    return hw.glb_kib / (ifmap_kb + kib(m.x_ofmap_comp * m.y_ofmap_comp * m.diff_filt_per_pass, hw.word_bits)) >= 1;
  };
  m.y_ofmap_comp = p.E;
  if (n_max < 1 && !m.all_ch) {
    while (!fits()) m.y_ofmap_comp /= 2;
  }
  if (m.y_ofmap_comp < m.y_ofmap) {  // rule 6
    m.y_ofmap_comp = m.y_ofmap;
    if (!m.all_ch) {
      do {
        m.diff_filt_per_pass -= 1;
      } while (!fits() && m.diff_filt_per_pass > 1);
    }
  }
  // The batch size n the GLB would allow is advisory: the reference uses the tables' n2 instead.
}

// Energy and accesses of one z-pass step (filters + ifmap DRAM) and of its on-chip work.
struct PassTerms {
  CnnergyEnergy dram_loads;  // filters (DRAM + GLB write) and ifmap from DRAM, per y-pass column
  CnnergyAccesses dram_load_accesses;
  CnnergyEnergy per_image_work;  // ifmap GLB reads + MAC and RF, per image per y-pass
  CnnergyAccesses per_image_work_accesses;
  double psum_glb_pj = 0;  // psum GLB traffic per image per y-pass
  double psum_glb_accesses = 0;
};

PassTerms pass_terms(const ConvProblem& p, const ModelHardware& hw, const Mapping& m, const AccessEnergies& e,
                     double y_pass) {
  PassTerms t;
  const double filt_load = m.diff_filt_per_pass * m.ch_per_pass * p.R * p.R;
  const double if_load = m.x_ifmap * m.y_ifmap * m.ch_per_pass;
  const double if_load_ov = m.x_ifmap * (m.y_ifmap - (p.R - p.U)) * m.ch_per_pass;
  const auto dram_words = [&](double count) {
    return p.network_input ? count * p.n : (count * p.nonzero_ifmap / hw.rlc_factor) * (64 / hw.word_bits) * p.n;
  };
  const double ifmap_dram_words = dram_words(if_load) + (y_pass - 1) * dram_words(if_load_ov);
  t.dram_loads.dram_pj = e.dram_pj * (filt_load + ifmap_dram_words);
  t.dram_loads.glb_pj = e.glb_pj * filt_load;
  t.dram_load_accesses.dram_words = filt_load + ifmap_dram_words;
  t.dram_load_accesses.glb = filt_load;

  const double mac = p.R * p.R * m.x_ofmap_comp * m.y_ofmap * m.diff_filt_per_pass * m.ch_per_pass;
  const double nz_mac = mac * p.nonzero_ifmap;
  const double pe_height = std::ceil(p.R * m.ch_per_pass / m.ch_per_set);
  const double inter_pe = (pe_height - 1) * m.x_ofmap_comp * m.diff_filt_per_pass * m.y_ofmap;
  const double rf_accesses = nz_mac * 3 + (nz_mac - inter_pe) + (mac - nz_mac);
  t.per_image_work.glb_pj = e.glb_pj * if_load;
  t.per_image_work.mac_pj = e.mac_pj * nz_mac;
  t.per_image_work.rf_pj = e.rf_pj * rf_accesses;
  t.per_image_work.inter_pe_pj = e.inter_pe_pj * inter_pe;
  t.per_image_work_accesses = {nz_mac, rf_accesses, inter_pe, if_load, 0};

  const double psum_rw = m.diff_filt_per_pass * m.x_ofmap_comp * m.y_ofmap;
  t.psum_glb_pj = e.glb_pj * psum_rw;
  t.psum_glb_accesses = psum_rw;
  return t;
}

CnnergyEnergy scaled(CnnergyEnergy energy, double factor) {
  energy.mac_pj *= factor;
  energy.rf_pj *= factor;
  energy.inter_pe_pj *= factor;
  energy.glb_pj *= factor;
  energy.dram_pj *= factor;
  energy.clock_pj *= factor;
  energy.control_pj *= factor;
  return energy;
}

CnnergyAccesses scaled(CnnergyAccesses accesses, double factor) {
  accesses.macs *= factor;
  accesses.rf *= factor;
  accesses.inter_pe *= factor;
  accesses.glb *= factor;
  accesses.dram_words *= factor;
  return accesses;
}

struct GroupResult {
  CnnergyEnergy energy;      // per image, without clock and control
  CnnergyAccesses accesses;  // per image
  Mapping mapping;
  double passes = 0;
};

GroupResult estimate_group(const ConvProblem& p, const ModelHardware& hw, const AccessEnergies& e) {
  GroupResult result;
  Mapping& m = result.mapping;
  map_channels_and_filters(p, hw, m);
  fit_tile_in_glb(p, hw, m);
  const double y_pass = m.y_ofmap_comp / m.y_ofmap;
  const double z_pass = p.C / m.ch_per_pass;
  const double filter_pass = p.M / m.diff_filt_per_pass;
  const double full_y_pass = p.E / m.y_ofmap_comp;
  const double x_pass = p.E / m.x_ofmap_comp;
  const PassTerms t = pass_terms(p, hw, m, e, y_pass);

  // first_y + (z_pass - 1) next_y, where next_y reads and writes psums (twice the GLB traffic).
  const double repeats = filter_pass * full_y_pass * x_pass;
  const double work_factor = p.n * y_pass * z_pass;
  const double psum_factor = p.n * y_pass * (1 + 2 * (z_pass - 1));
  CnnergyEnergy total = scaled(t.dram_loads, z_pass);
  total += scaled(t.per_image_work, work_factor);
  total.glb_pj += t.psum_glb_pj * psum_factor;
  CnnergyAccesses accesses = scaled(t.dram_load_accesses, z_pass);
  accesses += scaled(t.per_image_work_accesses, work_factor);
  accesses.glb += t.psum_glb_accesses * psum_factor;

  const double ofmap_words = p.E * p.E * p.M * (1 - p.ofmap_sparsity) / hw.rlc_factor * (64 / hw.word_bits) * p.n;
  result.energy = scaled(total, repeats / p.n);
  result.energy.dram_pj += e.dram_pj * ofmap_words / p.n;
  result.accesses = scaled(accesses, repeats / p.n);
  result.accesses.dram_words += ofmap_words / p.n;
  result.passes = repeats * y_pass * z_pass;
  return result;
}

// CNNergy handles square convolutions; other layers are listed as not modelled, with the reason.
std::string conv_problem(const Layer& layer, ConvProblem& problem, double& groups) {
  const TensorShape& in = layer.input_shapes.at(0);
  const TensorShape& out = layer.output_shape;
  if (in.height != in.width || out.height != out.width) return "CNNergy models square feature maps only";
  if (layer.op == OpKind::kFullyConnected) {
    problem.R = static_cast<double>(in.height);
    problem.C = static_cast<double>(in.channels);
    problem.M = static_cast<double>(layer.fully_connected().outputs);
    problem.E = 1;
    problem.U = 1;
    groups = 1;
  } else {
    const ConvParams& conv = layer.conv();
    const Window& w = conv.window;
    if (w.kernel_h != w.kernel_w) return "CNNergy models square filters only";
    if (w.stride_h != w.stride_w) return "CNNergy models equal strides only";
    if (w.dilation_h != 1 || w.dilation_w != 1) return "CNNergy does not model dilation";
    groups = static_cast<double>(conv.groups);
    problem.R = static_cast<double>(w.kernel_h);
    problem.C = static_cast<double>(in.channels) / groups;
    problem.M = static_cast<double>(conv.filters) / groups;
    problem.E = static_cast<double>(out.height);
    problem.U = static_cast<double>(w.stride_h);
  }
  problem.H = (problem.E - 1) * problem.U + problem.R;
  // Sparsity is given over the unpadded input; padding adds zeros.
  // Sparsity is over the unpadded input; padding adds zeros (a stride that skips input rows removes some).
  const double unpadded = static_cast<double>(in.height) * static_cast<double>(in.height);
  const double padded = problem.H * problem.H;
  problem.nonzero_ifmap = (1 - layer.sparsity.ifmap) * std::min(unpadded, padded) / padded;
  problem.ofmap_sparsity = layer.sparsity.ofmap;
  problem.n = static_cast<double>(layer.batch);
  return "";
}

// CNNergy's mapping needs a whole filter column in the PE rows and a filter row in each RF.
std::string fits_cnnergy_mapping(const ConvProblem& p, const ModelHardware& hw) {
  if (p.R > hw.rows || p.R > hw.ifmap_rf || p.R > hw.filter_rf) {
    return fmt::format(
        "filter size {} exceeds CNNergy's limits on this array ({} PE rows, {} ifmap and {} filter RF "
        "entries)",
        p.R, hw.rows, hw.ifmap_rf, hw.filter_rf);
  }
  return "";
}

CnnergyLayerEstimate estimate_layer(const Workload& workload, const Layer& layer, const ModelHardware& hw,
                                    const EnergyTable& table, const AccessEnergies& e, const CnnergyOptions& options) {
  CnnergyLayerEstimate estimate{layer.name, op_name(layer.op), false, "", layer.macs, layer.batch, {}, {}, {}};
  if (layer.op != OpKind::kConv && layer.op != OpKind::kFullyConnected) {
    estimate.not_modelled_reason = "CNNergy costs conv and fc layers only";
    return estimate;
  }
  ConvProblem problem;
  double groups = 1;
  estimate.not_modelled_reason = conv_problem(layer, problem, groups);
  if (!estimate.not_modelled_reason.empty()) return estimate;
  problem.network_input = workload.reads_network_input(layer);
  estimate.not_modelled_reason = fits_cnnergy_mapping(problem, hw);
  if (!estimate.not_modelled_reason.empty()) return estimate;

  const GroupResult group = estimate_group(problem, hw, e);
  if (!std::isfinite(group.energy.total_pj()) || group.mapping.diff_filt_per_pass < 1) {
    estimate.not_modelled_reason = "CNNergy's mapping finds no valid tile for this layer on this array";
    return estimate;
  }
  estimate.modelled = true;
  estimate.energy = scaled(group.energy, groups);
  estimate.accesses = scaled(group.accesses, groups);
  estimate.mapping = {group.mapping.ch_per_set, group.mapping.ch_per_pass,  group.mapping.diff_filt_per_pass,
                      group.mapping.y_ofmap,    group.mapping.x_ofmap_comp, group.passes * groups};
  if (options.include_control_and_clock) {
    const double latency_s = static_cast<double>(layer.macs) / options.throughput_macs_per_s;
    estimate.energy.clock_pj = table.clock_tree_power_mw * 1e-3 * latency_s * 1e12;
    // "On-chip" is everything but DRAM traffic (the reference subtracts the DRAM reads from a total
    // that never held the ofmap write-back).
    const CnnergyEnergy& energy = estimate.energy;
    const double on_chip_pj = energy.mac_pj + energy.rf_pj + energy.inter_pe_pj + energy.glb_pj;
    const double f = table.control_fraction;
    estimate.energy.control_pj = f / (1 - f) * (on_chip_pj + estimate.energy.clock_pj);
  }
  return estimate;
}

}  // namespace

CnnergyEstimate estimate_cnnergy(const Workload& workload, const EnergyTable& table, const CnnergyHardware& hardware,
                                 const CnnergyOptions& options) {
  const AccessEnergies energies = access_energies(table, options.word_bits);
  const ModelHardware hw = model_hardware(hardware, options.word_bits);
  CnnergyEstimate estimate;
  estimate.workload = workload.name();
  estimate.options = options;
  for (const Layer& layer : workload.layers()) {
    if (layer.op == OpKind::kInput) continue;
    CnnergyLayerEstimate layer_estimate = estimate_layer(workload, layer, hw, table, energies, options);
    estimate.total += layer_estimate.energy;
    estimate.total_macs += layer_estimate.macs;
    if (layer_estimate.modelled) estimate.modelled_macs += layer_estimate.macs;
    estimate.layers.push_back(std::move(layer_estimate));
  }
  return estimate;
}

}  // namespace ergon
