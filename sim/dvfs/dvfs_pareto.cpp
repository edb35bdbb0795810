#include "sim/dvfs/dvfs_pareto.hpp"

#include <fmt/format.h>

#include "common/gnuplot.hpp"

namespace ergon {

std::vector<ParetoPoint> dvfs_pareto(const Chip& chip, const Workload& workload, const SimulationResult& race_to_idle) {
  std::vector<ParetoPoint> points;
  points.push_back({"rti", 0, race_to_idle.total.time_ns, race_to_idle.total.energy.total_pj(), true, false});
  for (const std::string& name : dvfs_scheme_names()) {
    const DvfsScheme scheme = parse_dvfs_scheme(name);
    if (scheme == DvfsScheme::kRaceToIdle) continue;
    for (double factor : kParetoDeadlineFactors) {
      const double deadline_ns = factor > 1 ? factor * race_to_idle.total.time_ns : 0.0;
      const DvfsOutcome outcome = run_dvfs(chip, workload, scheme, race_to_idle, deadline_ns);
      points.push_back({name, deadline_ns, outcome.scheduled.total.time_ns, outcome.scheduled.total.energy.total_pj(),
                        outcome.latency_kept, false});
    }
  }
  for (ParetoPoint& p : points) {
    p.on_front = true;
    for (const ParetoPoint& q : points) {
      const bool no_worse = q.latency_ns <= p.latency_ns && q.energy_pj <= p.energy_pj;
      const bool better = q.latency_ns < p.latency_ns || q.energy_pj < p.energy_pj;
      if (no_worse && better) p.on_front = false;
    }
  }
  return points;
}

std::string pareto_csv(const std::vector<ParetoPoint>& points) {
  std::string csv = "scheme,deadline_ms,latency_ms,energy_mj,latency_kept,on_front\n";
  for (const ParetoPoint& p : points) {
    csv += fmt::format("{},{},{},{},{},{}\n", p.scheme, p.deadline_ns > 0 ? fmt::format("{}", p.deadline_ns / 1e6) : "",
                       p.latency_ns / 1e6, p.energy_pj / 1e9, p.latency_kept ? 1 : 0, p.on_front ? 1 : 0);
  }
  return csv;
}

std::string dvfs_scheme_legend(const std::string& scheme) {
  // The option names are ARADA's (Sec. 4.3); a reader of the figure alone needs what each one allows.
  if (scheme == "rti") return "race to idle (nominal levels, the baseline)";
  if (scheme == "ideal") return "ideal: continuous levels, free switches";
  if (scheme == "vf-oh") return "vf-oh: switch overhead charged";
  if (scheme == "vf-oh-q") return "vf-oh-q: overhead charged, levels quantised";
  return scheme;
}

std::string pareto_gnuplot(const std::string& title) {
  std::string points;
  for (const std::string& scheme : dvfs_scheme_names()) {
    points += fmt::format(", \\\n       scheme('{}') using 3:4 with points pt 7 ps 1.2 title {}", scheme,
                          gnuplot_string(dvfs_scheme_legend(scheme)));
  }
  return fmt::format(
      R"(# Energy-latency Pareto front from pareto.csv: `gnuplot pareto.gp` writes pareto.png and pareto.svg
set datafile separator ','
set key top right noenhanced
set grid
set xlabel 'inference latency (ms)'
set ylabel 'inference energy (mJ)'
set title {0} noenhanced
# The data beside the script, whether gnuplot runs in its folder or in a staging folder below it.
csv = system("[ -f pareto.csv ] && echo pareto.csv || echo ../pareto.csv")
scheme(s) = sprintf("< awk -F, 'NR>1 && $1==\"%s\"' %s", s, csv)
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 900,600 font ',10'; set output 'pareto.png' }}
  else {{ set terminal svg size 900,600 font ',10'; set output 'pareto.svg' }}
  plot sprintf("< awk -F, 'NR>1 && $6==1' %s | sort -t, -k3 -g", csv) using 3:4 with lines lw 2 lc rgb 'black' \
       title 'Pareto front (no other point has both less energy and less latency)'{1}
}}
)",
      gnuplot_string(fmt::format("{}\n(a point per DVFS scheme and deadline, {:g} to {:g} x race to idle's latency, "
                                 "each re-simulated)",
                                 title, kParetoDeadlineFactors.front(), kParetoDeadlineFactors.back())),
      points);
}

}  // namespace ergon
