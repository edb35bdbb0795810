#include "power/estimators/blackthorn/measured_latencies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/csv_record.hpp"
#include "common/input_error.hpp"
#include "common/input_text.hpp"
#include "common/text.hpp"

namespace ergon::blackthorn {
namespace {

const std::vector<std::string> kColumns = {"kind",   "kernel", "stride",  "filters", "channels",  "width",
                                           "height", "inputs", "outputs", "padding", "latency_ms"};

// The fields a layer of each kind must give; the others must be empty.
std::vector<std::string> required_fields(LayerKind kind) {
  switch (kind) {
    case LayerKind::kConv: return {"kernel", "stride", "filters", "channels", "width", "height"};
    case LayerKind::kFullyConnected: return {"inputs", "outputs"};
    case LayerKind::kAdd:
    case LayerKind::kGlobalAvgPool: return {"channels", "width", "height"};
    default: return {"kernel", "stride", "channels", "width", "height"};
  }
}

std::vector<int> key_of(const LayerSpec& l) {
  if (l.kind == LayerKind::kFullyConnected) return {static_cast<int>(l.kind), l.inputs, l.outputs};
  return {static_cast<int>(l.kind), l.kernel, l.stride, l.filters, l.channels, l.width, l.height, l.inputs, l.outputs};
}

// The fields' texts; their positions are counted in fields (the column a message names is the field's).
std::vector<std::string> field_texts(const std::string& line, const std::string& path, int line_number) {
  std::vector<std::string> texts;
  for (CsvField& field : split_csv_record(line, path, line_number)) texts.push_back(std::move(field.text));
  return texts;
}

class CsvReader {
 public:
  CsvReader(std::string path, const std::string& text) : path_(std::move(path)), lines_(csv_lines(text)) {}

  template <typename OnRow>
  void read(OnRow on_row) {
    std::size_t first = 0;
    while (first < lines_.size() && is_blank_or_comment(lines_[first])) ++first;
    if (first == lines_.size()) throw InputError({path_, 0, 0, ""}, "", "no header row");
    read_header(first);
    for (std::size_t n = first + 1; n < lines_.size(); ++n) {
      if (is_blank_or_comment(lines_[n])) continue;
      line_ = static_cast<int>(n + 1);
      fields_ = field_texts(lines_[n], path_, line_);
      if (fields_.size() != header_.size()) {
        throw InputError({path_, line_, 0, ""}, "",
                         fmt::format("{} fields where the header has {}", fields_.size(), header_.size()));
      }
      on_row(*this);
    }
  }

  const std::string& text(const std::string& column) const { return fields_[index_.at(column)]; }
  bool empty(const std::string& column) const { return index_.count(column) == 0 || text(column).empty(); }

  double number(const std::string& column, double minimum) const {
    const std::string& value = text(column);
    const std::optional<double> parsed = parse_finite_number(value);
    if (!parsed || *parsed < minimum) throw error(column, fmt::format("'{}' is not a number >= {:g}", value, minimum));
    return *parsed;
  }

  int whole(const std::string& column, int minimum) const {
    const double value = number(column, minimum);
    if (value != std::round(value) || value > 1e9)
      throw error(column, fmt::format("'{:g}' is not a whole number", value));
    return static_cast<int>(value);
  }

  InputError error(const std::string& column, const std::string& message) const {
    const auto found = index_.find(column);
    return InputError({path_, line_, found == index_.end() ? 0 : static_cast<int>(found->second + 1), ""}, column,
                      message);
  }

 private:
  void read_header(std::size_t n) {
    line_ = static_cast<int>(n + 1);
    header_ = field_texts(lines_[n], path_, line_);
    for (std::size_t c = 0; c < header_.size(); ++c) {
      if (std::find(kColumns.begin(), kColumns.end(), header_[c]) == kColumns.end()) {
        throw InputError({path_, line_, static_cast<int>(c + 1), ""}, header_[c],
                         fmt::format("unknown column (the columns are {})", fmt::join(kColumns, ", ")));
      }
      if (!index_.emplace(header_[c], c).second)
        throw InputError({path_, line_, static_cast<int>(c + 1), ""}, header_[c], "column given twice");
    }
    for (const char* needed : {"kind", "latency_ms"}) {
      if (index_.count(needed) == 0) throw InputError({path_, line_, 0, ""}, needed, "the header lacks this column");
    }
  }

