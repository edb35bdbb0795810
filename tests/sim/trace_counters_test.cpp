// The traces' counter tracks give back the report's totals when integrated over time (so they cannot drift
// from the counters the reports use), change only when their value does, and every track is named; the VCD
// carries each layer's name beside its index.
#include "sim/trace_counters.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/run_observers.hpp"
#include "sim/run_pipeline.hpp"
#include "tests/test_paths.hpp"

namespace ergon {
namespace {

using nlohmann::json;

// The counter events in `text` (each line one event followed by a comma).
std::vector<json> events_in(const std::string& text) {
  std::vector<json> events;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) events.push_back(json::parse(line.substr(0, line.rfind(','))));
  }
  return events;
}

// (ts in ps, value of `series`) of each event.
std::vector<std::pair<double, double>> steps_of(const std::vector<json>& events, const std::string& series) {
  std::vector<std::pair<double, double>> steps;
  for (const json& e : events) steps.emplace_back(e["ts"].get<double>() * 1e6, e["args"][series].get<double>());
  return steps;
}

TEST(TraceCounters, ACounterTrackWritesOnlyChanges) {
  CounterTrack track("GLB accesses", "activity", {"per_ns"});
  // One call a statement: the operands of + run in no set order.
  std::string text = track.set(0, {2});
  text += track.set(1000, {2});
  text += track.set(2000, {0.5});
  text += track.set(3000, {1});
  text += track.set(3000, {4});  // at one time, the last value holds
  text += track.set(4000, {7});
  text += track.set(4000, {4});  // back to the value in force: nothing changes
  text += track.flush();
  const std::vector<json> events = events_in(text);
  ASSERT_EQ(events.size(), 3U);
  EXPECT_EQ(events[0], json::parse(R"({"name": "GLB accesses", "cat": "activity", "ph": "C", "pid": 1, "ts": 0.0,
                                       "args": {"per_ns": 2}})"));
  EXPECT_DOUBLE_EQ(events[1]["ts"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(events[1]["args"]["per_ns"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(events[2]["ts"].get<double>(), 0.003);
  EXPECT_DOUBLE_EQ(events[2]["args"]["per_ns"].get<double>(), 4);
}

TEST(TraceCounters, OverlappingTransfersAddTheirBandwidth) {
  TransferBandwidthTrack track(CounterTrack("DRAM read bandwidth", "dram", {"gbps"}));
  // 1000 bytes over [0, 1000) ps is 1 B/ps = 1000 GB/s; 2000 bytes over [500, 1500) ps is 2000 GB/s; the
  // third transfer starts as the first ends.
  std::string text = track.add(0, 1000, 1000);
  text += track.add(500, 1500, 2000);
  text += track.add(1000, 2000, 500);
  text += track.finish();
  const std::vector<std::pair<double, double>> expected = {
      {0, 1000}, {500, 3000}, {1000, 2500}, {1500, 500}, {2000, 0}};
  EXPECT_EQ(steps_of(events_in(text), "gbps"), expected);
}

ActivityInterval interval(std::size_t layer, std::uint64_t start_ps, std::uint64_t end_ps, std::uint64_t pes,
                          std::uint64_t glb_accesses, bool stall = false) {
  ActivityInterval a;
  a.layer_index = layer;
  a.start_ps = start_ps;
  a.end_ps = end_ps;
  a.active_pes = pes;
  a.glb_accesses = glb_accesses;
  a.stall = stall;
  return a;
}

TEST(TraceCounters, ActivityTracksAreBucketMeansAndIdleBetween) {
  ActivityTracks tracks(100);
  std::string text = tracks.add(interval(0, 0, 1000, 50, 2000));
  text += tracks.add(interval(0, 1000, 2000, 100, 0));  // the same pass: one bucket of mean 75%
  text += tracks.flush();
  text += tracks.add(interval(0, 2000, 2500, 0, 0, true));  // a stall
  text += tracks.add(interval(1, 3000, 4000, 20, 500));     // after an idle gap, in the next layer
  text += tracks.finish();
  std::vector<json> utilisation, glb;
  for (const json& e : events_in(text)) (e["name"] == "PE utilisation" ? utilisation : glb).push_back(e);
  const std::vector<std::pair<double, double>> expected_utilisation = {{0, 75}, {2000, 0}, {3000, 20}, {4000, 0}};
  EXPECT_EQ(steps_of(utilisation, "percent"), expected_utilisation);
  const std::vector<std::pair<double, double>> expected_glb = {{0, 1000}, {2000, 0}, {3000, 500}, {4000, 0}};
  EXPECT_EQ(steps_of(glb, "per_ns"), expected_glb);
}

TEST(TraceCounters, ABucketStartingBeforeTheLastEndIsShownAfterItWithItsCounts) {
  ActivityTracks tracks(100);
  std::string text = tracks.add(interval(0, 0, 1000, 100, 1000));
  text += tracks.flush();
  text += tracks.add(interval(0, 900, 1000, 0, 100));  // within the last bucket's time: carried on
  text += tracks.flush();
  text += tracks.add(interval(1, 1000, 2000, 50, 400));
  text += tracks.finish();
  std::vector<json> utilisation, glb;
  for (const json& e : events_in(text)) (e["name"] == "PE utilisation" ? utilisation : glb).push_back(e);
  const std::vector<std::pair<double, double>> expected_utilisation = {{0, 100}, {1000, 50}, {2000, 0}};
  EXPECT_EQ(steps_of(utilisation, "percent"), expected_utilisation);
  const std::vector<std::pair<double, double>> expected_glb = {{0, 1000}, {1000, 500}, {2000, 0}};
  EXPECT_EQ(steps_of(glb, "per_ns"), expected_glb);
}

TEST(TraceCounters, WithoutThePeCountThereIsNoUtilisationTrack) {
  ActivityTracks tracks(0);
  std::string text = tracks.add(interval(0, 0, 1000, 50, 2000));
  text += tracks.finish();
  for (const json& e : events_in(text)) {
    EXPECT_EQ(e["name"], "GLB accesses");
  }
}

TEST(TraceCounters, LayerPowerIsItsEnergyOverItsSpanAndOverlapsAdd) {
  // 1000 pJ over 1000 ps is 1 W; the second layer overlaps the first's last 500 ps.
  const std::vector<std::optional<LayerSpan>> spans = {LayerSpan{0, 1000}, std::nullopt, LayerSpan{500, 2500}};
  const std::vector<LayerEnergy> energies = {{800, 200}, {0, 0}, {2000, 0}};
  const std::vector<PowerStep> steps = layer_power_steps(spans, energies);
  ASSERT_EQ(steps.size(), 4U);
  const double on_chip_mw[] = {800, 1800, 1000, 0}, dram_mw[] = {200, 200, 0, 0};
  const std::uint64_t ts_ps[] = {0, 500, 1000, 2500};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].ts_ps, ts_ps[i]);
    EXPECT_DOUBLE_EQ(steps[i].on_chip_mw, on_chip_mw[i]) << i;
    EXPECT_DOUBLE_EQ(steps[i].dram_mw, dram_mw[i]) << i;
  }
}

const Chip& eyeriss() {
  static const Chip chip(load_accelerator_config(test::source_dir() + "/configs/eyeriss.yaml"));
  return chip;
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct TracedRun {
  SimulationResult result;
  json trace;
  std::string vcd;
};

// A run with both traces, finished with the priced result as `ergon run` does.
TracedRun traced_run(const Chip& chip, const Workload& workload, Fidelity fidelity) {
  const std::filesystem::path dir = test::unique_temp_path("trace_counters_" + workload.name());
  std::filesystem::create_directories(dir);
  RunOutputs outputs(dir.string(), workload, {"perfetto", "vcd"}, chip.config(), ActivityDetail::kNone);
  SimulationOptions options;
  options.fidelity = fidelity;
  options.observers = outputs.observers();
  TracedRun run;
  run.result = run_pipeline(chip, workload, options, [&](const SimulationResult& priced) { outputs.finish(priced); });
  run.trace = json::parse(file_text(dir / "trace.json"));
  run.vcd = file_text(dir / "trace.vcd");
  std::filesystem::remove_all(dir);
  return run;
}

// The steps (ts in ps, value) of the counter track `name`'s `series`, in order of time.
std::vector<std::pair<double, double>> track(const json& trace, const std::string& name, const std::string& series) {
  std::vector<json> events;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "C" && e["name"] == name) events.push_back(e);
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const json& a, const json& b) { return a["ts"].get<double>() < b["ts"].get<double>(); });
  return steps_of(events, series);
}

