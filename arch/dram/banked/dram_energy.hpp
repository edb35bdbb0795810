#pragma once
// DRAM energy from the datasheet currents, the way DRAMPower and Micron's power notes compute it: each
// command costs its current above the standby current it displaces, over the time it lasts, at the
// supply voltage, for every device of the rank; standby costs IDD3N while a rank has a row open and IDD2N
// while it is precharged. mA x V x ns = pJ. I/O and termination power are not included.
#include "arch/dram/banked/bank_scheduler.hpp"
#include "arch/dram/banked/dram_spec.hpp"

namespace ergon {

struct DramEnergyByKind {
  double activate_pj = 0;  // activate and its precharge
  double read_pj = 0;      // read bursts
  double write_pj = 0;     // write bursts
  double refresh_pj = 0;
  double background_pj = 0;  // active and precharged standby
  double total_pj() const { return activate_pj + read_pj + write_pj + refresh_pj + background_pj; }
};

// `burst_ns` is a burst's duration at the clock it ran at.
inline DramEnergyByKind dram_energy(const DramSpec& spec, const DramCommandCounts& counts, double burst_ns) {
  const DramCurrents& i = spec.currents;
  const DramTiming& t = spec.timing;
  const double devices = spec.organisation.devices_per_rank;
  const double ras_ns = t.ras * t.tck_ns, rp_ns = t.rp * t.tck_ns, rc_ns = ras_ns + rp_ns, rfc_ns = t.rfc * t.tck_ns;
  // One supply's share: current in mA over ns at V.
  const auto activate = [&](double v, double i0, double i3n, double i2n) {
    return v * (i0 * rc_ns - (i3n * ras_ns + i2n * rp_ns));
  };
  DramEnergyByKind e;
  const double per_activate = activate(i.vdd, i.idd0, i.idd3n, i.idd2n) + activate(i.vpp, i.ipp0, i.ipp3n, i.ipp2n);
  const double per_read = i.vdd * (i.idd4r - i.idd3n) * burst_ns + i.vpp * (i.ipp4r - i.ipp3n) * burst_ns;
  const double per_write = i.vdd * (i.idd4w - i.idd3n) * burst_ns + i.vpp * (i.ipp4w - i.ipp3n) * burst_ns;
  const double per_refresh = i.vdd * (i.idd5b - i.idd3n) * rfc_ns + i.vpp * (i.ipp5b - i.ipp3n) * rfc_ns;
  const double active_ns = static_cast<double>(counts.active_ps) / 1000.0;
  const double precharged_ns = static_cast<double>(counts.elapsed_ps - counts.active_ps) / 1000.0;
  e.activate_pj = devices * per_activate * static_cast<double>(counts.activates);
  e.read_pj = devices * per_read * static_cast<double>(counts.reads);
  e.write_pj = devices * per_write * static_cast<double>(counts.writes);
  e.refresh_pj = devices * per_refresh * static_cast<double>(counts.refreshes);
  e.background_pj =
      devices * ((i.vdd * i.idd3n + i.vpp * i.ipp3n) * active_ns + (i.vdd * i.idd2n + i.vpp * i.ipp2n) * precharged_ns);
  return e;
}

}  // namespace ergon
