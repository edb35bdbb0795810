#include "sim/traces.hpp"

#include <fmt/format.h>

#include <iterator>
#include <nlohmann/json.hpp>

namespace ergon {
namespace {

// VCD identifiers and declarations of the traced signals, in order. New signals go at the end, so that
// readers that know the earlier ones by their identifiers keep working.
struct VcdSignal {
  const char* code;
  const char* declaration;
};
const VcdSignal kSignals[] = {
    {"!", "integer 32 ! layer"},
    {"\"", "wire 1 \" stall"},
    {"#", "integer 32 # active_pes"},
    {"$", "real 64 $ macs_per_cycle"},
    {"%", "real 64 % rf_accesses_per_cycle"},
    {"&", "real 64 & noc_transfers_per_cycle"},
    {"'", "real 64 ' glb_accesses_per_cycle"},
    {"(", "real 64 ( dram_bytes_per_cycle"},
    {")", "real 64 ) frequency_mhz"},
    {"*", "real 64 * voltage_v"},
    {"+", "real 64 + dram_bandwidth_gbps"},
    // GTKWave's string extension of VCD (value changes "s<text> <id>"); see docs/simulator.md, "Traces".
    {",", "string 1 , layer_name"},
};
constexpr std::size_t kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);
constexpr std::size_t kStallSignal = 1;
// The signals that are rates of the array's activity: 0 while it idles. active_pes .. dram_bytes_per_cycle.
constexpr std::size_t kFirstRateSignal = 2, kLastRateSignal = 7;

std::string binary(std::uint64_t value) {
  if (value == 0) return "b0";
  std::string digits;
  for (; value > 0; value >>= 1) digits.insert(digits.begin(), static_cast<char>('0' + (value & 1)));
  return "b" + digits;
}

std::string real(double value) {
  return fmt::format("r{:.6g}", value);
}

// A VCD string value: GTKWave reads a token up to white space and decodes C escapes in it, so white space,
// backslashes and bytes outside printable ASCII are written as \xHH.
std::string vcd_string(const std::string& text) {
  std::string value = "s";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= ' ' || byte > '~' || c == '\\') {
      value += fmt::format("\\x{:02X}", byte);
    } else {
      value += c;
    }
  }
  return value;
}

// The text as a JSON string body (quotes, backslashes and control characters escaped).
std::string escape(const std::string& text) {
  const std::string quoted = nlohmann::json(text).dump();
  return quoted.substr(1, quoted.size() - 2);
}

double microseconds(std::uint64_t picoseconds) {
  return static_cast<double>(picoseconds) / 1e6;
}

}  // namespace

VcdWriter::VcdWriter(const std::string& path, const Workload& workload, double frequency_mhz, double voltage_v,
                     double dram_bandwidth_gbps)
    : file_(path), last_values_(kSignalCount) {
  for (const auto& layer : workload.layers()) layer_names_.push_back(vcd_string(layer.name));
  file_.write("$version Ergon $end\n$timescale 1 ps $end\n$scope module accelerator $end\n");
  for (const auto& signal : kSignals) file_.write(fmt::format("$var {} $end\n", signal.declaration));
  file_.write("$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n");
  const std::string initial[] = {"b0",
                                 "0",
                                 "b0",
                                 "r0",
                                 "r0",
                                 "r0",
                                 "r0",
                                 "r0",
                                 real(frequency_mhz),
                                 real(voltage_v),
                                 real(dram_bandwidth_gbps),
                                 layer_names_.empty() ? "s" : layer_names_.front()};
  for (std::size_t i = 0; i < kSignalCount; ++i) change(i, initial[i]);
  file_.write("$end\n");
}

void VcdWriter::change(std::size_t signal, const std::string& value) {
  if (value == last_values_[signal]) return;
  file_.write(value + (signal == kStallSignal ? "" : " ") + kSignals[signal].code + "\n");
  last_values_[signal] = value;
}

void VcdWriter::idle_rates() {
  for (std::size_t i = kFirstRateSignal; i <= kLastRateSignal; ++i) change(i, i == kFirstRateSignal ? "b0" : "r0");
}

