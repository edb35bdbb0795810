#include "network/importers/scalesim_topology.hpp"

#include <fmt/format.h>

#include <map>
#include <sstream>

#include "common/csv_record.hpp"
#include "common/input_error.hpp"
#include "common/input_text.hpp"
#include "common/text.hpp"

namespace ergon {
namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

struct Field {
  std::string text;
  int column = 0;  // 1-based
};

// A row's fields as csv_record reads every CSV, each located at its first non-blank character.
std::vector<Field> split_row(std::string line, const std::string& path, int line_number) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<Field> fields;
  for (const CsvField& field : split_csv_record(line, path, line_number)) {
    const std::size_t start = static_cast<std::size_t>(field.column - 1);
    const std::size_t lead = line.find_first_not_of(" \t", start);
    const bool blank = lead == std::string::npos || line[lead] == ',';
    fields.push_back({field.text, blank ? field.column : static_cast<int>(lead) + 1});
  }
  // A comment column ends the row (SCALE-Sim drops a row's last field, which is where files put them).
  for (std::size_t i = 1; i < fields.size(); ++i) {
    if (!fields[i].text.empty() && fields[i].text[0] == '#') {
      fields.resize(i);
      break;
    }
  }
  if (!fields.empty() && fields.back().text.empty()) fields.pop_back();  // SCALE-Sim's trailing comma
  return fields;
}

std::int64_t parse_positive(const Field& field, const std::string& path, int line, const std::string& what) {
  std::int64_t value = 0;
  std::size_t used = 0;
  try {
    value = std::stoll(field.text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != field.text.size()) {
    throw InputError({path, line, field.column, {}}, what, "expected a whole number, got '" + field.text + "'");
  }
  if (value < 1 || value > (std::int64_t{1} << 31)) {
    throw InputError({path, line, field.column, {}}, what, fmt::format("must be between 1 and 2^31 (got {})", value));
  }
  return value;
}

const std::vector<std::string> kConvColumns = {"IFMAP Height", "IFMAP Width", "Filter Height", "Filter Width",
                                               "Channels",     "Num Filter",  "Strides"};
const std::vector<std::string> kGemmColumns = {"M", "N", "K"};

ScaleSimLayer conv_row(const std::vector<Field>& fields, const std::string& path, int line,
                       std::vector<std::string>& warnings) {
  ScaleSimLayer layer;
  std::int64_t* targets[] = {&layer.ifmap_h,  &layer.ifmap_w, &layer.filter_h, &layer.filter_w,
                             &layer.channels, &layer.filters, &layer.stride};
  for (std::size_t i = 0; i < kConvColumns.size(); ++i) {
    *targets[i] = parse_positive(fields[i + 1], path, line, kConvColumns[i]);
  }
  if (layer.filter_h > layer.ifmap_h || layer.filter_w > layer.ifmap_w) {
    throw InputError({path, line, fields[3].column, {}}, "Filter Height",
                     fmt::format("the {}x{} filter is larger than the {}x{} (pre-padded) ifmap", layer.filter_h,
                                 layer.filter_w, layer.ifmap_h, layer.ifmap_w));
  }
  if (fields.size() > 8 && !fields[8].text.empty()) {
    const Field& ninth = fields[8];
    if (ninth.text.find(':') != std::string::npos) {
      if (ninth.text != "1:1") {
        warnings.push_back(
            fmt::format("{}:{}:{}: N:M structured sparsity {} (SCALE-Sim v3) is not modelled; the "
                        "layer runs dense",
                        path, line, ninth.column, ninth.text));
      }
    } else {  // SCALE-Sim v2 reads a ninth number as the stride along the width
      layer.stride_w = parse_positive(ninth, path, line, "Stride width");
    }
  }
  if (fields.size() > 9) {
    warnings.push_back(fmt::format("{}:{}:{}: {} extra column(s) after the ninth are ignored", path, line,
                                   fields[9].column, fields.size() - 9));
  }
  return layer;
}

// The converted layer's element and MAC counts must fit Ergon's 64-bit counters.
void check_layer_size(const ScaleSimLayer& layer, const std::string& path, int line) {
  const std::int64_t out_h = (layer.ifmap_h - layer.filter_h + layer.stride) / layer.stride;
  const std::int64_t stride_w = layer.stride_w > 0 ? layer.stride_w : layer.stride;
  const std::int64_t out_w = (layer.ifmap_w - layer.filter_w + stride_w) / stride_w;
  const std::int64_t filters = layer.depthwise ? layer.filters * layer.channels : layer.filters;
  const std::int64_t channels_per_filter = layer.depthwise ? 1 : layer.channels;
  std::int64_t ifmap = 1, macs = 1;
  bool overflow = false;
  for (const std::int64_t factor : {layer.channels, layer.ifmap_h, layer.ifmap_w}) {
    overflow = overflow || __builtin_mul_overflow(ifmap, factor, &ifmap);
  }
  for (const std::int64_t factor :
       {out_h + 1, out_w + 1, layer.filter_h, layer.filter_w, filters, channels_per_filter}) {
    overflow = overflow || __builtin_mul_overflow(macs, factor, &macs);
  }
  if (overflow) {
    throw InputError({path, line, 1, {}}, "",
                     "the layer's sizes multiply past 64-bit counters (about 9.2e18); reduce them");
  }
}

ScaleSimLayer gemm_row(const std::vector<Field>& fields, const std::string& path, int line,
                       std::vector<std::string>& warnings) {
  // GEMM M x K times K x N, as SCALE-Sim maps it: M output pixels, a window of K, N filters.
  ScaleSimLayer layer;
  const std::int64_t m = parse_positive(fields[1], path, line, "M");
  const std::int64_t n = parse_positive(fields[2], path, line, "N");
  const std::int64_t k = parse_positive(fields[3], path, line, "K");
  // M pixels down the height: a fold of output pixels then fetches exactly its rows of K (a [K, 1, M] row
  // would be fetched whole by every fold that touches it).
  layer.ifmap_h = m;
  layer.ifmap_w = 1;
  layer.filter_h = layer.filter_w = 1;
  layer.channels = k;
  layer.filters = n;
  if (fields.size() > 4 && fields[4].text != "1:1") {
    warnings.push_back(fmt::format("{}:{}:{}: '{}' (SCALE-Sim v3 N:M sparsity) is not modelled; the GEMM runs dense",
                                   path, line, fields[4].column, fields[4].text));
  }
  return layer;
}

}  // namespace

