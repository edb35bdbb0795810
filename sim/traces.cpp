#include "sim/traces.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace ergon {
namespace {

// VCD identifiers and declarations of the traced signals, in order.
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
};
constexpr std::size_t kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);

std::string binary(std::uint64_t value) {
  if (value == 0) return "b0";
  std::string digits;
  for (; value > 0; value >>= 1) digits.insert(digits.begin(), static_cast<char>('0' + (value & 1)));
  return "b" + digits;
}

std::string real(double value) {
  return fmt::format("r{:.6g}", value);
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

VcdWriter::VcdWriter(const std::string& path, double frequency_mhz, double voltage_v, double dram_bandwidth_gbps)
    : file_(path), last_values_(kSignalCount) {
  file_.write("$version Ergon $end\n$timescale 1 ps $end\n$scope module accelerator $end\n");
  for (const auto& signal : kSignals) file_.write(fmt::format("$var {} $end\n", signal.declaration));
  file_.write("$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n");
  const std::string initial[] = {
      "b0", "0", "b0", "r0", "r0", "r0", "r0", "r0", real(frequency_mhz), real(voltage_v), real(dram_bandwidth_gbps)};
  for (std::size_t i = 0; i < kSignalCount; ++i) {
    const bool scalar = kSignals[i].declaration[0] == 'w';
    file_.write(initial[i] + (scalar ? "" : " ") + kSignals[i].code + "\n");
    last_values_[i] = initial[i];
  }
  file_.write("$end\n");
}

void VcdWriter::change(const std::string& code, const std::string& value, std::string& last) {
  if (value == last) return;
  const bool scalar = value.size() == 1;
  file_.write(value + (scalar ? "" : " ") + code + "\n");
  last = value;
}

void VcdWriter::write(const ActivityInterval& a) {
  if (a.start_ps > last_end_ps_) {  // idle gap: the rates drop to zero
    file_.write(fmt::format("#{}\n", last_end_ps_));
    for (std::size_t i = 2; i <= 7; ++i) change(kSignals[i].code, i == 2 ? "b0" : "r0", last_values_[i]);
  }
  const double cycles = static_cast<double>(a.end_cycle - a.start_cycle);
  const auto rate = [cycles](std::uint64_t count) {
    return real(cycles > 0 ? static_cast<double>(count) / cycles : 0);
  };
  file_.write(fmt::format("#{}\n", a.start_ps));
  const std::string values[] = {binary(a.layer_index),      a.stall || a.dvfs_switch ? "1" : "0",
                                binary(a.active_pes),       rate(a.macs),
                                rate(a.rf_accesses),        rate(a.noc_transfers),
                                rate(a.glb_accesses),       rate(a.dram_bytes),
                                real(a.frequency_mhz),      real(a.voltage_v),
                                real(a.dram_bandwidth_gbps)};
  for (std::size_t i = 0; i < kSignalCount; ++i) change(kSignals[i].code, values[i], last_values_[i]);
  last_end_ps_ = a.end_ps;
}

void VcdWriter::finish() {
  file_.write(fmt::format("#{}\n", last_end_ps_));
  for (std::size_t i = 2; i <= 7; ++i) change(kSignals[i].code, i == 2 ? "b0" : "r0", last_values_[i]);
  file_.finish();
}

PerfettoWriter::PerfettoWriter(const std::string& path, const Workload& workload) : file_(path) {
  for (const auto& layer : workload.layers()) layer_names_.push_back(layer.name);
  file_.write("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
  const char* threads[] = {"layers", "passes", "stalls", "DRAM reads", "DRAM writes"};
  for (int tid = 1; tid <= 5; ++tid) {
    file_.write(fmt::format(R"({{"name": "thread_name", "ph": "M", "pid": 1, "tid": {}, "args": {{"name": "{}"}}}},)",
                            tid, threads[tid - 1]) +
                "\n");
  }
}

void PerfettoWriter::write(const TraceEvent& event) {
  const std::string layer = escape(layer_names_.at(event.layer_index));
  const double start = microseconds(event.start_ps), duration = microseconds(event.end_ps - event.start_ps);
  switch (event.kind) {
    case TraceEvent::Kind::kLayer:
    case TraceEvent::Kind::kPass:
    case TraceEvent::Kind::kStall:
    case TraceEvent::Kind::kDvfsSwitch: {
      const int tid = event.kind == TraceEvent::Kind::kLayer ? 1 : event.kind == TraceEvent::Kind::kPass ? 2 : 3;
      const char* name = event.kind == TraceEvent::Kind::kStall        ? "stall"
                         : event.kind == TraceEvent::Kind::kDvfsSwitch ? "dvfs switch"
                                                                       : "pass";
      // A layer the GLB held activations for says how many bytes (glb.keep_activations).
      const std::string on_chip =
          event.input_bytes_on_chip + event.output_bytes_kept == 0
              ? ""
              : fmt::format(R"(, "input_bytes_found_on_chip": {}, "output_bytes_kept_on_chip": {})",
                            event.input_bytes_on_chip, event.output_bytes_kept);
      file_.write(fmt::format(R"({{"name": "{}", "cat": "{}", "ph": "X", "pid": 1, "tid": {}, "ts": {:.6f}, )"
                              R"("dur": {:.6f}, "args": {{"layer": "{}"{}}}}},)",
                              event.kind == TraceEvent::Kind::kLayer ? layer : name, name, tid, start, duration, layer,
                              on_chip) +
                  "\n");
      break;
    }
    case TraceEvent::Kind::kLevels: {
      // Counter tracks: each value holds until the next kLevels event.
      const std::pair<const char*, double> counters[] = {{"frequency_mhz", event.frequency_mhz},
                                                         {"voltage_v", event.voltage_v},
                                                         {"dram_bandwidth_gbps", event.dram_bandwidth_gbps}};
      for (const auto& [name, value] : counters) {
        file_.write(fmt::format(R"({{"name": "{}", "cat": "dvfs", "ph": "C", "pid": 1, "ts": {:.6f}, )"
                                R"("args": {{"value": {:.6g}}}}},)",
                                name, start, value) +
                    "\n");
      }
      break;
    }
    case TraceEvent::Kind::kDramRead:
    case TraceEvent::Kind::kDramWrite: {
      // Async events: posted writes may overlap each other.
      const bool read = event.kind == TraceEvent::Kind::kDramRead;
      const std::uint64_t id = next_id_++;
      const int tid = read ? 4 : 5;
      const char* name = read ? "read" : "write";
      file_.write(fmt::format(R"({{"name": "{}", "cat": "dram", "ph": "b", "id": {}, "pid": 1, "tid": {}, )"
                              R"("ts": {:.6f}, "args": {{"layer": "{}", "bytes": {}}}}},)",
                              name, id, tid, start, layer, event.bytes) +
                  "\n");
      file_.write(fmt::format(R"({{"name": "{}", "cat": "dram", "ph": "e", "id": {}, "pid": 1, "tid": {}, )"
                              R"("ts": {:.6f}}},)",
                              name, id, tid, start + duration) +
                  "\n");
      break;
    }
  }
}

void PerfettoWriter::finish() {
  file_.write(R"({"name": "end", "ph": "i", "s": "g", "pid": 1, "tid": 1, "ts": 0})"
              "\n]}\n");
  file_.finish();
}

}  // namespace ergon
