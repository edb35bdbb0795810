#include "studies/blackthorn/blackthorn_plots.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include "common/atomic_file.hpp"
#include "common/gnuplot.hpp"
#include "common/text.hpp"
#include "studies/blackthorn/blackthorn_run.hpp"

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

// A layer dimension in words, and as an axis label with its unit.
std::string dimension_words(const std::string& dimension) {
  if (dimension == "filters") return "filters (output channels)";
  if (dimension == "channels") return "input channels";
  if (dimension == "width" || dimension == "height") return "input " + dimension;
  return dimension;
}
std::string dimension_label(const std::string& dimension) {
  return dimension == "width" || dimension == "height" ? dimension_words(dimension) + " (pixels)"
                                                       : dimension_words(dimension);
}

// A fit template in words: the shape of the fitted curve.
std::string template_words(TemplateKind kind) {
  switch (kind) {
    case TemplateKind::kLinear: return "a line";
    case TemplateKind::kStep: return "floor steps";
    case TemplateKind::kCeilStep: return "ceiling steps";
  }
  return template_name(kind);
}

// "conv k3s2 along width (filters 328, ...)" in words: "3x3 conv, stride 2: latency against input width"
// over the fixed coordinates, for a reader who does not know the sub-model names.
std::string sweep_title(const SweepCheck& c) {
  const std::size_t along = c.label.find(" along ");
  const std::size_t fixed = c.label.find(" (", along);
  std::string model = c.label.substr(0, along);
  char kind[32] = {};
  int kernel = 0, stride = 0;
  if (std::sscanf(model.c_str(), "%31s k%ds%d", kind, &kernel, &stride) == 3) {
    model = fmt::format("{}x{} {}, stride {}", kernel, kernel, kind, stride);
  }
  const std::string dimension = c.label.substr(along + 7, fixed - along - 7);
  const std::string at = fixed == std::string::npos ? "" : c.label.substr(fixed + 1);
  return fmt::format("{}: latency against {}\n{}", model, dimension_words(dimension), at);
}

