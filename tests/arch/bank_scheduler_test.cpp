// The bank-level DRAM timing against the bounds its timing parameters imply, the way DRAM simulators are
// checked, for every preset: latency of a single access in each row-buffer state, streaming bandwidth
// against the peak, random-access bandwidth against the activate-rate limits (tRRD, tFAW), refresh count,
// and the energy of idle time and of one activate-precharge cycle against the datasheet currents.
#include "arch/dram/banked/bank_scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>

#include "arch/dram/banked/dram_specs.hpp"
#include "arch/dram_presets.hpp"
#include "power/dram/drampower_energy.hpp"

namespace ergon {
namespace {

const DramSpec& preset(const std::string& name) {
  const DramSpec* spec = find_dram_spec(name);
  if (spec == nullptr) throw std::invalid_argument("no bank-level preset " + name);
  return *spec;
}

std::int64_t ps(const DramSpec& spec, int cycles) {
  return static_cast<std::int64_t>(std::llround(cycles * spec.timing.tck_ns * 1000.0));
}

std::int64_t burst_ps(const DramSpec& spec) {
  return static_cast<std::int64_t>(
      std::llround(spec.organisation.burst_length * spec.timing.tck_ns * 1000.0 / spec.timing.transfers_per_clock));
}

class EveryPreset : public ::testing::TestWithParam<std::string> {
 protected:
  const DramSpec& spec() const { return preset(GetParam()); }
  std::uint64_t access() const { return static_cast<std::uint64_t>(spec().organisation.access_bytes()); }
};

TEST_P(EveryPreset, SingleAccessLatencyFollowsTheRowBufferState) {
  const DramSpec& spec = this->spec();
  const DramTiming& t = spec.timing;
  BankScheduler dram(spec, "RoBgBaRaCoCh", PagePolicy::kOpen);
  // Closed bank: activate, tRCD, then CL and the burst.
  // (Each constraint is rounded to whole picoseconds on its own: sums may differ by a picosecond or two.)
  EXPECT_LE(std::llabs(dram.serve(0, access(), false, 0) - (ps(spec, t.rcd + t.cl) + burst_ps(spec))), 2);
  // The same row, long after: a row hit costs CL and the burst.
  const std::int64_t later = 1'000'000;
  EXPECT_LE(std::llabs(dram.serve(0, access(), false, later) - later - (ps(spec, t.cl) + burst_ps(spec))), 2);
  // Another row of the same bank (the row is the top field): precharge, activate, column.
  const auto other_row = static_cast<std::uint64_t>(spec.organisation.capacity_bytes() / spec.organisation.rows);
  const std::int64_t much_later = 2'000'000;
  EXPECT_LE(std::llabs(dram.serve(other_row, access(), false, much_later) - much_later -
                       (ps(spec, t.rp + t.rcd + t.cl) + burst_ps(spec))),
            3);
  EXPECT_EQ(dram.counts().row_misses, 1u);
  EXPECT_EQ(dram.counts().row_hits, 1u);
  EXPECT_EQ(dram.counts().row_conflicts, 1u);
}

// A stream whose consecutive accesses alternate channels and bank groups (the default mapping) reaches the
// peak less refresh: row changes overlap with other banks' bursts. One that stays in a bank group is held
// to one burst per tCCD_L (the bank-group penalty of DDR4, DDR5, LPDDR5 and HBM).
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

TEST_P(EveryPreset, StreamingReachesThePeakLessRefresh) {
  const DramSpec& spec = this->spec();
  const double refresh_share = static_cast<double>(spec.timing.rfc) / spec.timing.refi;
  const double peak = spec.peak_bandwidth_gbps();
  const StreamResult interleaved = stream_reads(spec, "RoBaRaCoBgCh");
  EXPECT_LE(interleaved.gbps, peak * (1.0 - refresh_share) * 1.001);
  EXPECT_GE(interleaved.gbps, peak * (1.0 - refresh_share) * 0.98) << interleaved.gbps;
  EXPECT_GT(interleaved.counts.row_hits, 10 * interleaved.counts.activates);
  const double burst_cycles = static_cast<double>(spec.organisation.burst_length) / spec.timing.transfers_per_clock;
  if (spec.timing.ccd_l <= burst_cycles) return;  // no bank-group penalty to see
  const StreamResult one_group = stream_reads(spec, "RoRaBgBaCoCh");
  // One burst every tCCD_L per channel; slightly above at the few bank-group changes, where tCCD_S applies.
  const double ccd_bound = peak * burst_cycles / spec.timing.ccd_l;
  EXPECT_LE(one_group.gbps, ccd_bound * 1.01);
  EXPECT_GE(one_group.gbps, ccd_bound * (1.0 - refresh_share) * 0.97) << one_group.gbps;
}

TEST_P(EveryPreset, RandomAccessIsBoundByTheActivateRate) {
  const DramSpec& spec = this->spec();
  const DramTiming& t = spec.timing;
  BankScheduler dram(spec, "RoBaRaCoBgCh", PagePolicy::kClosed);
  std::mt19937_64 random(7);
  const auto capacity = static_cast<std::uint64_t>(spec.organisation.capacity_bytes());
  const int accesses = 20000;
  std::int64_t end = 0;
  for (int i = 0; i < accesses; ++i) {
    end = std::max(end, dram.serve(random() % capacity / access() * access(), access(), false, 0));
  }
  const double gbps = accesses * static_cast<double>(access()) / (static_cast<double>(end) / 1000.0);
  // At most four activates per tFAW and one per tRRD_S per rank, each bringing one access.
  const double ranks = static_cast<double>(spec.organisation.channels) * spec.organisation.ranks;
  const double faw_bound = ranks * 4 * static_cast<double>(access()) / (t.faw * t.tck_ns);
  const double rrd_bound = ranks * static_cast<double>(access()) / (t.rrd_s * t.tck_ns);
  EXPECT_LE(gbps, std::min(faw_bound, rrd_bound));
  // Requests are served in arrival order, so a bank still busy with its last row delays the next access;
  // still, bank parallelism must beat one bank's limit (one access per tRC) several times over.
  const double one_bank = static_cast<double>(access()) / ((t.ras + t.rp) * t.tck_ns);
  EXPECT_GE(gbps, 3.0 * one_bank) << gbps;
  EXPECT_EQ(dram.counts().row_hits, 0u) << "closed page: every access activates";
  EXPECT_EQ(dram.counts().activates, static_cast<std::uint64_t>(accesses));
}

TEST_P(EveryPreset, IdleTimeCostsPrechargedStandbyPlusRefresh) {
  const DramSpec& spec = this->spec();
  BankScheduler dram(spec, "RoBaRaCoBgCh", PagePolicy::kOpen);
  const std::int64_t end = 1'000'000'000;  // 1 ms idle
  dram.advance_to(end);
  const std::int64_t refi = ps(spec, spec.timing.refi);
  const auto refreshes = static_cast<double>(end / refi);
  const double ranks = static_cast<double>(spec.organisation.channels) * spec.organisation.ranks;
  EXPECT_EQ(dram.counts().refreshes, static_cast<std::uint64_t>(ranks * refreshes));
  const DramEnergyByKind energy = dram_energy(spec, dram.counts());
  const DramCurrents& i = spec.currents;
  const double devices = ranks * spec.organisation.devices_per_rank;
  const double rfc_ns = spec.timing.rfc * spec.timing.tck_ns;
  EXPECT_NEAR(energy.background_pj, devices * (i.vdd * i.idd2n + i.vpp * i.ipp2n) * 1e6, 1.0);
  EXPECT_NEAR(energy.refresh_pj,
              devices * (i.vdd * (i.idd5b - i.idd2n) + i.vpp * (i.ipp5b - i.ipp2n)) * rfc_ns * refreshes, 1.0);
  EXPECT_EQ(energy.activate_pj + energy.read_pj + energy.write_pj, 0.0);
}

// On an idle rank, one activate-precharge cycle with no data costs IDD0 over tRC, the datasheet's own
// definition of IDD0: the activate's energy plus the background it leaves.
TEST_P(EveryPreset, AnActivatePrechargeCycleCostsIdd0OverTrc) {
  const DramSpec& spec = this->spec();
  const DramTiming& t = spec.timing;
  const DramCurrents& i = spec.currents;
  DramCommandCounts counts;
  counts.activates = 1;
  counts.clocked_bank_open_ps = static_cast<double>(ps(spec, t.ras));  // at the nominal clock
  counts.clocked_elapsed_ps = static_cast<double>(ps(spec, t.ras + t.rp));
  const DramEnergyByKind energy = dram_energy(spec, counts);
  const double rc_ns = (t.ras + t.rp) * t.tck_ns;
  const double expected = spec.organisation.devices_per_rank * (i.vdd * i.idd0 + i.vpp * i.ipp0) * rc_ns;
  EXPECT_NEAR(energy.activate_pj + energy.background_pj, expected, expected * 1e-4);  // ps rounding
  EXPECT_GT(energy.activate_pj, 0.0);
}

// Memory-side DVFS: at half the data rate a burst takes twice as long at half the current, so reading
// costs the same, while the standby current, and with it an idle rank's background energy, halves.
TEST_P(EveryPreset, AtHalfTheClockABurstCostsTheSameAndStandbyHalves) {
  const DramSpec& spec = this->spec();
  BankScheduler nominal(spec, "RoBaRaCoBgCh", PagePolicy::kOpen);
  BankScheduler halved(spec, "RoBaRaCoBgCh", PagePolicy::kOpen);
  halved.set_clock_period(2 * spec.timing.tck_ns);
  const std::uint64_t bytes = 1ull << 20;
  const std::int64_t nominal_end = nominal.serve(0, bytes, false, 0);
  const std::int64_t halved_end = halved.serve(0, bytes, false, 0);
  EXPECT_GT(halved_end, nominal_end);
  const DramEnergyByKind nominal_energy = dram_energy(spec, nominal.counts());
  const DramEnergyByKind halved_energy = dram_energy(spec, halved.counts());
  EXPECT_NEAR(halved_energy.read_pj, nominal_energy.read_pj, nominal_energy.read_pj * 1e-3);  // ps rounding
  // Per activate (the slower read spans more refreshes, which close rows and cost activates).
  EXPECT_DOUBLE_EQ(halved_energy.activate_pj / static_cast<double>(halved.counts().activates),
                   nominal_energy.activate_pj / static_cast<double>(nominal.counts().activates));

  BankScheduler idle_nominal(spec, "RoBaRaCoBgCh", PagePolicy::kOpen);
  BankScheduler idle_halved(spec, "RoBaRaCoBgCh", PagePolicy::kOpen);
  idle_halved.set_clock_period(2 * spec.timing.tck_ns);
  const auto idle_ps = static_cast<std::int64_t>(10 * spec.timing.refi * spec.timing.tck_ns * 1000);
  idle_nominal.advance_to(idle_ps);
  idle_halved.advance_to(idle_ps);
  const DramEnergyByKind a = dram_energy(spec, idle_nominal.counts());
  const DramEnergyByKind b = dram_energy(spec, idle_halved.counts());
  EXPECT_EQ(idle_halved.counts().refreshes, idle_nominal.counts().refreshes);  // tREFI is in ns, not clocks
  EXPECT_NEAR(b.background_pj, 0.5 * a.background_pj, a.background_pj * 1e-6);
  EXPECT_DOUBLE_EQ(b.refresh_pj, a.refresh_pj);
}

TEST_P(EveryPreset, ReadAfterWriteWaitsForTheWriteRecovery) {
  const DramSpec& spec = this->spec();
  BankScheduler dram(spec, "RoBgBaRaCoCh", PagePolicy::kOpen);
  dram.serve(0, access(), false, 0);  // open the row
  const std::int64_t start = 1'000'000;
  const std::int64_t write_end = dram.serve(0, access(), true, start);
  const std::int64_t read_end = dram.serve(0, access(), false, start);
  // Same bank group: the read command waits tWTR_L after the write's data, then CL and the burst.
  EXPECT_LE(std::llabs(read_end - (write_end + ps(spec, spec.timing.wtr_l + spec.timing.cl) + burst_ps(spec))), 2);
}

// Streaming a large read from every preset, at its peak, costs a few pJ per bit (docs/dram.md lists each
// preset's figure): a sanity range that catches unit slips (mA for A, cycles for ns), not a calibration.
TEST_P(EveryPreset, StreamingEnergyPerBitIsInThePublishedRange) {
  const DramSpec& spec = this->spec();
  BankScheduler dram(spec, "RoBaRaCoBgCh", PagePolicy::kOpen);
  const std::uint64_t bytes = 16ull << 20;
  dram.advance_to(dram.serve(0, bytes, false, 0));
  const double pj_per_bit = dram_energy(spec, dram.counts()).total_pj() / (8.0 * static_cast<double>(bytes));
  EXPECT_GT(pj_per_bit, 0.5);
  EXPECT_LT(pj_per_bit, 20.0);
  // The price the mapper uses for the same stream, computed from the rates, agrees with the simulation.
  EXPECT_NEAR(streaming_read_pj_per_bit(spec), pj_per_bit, 0.1 * pj_per_bit);
}

// Every DRAM preset except `custom` has a bank-level description, at the same peak bandwidth.
TEST(DramSpecs, EveryPresetHasABankLevelDescriptionAtItsBandwidth) {
  for (const DramPreset& simple : dram_presets()) {
    if (!simple.bandwidth_gbps) continue;
    const DramSpec* spec = find_dram_spec(simple.name);
    ASSERT_NE(spec, nullptr) << simple.name;
    EXPECT_NEAR(spec->peak_bandwidth_gbps(), *simple.bandwidth_gbps, *simple.bandwidth_gbps * 1e-3) << simple.name;
    EXPECT_NO_THROW(DramAddressMapping("RoBaRaCoBgCh", spec->organisation)) << simple.name;
  }
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const DramSpec& spec : dram_specs()) names.push_back(spec.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(DramSpecs, EveryPreset, ::testing::ValuesIn(preset_names()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(DramAddressMapping, RejectsMalformedMappingsByName) {
  const DramOrganisation o = preset("ddr4-4000").organisation;
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCo", o), std::invalid_argument);
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCoCo", o), std::invalid_argument);
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCoXx", o), std::invalid_argument);
  DramOrganisation odd = o;
  odd.rows = 3000;
  EXPECT_THROW(DramAddressMapping("RoBgBaRaCoCh", odd), std::invalid_argument);
}

TEST(DramAddressMapping, DistinctAccessesLandInDistinctPlaces) {
  DramOrganisation o = preset("ddr4-4000").organisation;
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
