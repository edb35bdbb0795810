#pragma once
// Where a physical byte address lands in the DRAM: channel, rank, bank group, bank, row and column access.
// A mapping names the fields from the most to the least significant bits, in Ramulator's notation: Ro (row),
// Ra (rank), Bg (bank group), Ba (bank in its group), Co (column access), Ch (channel); the bytes of one
// column access are the lowest bits. "RoBaRaCoBgCh" (Ergon's default) spreads consecutive accesses over the
// channels, then the bank groups (so streams pay tCCD_S, not tCCD_L), then along one row; "RoBgBaRaCoCh"
// (Ramulator 2's RoBaRaCoCh with bank groups) keeps a channel's consecutive accesses in one bank;
// "RoRaBgBaChCo" keeps a row's accesses consecutive.
#include <cstdint>
#include <string>
#include <vector>

#include "arch/dram/banked/dram_spec.hpp"

namespace ergon {

struct DramLocation {
  int channel = 0, rank = 0, bank_group = 0, bank = 0;  // bank: within its group
  std::int64_t row = 0, column = 0;                     // column: access index within the row
};

class DramAddressMapping {
 public:
  // Throws std::invalid_argument naming the problem for a malformed mapping or an organisation whose
  // field sizes are not powers of two.
  DramAddressMapping(const std::string& mapping, const DramOrganisation& organisation);
  DramLocation locate(std::uint64_t address) const;
  const std::string& name() const { return name_; }

 private:
  enum class Field { kRow, kRank, kBankGroup, kBank, kColumn, kChannel };
  struct Slice {
    Field field;
    int bits;
  };
  std::string name_;
  int offset_bits_ = 0;        // bytes within one column access
  std::vector<Slice> slices_;  // least significant first
};

}  // namespace ergon
