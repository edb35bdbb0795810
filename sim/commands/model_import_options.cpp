// --input-shape and --skip-unsupported on every command that reads a model (docs/workloads.md): those with
// --workload, `workload show` and `import onnx`.
#include "network/importers/onnx_model.hpp"
#include "sim/commands/commands.hpp"

namespace ergon {
namespace {

bool reads_a_model(const CLI::App& command) {
  const bool workload_show =
      command.get_name() == "show" && command.get_parent() != nullptr && command.get_parent()->get_name() == "workload";
  return command.get_option_no_throw("--workload") != nullptr || command.get_name() == "onnx" || workload_show;
}

void add_to(CLI::App& command) {
  command
      .add_option_function<std::vector<std::string>>(
          "--input-shape",
          [](const std::vector<std::string>& shapes) {
            for (const std::string& shape : shapes) {
              try {
                add_input_shape(model_import_options(), shape);
              } catch (const std::invalid_argument& error) {
                throw CLI::ValidationError(error.what());
              }
            }
          },
          "ONNX models: pin an input's shape, NAME=1x3x224x224 (repeatable; dynamic dimensions need it)")
      ->type_name("NAME=DIMS");
  command
      .add_option_function<std::vector<std::string>>(
          "--input-value",
          [](const std::vector<std::string>& values) {
            for (const std::string& value : values) {
              try {
                add_input_value(model_import_options(), value);
              } catch (const std::invalid_argument& error) {
                throw CLI::ValidationError(error.what());
              }
            }
          },
          "ONNX models: make an input a constant, NAME=16000 or NAME=1,2,3 (folds the If nodes it decides)")
      ->type_name("NAME=VALUES");
  command.add_flag("--skip-unsupported", model_import_options().skip_unsupported,
                   "ONNX models: treat operators Ergon cannot lower as free data movement (listed on stderr)");
}

void visit(CLI::App& app) {
  for (CLI::App* command : app.get_subcommands({})) {
    if (reads_a_model(*command)) add_to(*command);
    visit(*command);
  }
}

}  // namespace

void add_model_import_options(CLI::App& app) {
  visit(app);
}

}  // namespace ergon
