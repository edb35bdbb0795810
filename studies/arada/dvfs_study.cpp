#include "studies/arada/dvfs_study.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "common/atomic_file.hpp"
#include "common/csv_record.hpp"
#include "common/gnuplot.hpp"
#include "common/progress_display.hpp"
#include "common/report_formats.hpp"
#include "network/importers/scalesim_topology.hpp"
#include "sim/data_paths.hpp"
#include "sim/dvfs/dvfs_pareto.hpp"
#include "sim/dvfs/dvfs_run.hpp"
#include "sim/parallel/process_pool.hpp"

namespace ergon {
namespace {

struct Hardware {
  std::string config;  // under configs/
  std::vector<std::string> drams;
};

// ARADA Tables 2 and 3.
const std::vector<Hardware>& arada_hardware() {
  static const std::vector<Hardware> hardware = {
      {"edge_tpu", {"lpddr4", "lpddr5", "ddr4-4000", "ddr4-4400", "ddr5-4800"}},
      {"hpc_tpu", {"ddr4-4400", "ddr5-4800", "ddr5-6800", "ddr5-7800", "hbm1", "hbm2"}}};
  return hardware;
}

// ARADA Table 4: MobileNet, MobileNetV2, EfficientNetB0, ResNet-18, GoogLeNet, YOLOv4-tiny,
// FaceRecognitionID (MobileFaceNet), FasterRCNN, SpeakerID (VGGVox).
const std::vector<std::string>& arada_workloads() {
  static const std::vector<std::string> names = {"mobilenet_v1",  "mobilenet_v2", "efficientnet_b0",
                                                 "resnet18",      "googlenet_v1", "yolov4_tiny",
                                                 "mobilefacenet", "faster_rcnn",  "vggvox"};
  return names;
}

struct StudyRun {
  std::string config, dram, workload;
};

const char* kCsvHeader =
    "accelerator,dram,workload,scheme,energy_saving_pct,compute_energy_saving_pct,dram_energy_saving_pct,"
    "arada_estimated_saving_pct,latency_change_pct,bandwidth_reduction_pct,rti_latency_ns,rti_energy_pj,"
    "traffic_model\n";

// Workloads the `scalesim` traffic model takes from SCALE-Sim's own topologies (workloads/scalesim/, MIT):
// its MobileNet models each depthwise layer as a dense convolution with one filter, as ARADA ran it.
const std::map<std::string, std::string>& scalesim_topologies() {
  static const std::map<std::string, std::string> topologies = {{"mobilenet_v1", "mobilenet.csv"}};
  return topologies;
}

Workload study_workload(const std::string& name, const std::string& traffic_model) {
  const auto topology = scalesim_topologies().find(name);
  if (traffic_model != "scalesim" || topology == scalesim_topologies().end()) {
    return load_workload(shipped_data_dir() + "/workloads/" + name + ".yaml");
  }
  const std::string path = shipped_data_dir() + "/workloads/scalesim/" + topology->second;
  const auto layers = read_scalesim_topology(path, ScaleSimTopologyKind::kConv).layers;
  return parse_workload(YAML::Load(scalesim_workload_yaml(layers, name + "_scalesim", path)), path);
}

std::vector<std::string> run_overrides(const StudyRun& run, const DvfsStudyOptions& options) {
  std::vector<std::string> overrides = {"dram.preset=" + run.dram};
  if (options.traffic_model == "scalesim") {
    const std::string path = shipped_data_dir() + "/configs/" + run.config + ".yaml";
    const double clock_mhz = load_accelerator_config(path, overrides).clock.frequency_mhz;
    for (std::string& o : scalesim_overrides(clock_mhz, run.dram)) overrides.push_back(std::move(o));
  }
  overrides.insert(overrides.end(), options.overrides.begin(), options.overrides.end());
  return overrides;
}

// One accelerator, DRAM and workload under every scheme: a CSV row per scheme.
std::string study_rows(const StudyRun& run, const DvfsStudyOptions& options) {
  const AcceleratorConfig config =
      load_accelerator_config(shipped_data_dir() + "/configs/" + run.config + ".yaml", run_overrides(run, options));
  const Chip chip(config);
  Workload workload = study_workload(run.workload, options.traffic_model);
  if (options.batch > 0) workload.set_batch(options.batch);
  const SimulationResult baseline = simulate_race_to_idle(chip, workload, options.fidelity);
  std::string rows;
  for (const std::string& name : dvfs_scheme_names()) {
    const DvfsScheme scheme = parse_dvfs_scheme(name);
    DvfsOutcome outcome;
    if (scheme == DvfsScheme::kRaceToIdle) {  // the baseline itself: nothing changes
      outcome.race_to_idle = outcome.scheduled = baseline;
    } else {
      outcome = run_dvfs(chip, workload, scheme, baseline);
    }
    rows += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", run.config, run.dram, run.workload, name,
                        outcome.energy_saving_pct, outcome.compute_energy_saving_pct, outcome.dram_energy_saving_pct,
                        outcome.allocation.estimated_saving_pct, outcome.latency_change_pct,
                        outcome.allocation.bandwidth_reduction_pct, baseline.total.time_ns,
                        baseline.total.energy.total_pj(), options.traffic_model);
  }
  return rows;
}

struct Average {
  double sums[6] = {};
  int count = 0;
  std::string traffic_model;
};

// Means over the workloads, keyed by accelerator, DRAM and scheme in grid order.
std::string averages_csv(const std::vector<std::string>& rows) {
  std::vector<std::string> order;
  std::map<std::string, Average> averages;
  for (const std::string& block : rows) {
    for (const std::string& line : csv_lines(block)) {
      std::vector<std::string> cells;
      for (const CsvField& field : split_csv_record(line, "the study's rows", 0)) cells.push_back(field.text);
      const std::string key = cells[0] + "," + cells[1] + "," + cells[3];
      if (averages.find(key) == averages.end()) order.push_back(key);
      Average& a = averages[key];
      for (int i = 0; i < 6; ++i) a.sums[i] += std::stod(cells[4 + static_cast<std::size_t>(i)]);
      a.traffic_model = cells.back();
      ++a.count;
    }
  }
  std::string out =
      "accelerator,dram,scheme,workloads,energy_saving_pct,compute_energy_saving_pct,dram_energy_saving_pct,"
      "arada_estimated_saving_pct,latency_change_pct,bandwidth_reduction_pct,traffic_model\n";
  for (const std::string& key : order) {
    const Average& a = averages[key];
    out += fmt::format("{},{}", key, a.count);
    for (double sum : a.sums) out += fmt::format(",{}", sum / a.count);
    out += "," + a.traffic_model + "\n";
  }
  return out;
}

// Figure 5 of ARADA: per accelerator, the mean saving per DRAM type and scheme. Each scheme keeps one colour;
// its simulated saving is the solid bar and ARADA's own estimate the hatched one beside it, which one key
// entry explains (six entries would not fit beside the bars).
std::string study_gnuplot(std::size_t workloads, const std::string& traffic_model) {
  std::string bars;
  int colour = 0;
  for (const std::string& scheme : dvfs_scheme_names()) {
    if (scheme == "rti") continue;  // the baseline: 0 by definition
    ++colour;
    bars += fmt::format(
        "{}rows(acc, '{}') using 5{} title {} lc {} fillstyle solid 0.8 border -1, \\\n         "
        "rows(acc, '{}') using 8 notitle lc {} fillstyle pattern 4 border",
        bars.empty() ? "" : ", \\\n         ", scheme, bars.empty() ? ":xtic(2)" : "",
        gnuplot_string(dvfs_scheme_legend(scheme) + ", simulated"), colour, scheme, colour);
  }
  return fmt::format(R"gp(# ARADA Figure 5 from averages.csv: `gnuplot study.gp` writes study.png and study.svg
set datafile separator ','
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set xlabel 'DRAM type'
set ylabel 'energy saved against race to idle (%)'
set yrange [0:*]
# Headroom above the tallest bar for the key, which then never hides a bar.
set offsets 0, 0, graph 0.3, 0
set key top right noenhanced
set grid ytics
set xtics rotate by -30
# The data beside the script, whether gnuplot runs in its folder or in a staging folder below it.
csv = system("[ -f averages.csv ] && echo averages.csv || echo ../averages.csv")
rows(acc, s) = sprintf("< awk -F, '$1==\"%s\" && $3==\"%s\"' %s", acc, s, csv)
do for [out in "png svg"] {{
  if (out eq "png") {{ set terminal pngcairo noenhanced size 1400,600 font ',10'; set output 'study.png' }}
  else {{ set terminal svg noenhanced size 1400,600 font ',10'; set output 'study.svg' }}
  set multiplot layout 1,2 title {0}
  do for [acc in "edge_tpu hpc_tpu"] {{
    set title sprintf('%s (configs/%s.yaml)', acc, acc) noenhanced
    plot {1}, \
         keyentry with boxes lc rgb 'black' fillstyle pattern 4 border \
         title "hatched, right of each: that scheme's saving as ARADA estimates it (eq. 6)"
  }}
  unset multiplot
}}
)gp",
                     gnuplot_string(fmt::format("Per-layer DVFS after ARADA: energy saved against race to idle, mean "
                                                "over {} workloads per DRAM type ({} traffic model)",
                                                workloads, traffic_model)),
                     bars);
}

}  // namespace

