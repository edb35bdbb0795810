#include "sim/validation/blackthorn_plots.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "common/text.hpp"
#include "sim/validation/blackthorn_run.hpp"

namespace ergon {
namespace {

using namespace blackthorn;

constexpr std::size_t kSweepsPlotted = 4;

// The data beside a script, whether gnuplot runs in its folder or in a staging folder below it.
std::string data_file(const std::string& name) {
  return fmt::format("csv = system(\"[ -f {0} ] && echo {0} || echo ../{0}\")\n", name);
}

std::string terminals(const std::string& stem, int width, int height) {
  return fmt::format(
      "do for [out in \"png svg\"] {{\n"
      "  if (out eq \"png\") {{ set terminal pngcairo noenhanced size {1},{2} font ',10'; set output '{0}.png' }}\n"
      "  else {{ set terminal svg noenhanced size {1},{2} font ',10'; set output '{0}.svg' }}\n",
      stem, width, height);
}

std::string sweeps_csv(const std::vector<SweepCheck>& sweeps) {
  std::string csv = "sweep,label,x,truth_ms,fit_ms,measured,error_pct\n";
  for (std::size_t s = 0; s < sweeps.size(); ++s) {
    const SweepCheck& c = sweeps[s];
    for (std::size_t i = 0; i < c.grid.size(); ++i) {
      const double fit = template_value(c.fit.kind, c.fit.first, c.fit.second, c.fit.width, c.grid[i]);
      const bool measured = std::find(c.measured.begin(), c.measured.end(), c.grid[i]) != c.measured.end();
      csv += fmt::format("{},{},{:g},{},{},{},{}\n", s, csv_quoted(c.label), c.grid[i], c.truth_ms[i], fit,
                         measured ? 1 : 0, 100 * (fit - c.truth_ms[i]) / c.truth_ms[i]);
    }
  }
  return csv;
}

std::string sweeps_script(const std::vector<SweepCheck>& sweeps) {
  const std::size_t shown = std::min(kSweepsPlotted, sweeps.size());
  std::string gp =
      "# Blackthorn Fig. 7 style: `gnuplot fitter_sweeps.gp` writes fitter_sweeps.png and .svg\n"
      "set datafile separator ','\nset grid\nset key top left\n" +
      data_file("fitter_sweeps.csv") + terminals("fitter_sweeps", 700 * static_cast<int>(shown), 760);
  gp += fmt::format("  set multiplot layout 2,{}\n", shown);
  for (std::size_t s = 0; s < shown; ++s) {
    const SweepCheck& c = sweeps[s];
    const std::string dimension =
        c.label.substr(c.label.find(" along ") + 7, c.label.find(" (") - c.label.find(" along ") - 7);
    gp += fmt::format(
        "  set title \"{0}\\n{1} template, {2} of {3} points measured\" noenhanced\n"
        "  set xlabel '{4}'\n  set ylabel 'latency (ms)'\n"
        "  plot csv using ($1=={5} ? $3 : 1/0):4 with lines lw 2 title 'ground truth (every point)', \\\n"
        "       csv using ($1=={5} ? $3 : 1/0):5 with lines dt 2 lw 2 title 'fitted curve', \\\n"
        "       csv using ($1=={5} && $6==1 ? $3 : 1/0):4 with points pt 7 ps 1.2 title 'points the fitter measured'\n",
        c.label, template_name(c.fit.kind), c.measured.size(), c.grid.size(), dimension, s);
  }
  for (std::size_t s = 0; s < shown; ++s) {
    const std::string dimension = sweeps[s].label.substr(
        sweeps[s].label.find(" along ") + 7, sweeps[s].label.find(" (") - sweeps[s].label.find(" along ") - 7);
    gp += fmt::format(
        "  set title 'relative error of the fitted curve'\n  set xlabel '{0}'\n  set ylabel 'error (%)'\n"
        "  plot csv using ($1=={1} ? $3 : 1/0):7 with lines lw 1.5 title '(fit - truth) / truth'\n",
        dimension, s);
  }
  return gp + "  unset multiplot\n}\n";
}

std::string random_csv(const RandomLayerCheck& r) {
  std::string csv = "kernel,stride,filters,channels,width,height,simulated_ms,predicted_ms,error_pct\n";
  for (std::size_t i = 0; i < r.specs.size() && i < r.predicted_ms.size(); ++i) {
    const LayerSpec& l = r.specs[i];
    const bool covered = r.predicted_ms[i] > 0;
    csv += fmt::format(
        "{},{},{},{},{},{},{:.17g},{},{}\n", l.kernel, l.stride, l.filters, l.channels, l.width, l.height,
        r.simulated_ms[i], covered ? fmt::format("{}", r.predicted_ms[i]) : "",
        covered ? fmt::format("{}", 100 * (r.predicted_ms[i] - r.simulated_ms[i]) / r.simulated_ms[i]) : "");
  }
  return csv;
}

std::string random_script(const std::string& backend) {
  return "# Blackthorn Fig. 8b style: `gnuplot random_layers.gp` writes random_layers.png and .svg\n"
         "set datafile separator ','\nset datafile missing ''\nset grid\n" +
         data_file("random_layers.csv") + terminals("random_layers", 1000, 760) +
         fmt::format("  set title \"Relative error of the layer models at random conv layers\\n{}\" noenhanced\n",
                     backend) +
         "  set xlabel 'filters'\n  set ylabel 'input channels'\n  set cblabel 'error (predicted - measured) / "
         "measured (%)'\n"
         "  set palette defined (-50 'blue', 0 'white', 50 'red')\n  set cbrange [-50:50]\n"
         "  plot csv using 3:4:9 skip 1 with points pt 7 ps 1 palette title 'one random layer (colour: error, "
         "clipped at +-50 %)'\n}\n";
}

std::string network_csv(const std::vector<NetworkCheck>& networks) {
  std::string csv = "network,index,layer,op,modelled,simulated_ms,estimated_ms\n";
  for (const NetworkCheck& n : networks) {
    std::size_t index = 0;
    for (const NetworkLayer& l : n.layers) {
      if (l.op == "input") continue;
      csv += fmt::format("{},{},{},{},{},{},{}\n", n.name, index++, csv_quoted(l.name), l.op, l.modelled ? 1 : 0,
                         l.simulated_ms, l.estimated_ms);
    }
  }
  return csv;
}

std::string network_script(const std::string& network, const std::string& backend) {
  return fmt::format(
             "# Blackthorn Fig. 10 style: `gnuplot network_layers.gp` writes network_layers.png and .svg\n"
             "set datafile separator ','\nset style data histograms\nset style histogram clustered gap 1\n"
             "set style fill solid 0.8 border -1\nset grid ytics\nset key top right\nset xtics rotate by -60\n") +
         data_file("network_layers.csv") + terminals("network_layers", 1400, 600) +
         fmt::format(
             "  set title \"{0}: per-layer latency, simulated against the Blackthorn estimate\\n{1}\" "
             "noenhanced\n  set xlabel 'layer'\n  set ylabel 'latency (ms)'\n"
             "  plot sprintf(\"< awk -F, '$1==\\\"{0}\\\" && $5==1' %s\", csv) using 6:xtic(3) title "
             "'simulated', \\\n       '' using 7 title 'Blackthorn estimate'\n}}\n",
             network, backend);
}

}  // namespace

std::string write_blackthorn_plots(const BlackthornProfileReport& report, const std::string& out_dir) {
  std::vector<std::string> scripts;
  if (!report.sweeps.empty()) {
    write_file_atomically(out_dir + "/fitter_sweeps.csv", sweeps_csv(report.sweeps));
    write_file_atomically(out_dir + "/fitter_sweeps.gp", sweeps_script(report.sweeps));
    scripts.push_back("fitter_sweeps");
  }
  if (!report.random.specs.empty()) {
    write_file_atomically(out_dir + "/random_layers.csv", random_csv(report.random));
    write_file_atomically(out_dir + "/random_layers.gp", random_script(report.models.backend));
    scripts.push_back("random_layers");
  }
  if (!report.networks.empty()) {
    const auto vgg = std::find_if(report.networks.begin(), report.networks.end(),
                                  [](const NetworkCheck& n) { return n.name == "vgg16"; });
    const std::string shown = vgg != report.networks.end() ? vgg->name : report.networks.front().name;
    write_file_atomically(out_dir + "/network_layers.csv", network_csv(report.networks));
    write_file_atomically(out_dir + "/network_layers.gp", network_script(shown, report.models.backend));
    scripts.push_back("network_layers");
  }
  std::string written = "wrote " + out_dir + "/{models.json,report.json";
  bool plotted = true;
  for (const std::string& stem : scripts) {
    written += "," + stem + ".csv," + stem + ".gp";
    if (run_gnuplot(out_dir, stem + ".gp")) {
      written += "," + stem + ".png," + stem + ".svg";
    } else {
      plotted = false;
    }
  }
  return written + "}" + (plotted ? "" : " (install gnuplot for the plots)") + "\n";
}

}  // namespace ergon
