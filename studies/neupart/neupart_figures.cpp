#include "studies/neupart/neupart_figures.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "common/gnuplot.hpp"
#include "studies/neupart/paper_layer_names.hpp"

namespace ergon {
namespace {

// A cut's short label for axes and CSVs: the paper's name where it has one, else Ergon's.
std::string short_label(const Workload& workload, const CutResult& cut, const PartitionResult& r) {
  if (&cut == &r.cuts.front()) return "In (FCC)";
  if (&cut == &r.cuts.back()) return "FISC";
  const std::string paper = paper_cut_name(workload, cut);
  return paper.empty() ? cut.last_client_layer : paper + " (" + cut.last_client_layer + ")";
}

// A legend entry for a cut: the extremes in words (FCC and FISC are NeuPart's abbreviations), any other
// cut by the layer it follows.
std::string cut_legend(const Workload& workload, const CutResult& cut, const PartitionResult& r) {
  if (&cut == &r.cuts.front()) return "all in cloud (FCC): send the input";
  if (&cut == &r.cuts.back()) return "all on client (FISC)";
  return "cut after " + short_label(workload, cut, r);
}

// A Sparsity-In (NeuPart's stand-in for the JPEG size of the input image), named by its quartile boundary
// when it is one.
std::string sparsity_in(double sparsity) {
  const char* names[] = {" (1st-quartile image)", " (median image)", " (3rd-quartile image)"};
  std::string name;
  for (std::size_t q = 0; q < 3; ++q) {
    if (std::abs(sparsity - kSparsityInQuartiles[q]) < 1e-9) name = names[q];
  }
  return fmt::format("Sparsity-In {:.1f} %{}", 100 * sparsity, name);
}

std::string operating_point(const PartitionInputs& in) {
  return fmt::format("{:.2f} W transmit power, {}", in.tx_power_w, sparsity_in(in.input_sparsity));
}

// Everything a script shares: CSV input, grid, and the loop writing PNG then SVG.
std::string script(const std::string& name, const std::string& settings, const std::string& plot) {
  return fmt::format(R"(# NeuPart-style figure from {0}.csv: `gnuplot {0}.gp` writes {0}.png and {0}.svg
set datafile separator ','
set grid
# Below the plot: the key never hides a curve, wherever a workload's curves fall.
set key below height 1 noenhanced
{1}
# The data beside the script, whether gnuplot runs in its folder or in a staging folder below it.
csv = system("[ -f {0}.csv ] && echo {0}.csv || echo ../{0}.csv")
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo size 1000,600 font ',10'; set output '{0}.png' }}
  else {{ set terminal svg size 1000,600 font ',10'; set output '{0}.svg' }}
  plot {2}
}}
)",
                     name, settings, plot);
}

std::vector<FigureFile> energy_by_cut(const Workload& w, const PartitionInputs& in, const PartitionResult& r) {
  std::string csv = "cut_index,cut_label,client_energy_mj,transmit_energy_mj,total_energy_mj\n";
  for (std::size_t i = 0; i < r.cuts.size(); ++i) {
    const CutResult& c = r.cuts[i];
    csv += fmt::format("{},{},{},{},{}\n", i, short_label(w, c, r), c.client_energy_j * 1e3, c.transmit_energy_j * 1e3,
                       c.total_energy_j * 1e3);
  }
  const std::string settings = fmt::format(
      "set title {} noenhanced\n"
      "set xlabel 'last layer computed on the client (In (FCC): none, all in the cloud; FISC: all on the client)'\n"
      "set ylabel 'client energy per image (mJ)'\n"
      "set xtics rotate by 60 right noenhanced",
      gnuplot_string(fmt::format("Client energy per image at each cut (NeuPart Fig. 10): {}\n{:.0f} Mbps, {}", w.name(),
                                 in.bitrate_bps / 1e6, operating_point(in))));
  const std::string plot =
      "csv every ::1 using 1:5:xtic(2) with linespoints lw 2 pt 7 title 'client total: computation + "
      "transmission (eq. 1)', "
      "csv every ::1 using 1:3 with linespoints pt 5 title 'computation on the client', "
      "csv every ::1 using 1:4 with linespoints pt 9 title 'transmission of the cut tensors (eq. 24)'";
  return {{"energy_by_cut.csv", csv}, {"energy_by_cut.gp", script("energy_by_cut", settings, plot)}};
}

std::vector<FigureFile> savings_vs_bitrate(const Workload& w, PartitionInputs in) {
  std::string csv = "sparsity_in,bitrate_mbps,saving_vs_fcc_pct,optimal_cut,saving_vs_fisc_pct,optimal_client_cut\n";
  for (double sparsity_in : kSparsityInQuartiles) {
    in.input_sparsity = sparsity_in;
    for (double mbps : sweep_bitrates_mbps()) {
      in.bitrate_bps = mbps * 1e6;
      const PartitionResult r = partition_network(w, in);
      csv += fmt::format("{},{},{},{},{},{}\n", sparsity_in, mbps, r.saving_vs_cloud_pct,
                         short_label(w, r.cuts[r.best], r), r.saving_vs_client_pct,
                         short_label(w, r.cuts[r.best_on_client], r));
    }
  }
  const std::string settings = fmt::format(
      "set title {} noenhanced\n"
      "set xlabel 'effective bit rate B_e (Mbps)' noenhanced\nset ylabel 'client energy saved per image (%)'\n"
      "set yrange [0:*]",
      gnuplot_string(fmt::format("Client energy saved by the best cut (NeuPart Fig. 12): {}, {:.2f} W transmit power",
                                 w.name(), in.tx_power_w)));
  std::string plot;
  for (double s : kSparsityInQuartiles) {
    plot += fmt::format(
        "csv every ::1 using 2:(abs($1-{0})<1e-9 ? $3 : NaN) with lines lw 2 "
        "title {1}, ",
        s, gnuplot_string("over all in cloud (FCC), " + sparsity_in(s)));
  }
  plot += fmt::format(
      "csv every ::1 using 2:(abs($1-{})<1e-9 ? $5 : NaN) with lines lw 2 dt 2 lc rgb 'black' "
      "title 'over all on client (FISC), any Sparsity-In'",
      kSparsityInQuartiles[1]);
  return {{"savings_vs_bitrate.csv", csv}, {"savings_vs_bitrate.gp", script("savings_vs_bitrate", settings, plot)}};
}

