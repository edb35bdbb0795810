#include "power/estimators/lahmer_measurements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "common/csv_record.hpp"
#include "common/input_error.hpp"
#include "common/input_text.hpp"
#include "common/text.hpp"

namespace ergon {
namespace {

// The energy columns and their factor to joules; a file has exactly one.
const std::map<std::string, double> kEnergyColumns = {{"energy_j", 1.0}, {"energy_mj", 1e-3}, {"energy_uj", 1e-6}};
const std::vector<std::string> kGeometryColumns = {"kind",  "name",   "i_size",  "ifm",    "ofm",
                                                   "ksize", "stride", "padding", "o_size", "note"};

struct Header {
  std::map<std::string, std::size_t> index;  // column name (lower case) -> position
  std::string energy_column;
  double energy_to_j = 1;
};

Header parse_header(const std::vector<CsvField>& fields, const std::string& path, int line) {
  Header header;
  std::vector<std::string> known = kGeometryColumns;
  for (const auto& [name, factor] : kEnergyColumns) known.push_back(name);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    // Case-sensitive: in energy_MJ versus energy_mj the case is the unit.
    const std::string& name = fields[i].text;
    const SourceLocation where{path, line, fields[i].column, ""};
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      const std::string near = closest_match(name, known);
      throw InputError(where, "header",
                       fmt::format("unknown column '{}'{}; the columns are {}", fields[i].text,
                                   near.empty() ? "" : " (did you mean '" + near + "'?)", join_alternatives(known)));
    }
    if (!header.index.emplace(name, i).second) throw InputError(where, "header", "column '" + name + "' twice");
    const auto energy = kEnergyColumns.find(name);
    if (energy == kEnergyColumns.end()) continue;
    if (!header.energy_column.empty()) {
      throw InputError(where, "header", "two energy columns: '" + header.energy_column + "' and '" + name + "'");
    }
    header.energy_column = name;
    header.energy_to_j = energy->second;
  }
  if (!header.index.count("kind"))
    throw InputError(SourceLocation{path, line, 1, ""}, "header", "missing column 'kind' (conv or fc)");
  if (header.energy_column.empty()) {
    throw InputError(SourceLocation{path, line, 1, ""}, "header",
                     "missing the energy column: energy_j, energy_mj or energy_uj");
  }
  return header;
}

// One data row's cells by column name, with messages that name the row and column.
class Row {
 public:
  Row(const Header& header, std::vector<CsvField> fields, std::string path, int line, int row)
      : header_(header), fields_(std::move(fields)), path_(std::move(path)), line_(line), row_(row) {
    if (fields_.size() != header_.index.size()) {
      fail(0, "", fmt::format("{} fields; the header has {}", fields_.size(), header_.index.size()));
    }
  }

  std::string text(const std::string& column) const {
    const auto found = header_.index.find(column);
    return found == header_.index.end() ? "" : fields_[found->second].text;
  }
  bool has_value(const std::string& column) const { return !text(column).empty(); }

  // A required number: the column must be in the header and the cell not empty.
  double number(const std::string& column) const {
    const auto found = header_.index.find(column);
    if (found == header_.index.end()) {
      fail(0, "", fmt::format("a {} row needs column '{}', which the header lacks", text("kind"), column));
    }
    const CsvField& field = fields_[found->second];
    if (field.text.empty()) fail(field.column, column, "empty; a " + text("kind") + " row needs it");
    char* end = nullptr;
    const double value = std::strtod(field.text.c_str(), &end);
    if (*end != '\0' || !std::isfinite(value)) fail(field.column, column, "'" + field.text + "' is not a number");
    return value;
  }

  // A whole number >= minimum.
  double whole(const std::string& column, double minimum) const {
    const double value = number(column);
    if (value != std::floor(value) || value < minimum) {
      fail(column_of(column), column, fmt::format("{} is not a whole number >= {}", text(column), minimum));
    }
    return value;
  }

  void require_empty(const std::string& column, const std::string& why) const {
    if (has_value(column)) fail(column_of(column), column, why);
  }

  [[noreturn]] void fail(int column, const std::string& name, const std::string& message) const {
    const std::string where =
        name.empty() ? fmt::format("row {}", row_) : fmt::format("row {}, column '{}'", row_, name);
    throw InputError(SourceLocation{path_, line_, std::max(column, 1), ""}, where, message);
  }
  int column_of(const std::string& name) const { return fields_[header_.index.at(name)].column; }
  int line() const { return line_; }
  int row() const { return row_; }

 private:
  const Header& header_;
  std::vector<CsvField> fields_;
  std::string path_;
  int line_ = 0, row_ = 0;
};

