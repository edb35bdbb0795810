#pragma once
// The bounds on every energy and power an input gives (energy tables, Accelergy ERTs, config keys such as
// dram.energy_pj_per_bit). They keep every product of an energy and a 64-bit count finite: a value beyond
// them is a typo, not a technology. 1 mJ per access (or per bit) is about 10^5 times a DRAM word's
// energy; 1 kW of clock tree or leakage is a data-centre rack.
#include "common/yaml_view.hpp"

namespace ergon {

inline constexpr NumberRule kEnergyPerAccessPj{0.0, 1e9, false};  // per access, per bit or per event
inline constexpr NumberRule kPowerMw{0.0, 1e6, false};
// The width of one priced access (an ERT component's or a table entry's bits_per_access): up to a 128 KiB line.
inline constexpr IntRule kAccessBits{1, 1 << 20};

}  // namespace ergon