std::vector<FigureFile> bitrate_sweeps(const Workload& w, PartitionInputs in) {
  std::vector<PartitionResult> runs;
  std::set<std::size_t> shown = {0};
  for (double mbps : sweep_bitrates_mbps()) {
    in.bitrate_bps = mbps * 1e6;
    runs.push_back(partition_network(w, in));
    shown.insert(runs.back().best);
    shown.insert(runs.back().cuts.size() - 1);
  }
  std::string energy = "bitrate_mbps,cut_index,cut_label,total_energy_mj,optimal\n";
  for (std::size_t cut : shown) {  // one contiguous block per cut, so each draws as one line
    for (std::size_t b = 0; b < runs.size(); ++b) {
      const CutResult& c = runs[b].cuts[cut];
      energy += fmt::format("{},{},{},{},{}\n", sweep_bitrates_mbps()[b], cut, short_label(w, c, runs[b]),
                            c.total_energy_j * 1e3, runs[b].best == cut ? 1 : 0);
    }
  }
  std::string delay = "bitrate_mbps,fcc_delay_ms,fisc_delay_ms,optimal_delay_ms,optimal_cut\n";
  for (std::size_t b = 0; b < runs.size(); ++b) {
    const PartitionResult& r = runs[b];
    delay += fmt::format("{},{},{},{},{}\n", sweep_bitrates_mbps()[b], r.cuts.front().delay_s * 1e3,
                         r.cuts.back().delay_s * 1e3, r.cuts[r.best].delay_s * 1e3, short_label(w, r.cuts[r.best], r));
  }
  std::string energy_plot;
  for (std::size_t cut : shown) {
    if (!energy_plot.empty()) energy_plot += ", ";
    energy_plot += fmt::format("csv every ::1 using 1:($2=={} ? $4 : NaN) with lines lw 2 title {}", cut,
                               gnuplot_string(cut_legend(w, runs.front().cuts[cut], runs.front())));
  }
  const std::string at = fmt::format("{}, {}", w.name(), operating_point(in));
  const std::string energy_settings = fmt::format(
      "set title {} noenhanced\n"
      "set xlabel 'effective bit rate B_e (Mbps)' noenhanced\nset ylabel 'client energy per image (mJ)'\n"
      "set logscale y",
      gnuplot_string("Client energy per image of each cut that is best at some bit rate (NeuPart Fig. 13b)\n" + at));
  const std::string delay_settings = fmt::format(
      "set title {} noenhanced\n"
      "set xlabel 'effective bit rate B_e (Mbps)' noenhanced\nset ylabel 'inference delay per image (ms)'\n"
      "set logscale y",
      gnuplot_string("Inference delay per image: client, transmission and cloud (NeuPart Fig. 13a, eq. 26)\n" + at));
  const std::string delay_plot =
      "csv every ::1 using 1:2 with lines lw 2 title 'all in cloud (FCC): send the image', "
      "csv every ::1 using 1:3 with lines lw 2 title 'all on client (FISC)', "
      "csv every ::1 using 1:4 with linespoints lw 2 pt 7 ps 0.6 title 'the cut with the least client energy'";
  return {{"energy_vs_bitrate.csv", energy},
          {"energy_vs_bitrate.gp", script("energy_vs_bitrate", energy_settings, energy_plot)},
          {"delay_vs_bitrate.csv", delay},
          {"delay_vs_bitrate.gp", script("delay_vs_bitrate", delay_settings, delay_plot)}};
}

}  // namespace

std::vector<double> sweep_bitrates_mbps() {
  std::vector<double> rates;
  for (int mbps = 5; mbps <= 200; mbps += 5) rates.push_back(mbps);
  return rates;
}

std::vector<FigureFile> neupart_figures(const Workload& workload, const PartitionInputs& in,
                                        const PartitionResult& result) {
  std::vector<FigureFile> files = energy_by_cut(workload, in, result);
  for (auto* add : {&savings_vs_bitrate, &bitrate_sweeps}) {
    for (FigureFile& file : add(workload, in)) files.push_back(std::move(file));
  }
  return files;
}

std::vector<std::string> figure_scripts(const std::vector<FigureFile>& files) {
  std::vector<std::string> scripts;
  for (const FigureFile& file : files) {
    if (file.name.size() > 3 && file.name.compare(file.name.size() - 3, 3, ".gp") == 0) scripts.push_back(file.name);
  }
  return scripts;
}

}  // namespace ergon