namespace {

// SCALE-Sim tells the kinds apart by a command-line flag only; the header tells them apart too: a GEMM
// file's second column is M.
ScaleSimTopologyKind kind_of_header(const std::vector<Field>& header) {
  if (header.size() >= 2 && ascii_lower(header[1].text) == "m") return ScaleSimTopologyKind::kGemm;
  return ScaleSimTopologyKind::kConv;
}

// A repeated name (SCALE-Sim does not check) gets a suffix: each row becomes the layers "<name>.ifmap" and
// "<name>", which must be unique.
void make_name_unique(ScaleSimLayer& layer, std::map<std::string, int>& line_of_name, const std::string& path,
                      std::vector<std::string>& warnings) {
  const std::string wanted = layer.name;
  for (int suffix = 2; line_of_name.count(layer.name) > 0 || line_of_name.count(layer.name + ".ifmap") > 0; ++suffix) {
    layer.name = wanted + "_" + std::to_string(suffix);
  }
  if (layer.name != wanted) {
    const auto earlier = line_of_name.count(wanted) > 0 ? line_of_name.at(wanted) : line_of_name.at(wanted + ".ifmap");
    warnings.push_back(fmt::format("{}:{}:1: the layer name '{}' is already used on line {}; renamed '{}'", path,
                                   layer.line, wanted, earlier, layer.name));
  }
  line_of_name.emplace(layer.name, layer.line);
  line_of_name.emplace(layer.name + ".ifmap", layer.line);
}

}  // namespace