std::string sweeps_script(const std::vector<SweepCheck>& sweeps, const std::string& backend) {
  const std::size_t shown = std::min(kSweepsPlotted, sweeps.size());
  std::string gp =
      "# Blackthorn Fig. 7 style: `gnuplot fitter_sweeps.gp` writes fitter_sweeps.png and .svg\n"
      "set datafile separator ','\nset grid\nset key top left\n" +
      data_file("fitter_sweeps.csv") + terminals("fitter_sweeps", 700 * static_cast<int>(shown), 800);
  gp += fmt::format("  set multiplot layout 2,{} title {}\n", shown,
                    gnuplot_string(fmt::format("Blackthorn's fitter on full 1-D sweeps of conv layers: the latency "
                                               "curve it fits from a few points, against every point\n{}",
                                               backend)));
  // The key's headroom: it sits above the curves, which then never run under it.
  gp += "  set offsets 0, 0, graph 0.25, 0\n";
  for (std::size_t s = 0; s < shown; ++s) {
    const SweepCheck& c = sweeps[s];
    const std::string dimension =
        c.label.substr(c.label.find(" along ") + 7, c.label.find(" (") - c.label.find(" along ") - 7);
    gp += fmt::format(
        "  set title {0} noenhanced\n"
        "  set xlabel {1}\n  set ylabel 'latency (ms)'\n"
        "  plot csv using ($1=={2} ? $3 : 1/0):4 with lines lw 2 title 'true latency, at all {3} points', \\\n"
        "       csv using ($1=={2} ? $3 : 1/0):5 with lines dt 2 lw 2 title {4}, \\\n"
        "       csv using ($1=={2} && $6==1 ? $3 : 1/0):4 with points pt 7 ps 1.2 title "
        "'the {5} points the fitter measured'\n",
        gnuplot_string(sweep_title(c)), gnuplot_string(dimension_label(dimension)), s, c.grid.size(),
        gnuplot_string(fmt::format("fitted curve ({})", template_words(c.fit.kind))), c.measured.size());
  }
  gp += "  set offsets 0, 0, 0, 0\n";
  for (std::size_t s = 0; s < shown; ++s) {
    const std::string dimension = sweeps[s].label.substr(
        sweeps[s].label.find(" along ") + 7, sweeps[s].label.find(" (") - sweeps[s].label.find(" along ") - 7);
    // One curve, named by the title and the axis: no key.
    gp += fmt::format(
        "  set title 'relative error of the fitted curve above: (fitted - true) / true latency'\n"
        "  set xlabel {0}\n  set ylabel 'error of the fitted latency (%)'\n"
        "  plot csv using ($1=={1} ? $3 : 1/0):7 with lines lw 1.5 notitle\n",
        gnuplot_string(dimension_label(dimension)), s);
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
  // The colour box is the legend: a key entry for the points would show one palette colour only.
  return "# Blackthorn Fig. 8b style: `gnuplot random_layers.gp` writes random_layers.png and .svg\n"
         "set datafile separator ','\nset datafile missing ''\nset grid\n" +
         data_file("random_layers.csv") + terminals("random_layers", 1000, 760) +
         fmt::format("  set title {} noenhanced\n",
                     gnuplot_string("Blackthorn's layer models at random conv layers: relative error of the "
                                    "predicted latency\n(a point per layer, coloured by its error, clipped at "
                                    "+-50 %; layers the models do not cover are left out)\n" +
                                    backend)) +
         "  set xlabel 'filters (output channels)'\n  set ylabel 'input channels'\n"
         "  set cblabel 'error: (predicted - simulated) / simulated latency (%)'\n"
         "  set palette defined (-50 'blue', 0 'white', 50 'red')\n  set cbrange [-50:50]\n"
         "  plot csv using 3:4:9 skip 1 with points pt 7 ps 1 palette notitle\n}\n";
}

std::string network_script(const std::string& network, const std::string& backend) {
  return fmt::format(
             "# Blackthorn Fig. 10 style: `gnuplot network_layers.gp` writes network_layers.png and .svg\n"
             "set datafile separator ','\nset style data histograms\nset style histogram clustered gap 1\n"
             "set style fill solid 0.8 border -1\nset grid ytics\nset key top right\nset xtics rotate by -60\n"
             "# Headroom above the tallest bar for the key, which then never hides a bar.\n"
             "set yrange [0:*]\nset offsets 0, 0, graph 0.15, 0\n") +
         data_file("network_layers.csv") + terminals("network_layers", 1400, 600) +
         fmt::format(
             "  set title {1} noenhanced\n  set xlabel 'layer (those a Blackthorn model covers)'\n"
             "  set ylabel 'latency (ms)'\n"
             "  plot sprintf(\"< awk -F, '$1==\\\"{0}\\\" && $5==1' %s\", csv) using 6:xtic(3) title "
             "'simulated', \\\n       '' using 7 title \"Blackthorn's estimate (the fitted layer models)\"\n}}\n",
             network,
             gnuplot_string(network + ": latency per layer, simulated against Blackthorn's estimate\n" + backend));
}

}  // namespace

std::string network_layers_csv(const std::vector<NetworkCheck>& networks) {
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

std::string write_blackthorn_plots(const BlackthornProfileReport& report, const std::string& out_dir) {
  std::vector<std::string> scripts;
  if (!report.sweeps.empty()) {
    write_file_atomically(out_dir + "/fitter_sweeps.csv", sweeps_csv(report.sweeps));
    write_file_atomically(out_dir + "/fitter_sweeps.gp", sweeps_script(report.sweeps, report.models.backend));
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
    write_file_atomically(out_dir + "/network_layers.csv", network_layers_csv(report.networks));
    write_file_atomically(out_dir + "/network_layers.gp", network_script(shown, report.models.backend));
    scripts.push_back("network_layers");
  }
  bool plotted = true;
  for (const std::string& stem : scripts) plotted = run_gnuplot(out_dir, stem + ".gp") && plotted;
  return plotted ? "" : " (install gnuplot for the plots)";
}

}  // namespace ergon