// The integral over time of a track that ends at 0: value x picoseconds.
double integral_ps(const std::vector<std::pair<double, double>>& steps) {
  EXPECT_FALSE(steps.empty());
  if (steps.empty()) return 0;
  EXPECT_EQ(steps.back().second, 0) << "the track must return to 0";
  double sum = 0;
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) sum += steps[i].second * (steps[i + 1].first - steps[i].first);
  return sum;
}

// Values print with 6 significant digits: the integrals agree to a part per million.
constexpr double kRelativeTolerance = 1e-6;

void expect_report_totals(const TracedRun& run) {
  const LayerResult& total = run.result.total;
  const json& trace = run.trace;
  // GB/s x ps = 1e-3 bytes; accesses per ns x ps = 1e-3 accesses; mW x ps = 1e-3 pJ.
  const double read_bytes = 1e-3 * integral_ps(track(trace, "DRAM read bandwidth", "gbps"));
  const double write_bytes = 1e-3 * integral_ps(track(trace, "DRAM write bandwidth", "gbps"));
  const double glb_accesses = 1e-3 * integral_ps(track(trace, "GLB accesses", "per_ns"));
  const double on_chip_pj = 1e-3 * integral_ps(track(trace, "power", "on_chip_mw"));
  const double dram_pj = 1e-3 * integral_ps(track(trace, "power", "dram_mw"));
  const auto near = [](double expected) { return kRelativeTolerance * expected + 1e-9; };
  const double report_read = static_cast<double>(total.count("dram.read"));
  const double report_write = static_cast<double>(total.count("dram.write"));
  const double report_glb = static_cast<double>(total.count("glb.read") + total.count("glb.write"));
  EXPECT_GT(report_read, 0);
  EXPECT_GT(report_write, 0);
  EXPECT_NEAR(read_bytes, report_read, near(report_read));
  EXPECT_NEAR(write_bytes, report_write, near(report_write));
  EXPECT_NEAR(glb_accesses, report_glb, near(report_glb));
  const double report_dram_pj = total.energy.component_pj(kMemoryComponent);
  EXPECT_NEAR(dram_pj, report_dram_pj, near(report_dram_pj));
  EXPECT_NEAR(on_chip_pj + dram_pj, total.energy.total_pj(), near(total.energy.total_pj()));
}

