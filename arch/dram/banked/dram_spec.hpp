#pragma once
// What a bank-level DRAM model needs to know about one memory technology: how a channel is organised,
// the JEDEC timing constraints between its commands, and the IDD currents its energy is computed from
// (docs/dram.md lists every preset's values and their sources).
#include <cstdint>
#include <string>

namespace ergon {

struct DramOrganisation {
  int channels = 1;
  int ranks = 1;
  int bank_groups = 1;
  int banks_per_group = 8;
  std::int64_t rows = 65536;    // per bank
  std::int64_t columns = 1024;  // per row, in device columns (one bus-width word each)
  int channel_width_bits = 64;  // data bus of one channel
  int burst_length = 8;         // bus-width words per column access
  int devices_per_rank = 8;     // chips that share a rank's commands (their currents add up)

  int banks_per_rank() const { return bank_groups * banks_per_group; }
  std::int64_t access_bytes() const { return static_cast<std::int64_t>(channel_width_bits) / 8 * burst_length; }
  std::int64_t row_bytes() const { return columns * channel_width_bits / 8; }
  std::int64_t accesses_per_row() const { return columns / burst_length; }
  std::int64_t capacity_bytes() const {
    return static_cast<std::int64_t>(channels) * ranks * banks_per_rank() * rows * row_bytes();
  }
};

// Timing constraints in clock cycles of tck_ns (as datasheets and JEDEC tables give them). The data bus
// transfers `transfers_per_clock` words per cycle (2 for double data rate; LPDDR5's data clock WCK runs at
// four times CK, so 8 per CK), so a burst occupies it for burst_length / transfers_per_clock cycles.
struct DramTiming {
  double tck_ns = 1.0;
  int transfers_per_clock = 2;
  int cl = 0, cwl = 0;           // read and write latency: command to first data
  int rcd = 0, rp = 0, ras = 0;  // activate to column command; precharge to activate; activate to precharge
  int rrd_s = 0, rrd_l = 0;      // activate to activate, other / same bank group
  int faw = 0;                   // window holding at most four activates per rank
  int ccd_s = 0, ccd_l = 0;      // column command to column command, other / same bank group
  int wr = 0;                    // end of write data to precharge
  int wtr_s = 0, wtr_l = 0;      // end of write data to read command, other / same bank group
  int rtp = 0;                   // read command to precharge
  int refi = 0, rfc = 0;         // refresh interval and the all-bank refresh's duration
};

// Currents in mA per device and supply voltages in V, as datasheets give them (IDD measurement
// conditions of JESD79). vdd/idd*: the core supply (LPDDR4: VDD2). vpp/ipp*: the second supply, DDR4 and
// DDR5's activation supply VPP, LPDDR4's VDD1 (0 where a source gives none).
struct DramCurrents {
  double vdd = 0, idd0 = 0, idd2n = 0, idd3n = 0, idd4r = 0, idd4w = 0, idd5b = 0;
  double vpp = 0, ipp0 = 0, ipp2n = 0, ipp3n = 0, ipp4r = 0, ipp4w = 0, ipp5b = 0;
};

struct DramSpec {
  std::string name;
  DramOrganisation organisation;
  DramTiming timing;
  DramCurrents currents;
  std::string source;  // where the values come from (docs/dram.md has the details)

  double peak_bandwidth_gbps() const {
    const double bytes_per_cycle =
        static_cast<double>(timing.transfers_per_clock) * organisation.channel_width_bits / 8.0 * organisation.channels;
    return bytes_per_cycle / timing.tck_ns;
  }
};

}  // namespace ergon