void VcdWriter::write(const ActivityInterval& a) {
  if (a.start_ps > last_end_ps_) {  // idle gap: the rates drop to zero
    file_.write(fmt::format("#{}\n", last_end_ps_));
    idle_rates();
  }
  const double cycles = static_cast<double>(a.end_cycle - a.start_cycle);
  const auto rate = [cycles](std::uint64_t count) {
    return real(cycles > 0 ? static_cast<double>(count) / cycles : 0);
  };
  file_.write(fmt::format("#{}\n", a.start_ps));
  const std::string values[] = {binary(a.layer_index),       a.stall || a.dvfs_switch ? "1" : "0",
                                binary(a.active_pes),        rate(a.macs),
                                rate(a.rf_accesses),         rate(a.noc_transfers),
                                rate(a.glb_accesses),        rate(a.dram_bytes),
                                real(a.frequency_mhz),       real(a.voltage_v),
                                real(a.dram_bandwidth_gbps), layer_names_.at(a.layer_index)};
  for (std::size_t i = 0; i < kSignalCount; ++i) change(i, values[i]);
  last_end_ps_ = a.end_ps;
}

void VcdWriter::finish() {
  file_.write(fmt::format("#{}\n", last_end_ps_));
  idle_rates();
  file_.finish();
}

// The timeline's slice tracks, by thread id from 1, in the order they are shown.
const char* const kThreadNames[] = {"layers", "passes", "stalls", "DRAM reads", "DRAM writes"};