// Each executed layer's peak utilisation over its span is the report's peak active PEs over all PEs.
void expect_peak_utilisation(const TracedRun& run) {
  const auto steps = track(run.trace, "PE utilisation", "percent");
  std::map<std::string, std::pair<double, double>> spans_ps;  // layer name -> its span
  for (const json& e : run.trace["traceEvents"]) {
    if (e["ph"] == "X" && e["tid"] == 1) {
      const double start = e["ts"].get<double>() * 1e6;
      spans_ps[e["name"]] = {start, start + e["dur"].get<double>() * 1e6};
    }
  }
  for (const LayerResult& layer : run.result.layers) {
    if (!layer.executed) continue;
    const auto [start, end] = spans_ps.at(layer.name);
    double peak = 0;
    for (const auto& [ts, percent] : steps) {
      if (ts >= start - 0.5 && ts < end - 0.5) peak = std::max(peak, percent);
    }
    const double expected = 100.0 * static_cast<double>(layer.active_pes) / static_cast<double>(run.result.pe_count);
    EXPECT_NEAR(peak, expected, 1e-5 * expected) << layer.name;
  }
}

// Every counter track runs forward in time and never repeats its value.
void expect_changes_only(const json& trace) {
  std::map<std::string, json> last;  // track name -> its last event
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] != "C" || e["cat"] == "dvfs") continue;
    const std::string name = e["name"];
    if (last.count(name)) {
      EXPECT_NE(e["args"], last[name]["args"]) << name << " at " << e["ts"];
      EXPECT_GT(e["ts"].get<double>(), last[name]["ts"].get<double>()) << name;
    }
    last[name] = e;
  }
  EXPECT_EQ(last.size(), 5U);  // utilisation, GLB, DRAM read and write, power
}

TEST(TraceCounters, IntegratedCountersGiveTheReportsTotals) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  const TracedRun run = traced_run(eyeriss(), alexnet, Fidelity::kTransactionLevel);
  expect_report_totals(run);
  expect_peak_utilisation(run);
  expect_changes_only(run.trace);
}

TEST(TraceCounters, IntegratedCountersGiveTheReportsTotalsAtCycleFidelity) {
  const Chip edge_tpu(load_accelerator_config(test::source_dir() + "/configs/edge_tpu.yaml"));
  const Workload resnet8 = load_workload(test::source_dir() + "/workloads/resnet8.yaml");
  const TracedRun run = traced_run(edge_tpu, resnet8, Fidelity::kCycleAccurate);
  expect_report_totals(run);
  expect_changes_only(run.trace);
}