ScaleSimTopology read_scalesim_topology(const std::string& path, ScaleSimTopologyKind requested) {
  const std::string file_text =
      read_input_text(path,
                      "a SCALE-Sim topology CSV (a header line, then rows of name and 7 sizes, or of name, "
                      "M, N, K)");
  std::istringstream stream(file_text);
  ScaleSimTopology topology;
  topology.kind = requested;
  std::string text;
  int line = 0;
  bool header_seen = false;
  std::map<std::string, int> line_of_name;
  while (std::getline(stream, text)) {
    ++line;
    if (line == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0) text = text.substr(3);  // a UTF-8 byte-order mark
    if (trim(text).empty() || trim(text)[0] == '#') continue;
    if (!header_seen) {  // SCALE-Sim skips the first line: the column names
      header_seen = true;
      const std::vector<Field> header = split_row(text, path, line);
      const ScaleSimTopologyKind detected = kind_of_header(header);
      if (requested == ScaleSimTopologyKind::kAuto) topology.kind = detected;
      if (requested == ScaleSimTopologyKind::kGemm && detected == ScaleSimTopologyKind::kConv && header.size() > 5) {
        throw InputError({path, line, 1, {}}, "",
                         "this looks like a conv topology (its header has no M column); leave the GEMM flag out");
      }
      if (requested == ScaleSimTopologyKind::kConv && detected == ScaleSimTopologyKind::kGemm) {
        throw InputError({path, line, 1, {}}, "",
                         "this looks like a GEMM topology (Layer, M, N, K); leave out the flag that forces conv");
      }
      continue;
    }
    const bool conv = topology.kind == ScaleSimTopologyKind::kConv;
    const std::size_t columns = conv ? 8 : 4;
    const std::vector<Field> fields = split_row(text, path, line);
    if (fields.size() < columns) {
      throw InputError({path, line, 1, {}}, "",
                       fmt::format("expected {} fields ({}), got {}", columns, conv ? "name, 7 sizes" : "name, M, N, K",
                                   fields.size()));
    }
    ScaleSimLayer layer =
        conv ? conv_row(fields, path, line, topology.warnings) : gemm_row(fields, path, line, topology.warnings);
    layer.name = fields[0].text;
    layer.line = line;
    if (layer.name.empty()) throw InputError({path, line, 1, {}}, "Layer name", "a layer needs a name");
    layer.depthwise = conv && layer.name.find("DP") != std::string::npos;
    check_layer_size(layer, path, line);
    make_name_unique(layer, line_of_name, path, topology.warnings);
    topology.layers.push_back(layer);
  }
  if (topology.layers.empty()) {
    throw InputError({path, 0, 0, {}}, "", "no layers (a header line and at least one row expected)");
  }
  return topology;
}

namespace {
std::string quoted(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}
}  // namespace

std::string scalesim_workload_yaml(const std::vector<ScaleSimLayer>& layers, const std::string& name,
                                   const std::string& source_path) {
  std::ostringstream out;
  out << "# Imported from a SCALE-Sim topology by `ergon import scalesim`.\n"
      << "# Pre-padded ifmaps; the bottom/right padding reproduces SCALE-Sim's ceil((H - R + s) / s) output size.\n"
      << "name: \"" << quoted(name) << "\"\nsource: \"SCALE-Sim topology " << quoted(source_path)
      << "\"\nindependent_layers: true\n"
      << "layers:\n";
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const ScaleSimLayer& l = layers[i];
    const std::int64_t stride_w = l.stride_w > 0 ? l.stride_w : l.stride;
    const auto out_size = [&](std::int64_t in, std::int64_t k, std::int64_t s) { return (in - k + s + s - 1) / s; };
    const std::int64_t pad_bottom = (out_size(l.ifmap_h, l.filter_h, l.stride) - 1) * l.stride + l.filter_h - l.ifmap_h;
    const std::int64_t pad_right = (out_size(l.ifmap_w, l.filter_w, stride_w) - 1) * stride_w + l.filter_w - l.ifmap_w;
    const std::string layer_name = quoted(l.name);
    out << fmt::format("  - {{name: \"{}.ifmap\", op: input, shape: [{}, {}, {}]{}}}\n", layer_name, l.channels,
                       l.ifmap_h, l.ifmap_w, i == 0 ? "" : ", intermediate: true");
    out << fmt::format(
        "  - {{name: \"{}\", op: conv, inputs: [\"{}.ifmap\"], filters: {}, kernel: [{}, {}], stride: [{}, {}], "
        "padding: [0, {}, 0, {}]{}, bias: false, comment: \"line {}\"}}\n",
        layer_name, layer_name, l.depthwise ? l.filters * l.channels : l.filters, l.filter_h, l.filter_w, l.stride,
        stride_w, std::max<std::int64_t>(pad_bottom, 0), std::max<std::int64_t>(pad_right, 0),
        l.depthwise ? fmt::format(", groups: {}", l.channels) : "", l.line);
  }
  return out.str();
}

}  // namespace ergon
