#include <memory>
#include <stdexcept>

#include "arch/accelerator_config.hpp"
#include "network/workload.hpp"
#include "power/estimators/cnnergy.hpp"
#include "power/estimators/cnnergy_report.hpp"
#include "power/estimators/lahmer_report.hpp"
#include "sim/commands/cli_checks.hpp"
#include "sim/commands/cnnergy_hardware.hpp"
#include "sim/commands/commands.hpp"
#include "sim/commands/output.hpp"
#include "sim/data_paths.hpp"

namespace ergon {
namespace {

struct CnnergyCommandOptions {
  std::string workload_path;
  std::string config_path = default_config_path();
  std::vector<std::string> overrides;
  std::string energy_table_path;
  int word_bits = 0;  // 0 = the config's pe_array.word_bits
  bool no_control = false;
  std::string format = "table";
  std::string out_dir;
};

void run_cnnergy(const CnnergyCommandOptions& options) {
  std::optional<OutputFolder> out = open_report_folder(
      options.out_dir, "cnnergy", {options.workload_path, options.config_path, options.energy_table_path});
  const AcceleratorConfig config = load_accelerator_config(options.config_path, options.overrides);
  const std::string table_path =
      options.energy_table_path.empty() ? energy_table_path(config) : options.energy_table_path;
  if (out) out->add_inputs({table_path});
  const EnergyTable table = load_energy_table(table_path);
  const Workload workload = load_workload(options.workload_path);
  CnnergyOptions model_options;
  model_options.word_bits = options.word_bits != 0 ? options.word_bits : config.pe_array.word_bits;
  model_options.include_control_and_clock = !options.no_control;
  const CnnergyEstimate estimate = estimate_cnnergy(workload, table, cnnergy_hardware(config), model_options);
  emit_report({cnnergy_table(estimate), cnnergy_json(estimate).dump(2) + "\n", cnnergy_csv(estimate)}, options.format,
              out, "cnnergy");
}

struct LahmerCommandOptions {
  std::string workload_path;
  std::string board;
  std::string parameters_path;
  std::string kclc = "exact";
  std::string kclc_padding = "ignore";  // eq. 2 as printed
  std::string format = "table";
  std::string out_dir;
};

KclcOptions lahmer_kclc_options(const LahmerCommandOptions& options) {
  try {
    return make_kclc_options(parse_kclc_form(options.kclc), parse_kclc_padding(options.kclc_padding));
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(error.what());  // a usage error, not a program fault
  }
}

void run_lahmer(const LahmerCommandOptions& options) {
  const KclcOptions kclc = lahmer_kclc_options(options);
  const std::string parameters = options.parameters_path.empty() ? lahmer_parameters_path() : options.parameters_path;
  std::optional<OutputFolder> out = open_report_folder(options.out_dir, "lahmer", {parameters, options.workload_path});
  const LahmerBoard board = load_lahmer_board(parameters, options.board);
  const Workload workload = load_workload(options.workload_path);
  const LahmerEstimate estimate = estimate_lahmer(workload, board, kclc);
  emit_report({lahmer_table(estimate), lahmer_json(estimate).dump(2) + "\n", lahmer_csv(estimate)}, options.format, out,
              "lahmer");
}

void register_lahmer(CLI::App& estimate) {
  CLI::App* lahmer = estimate.add_subcommand(
      "lahmer", "Empirical energy model of Jetson boards (Lahmer et al., WiOpt 2022): conv and FC layers");
  auto options = std::make_shared<LahmerCommandOptions>();
  lahmer->add_option("--workload,-w", options->workload_path, "Workload YAML")->required()->check(input_file());
  lahmer->add_option("--board,-b", options->board, "Board: tx2 or xavier-nx (Table III)")->required();
  lahmer
      ->add_option("--parameters", options->parameters_path,
                   "Parameter file (default: reference/jetson/lahmer_2022_table3.yaml)")
      ->check(input_file());
  lahmer->add_option("--kclc", options->kclc, "KCLC form of eq. 2: exact or approximate")
      ->transform(CLI::IsMember({"exact", "approximate"}, CLI::ignore_case))
      ->capture_default_str();
  lahmer
      ->add_option("--kclc-padding", options->kclc_padding,
                   "Padding in the exact KCLC: ignore (eq. 2 as printed) or include (the positions a padded layer "
                   "computes)")
      ->transform(CLI::IsMember({"ignore", "include"}, CLI::ignore_case))
      ->capture_default_str();
  add_format_option(*lahmer, options->format);
  add_report_out_option(*lahmer, options->out_dir, "lahmer");
  lahmer->callback([options] { run_lahmer(*options); });
}

}  // namespace

void register_estimate_command(CLI::App& app) {
  CLI::App* estimate = app.add_subcommand("estimate", "Analytical estimates (separate from the simulator)");
  estimate->require_subcommand(1);
  CLI::App* cnnergy = estimate->add_subcommand(
      "cnnergy", "CNNergy energy model (NeuPart, Manasi et al. 2020) of a workload on an Eyeriss-like array");
  auto options = std::make_shared<CnnergyCommandOptions>();
  cnnergy->add_option("--workload,-w", options->workload_path, "Workload YAML (docs/workloads.md)")
      ->required()
      ->check(input_file());
  cnnergy->add_option("--config,-c", options->config_path, "Accelerator config YAML (hardware sizes)")
      ->capture_default_str()
      ->check(input_file());
  cnnergy->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  cnnergy
      ->add_option("--energy-table", options->energy_table_path,
                   "Energy table YAML (default: the config's energy.table)")
      ->check(input_file());
  cnnergy->add_option("--bits", options->word_bits, "Word width (default: the config's pe_array.word_bits)")
      ->transform(CLI::IsMember({8, 16}));
  cnnergy->add_flag("--no-control", options->no_control, "Leave out clock-tree and control energy");
  add_format_option(*cnnergy, options->format);
  add_report_out_option(*cnnergy, options->out_dir, "cnnergy");
  cnnergy->callback([options] { run_cnnergy(*options); });
  register_lahmer(*estimate);
}

}  // namespace ergon
