#pragma once
// The CNNergy model's hardware taken from an accelerator config (the estimator and `compare`'s detail).
#include "arch/accelerator_config.hpp"
#include "common/input_error.hpp"
#include "dataflows/registry.hpp"
#include "power/estimators/cnnergy.hpp"

namespace ergon {

// CNNergy models a row-stationary array; other arrays have no register files for it to map onto.
inline CnnergyHardware cnnergy_hardware(const AcceleratorConfig& config) {
  if (!is_row_stationary(config.pe_array)) {
    throw InputError({config.file, 0, 0, {}}, "pe_array.impl",
                     "CNNergy models a row-stationary array, not '" + config.pe_array.impl +
                         "'; give a row-stationary config (e.g. configs/eyeriss.yaml)");
  }
  // The model counts register files in 16-bit entries; a config may give them at 8 bit.
  const std::int64_t bits = config.pe_array.word_bits;
  const auto& rf = config.pe_array.rf;
  return {config.pe_array.rows,         config.pe_array.cols,        rf.filter_entries * bits / 16,
          rf.ifmap_entries * bits / 16, rf.psum_entries * bits / 16, config.glb.size_kib};
}

}  // namespace ergon
