// The bank-level DRAM timing against the bounds its timing parameters imply, the way DRAM simulators are
// checked: latency of a single access in each row-buffer state, streaming bandwidth against the peak,
// random-access bandwidth against the activate-rate limits (tRRD, tFAW), refresh count and overhead.
#include "arch/dram/banked/bank_scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "arch/dram/banked/dram_energy.hpp"

namespace ergon {
namespace {

// A DDR4-3200 x8 channel (JESD79-4 speed bin 3200AA values, as in DRAMsim3's DDR4_8Gb_x8_3200.ini).
DramSpec ddr4_3200() {
  DramSpec spec;
  spec.name = "test-ddr4-3200";
  DramOrganisation& o = spec.organisation;
  o.channels = 1;
  o.ranks = 1;
  o.bank_groups = 4;
  o.banks_per_group = 4;
  o.rows = 65536;
  o.columns = 1024;
  o.channel_width_bits = 64;
  o.burst_length = 8;
  o.devices_per_rank = 8;
  DramTiming& t = spec.timing;
  t.tck_ns = 0.625;
  t.cl = 22;
  t.cwl = 16;
  t.rcd = 22;
  t.rp = 22;
  t.ras = 52;
  t.rrd_s = 4;
  t.rrd_l = 8;
  t.faw = 34;
  t.ccd_s = 4;
  t.ccd_l = 8;
  t.wr = 24;
  t.wtr_s = 4;
  t.wtr_l = 12;
  t.rtp = 12;
  t.refi = 12480;
  t.rfc = 560;
  DramCurrents& i = spec.currents;
  i.vdd = 1.2;
  i.idd0 = 58;
  i.idd2n = 50;
  i.idd3n = 61;
  i.idd4r = 140;
  i.idd4w = 156;
  i.idd5b = 277;
  return spec;
}

std::int64_t ps(const DramSpec& spec, int cycles) {
  return static_cast<std::int64_t>(std::llround(cycles * spec.timing.tck_ns * 1000.0));
}

TEST(BankScheduler, SingleAccessLatencyFollowsTheRowBufferState) {
  const DramSpec spec = ddr4_3200();
  BankScheduler dram(spec, "RoBgBaRaCoCh", PagePolicy::kOpen);
  const std::int64_t burst = ps(spec, 4);
  // Closed bank: activate, tRCD, then CL and the burst.
  EXPECT_EQ(dram.serve(0, 64, false, 0), ps(spec, spec.timing.rcd + spec.timing.cl) + burst);
  // The same row, long after: a row hit costs CL and the burst.
  const std::int64_t later = 1'000'000;
  EXPECT_EQ(dram.serve(64, 64, false, later) - later, ps(spec, spec.timing.cl) + burst);
  // Another row of the same bank: precharge, activate, column.
  const std::uint64_t other_row =
      static_cast<std::uint64_t>(spec.organisation.capacity_bytes() / spec.organisation.rows);
  const std::int64_t much_later = 2'000'000;
  EXPECT_EQ(dram.serve(other_row, 64, false, much_later) - much_later,
            ps(spec, spec.timing.rp + spec.timing.rcd + spec.timing.cl) + burst);
  EXPECT_EQ(dram.counts().row_misses, 1u);
  EXPECT_EQ(dram.counts().row_hits, 1u);
  EXPECT_EQ(dram.counts().row_conflicts, 1u);
}

// A stream whose consecutive accesses alternate bank groups (the default mapping) reaches the peak less
// refresh: row changes overlap with other banks' bursts. One that stays in a bank group is held to one
// burst per tCCD_L (DDR4's bank-group penalty).
struct StreamResult {
  double gbps;
  DramCommandCounts counts;
};

StreamResult stream_reads(const DramSpec& spec, const std::string& mapping) {
  BankScheduler dram(spec, mapping, PagePolicy::kOpen);
  const std::uint64_t bytes = 64ull << 20;
  const std::int64_t end = dram.serve(0, bytes, false, 0);
  return {static_cast<double>(bytes) / (static_cast<double>(end) / 1000.0), dram.counts()};
}

TEST(BankScheduler, StreamingReachesThePeakLessRefresh) {
  const DramSpec spec = ddr4_3200();
  const double refresh_share = static_cast<double>(spec.timing.rfc) / spec.timing.refi;
  const double peak = spec.peak_bandwidth_gbps();
  const StreamResult interleaved = stream_reads(spec, "RoBaRaCoBgCh");
  EXPECT_LE(interleaved.gbps, peak * (1.0 - refresh_share) + 1e-9);
  EXPECT_GE(interleaved.gbps, peak * (1.0 - refresh_share) * 0.98) << interleaved.gbps;
  EXPECT_GT(interleaved.counts.row_hits, 100 * interleaved.counts.activates);
  const StreamResult one_group = stream_reads(spec, "RoRaBgBaChCo");
  const double ccd_bound = peak * 4.0 / spec.timing.ccd_l;  // a 4-cycle burst every tCCD_L
  // (Slightly above at the few bank-group changes, where tCCD_S applies.)
  EXPECT_LE(one_group.gbps, ccd_bound * 1.01);
  EXPECT_GE(one_group.gbps, ccd_bound * (1.0 - refresh_share) * 0.98) << one_group.gbps;
}

TEST(BankScheduler, RandomAccessIsBoundByTheActivateRate) {
  const DramSpec spec = ddr4_3200();
  BankScheduler dram(spec, "RoBaRaCoBgCh", PagePolicy::kClosed);
  std::mt19937_64 random(7);
  const std::uint64_t capacity = static_cast<std::uint64_t>(spec.organisation.capacity_bytes());
  const int accesses = 20000;
  std::int64_t end = 0;
  for (int i = 0; i < accesses; ++i) end = std::max(end, dram.serve(random() % capacity / 64 * 64, 64, false, 0));
  const double gbps = accesses * 64.0 / (static_cast<double>(end) / 1000.0);
  // At most four activates per tFAW and one per tRRD_S per rank, each bringing one 64-byte access.
  const double faw_bound = 4 * 64.0 / (spec.timing.faw * spec.timing.tck_ns);
  const double rrd_bound = 64.0 / (spec.timing.rrd_s * spec.timing.tck_ns);
  EXPECT_LE(gbps, std::min(faw_bound, rrd_bound));
  // Requests are served in arrival order, so a bank still busy with its last row delays the next access;
  // still, bank parallelism must beat one bank's limit (one access per tRC) several times over.
  const double one_bank = 64.0 / ((spec.timing.ras + spec.timing.rp) * spec.timing.tck_ns);
  EXPECT_GE(gbps, 3.0 * one_bank) << gbps;
  EXPECT_EQ(dram.counts().row_hits, 0u) << "closed page: every access activates";
  EXPECT_EQ(dram.counts().activates, static_cast<std::uint64_t>(accesses));
}

TEST(BankScheduler, RefreshesEveryIntervalAndIdleEnergyIsStandbyPlusRefresh) {
  const DramSpec spec = ddr4_3200();
  BankScheduler dram(spec, "RoBgBaRaCoCh", PagePolicy::kOpen);
  const std::int64_t end = 1'000'000'000;  // 1 ms idle
  dram.advance_to(end);
  const std::int64_t refi = ps(spec, spec.timing.refi);
  EXPECT_EQ(dram.counts().refreshes, static_cast<std::uint64_t>(end / refi));
  const DramEnergyByKind energy = dram_energy(spec, dram.counts(), 0);
  const DramCurrents& i = spec.currents;
  const double devices = spec.organisation.devices_per_rank;
  EXPECT_NEAR(energy.background_pj, devices * i.vdd * i.idd2n * 1e6, 1.0);  // 1 ms precharged standby
  EXPECT_NEAR(
      energy.refresh_pj,
      devices * i.vdd * (i.idd5b - i.idd3n) * spec.timing.rfc * spec.timing.tck_ns * static_cast<double>(end / refi),
      1.0);
  EXPECT_EQ(energy.activate_pj + energy.read_pj + energy.write_pj, 0.0);
}

TEST(BankScheduler, ReadAfterWriteWaitsForTheWriteRecovery) {
  const DramSpec spec = ddr4_3200();
  BankScheduler dram(spec, "RoBgBaRaCoCh", PagePolicy::kOpen);
  dram.serve(0, 64, false, 0);  // open the row
  const std::int64_t start = 1'000'000;
  const std::int64_t write_end = dram.serve(0, 64, true, start);
  const std::int64_t read_end = dram.serve(0, 64, false, start);
  // Same bank group: the read command waits tWTR_L after the write's data, then CL and the burst.
  EXPECT_EQ(read_end, write_end + ps(spec, spec.timing.wtr_l + spec.timing.cl + 4));
}

TEST(DramAddressMapping, RejectsMalformedMappingsByName) {
  const DramOrganisation o = ddr4_3200().organisation;
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCo", o), std::invalid_argument);
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCoCo", o), std::invalid_argument);
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCoXx", o), std::invalid_argument);
  DramOrganisation odd = o;
  odd.rows = 3000;
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCoCh", odd), std::invalid_argument);
}

TEST(DramAddressMapping, DistinctAccessesLandInDistinctPlaces) {
  DramOrganisation o = ddr4_3200().organisation;
  o.channels = 2;
  o.rows = 16;
  const DramAddressMapping mapping("RoBgBaRaCoCh", o);
  std::vector<std::tuple<int, int, int, int, std::int64_t, std::int64_t>> seen;
  for (std::uint64_t a = 0; a < static_cast<std::uint64_t>(o.capacity_bytes()); a += 64) {
    const DramLocation w = mapping.locate(a);
    seen.emplace_back(w.channel, w.rank, w.bank_group, w.bank, w.row, w.column);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
  EXPECT_EQ(mapping.locate(64).channel, 1) << "Ch is the least significant field";
  EXPECT_EQ(mapping.locate(128).column, 1);
}

}  // namespace
}  // namespace ergon
