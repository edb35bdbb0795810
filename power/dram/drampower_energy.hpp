#pragma once
// DRAM energy from the datasheet currents, the way DRAMPower computes it (Chandrasekar et al., DATE 2013;
// DRAMPower 5's per-bank decomposition): each command costs its current above the background current it
// displaces, over the time it lasts, at the supply voltage, for every device of the rank.
//
// Background: a rank with every bank precharged draws IDD2N; every open bank adds its share of the
// all-banks-open increment, (IDD3N - IDD2N) / banks (DRAMPower 5 with rho = 0). So one activate-precharge
// cycle on an idle rank costs IDD0 x tRC in total, and a rank with all banks open draws IDD3N, as the
// datasheet's measurement conditions define them. (Charging IDD3N whenever any bank is open, as DRAMsim3
// does, makes the activate energy negative for parts whose IDD3N exceeds IDD0, e.g. DDR5 with 32 banks.)
// Refresh: IDD5B over tRFC above the precharged background (all banks are closed while it runs).
// mA x V x ns = pJ. I/O and termination power are not included.
//
// At a lower data rate (memory-side DVFS) the clocked currents, standby (IDD2N, IDD3N) and burst (IDD4R/W
// above IDD3N), scale with the clock, as Micron's power notes scale them to the operating frequency
// (TN-41-01 for DDR3, TN-47-04 for DDR2: "scaling for actual operating conditions"); activate and refresh
// energies do not depend on the clock. So a burst costs the same energy at any rate and the background
// power falls with the clock. The supply voltage is the standard's and does not change.
#include <optional>

#include "arch/accelerator_config.hpp"
#include "arch/dram/banked/dram_spec.hpp"
#include "arch/dram/dram.hpp"

namespace ergon {

// DRAM energy by kind, priced from a model's command counts and standby time.
struct DramEnergyByKind {
  double activate_pj = 0;  // activate and its precharge
  double read_pj = 0;      // read bursts
  double write_pj = 0;     // write bursts
  double refresh_pj = 0;
  double background_pj = 0;  // precharged standby plus the open banks' share
  double total_pj() const { return activate_pj + read_pj + write_pj + refresh_pj + background_pj; }
  DramEnergyByKind& operator+=(const DramEnergyByKind& other) {
    activate_pj += other.activate_pj;
    read_pj += other.read_pj;
    write_pj += other.write_pj;
    refresh_pj += other.refresh_pj;
    background_pj += other.background_pj;
    return *this;
  }
  DramEnergyByKind operator-(const DramEnergyByKind& before) const {
    return {activate_pj - before.activate_pj, read_pj - before.read_pj, write_pj - before.write_pj,
            refresh_pj - before.refresh_pj, background_pj - before.background_pj};
  }
};

// The energy of one command of each kind and the background power, for one rank (all its devices).
struct DramEnergyRates {
  double per_activate_pj = 0, per_refresh_pj = 0;
  double reading_mw = 0, writing_mw = 0;  // while a burst is on the bus, above the background
  double precharged_mw = 0;               // a rank with every bank closed
  double per_open_bank_mw = 0;            // added by each open bank
};

inline DramEnergyRates dram_energy_rates(const DramSpec& spec) {
  const DramCurrents& i = spec.currents;
  const DramTiming& t = spec.timing;
  const double devices = spec.organisation.devices_per_rank;
  const double banks = spec.organisation.banks_per_rank();
  const double ras_ns = t.ras * t.tck_ns, rp_ns = t.rp * t.tck_ns, rfc_ns = t.rfc * t.tck_ns;
  // One supply's share; currents in mA, times in ns, voltage in V: pJ.
  const auto supply = [&](double v, double i0, double i2n, double i3n, double i4r, double i4w, double i5b) {
    const double one_bank_open = i2n + (i3n - i2n) / banks;
    DramEnergyRates r;
    r.per_activate_pj = v * ((i0 - one_bank_open) * ras_ns + (i0 - i2n) * rp_ns);
    r.reading_mw = v * (i4r - i3n);
    r.writing_mw = v * (i4w - i3n);
    r.per_refresh_pj = v * (i5b - i2n) * rfc_ns;
    r.precharged_mw = v * i2n;
    r.per_open_bank_mw = v * (i3n - i2n) / banks;
    return r;
  };
  const DramEnergyRates core = supply(i.vdd, i.idd0, i.idd2n, i.idd3n, i.idd4r, i.idd4w, i.idd5b);
  const DramEnergyRates aux = supply(i.vpp, i.ipp0, i.ipp2n, i.ipp3n, i.ipp4r, i.ipp4w, i.ipp5b);
  DramEnergyRates rank;
  rank.per_activate_pj = devices * (core.per_activate_pj + aux.per_activate_pj);
  rank.per_refresh_pj = devices * (core.per_refresh_pj + aux.per_refresh_pj);
  rank.reading_mw = devices * (core.reading_mw + aux.reading_mw);
  rank.writing_mw = devices * (core.writing_mw + aux.writing_mw);
  rank.precharged_mw = devices * (core.precharged_mw + aux.precharged_mw);
  rank.per_open_bank_mw = devices * (core.per_open_bank_mw + aux.per_open_bank_mw);
  return rank;
}

// The energy of reading a long stream at the peak bandwidth, per bit: each burst's read current, one
// activate per row, its rank's background with every bank open (an open-page controller leaves the rows a
// stream walked through open until the next refresh), and refresh amortised. The mapper and the
// analytical estimators price DRAM traffic with it (drampower_keys.cpp sets dram.energy_pj_per_bit to it);
// the simulation prices the bank model's own commands.
inline double streaming_read_pj_per_bit(const DramSpec& spec) {
  const DramEnergyRates r = dram_energy_rates(spec);
  const DramOrganisation& o = spec.organisation;
  const DramTiming& t = spec.timing;
  const double burst_ns = static_cast<double>(o.burst_length) / t.transfers_per_clock * t.tck_ns;
  const double refresh_mw = r.per_refresh_pj / (t.refi * t.tck_ns);
  const double active_mw = r.precharged_mw + r.per_open_bank_mw * o.banks_per_rank();
  const double per_access_pj = (r.reading_mw + active_mw + refresh_mw) * burst_ns +
                               r.per_activate_pj / static_cast<double>(o.accesses_per_row());
  return per_access_pj / (8.0 * static_cast<double>(o.access_bytes()));
}

inline DramEnergyByKind dram_energy(const DramSpec& spec, const DramCommandCounts& counts) {
  const DramEnergyRates r = dram_energy_rates(spec);
  // Times are summed over ranks (elapsed) and banks (open) in ps; mW x ns = pJ.
  DramEnergyByKind e;
  e.activate_pj = r.per_activate_pj * static_cast<double>(counts.activates);
  e.read_pj = r.reading_mw * counts.clocked_read_burst_ps / 1000.0;
  e.write_pj = r.writing_mw * counts.clocked_write_burst_ps / 1000.0;
  e.refresh_pj = r.per_refresh_pj * static_cast<double>(counts.refreshes);
  e.background_pj =
      r.precharged_mw * counts.clocked_elapsed_ps / 1000.0 + r.per_open_bank_mw * counts.clocked_bank_open_ps / 1000.0;
  return e;
}

// The energy between two cumulative counts of the config's DRAM (its preset's datasheet): each priced,
// then the difference, so that the layers add up to the run's total as the model counted it. Throws
// std::invalid_argument when the preset has no datasheet description.
DramEnergyByKind dram_energy_between(const DramConfig& config, const DramCommandCounts& at_start,
                                     const DramCommandCounts& at_end);

}  // namespace ergon