TEST(TraceCounters, TheProcessAndEverySliceTrackAreNamedInOrder) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  const TracedRun run = traced_run(eyeriss(), alexnet, Fidelity::kTransactionLevel);
  std::map<int, std::string> names;
  std::map<int, int> sort_indexes;
  std::string process_name;
  for (const json& e : run.trace["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") process_name = e["args"]["name"];
    if (e["name"] == "thread_name") names[e["tid"]] = e["args"]["name"];
    if (e["name"] == "thread_sort_index") sort_indexes[e["tid"]] = e["args"]["sort_index"];
  }
  EXPECT_EQ(process_name, "alexnet on " + eyeriss().config().name);
  const std::map<int, std::string> expected = {
      {1, "layers"}, {2, "passes"}, {3, "stalls"}, {4, "DRAM reads"}, {5, "DRAM writes"}};
  EXPECT_EQ(names, expected);
  const std::map<int, int> expected_order = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}};
  EXPECT_EQ(sort_indexes, expected_order);
  for (const json& e : run.trace["traceEvents"]) {  // every slice on a named track
    if (e["ph"] == "X" || e["ph"] == "b") {
      EXPECT_TRUE(names.count(e["tid"].get<int>())) << e;
    }
  }
}

// The VCD's declarations as they were before layer_name: readers that know them keep working.
constexpr const char* kEarlierDeclarations =
    "$var integer 32 ! layer $end\n$var wire 1 \" stall $end\n$var integer 32 # active_pes $end\n"
    "$var real 64 $ macs_per_cycle $end\n$var real 64 % rf_accesses_per_cycle $end\n"
    "$var real 64 & noc_transfers_per_cycle $end\n$var real 64 ' glb_accesses_per_cycle $end\n"
    "$var real 64 ( dram_bytes_per_cycle $end\n$var real 64 ) frequency_mhz $end\n$var real 64 * voltage_v $end\n"
    "$var real 64 + dram_bandwidth_gbps $end\n";

TEST(TraceCounters, TheVcdNamesTheLayerInForce) {
  const Workload alexnet = load_workload(test::source_dir() + "/workloads/alexnet.yaml");
  const TracedRun run = traced_run(eyeriss(), alexnet, Fidelity::kTransactionLevel);
  EXPECT_NE(run.vcd.find(std::string(kEarlierDeclarations) + "$var string 1 , layer_name $end\n"), std::string::npos);
  // At every timestamp, the name in force is the name of the layer whose index is in force.
  std::istringstream lines(run.vcd.substr(run.vcd.find("$dumpvars")));
  std::uint64_t index = 0;
  std::string name;
  std::size_t names_seen = 0;
  const auto check = [&] {
    if (!name.empty()) {
      EXPECT_EQ(name, alexnet.layers().at(index).name);
    }
  };
  for (std::string line; std::getline(lines, line);) {
    if (line.size() < 2) continue;
    if (line[0] == '#') check();
    if (line[0] == 'b' && line.back() == '!') index = std::stoull(line.substr(1, line.find(' ') - 1), nullptr, 2);
    if (line[0] == 's' && line.substr(line.size() - 2) == " ,") name = line.substr(1, line.size() - 3), ++names_seen;
  }
  check();
  EXPECT_GE(names_seen, 8U);  // AlexNet's five convs and three fcs, at least
}

TEST(TraceCounters, VcdStringValuesEscapeWhiteSpaceAndBackslashes) {
  const Workload workload = parse_workload(YAML::Load(R"(
name: spaced
source: a test
layers:
  - {name: "in put", op: input, shape: [1, 4, 4]}
  - {name: "conv\\1", op: conv, inputs: ["in put"], filters: 1, kernel: 1}
)"),
                                           "inline");
  const std::filesystem::path path = test::unique_temp_path("trace_counters_escape.vcd");
  VcdWriter vcd(path.string(), workload, 200, 1.0, 12.8);
  ActivityInterval a;
  a.layer_index = 1;
  a.end_cycle = 10;
  a.end_ps = 50000;
  vcd.write(a);
  vcd.finish();
  const std::string text = file_text(path);
  std::filesystem::remove(path);
  EXPECT_NE(text.find("sin\\x20put ,\n"), std::string::npos) << text;
  EXPECT_NE(text.find("sconv\\x5C1 ,\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace ergon
