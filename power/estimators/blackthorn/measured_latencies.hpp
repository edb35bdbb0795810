#pragma once
// Blackthorn on real hardware: a backend answering from a CSV of measured layer latencies (e.g. TensorRT
// on a Jetson, the paper's setting; docs/blackthorn.md has the format). Blackthorn chooses each next
// layer from the measurements so far, so profiling from measurements is a loop: a layer the file lacks
// stops that sub-model and is requested; the user measures the requests, appends them, and runs again.
// Replaying the same file makes the same choices, so each round goes one measurement further.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "power/estimators/blackthorn/layer_models.hpp"

namespace ergon::blackthorn {

// Thrown by MeasuredLatencyBackend for a layer the file does not hold.
class MissingMeasurement : public std::runtime_error {
 public:
  explicit MissingMeasurement(const LayerSpec& layer);
  const LayerSpec& layer() const { return layer_; }

 private:
  LayerSpec layer_;
};

// The CSV's columns, in the order requests are written.
std::string measurement_csv_header();
// One row for `layer`; latency_ms empty when it is a request.
std::string measurement_csv_row(const LayerSpec& layer, const std::string& latency_ms = "");

class MeasuredLatencyBackend : public ILatencyBackend {
 public:
  // Throws InputError naming the file, line and column of a malformed row.
  explicit MeasuredLatencyBackend(const std::string& csv_path);

  double latency_ms(const LayerSpec& layer) override;  // the median of the layer's rows
  std::string describe() const override;
  std::size_t layers() const { return latencies_.size(); }

 private:
  std::string path_;
  std::map<std::vector<int>, std::vector<double>> latencies_;  // layer key -> measured latencies, ms
};

// The padding a profiled layer has: k/2 for conv and depthwise layers up to 7x7, none for 11x11 and pooling.
int profiled_padding(LayerKind kind, int kernel);

}  // namespace ergon::blackthorn
