#pragma once
// One record of a CSV file (RFC 4180 quoting; no line breaks inside quotes), split into fields that
// remember where they start, so a reader's errors can point at the character column.
#include <string>
#include <vector>

namespace ergon {

struct CsvField {
  std::string text;  // unquoted; spaces around an unquoted field trimmed
  int column = 0;    // 1-based character column of the field's first character
};

// Throws InputError located at `path`:`line_number` for an unterminated quote or text after a closing quote.
std::vector<CsvField> split_csv_record(const std::string& line, const std::string& path, int line_number);

// The physical lines of a text, without their line ends ("\n" or "\r\n").
std::vector<std::string> csv_lines(const std::string& text);

// Blank lines and lines whose first non-blank character is '#' carry no record.
bool is_blank_or_comment(const std::string& line);

}  // namespace ergon