std::vector<std::string> dvfs_study_traffic_models() {
  return {"physical", "scalesim"};
}

std::vector<std::string> scalesim_overrides(double clock_mhz, const std::string& dram) {
  std::vector<std::string> overrides = {"glb.keep_activations=never",  // every output through DRAM
                                        "glb.operand_fetch=im2col",
                                        "glb.first_fill=free",
                                        "glb.prefetch=run_ahead",
                                        "dram.impl=streams",
                                        fmt::format("dram.latency_ns={}", 1e3 / clock_mhz),
                                        "dvfs.compute.min_voltage_v=0"};
  if (dram == "lpddr4") overrides.push_back("dram.bandwidth_gbps=20");  // ARADA Sec. 3.3, Table 1
  return overrides;
}

DvfsStudy run_dvfs_study(const DvfsStudyOptions& options) {
  DvfsStudy study;
  study.workloads = options.workloads.empty() ? arada_workloads() : options.workloads;
  for (const std::string& name : study.workloads) {
    const std::string path = shipped_data_dir() + "/workloads/" + name + ".yaml";
    if (!std::filesystem::exists(path)) {
      throw std::runtime_error("--workload " + name + ": no " + path + "; give a name under workloads/, e.g. resnet18");
    }
  }
  std::vector<StudyRun> runs;
  for (const Hardware& hardware : arada_hardware()) {
    for (const std::string& dram : hardware.drams) {
      for (const std::string& workload : study.workloads) runs.push_back({hardware.config, dram, workload});
    }
  }
  // Every config must load before any worker starts: a bad --set fails once, located, not in each worker.
  for (const Hardware& hardware : arada_hardware()) {
    for (const std::string& dram : hardware.drams) {
      load_accelerator_config(shipped_data_dir() + "/configs/" + hardware.config + ".yaml",
                              run_overrides({hardware.config, dram, study.workloads.front()}, options));
    }
  }
  std::vector<std::string> rows(runs.size());
  std::size_t finished = 0;
  const bool show_lines = progress_shown();  // a line per finished run; --quiet: none
  run_in_processes(
      runs.size(), options.jobs, [&](std::size_t i) { return study_rows(runs[i], options); },
      [&](std::size_t i, const std::string& result) {
        rows[i] = result;
        if (show_lines)
          std::cerr << fmt::format("[{}/{}] {} + {} {}\n", ++finished, runs.size(), runs[i].config, runs[i].dram,
                                   runs[i].workload);
      });
  study.study_csv = kCsvHeader;
  for (const std::string& block : rows) study.study_csv += block;
  study.averages_csv = averages_csv(rows);
  return study;
}

nlohmann::ordered_json dvfs_study_json(const DvfsStudy& study, const DvfsStudyOptions& options) {
  const std::set<std::string> names = {"accelerator", "dram", "workload", "scheme", "traffic_model"};
  return {{"schema_version", 1},
          {"traffic_model", options.traffic_model},
          {"fidelity", fidelity_name(options.fidelity)},
          {"batch", options.batch > 0 ? nlohmann::ordered_json(options.batch) : nlohmann::ordered_json(nullptr)},
          {"overrides", options.overrides},
          {"workloads", study.workloads},
          {"averages", rows_as_json(csv_cells(study.averages_csv), names)},
          {"runs", rows_as_json(csv_cells(study.study_csv), names)}};
}

bool write_dvfs_study(const DvfsStudy& study, const DvfsStudyOptions& options, const std::string& folder, bool plot) {
  write_file_atomically(folder + "/study.csv", study.study_csv);
  write_file_atomically(folder + "/averages.csv", study.averages_csv);
  write_file_atomically(folder + "/study.gp", study_gnuplot(study.workloads.size(), options.traffic_model));
  return plot && run_gnuplot(folder, "study.gp");
}

}  // namespace ergon
