#pragma once
// The forms a command prints its result in (--format, docs/cli.md "Formats"). Each reporting command
// produces a table for people, the whole result as JSON and one row per item as CSV; markdown is derived
// from the CSV here, so every command has it and it never disagrees with the CSV.
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace ergon {

struct ReportForms {
  std::string table;          // aligned and rounded for reading
  std::string json;           // the whole result, full precision
  std::string csv;            // one row per item (layer, cut, point, key), full precision
  std::string markdown = {};  // a command's own markdown; empty: the CSV as a markdown table
};

// The formats every reporting command accepts, in the order --help lists them.
const std::vector<std::string>& report_format_names();

// `forms` in `format` (one of report_format_names()); throws std::invalid_argument for another name.
std::string report_in_format(const ReportForms& forms, const std::string& format);

// A CSV text (RFC 4180, a header line first) as a GitHub-flavoured markdown table. Numbers that are not
// integers are rounded to 6 significant digits for reading; `|` inside a field is escaped.
std::string csv_as_markdown(const std::string& csv);

// Table rows (the header first) as JSON objects keyed by the header, for --format json: an empty cell is null,
// a number a number (an integer as an integer), anything else text; the `text_columns` (names) are always text.
nlohmann::ordered_json rows_as_json(const std::vector<std::vector<std::string>>& rows,
                                    const std::set<std::string>& text_columns = {});
// A CSV text without line breaks inside quotes, so: its records' fields, the header first.
std::vector<std::vector<std::string>> csv_cells(const std::string& csv);

// Rows of cells as a table for reading: each column padded to its widest cell, text to the left and numbers
// to the right.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows);
// A CSV text as such a table, numbers that are not integers rounded to 4 significant digits.
std::string csv_as_table(const std::string& csv);

}  // namespace ergon
