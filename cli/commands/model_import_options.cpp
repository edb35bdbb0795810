// --input-shape, --input-value, --skip-unsupported and --loop-trips on every command that reads a model
// (docs/workloads.md): those with
// --workload, `workload show` and `import onnx`.
#include <algorithm>

#include "cli/commands/commands.hpp"
#include "network/importers/onnx_model.hpp"

namespace ergon {
namespace {

bool reads_a_model(const CLI::App& command) {
  const bool workload_show =
      command.get_name() == "show" && command.get_parent() != nullptr && command.get_parent()->get_name() == "workload";
  return command.get_option_no_throw("--workload") != nullptr || command.get_name() == "onnx" || workload_show;
}

// The files the command reads a workload from (its --workload values, `workload show`'s file), as given.
std::vector<std::string> model_paths(const CLI::App& command) {
  std::vector<std::string> paths;
  for (const char* name : {"--workload", "file"}) {
    const CLI::Option* option = command.get_option_no_throw(name);
    if (option != nullptr) paths.insert(paths.end(), option->results().begin(), option->results().end());
  }
  return paths;
}

bool is_onnx_path(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

// --input-shape and --input-value pin an ONNX model's inputs; with no model among the command's inputs (a
// YAML workload holds its shapes) they would change nothing, so they are a usage error.
void refuse_without_a_model(const CLI::App& command, const std::string& name, const std::string& text) {
  if (command.get_name() == "onnx") return;  // `import onnx` reads a model whatever its file's name
  const std::vector<std::string> paths = model_paths(command);
  if (std::any_of(paths.begin(), paths.end(), is_onnx_path)) return;
  throw CLI::ValidationError(
      name + " " + text, paths.empty() ? "applies to ONNX models (.onnx), and this command reads none"
                                       : "applies to ONNX models (.onnx); " + paths.front() +
                                             " is a workload file, whose input shapes and values are written in it");
}

// A repeatable option whose every value goes through `add` (which throws std::invalid_argument).
void add_repeatable(CLI::App& command, const std::string& name, void (*add)(OnnxImportOptions&, const std::string&),
                    const std::string& help, const std::string& type_name) {
  command
      .add_option_function<std::vector<std::string>>(
          name,
          [add, name, &command](const std::vector<std::string>& texts) {
            for (const std::string& text : texts) {
              refuse_without_a_model(command, name, text);
              try {
                add(model_import_options(), text);
              } catch (const std::invalid_argument& error) {
                throw CLI::ValidationError(error.what());
              }
            }
          },
          help)
      ->type_name(type_name);
}

void add_to(CLI::App& command) {
  add_repeatable(command, "--input-shape", add_input_shape,
                 "ONNX models: pin an input's shape, NAME=1x3x224x224 (repeatable; dynamic dimensions need it)",
                 "NAME=DIMS");
  add_repeatable(command, "--input-value", add_input_value,
                 "ONNX models: make an input a constant, NAME=16000 or NAME=1,2,3 (folds the If nodes it decides)",
                 "NAME=VALUES");
  command.add_flag("--skip-unsupported", model_import_options().skip_unsupported,
                   "ONNX models: treat operators Ergon cannot lower as free data movement (listed on stderr)");
  command
      .add_option("--loop-trips", model_import_options().loop_trips,
                  "ONNX models: unroll each Loop whose trip count is computed at run time N times")
      ->type_name("N")
      ->check(CLI::Range(std::int64_t{1}, kMaxLoopTrips));
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

ERGON_REGISTER(CliPass, "model-import-options", CliPass{add_model_import_options}, 10)

}  // namespace ergon
