#pragma once
// The bank-level descriptions of the DRAM presets (`dram.impl: banked`); values and sources in docs/dram.md.
#include <vector>

#include "arch/dram/banked/dram_spec.hpp"

namespace ergon {

const std::vector<DramSpec>& dram_specs();
const DramSpec* find_dram_spec(const std::string& preset);

}  // namespace ergon
