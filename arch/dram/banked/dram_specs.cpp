#include "arch/dram/banked/dram_specs.hpp"

namespace ergon {
namespace {

// Positional helpers keep the table below one line per group; the field order is that of the structs.
DramOrganisation organisation(int channels, int bank_groups, int banks_per_group, std::int64_t rows,
                              std::int64_t columns, int channel_width_bits, int burst_length, int devices_per_rank) {
  DramOrganisation o;
  o.channels = channels;
  o.ranks = 1;
  o.bank_groups = bank_groups;
  o.banks_per_group = banks_per_group;
  o.rows = rows;
  o.columns = columns;
  o.channel_width_bits = channel_width_bits;
  o.burst_length = burst_length;
  o.devices_per_rank = devices_per_rank;
  return o;
}

struct Cycles {
  int cl, cwl, rcd, rp, ras, rrd_s, rrd_l, faw, ccd_s, ccd_l, wr, wtr_s, wtr_l, rtp, refi, rfc;
};

DramTiming timing(double tck_ns, int transfers_per_clock, const Cycles& c) {
  DramTiming t;
  t.tck_ns = tck_ns;
  t.transfers_per_clock = transfers_per_clock;
  t.cl = c.cl;
  t.cwl = c.cwl;
  t.rcd = c.rcd;
  t.rp = c.rp;
  t.ras = c.ras;
  t.rrd_s = c.rrd_s;
  t.rrd_l = c.rrd_l;
  t.faw = c.faw;
  t.ccd_s = c.ccd_s;
  t.ccd_l = c.ccd_l;
  t.wr = c.wr;
  t.wtr_s = c.wtr_s;
  t.wtr_l = c.wtr_l;
  t.rtp = c.rtp;
  t.refi = c.refi;
  t.rfc = c.rfc;
  return t;
}

// mA: idd0, idd2n, idd3n, idd4r, idd4w, idd5b on the core supply, then the same on the second supply.
DramCurrents currents(double vdd, const double (&core)[6], double vpp, const double (&aux)[6]) {
  return {vdd, core[0], core[1], core[2], core[3], core[4], core[5],
          vpp, aux[0],  aux[1],  aux[2],  aux[3],  aux[4],  aux[5]};
}

// Micron 8 Gb DDR4 x8 (DRAMsim3 DDR4_8Gb_x8_3200.ini); VPP from Micron's DDR4-3200 memspec for DRAMPower.
DramCurrents ddr4_x8_currents() {
  return currents(1.2, {57, 37, 52, 168, 150, 250}, 2.5, {3, 3, 3, 3, 3, 5});
}
// Micron 16 Gb DDR5 die A at DDR5-4800 (gem5's DDR5 interface); no VPP currents in that source.
DramCurrents ddr5_x8_currents() {
  return currents(1.1, {122, 92, 142, 530, 479, 277}, 0, {0, 0, 0, 0, 0, 0});
}
// One x16 LPDDR4 channel (DRAMSys JEDEC_8Gb_LPDDR4-3200_16bit): VDD2 1.1 V as the core, VDD1 1.8 V.
constexpr double kLpddr4Vdd2[6] = {45, 27, 30, 275, 210, 90};
constexpr double kLpddr4Vdd1[6] = {3.5, 2.0, 2.25, 2.25, 2.25, 10};

}  // namespace

// Values and their sources: docs/dram.md, "Bank-level presets".
const std::vector<DramSpec>& dram_specs() {
  static const std::vector<DramSpec> specs = {
      {"lpddr4", organisation(4, 1, 8, 65536, 1024, 16, 16, 1),
       timing(0.625, 2, {28, 14, 29, 29, 68, 16, 16, 64, 8, 8, 29, 16, 16, 12, 6246, 448}),
       currents(1.1, kLpddr4Vdd2, 1.8, kLpddr4Vdd1), "JESD209-4 LPDDR4-3200, four x16 channels (DRAMSys memspec)"},
      {"lpddr5", organisation(4, 4, 4, 65536, 1024, 16, 16, 1),
       timing(1.25, 8, {17, 9, 15, 15, 34, 4, 4, 16, 2, 4, 28, 5, 10, 8, 3125, 224}),
       currents(1.05, kLpddr4Vdd2, 1.8, kLpddr4Vdd1),
       "JESD209-5 LPDDR5-6400 BG mode, four x16 channels (Ramulator 2); currents derived (LPDDR4's at VDD2H)"},
      {"ddr4-4000", organisation(1, 4, 4, 65536, 1024, 64, 8, 8),
       timing(0.5, 2, {19, 20, 25, 25, 65, 5, 10, 43, 4, 10, 30, 5, 15, 15, 15600, 700}), ddr4_x8_currents(),
       "DDR4-4000 XMP 19-25-25, 8 x8 devices; other timings and currents derived from DDR4-3200AA"},
      {"ddr4-4400", organisation(1, 4, 4, 65536, 1024, 64, 8, 8),
       timing(1.0 / 2.2, 2, {19, 22, 19, 19, 72, 6, 11, 47, 4, 11, 33, 6, 17, 17, 17160, 770}), ddr4_x8_currents(),
       "DDR4-4400 XMP 19-19-19, 8 x8 devices; other timings and currents derived from DDR4-3200AA"},
      {"ddr5-4800", organisation(2, 8, 4, 65536, 1024, 32, 16, 4),
       timing(1.0 / 2.4, 2, {34, 32, 34, 34, 77, 8, 12, 32, 8, 12, 72, 6, 24, 18, 9375, 710}), ddr5_x8_currents(),
       "JESD79-5 DDR5-4800AN, two 32-bit sub-channels of 4 x8 16 Gb devices (Ramulator 2)"},
      {"ddr5-6800", organisation(2, 8, 4, 65536, 1024, 32, 16, 4),
       timing(1.0 / 3.4, 2, {48, 46, 48, 48, 109, 8, 16, 32, 8, 17, 102, 8, 34, 26, 13265, 1001}), ddr5_x8_currents(),
       "DDR5-6800AN (a Ramulator 2 fork's preset); currents derived from DDR5-4800"},
      {"ddr5-7800", organisation(2, 8, 4, 65536, 1024, 32, 16, 4),
       timing(1.0 / 3.9, 2, {56, 54, 56, 56, 126, 8, 16, 32, 8, 20, 117, 8, 39, 30, 15210, 1151}), ddr5_x8_currents(),
       "DDR5-7800: DDR5-7600AN's nanoseconds at the 7800 clock; currents derived from DDR5-4800"},
      {"hbm1", organisation(8, 4, 4, 16384, 128, 128, 4, 1),
       timing(2.0, 2, {7, 2, 7, 7, 17, 2, 3, 15, 1, 1, 8, 3, 4, 4, 1950, 130}),
       currents(1.2, {65, 40, 55, 360, 440, 250}, 0, {0, 0, 0, 0, 0, 0}),
       "JESD235 HBM 1 Gb/s/pin, 8 x 128-bit channels of 4 Gb (DRAMsim3 HBM1_4Gb_x128.ini)"},
      {"hbm2", organisation(8, 4, 4, 16384, 128, 128, 4, 1),
       timing(1.0, 2, {14, 4, 14, 14, 34, 4, 6, 30, 1, 2, 16, 6, 8, 5, 3900, 260}),
       currents(1.2, {65, 40, 55, 390, 500, 250}, 0, {0, 0, 0, 0, 0, 0}),
       "JESD235A HBM2 2 Gb/s/pin, 8 x 128-bit channels of 4 Gb (DRAMsim3 HBM2_4Gb_x128.ini)"},
  };
  return specs;
}

const DramSpec* find_dram_spec(const std::string& preset) {
  for (const DramSpec& spec : dram_specs()) {
    if (spec.name == preset) return &spec;
  }
  return nullptr;
}

}  // namespace ergon