PerfettoWriter::PerfettoWriter(const std::string& path, const Workload& workload, const TraceHeading& heading)
    : file_(path),
      activity_(heading.pe_count),
      dram_read_(CounterTrack("DRAM read bandwidth", "dram", {"gbps"})),
      dram_write_(CounterTrack("DRAM write bandwidth", "dram", {"gbps"})),
      layer_spans_(workload.layers().size()) {
  for (const auto& layer : workload.layers()) layer_names_.push_back(layer.name);
  file_.write("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
  write_metadata(workload, heading);
}

// Names the process (the run) and every slice track, in a stable order. Counter tracks are the process's
// own in the format (they have no thread), so their event names name them.
void PerfettoWriter::write_metadata(const Workload& workload, const TraceHeading& heading) {
  const std::string run_name = heading.run_name.empty() ? workload.name() : heading.run_name;
  file_.write(
      fmt::format(R"({{"name": "process_name", "ph": "M", "pid": 1, "args": {{"name": "{}"}}}},)", escape(run_name)) +
      "\n");
  for (int tid = 1; tid <= static_cast<int>(std::size(kThreadNames)); ++tid) {
    file_.write(fmt::format(R"({{"name": "thread_name", "ph": "M", "pid": 1, "tid": {}, "args": {{"name": "{}"}}}},)",
                            tid, kThreadNames[tid - 1]) +
                "\n");
    file_.write(
        fmt::format(R"({{"name": "thread_sort_index", "ph": "M", "pid": 1, "tid": {}, "args": {{"sort_index": {}}}}},)",
                    tid, tid) +
        "\n");
  }
}

void PerfettoWriter::write(const ActivityInterval& interval) {
  file_.write(activity_.add(interval));
}

void PerfettoWriter::write(const TraceEvent& event) {
  switch (event.kind) {
    case TraceEvent::Kind::kLayer:
      layer_spans_.at(event.layer_index) = LayerSpan{event.start_ps, event.end_ps};
      [[fallthrough]];
    case TraceEvent::Kind::kPass:
    case TraceEvent::Kind::kStall:
    case TraceEvent::Kind::kDvfsSwitch:
      // The activity of the slice has come: the utilisation and GLB tracks change no more often than slices.
      file_.write(activity_.flush());
      write_slice(event);
      break;
    case TraceEvent::Kind::kLevels: write_levels(event); break;
    case TraceEvent::Kind::kDramRead:
    case TraceEvent::Kind::kDramWrite: write_dram_transfer(event); break;
  }
}

void PerfettoWriter::write_slice(const TraceEvent& event) {
  const std::string layer = escape(layer_names_.at(event.layer_index));
  const double start = microseconds(event.start_ps), duration = microseconds(event.end_ps - event.start_ps);
  const int tid = event.kind == TraceEvent::Kind::kLayer ? 1 : event.kind == TraceEvent::Kind::kPass ? 2 : 3;
  const char* name = event.kind == TraceEvent::Kind::kStall        ? "stall"
                     : event.kind == TraceEvent::Kind::kDvfsSwitch ? "dvfs switch"
                                                                   : "pass";
  // A layer the GLB held activations for says how many bytes (glb.keep_activations).
  const std::string on_chip = event.input_bytes_on_chip + event.output_bytes_kept == 0
                                  ? ""
                                  : fmt::format(R"(, "input_bytes_found_on_chip": {}, "output_bytes_kept_on_chip": {})",
                                                event.input_bytes_on_chip, event.output_bytes_kept);
  file_.write(fmt::format(R"({{"name": "{}", "cat": "{}", "ph": "X", "pid": 1, "tid": {}, "ts": {:.6f}, )"
                          R"("dur": {:.6f}, "args": {{"layer": "{}"{}}}}},)",
                          event.kind == TraceEvent::Kind::kLayer ? layer : name, name, tid, start, duration, layer,
                          on_chip) +
              "\n");
}

// Counter tracks: each value holds until the next kLevels event.
void PerfettoWriter::write_levels(const TraceEvent& event) {
  const std::pair<const char*, double> counters[] = {{"frequency_mhz", event.frequency_mhz},
                                                     {"voltage_v", event.voltage_v},
                                                     {"dram_bandwidth_gbps", event.dram_bandwidth_gbps}};
  for (const auto& [name, value] : counters) {
    file_.write(fmt::format(R"({{"name": "{}", "cat": "dvfs", "ph": "C", "pid": 1, "ts": {:.6f}, )"
                            R"("args": {{"value": {:.6g}}}}},)",
                            name, microseconds(event.start_ps), value) +
                "\n");
  }
}

// Async events (posted writes may overlap each other), and the bandwidth they take.
void PerfettoWriter::write_dram_transfer(const TraceEvent& event) {
  const bool read = event.kind == TraceEvent::Kind::kDramRead;
  const std::uint64_t id = next_id_++;
  const int tid = read ? 4 : 5;
  const char* name = read ? "read" : "write";
  const double start = microseconds(event.start_ps), duration = microseconds(event.end_ps - event.start_ps);
  file_.write(fmt::format(R"({{"name": "{}", "cat": "dram", "ph": "b", "id": {}, "pid": 1, "tid": {}, )"
                          R"("ts": {:.6f}, "args": {{"layer": "{}", "bytes": {}}}}},)",
                          name, id, tid, start, escape(layer_names_.at(event.layer_index)), event.bytes) +
              "\n");
  file_.write(fmt::format(R"({{"name": "{}", "cat": "dram", "ph": "e", "id": {}, "pid": 1, "tid": {}, )"
                          R"("ts": {:.6f}}},)",
                          name, id, tid, start + duration) +
              "\n");
  TransferBandwidthTrack& bandwidth = read ? dram_read_ : dram_write_;
  file_.write(bandwidth.add(event.start_ps, event.end_ps, event.bytes));
}

void PerfettoWriter::write_power(const std::vector<LayerEnergy>& energies) {
  CounterTrack power("power", "energy", {"on_chip_mw", "dram_mw"});
  for (const PowerStep& step : layer_power_steps(layer_spans_, energies)) {
    file_.write(power.set(step.ts_ps, {step.on_chip_mw, step.dram_mw}));
  }
  file_.write(power.flush());
}

void PerfettoWriter::finish() {
  file_.write(activity_.finish());
  file_.write(dram_read_.finish());
  file_.write(dram_write_.finish());
  file_.write(R"({"name": "end", "ph": "i", "s": "g", "pid": 1, "tid": 1, "ts": 0})"
              "\n]}\n");
  file_.finish();
}

}  // namespace ergon
