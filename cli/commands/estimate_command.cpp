// `ergon estimate NAME`: one subcommand per estimator of the registry (power/estimators/registry.hpp), with
// the options the estimator declares. Estimators never run the simulator.
#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <optional>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "power/estimators/registry.hpp"
#include "sim/data_paths.hpp"

namespace ergon {
namespace {

struct EstimateCommandOptions {
  std::string workload_path;
  std::string config_path = default_config_path();
  std::vector<std::string> overrides;
  std::string energy_table_path;
  std::map<std::string, std::string> values;  // by option name; std::map keeps each value's address
  std::map<std::string, bool> flags;
  std::string format = "table";
  std::string out_dir;
};

// The option's choices as CLI11's IsMember shows and refuses them, matched by matching_choice() (the Python
// package's lookup too) and replaced by the choice's own spelling.
CLI::Validator choice_validator(const EstimatorOption& option) {
  std::string listed = "{";
  for (const std::string& choice : option.choices) listed += (listed.size() > 1 ? "," : "") + choice;
  listed += "}";
  return CLI::Validator(
      [option, listed](std::string& value) {
        const std::optional<std::string> choice = matching_choice(option, value);
        if (!choice) return value + " not in " + listed;
        value = *choice;
        return std::string();
      },
      listed);
}

void add_estimator_option(CLI::App& command, const EstimatorOption& option, EstimateCommandOptions& values) {
  const std::string names = "--" + option.name + (option.short_name.empty() ? "" : ",-" + option.short_name);
  if (option.flag) {
    command.add_flag(names, values.flags[option.name], option.help);
    return;
  }
  std::string& value = values.values[option.name];
  value = option.default_value;
  CLI::Option* added = command.add_option(names, value, option.help);
  if (!option.default_value.empty()) added->capture_default_str();
  if (option.required) added->required();
  if (!option.choices.empty()) added->transform(choice_validator(option));
  if (option.integer) added->check(CLI::Range(option.integer->min, option.integer->max));
  if (option.file) added->check(input_file());
  if (option.folder) added->check(CLI::ExistingDirectory);
}

// The files the estimate reads: never outputs of its --out folder.
std::vector<std::string> read_files(const IEstimator& estimator, const EstimateCommandOptions& options) {
  std::vector<std::string> files = {options.workload_path};
  if (estimator.models_a_chip()) files.push_back(options.config_path);
  if (!options.energy_table_path.empty()) files.push_back(options.energy_table_path);
  for (const EstimatorOption& option : estimator.options()) {
    const std::string& value = options.values.count(option.name) ? options.values.at(option.name) : "";
    if (value.empty()) continue;
    if (option.file) files.push_back(value);
    if (option.folder && !option.read_in_folder.empty()) files.push_back(value + "/" + option.read_in_folder);
  }
  return files;
}

void run_estimate(const IEstimator& estimator, const EstimateCommandOptions& options) {
  std::optional<OutputFolder> out =
      open_report_folder(options.out_dir, estimator.name(), read_files(estimator, options));
  std::optional<ChipInputs> chip;
  if (estimator.models_a_chip()) {
    AcceleratorConfig config = load_accelerator_config(options.config_path, options.overrides);
    EnergyTable table;  // none for an estimator that prices no energy (the roofline)
    if (estimator.prices_energy()) {
      const std::string table_path =
          options.energy_table_path.empty() ? energy_table_path(config) : options.energy_table_path;
      if (out) out->add_inputs({table_path});
      table = load_energy_table(table_path);
    }
    chip = ChipInputs{std::move(config), std::move(table)};
  }
  const Workload workload = load_workload(options.workload_path);
  refuse_workload_without_work(workload);
  EstimatorInputs inputs{workload, chip ? &*chip : nullptr, {}, shipped_data_dir()};
  for (const auto& [name, value] : options.values) inputs.settings.set(name, value);
  for (const auto& [name, given] : options.flags) inputs.settings.set(name, given ? "1" : "");
  emit_report(estimator.estimate(inputs).forms, options.format, out, estimator.name());
}

// One example for --help: the estimator on a shipped workload, with each required option's placeholder.
std::string estimate_example(const IEstimator& estimator) {
  std::string example = "Example:\n  ergon estimate " + estimator.name() + " -w alexnet";
  for (const EstimatorOption& option : estimator.options()) {
    if (option.required) example += " --" + option.name + (option.folder ? " DIR" : " VALUE");
  }
  return example + (estimator.models_a_chip() ? " -c eyeriss" : "");
}

void register_estimator(CLI::App& estimate, const IEstimator& estimator) {
  CLI::App* command = estimate.add_subcommand(estimator.name(), estimator.description());
  command->footer(estimate_example(estimator));
  auto options = std::make_shared<EstimateCommandOptions>();
  command->add_option("--workload,-w", options->workload_path, "Workload YAML or ONNX (docs/workloads.md)")
      ->required()
      ->transform(shipped_workload());
  if (estimator.models_a_chip()) {
    command->add_option("--config,-c", options->config_path, "Accelerator config YAML (the chip estimated)")
        ->capture_default_str()
        ->transform(shipped_config());
    command->add_option("--set", options->overrides, "Override a config key: key.path=value (repeatable)");
  }
  if (estimator.prices_energy()) {
    command
        ->add_option("--energy-table", options->energy_table_path,
                     "Energy table YAML (default: the config's energy.table)")
        ->check(input_file());
  }
  for (const EstimatorOption& option : estimator.options()) add_estimator_option(*command, option, *options);
  add_format_option(*command, options->format);
  add_report_out_option(*command, options->out_dir, estimator.name());
  command->callback([&estimator, options] { run_estimate(estimator, *options); });
}

}  // namespace

void register_estimate_command(CLI::App& app) {
  CLI::App* estimate = app.add_subcommand("estimate", "Analytical estimates (separate from the simulator)");
  estimate->require_subcommand(1);
  for (const auto& estimator : estimators()) register_estimator(*estimate, *estimator);
}

ERGON_REGISTER(CliCommand, "estimate", CliCommand{register_estimate_command}, 120)

}  // namespace ergon