void read_conv(const Row& row, const KclcOptions& kclc, LahmerMeasurement& m) {
  row.require_empty("o_size", "conv rows have no o_size (that is an fc layer's output count)");
  m.i_size = row.whole("i_size", 1);
  m.ifm = row.whole("ifm", 1);
  m.ofm = row.whole("ofm", 1);
  m.ksize = row.whole("ksize", 1);
  m.stride = row.whole("stride", 1);
  m.padding = row.has_value("padding") ? row.whole("padding", 0) : 0;
  if (m.ksize > m.i_size + 2 * m.padding) {
    row.fail(row.column_of("ksize"), "ksize",
             fmt::format("kernel {} is larger than the input {} with padding {}", m.ksize, m.i_size, m.padding));
  }
  const ConvLoad load{m.i_size, m.i_size, m.ifm,    m.ofm,         m.ksize,
                      m.ksize,  m.stride, m.stride, 2 * m.padding, 2 * m.padding};
  m.load = kernel_conv_load(load, kclc);
  if (m.load <= 0) row.fail(0, "", "the layer has no output positions under this KCLC form");
}

void read_fc(const Row& row, LahmerMeasurement& m) {
  for (const char* column : {"ifm", "ofm", "ksize", "stride", "padding"}) {
    row.require_empty(column, "fc rows give i_size (inputs) and o_size (outputs) only");
  }
  m.fully_connected = true;
  m.i_size = row.whole("i_size", 1);
  m.o_size = row.whole("o_size", 1);
  m.ofm = m.o_size;
  m.load = m.i_size * m.o_size;  // CLF, eq. 1
}

LahmerMeasurement read_row(const Row& row, const Header& header, const KclcOptions& kclc) {
  LahmerMeasurement m;
  m.line = row.line();
  m.name = row.has_value("name") ? row.text("name") : fmt::format("row {}", row.row());
  const std::string kind = ascii_lower(row.text("kind"));
  if (kind == "conv") {
    read_conv(row, kclc, m);
  } else if (kind == "fc") {
    read_fc(row, m);
  } else {
    row.fail(row.column_of("kind"), "kind", "'" + row.text("kind") + "' is not conv or fc");
  }
  const double energy = row.number(header.energy_column);
  if (energy < 0) row.fail(row.column_of(header.energy_column), header.energy_column, "negative energy");
  if (energy == 0) row.fail(row.column_of(header.energy_column), header.energy_column, "zero energy");
  m.energy_j = energy * header.energy_to_j;
  return m;
}

double rmspe_pct(const std::vector<LahmerResidual>& residuals, bool fully_connected) {
  double sum = 0;
  std::size_t n = 0;
  for (const LahmerResidual& r : residuals) {
    if ((r.kind == "fc") != fully_connected) continue;
    sum += r.residual_pct() * r.residual_pct();
    ++n;
  }
  return n == 0 ? 0 : std::sqrt(sum / static_cast<double>(n));
}

}  // namespace

std::vector<LahmerMeasurement> read_lahmer_measurements(const std::string& path, const KclcOptions& kclc) {
  const std::string text = read_input_text(path, "a CSV of measured layer energies");
  std::optional<Header> header;
  std::vector<LahmerMeasurement> rows;
  const std::vector<std::string> lines = csv_lines(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    if (is_blank_or_comment(lines[n])) continue;
    const int line = static_cast<int>(n + 1);
    std::vector<CsvField> fields = split_csv_record(lines[n], path, line);
    if (!header) {
      header = parse_header(fields, path, line);
      continue;
    }
    const Row row(*header, std::move(fields), path, line, static_cast<int>(rows.size()) + 1);
    rows.push_back(read_row(row, *header, kclc));
  }
  if (!header) throw InputError(SourceLocation{path, 0, 0, ""}, "", "no header row");
  return rows;
}

LahmerMeasuredFit fit_lahmer_measurements(const std::vector<LahmerMeasurement>& rows, const std::string& path,
                                          const KclcOptions& kclc) {
  LahmerMeasuredFit result;
  result.measurements_path = path;
  result.kclc = kclc;
  std::vector<LahmerConvSample> conv;
  std::vector<LahmerFcSample> fc;
  std::set<double> ofms;
  for (const LahmerMeasurement& m : rows) {
    if (m.fully_connected) {
      fc.push_back({m.load, m.energy_j});
    } else {
      conv.push_back({m.load, m.ofm, m.energy_j});
      ofms.insert(m.ofm);
    }
  }
  if (ofms.size() < 2) {
    throw InputError(SourceLocation{path, 0, 0, ""}, "",
                     fmt::format("too few rows to fit: {} conv rows at {} output-map count(s); eq. 6 needs conv rows "
                                 "at two ofm values or more",
                                 conv.size(), ofms.size()));
  }
  try {
    result.fit = fit_lahmer(conv, fc);
  } catch (const std::invalid_argument& error) {
    throw InputError(SourceLocation{path, 0, 0, ""}, "", std::string("the fit is singular: ") + error.what());
  }
  result.has_fc = !fc.empty();
  result.conv_rows = conv.size();
  result.fc_rows = fc.size();
  for (const LahmerMeasurement& m : rows) {
    const double model =
        m.fully_connected ? m.load * result.fit.a_f : m.load * (result.fit.a_c + result.fit.b_c * m.ofm);
    result.residuals.push_back({m.name, m.fully_connected ? "fc" : "conv", m.load, m.ofm, m.energy_j, model});
  }
  result.conv_rmspe_pct = rmspe_pct(result.residuals, false);
  result.fc_rmspe_pct = rmspe_pct(result.residuals, true);
  return result;
}

}  // namespace ergon
