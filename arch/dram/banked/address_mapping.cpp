#include "arch/dram/banked/address_mapping.hpp"

#include <stdexcept>

namespace ergon {
namespace {

bool is_power_of_two(std::int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

int log2_exact(std::int64_t value, const char* what) {
  if (!is_power_of_two(value)) {
    throw std::invalid_argument(std::string(what) + " must be a power of two for an address mapping, not " +
                                std::to_string(value));
  }
  int bits = 0;
  while ((std::int64_t{1} << bits) < value) ++bits;
  return bits;
}

}  // namespace

DramAddressMapping::DramAddressMapping(const std::string& mapping, const DramOrganisation& o) : name_(mapping) {
  offset_bits_ = log2_exact(o.access_bytes(), "the bytes of one column access");
  if (mapping.size() != 12) {
    throw std::invalid_argument("DRAM address mapping '" + mapping +
                                "' must name each of Ro, Ra, Bg, Ba, Co and Ch once, most significant first "
                                "(e.g. RoBgBaRaCoCh)");
  }
  std::vector<Slice> most_significant_first;
  std::string seen;
  for (std::size_t i = 0; i < mapping.size(); i += 2) {
    const std::string token = mapping.substr(i, 2);
    if (seen.find(token) != std::string::npos) {
      throw std::invalid_argument("DRAM address mapping '" + mapping + "' names " + token + " twice");
    }
    seen += token;
    if (token == "Ro") {
      most_significant_first.push_back({Field::kRow, log2_exact(o.rows, "rows per bank")});
    } else if (token == "Ra") {
      most_significant_first.push_back({Field::kRank, log2_exact(o.ranks, "ranks")});
    } else if (token == "Bg") {
      most_significant_first.push_back({Field::kBankGroup, log2_exact(o.bank_groups, "bank groups")});
    } else if (token == "Ba") {
      most_significant_first.push_back({Field::kBank, log2_exact(o.banks_per_group, "banks per group")});
    } else if (token == "Co") {
      most_significant_first.push_back({Field::kColumn, log2_exact(o.accesses_per_row(), "column accesses per row")});
    } else if (token == "Ch") {
      most_significant_first.push_back({Field::kChannel, log2_exact(o.channels, "channels")});
    } else {
      throw std::invalid_argument("DRAM address mapping '" + mapping + "': unknown field '" + token +
                                  "' (give Ro, Ra, Bg, Ba, Co and Ch, most significant first)");
    }
  }
  slices_.assign(most_significant_first.rbegin(), most_significant_first.rend());
}

DramLocation DramAddressMapping::locate(std::uint64_t address) const {
  DramLocation where;
  std::uint64_t rest = address >> offset_bits_;
  for (const Slice& slice : slices_) {
    const auto value = static_cast<std::int64_t>(rest & ((std::uint64_t{1} << slice.bits) - 1));
    rest >>= slice.bits;
    switch (slice.field) {
      case Field::kRow: where.row = value; break;
      case Field::kRank: where.rank = static_cast<int>(value); break;
      case Field::kBankGroup: where.bank_group = static_cast<int>(value); break;
      case Field::kBank: where.bank = static_cast<int>(value); break;
      case Field::kColumn: where.column = value; break;
      case Field::kChannel: where.channel = static_cast<int>(value); break;
    }
  }
  return where;  // bits above the capacity are ignored: addresses beyond it alias (the model holds no data)
}

}  // namespace ergon
