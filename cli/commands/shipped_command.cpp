// `ergon configs` and `ergon workloads`: the shipped parts a user can name instead of giving a path
// (`--config eyeriss`, `-w alexnet`; sim/data_paths.hpp resolves the names).
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "arch/accelerator_config.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/text.hpp"
#include "network/workload.hpp"
#include "sim/data_paths.hpp"

namespace ergon {
namespace {

// One row of a listing: the name a user types, what it is, and the file (relative to the data folder).
struct ShippedRow {
  std::string name;
  std::string summary;
  std::string file;
};

std::vector<ShippedRow> config_rows() {
  std::vector<ShippedRow> rows;
  for (const ShippedFile& file : shipped_files(ShippedPart::kConfig)) {
    const AcceleratorConfig config = load_accelerator_config(file.path);
    rows.push_back({file.name, config.description, shown_data_path(file.path)});
  }
  return rows;
}

std::vector<ShippedRow> workload_rows() {
  std::vector<ShippedRow> rows;
  for (const ShippedFile& file : shipped_files(ShippedPart::kWorkload)) {
    const Workload workload = load_workload(file.path);
    const std::string summary = fmt::format("{} layers, {} MACs", workload.layers().size(), workload.total_macs());
    rows.push_back({file.name, summary, shown_data_path(file.path)});
  }
  return rows;
}

ReportForms listing_forms(const std::vector<ShippedRow>& rows, const std::string& summary_header) {
  ReportForms forms;
  std::size_t name_width = 4;
  for (const ShippedRow& row : rows) name_width = std::max(name_width, row.name.size());
  forms.table = fmt::format("{:<{}}  {}\n", "name", name_width, summary_header);
  forms.csv = "name," + summary_header + ",file\n";
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (const ShippedRow& row : rows) {
    forms.table += fmt::format("{:<{}}  {}\n", row.name, name_width, row.summary);
    forms.csv += csv_quoted(row.name) + "," + csv_quoted(row.summary) + "," + csv_quoted(row.file) + "\n";
    json.push_back({{"name", row.name}, {summary_header, row.summary}, {"file", row.file}});
  }
  forms.json = json.dump(2) + "\n";
  return forms;
}

void add_listing(CLI::App& app, const char* name, const char* help, const char* example,
                 std::vector<ShippedRow> (*rows)(), const char* summary_header) {
  auto format = std::make_shared<std::string>("table");
  CLI::App* command = app.add_subcommand(name, help);
  command->footer(std::string("Example:\n  ") + example);
  add_format_option(*command, *format);
  command->callback([format, rows, summary_header] { print_report(listing_forms(rows(), summary_header), *format); });
}

void register_shipped_commands(CLI::App& app) {
  add_listing(app, "configs", "List the shipped accelerator configs that --config takes by name",
              "ergon configs --format json", config_rows, "description");
  add_listing(app, "workloads", "List the shipped workloads that --workload takes by name", "ergon workloads",
              workload_rows, "size");
}

}  // namespace

ERGON_REGISTER(CliCommand, "configs", CliCommand{register_shipped_commands}, 145)

}  // namespace ergon