  std::string path_;
  std::vector<std::string> lines_, header_, fields_;
  std::map<std::string, std::size_t> index_;
  int line_ = 0;
};

LayerKind kind_of(const CsvReader& row) {
  const std::string& name = row.text("kind");
  if (const auto kind = layer_kind_from_name(name)) return *kind;
  std::vector<std::string> names;
  for (LayerKind kind : all_layer_kinds()) names.emplace_back(layer_kind_name(kind));
  throw row.error("kind", fmt::format("'{}' is not one of {}", name, fmt::join(names, ", ")));
}

LayerSpec layer_of(const CsvReader& row) {
  LayerSpec layer;
  layer.kind = kind_of(row);
  const std::vector<std::string> required = required_fields(layer.kind);
  for (const char* column : {"kernel", "stride", "filters", "channels", "width", "height", "inputs", "outputs"}) {
    const bool needed = std::find(required.begin(), required.end(), column) != required.end();
    if (needed && row.empty(column)) throw row.error(column, fmt::format("a {} layer needs it", row.text("kind")));
    if (!needed && !row.empty(column)) throw row.error(column, fmt::format("a {} layer has none", row.text("kind")));
  }
  const auto value = [&](const char* column) { return row.empty(column) ? 0 : row.whole(column, 1); };
  layer.kernel = value("kernel");
  layer.stride = value("stride");
  layer.filters = value("filters");
  layer.channels = value("channels");
  layer.width = value("width");
  layer.height = value("height");
  layer.inputs = value("inputs");
  layer.outputs = value("outputs");
  layer.padding = has_window(layer.kind) ? profiled_padding(layer.kind, layer.kernel) : 0;
  if (!row.empty("padding") && row.whole("padding", 0) != layer.padding) {
    throw row.error("padding", fmt::format("the models are profiled with padding {} for this layer (k/2 up to 7x7, "
                                           "none for 11x11 and pooling); measure it so",
                                           layer.padding));
  }
  return layer;
}

}  // namespace

MissingMeasurement::MissingMeasurement(const LayerSpec& layer)
    : std::runtime_error("not measured: " + measurement_csv_row(layer)), layer_(layer) {}

int profiled_padding(LayerKind kind, int kernel) {
  const bool convolution = kind == LayerKind::kConv || kind == LayerKind::kDepthwise;
  return convolution && kernel < 11 ? kernel / 2 : 0;
}

std::string measurement_csv_header() {
  return fmt::format("{}\n", fmt::join(kColumns, ","));
}

std::string measurement_csv_row(const LayerSpec& l, const std::string& latency_ms) {
  const auto field = [](int value) { return value > 0 ? std::to_string(value) : std::string(); };
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", layer_kind_name(l.kind), field(l.kernel), field(l.stride),
                     field(l.filters), field(l.channels), field(l.width), field(l.height), field(l.inputs),
                     field(l.outputs), has_window(l.kind) ? std::to_string(l.padding) : "", latency_ms);
}

MeasuredLatencyBackend::MeasuredLatencyBackend(const std::string& csv_path) : path_(csv_path) {
  CsvReader reader(csv_path, read_input_text(csv_path, "a CSV of measured layer latencies"));
  reader.read([&](const CsvReader& row) {
    const LayerSpec layer = layer_of(row);
    const double latency_ms = row.number("latency_ms", 0);
    if (latency_ms <= 0) throw row.error("latency_ms", "a latency must be above zero");
    latencies_[key_of(layer)].push_back(latency_ms);
  });
}

double MeasuredLatencyBackend::latency_ms(const LayerSpec& layer) {
  const auto found = latencies_.find(key_of(layer));
  if (found == latencies_.end()) throw MissingMeasurement(layer);
  std::vector<double> values = found->second;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string MeasuredLatencyBackend::describe() const {
  return fmt::format("measurements in {} ({} layers)", path_, latencies_.size());
}

}  // namespace ergon::blackthorn
