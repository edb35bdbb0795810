// `ergon import`: converts other tools' inputs into Ergon's formats.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "arch/accelerator_config.hpp"
#include "arch/importers/scalesim_config.hpp"
#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/atomic_file.hpp"
#include "common/input_text.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/output_paths.hpp"
#include "common/staged_commit.hpp"
#include "network/importers/onnx_model.hpp"
#include "network/importers/scalesim_topology.hpp"
#include "network/importers/timeloop_problem.hpp"
#include "network/workload.hpp"

namespace ergon {
namespace {

struct ScaleSimImportOptions {
  std::string topology_path;
  std::string config_path;
  std::string config_out_path;
  bool gemm = false;
  std::string name;
  std::string out_path;
};

// A converted file written beside its target and checked to load before anything is moved into place;
// removed unless committed (commit_staged_files moves it away).
class CheckedConversion {
 public:
  template <typename Check>
  CheckedConversion(const std::string& target, const std::string& text, Check&& check)
      : target_(target), staged_(target + ".check.yaml"), cleanup_(staged_) {
    if (text.size() > kMaxInputBytes) {  // it would be written only to be refused when read
      throw std::runtime_error(fmt::format(
          "{}: the converted file would be {:.1f} MiB, and Ergon reads files up to {} MiB; nothing was written "
          "(split the input into smaller parts)",
          target, static_cast<double>(text.size()) / (1 << 20), kMaxInputBytes >> 20));
    }
    write_file_atomically(staged_, text);
    try {
      check(staged_);
    } catch (...) {  // the destructor of a half-built object does not run
      remove_staged();
      throw;
    }
  }
  ~CheckedConversion() { remove_staged(); }
  CheckedConversion(const CheckedConversion&) = delete;
  CheckedConversion& operator=(const CheckedConversion&) = delete;

  StagedMove move() const { return {staged_, target_}; }

 private:
  void remove_staged() const {
    std::error_code ignored;
    std::filesystem::remove(staged_, ignored);
  }

  std::string target_, staged_;
  CleanupOnInterrupt cleanup_;
};

void import_scalesim(const ScaleSimImportOptions& options) {
  const std::vector<std::string> inputs = {options.topology_path, options.config_path};
  refuse_output_over_inputs(options.out_path, inputs, "--out");
  if (!options.config_out_path.empty()) refuse_output_over_inputs(options.config_out_path, inputs, "--config-out");
  if (!options.config_out_path.empty() && find_output_over_input({options.config_out_path}, {options.out_path})) {
    throw UsageError("--config-out and --out name the same file " + options.out_path);
  }
  check_output_file_option(options.out_path, "--out");
  if (!options.config_out_path.empty()) check_output_file_option(options.config_out_path, "--config-out");
  // Both inputs are read before anything is written, so a bad cfg leaves no converted topology behind.
  const auto kind = options.gemm ? ScaleSimTopologyKind::kGemm : ScaleSimTopologyKind::kAuto;
  const ScaleSimTopology topology = read_scalesim_topology(options.topology_path, kind);
  std::optional<ScaleSimConfig> config;
  if (!options.config_path.empty()) config = read_scalesim_config(options.config_path);
  for (const std::string& warning : topology.warnings) std::cerr << "warning: " << warning << "\n";
  if (config) {
    for (const std::string& warning : config->warnings) std::cerr << "warning: " << warning << "\n";
  }
  const std::string name =
      options.name.empty() ? std::filesystem::path(options.topology_path).stem().string() : options.name;
  // Both conversions are checked to load, then moved into place together: all or nothing.
  std::uint64_t macs = 0;
  const CheckedConversion workload(options.out_path,
                                   scalesim_workload_yaml(topology.layers, name, options.topology_path),
                                   [&](const std::string& staged) { macs = load_workload(staged).total_macs(); });
  std::optional<CheckedConversion> converted_config;
  if (config) {
    converted_config.emplace(options.config_out_path, scalesim_config_yaml(*config, options.config_path),
                             [](const std::string& staged) { load_accelerator_config(staged); });
  }
  std::vector<StagedMove> moves = {workload.move()};
  if (converted_config) moves.push_back(converted_config->move());
  commit_staged_files(moves);
  std::cout << "wrote " << options.out_path << ": " << topology.layers.size() << " "
            << (topology.kind == ScaleSimTopologyKind::kGemm ? "GEMM" : "conv") << " layers, " << macs << " MACs\n";
  if (config) std::cout << "wrote " << options.config_out_path << "\n";
}

struct TimeloopImportOptions {
  std::vector<std::string> problem_paths;
  std::string name;
  std::string out_path;
};

// One file: its stem; several: their folder's name (a network's layers sit in one folder, as Timeloop's
// layer_shapes/<network>/ do), else a generic name.
std::string timeloop_workload_name(const std::vector<std::string>& paths) {
  if (paths.size() == 1) return std::filesystem::path(paths[0]).stem().string();
  const std::filesystem::path folder = std::filesystem::absolute(paths[0]).lexically_normal().parent_path();
  for (const std::string& path : paths) {
    if (std::filesystem::absolute(path).lexically_normal().parent_path() != folder) return "timeloop_problems";
  }
  return folder.filename().empty() ? "timeloop_problems" : folder.filename().string();
}

// The MACs Timeloop counts: every layer's, batch included.
std::uint64_t batched_macs(const Workload& workload) {
  std::uint64_t macs = 0;
  for (const Layer& layer : workload.layers()) macs += layer.macs * static_cast<std::uint64_t>(layer.batch);
  return macs;
}

void import_timeloop(const TimeloopImportOptions& options) {
  refuse_output_over_inputs(options.out_path, options.problem_paths, "--out");
  check_output_file_option(options.out_path, "--out");
  const TimeloopImport imported = read_timeloop_problems(options.problem_paths);
  for (const std::string& warning : imported.warnings) std::cerr << "warning: " << warning << "\n";
  const std::string name = options.name.empty() ? timeloop_workload_name(options.problem_paths) : options.name;
  std::uint64_t expected_macs = 0;
  for (const TimeloopLayer& layer : imported.layers) expected_macs += layer.operation_count;
  std::uint64_t macs = 0;
  const CheckedConversion workload(options.out_path, timeloop_workload_yaml(imported.layers, name),
                                   [&](const std::string& staged) { macs = batched_macs(load_workload(staged)); });
  if (macs != expected_macs) {  // every bound is one of the layer's factors: a difference is a bug here
    throw std::logic_error(
        fmt::format("the converted workload holds {} MACs, the problems {}; nothing was written", macs, expected_macs));
  }
  commit_staged_files({workload.move()});
  std::cout << fmt::format("wrote {}: {} layer{}, {} MACs (batch included, as Timeloop counts them)\n",
                           options.out_path, imported.layers.size(), imported.layers.size() == 1 ? "" : "s", macs);
}

void register_import_timeloop(CLI::App& command) {
  CLI::App* timeloop = command.add_subcommand(
      "timeloop", "Timeloop problem files (v0.3 or v0.4; conv or GEMM shapes) as a workload YAML, a layer per file");
  auto options = std::make_shared<TimeloopImportOptions>();
  timeloop->add_option("problems", options->problem_paths, "Timeloop problem YAML files (problem: {shape, instance})")
      ->required()
      ->check(input_file());
  timeloop->add_option("--name", options->name,
                       "Workload name (default: the file's name; for several files, their folder's)");
  timeloop
      ->add_option("--out,-o", options->out_path, "The workload YAML to write (a file: the conversion's only output)")
      ->required();
  timeloop->footer(
      "Example:\n  ergon import timeloop AlexNet_layer1.yaml VGG02_layer5.yaml --name layers -o layers.yaml");
  timeloop->callback([options] { import_timeloop(*options); });
}

}  // namespace

void register_import_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("import", "Convert other tools' inputs into Ergon formats");
  command->require_subcommand(1);
  CLI::App* scalesim =
      command->add_subcommand("scalesim", "A SCALE-Sim topology CSV (conv or GEMM) as a workload YAML");
  auto options = std::make_shared<ScaleSimImportOptions>();
  scalesim->add_option("--topology,-t", options->topology_path, "SCALE-Sim topology CSV")
      ->required()
      ->check(input_file());
  scalesim->add_flag("--gemm", options->gemm,
                     "The CSV lists GEMMs (Layer, M, N, K); without it the header tells (a second column M)");
  scalesim->add_option("--name", options->name, "Workload name (default: the file's name)");
  scalesim
      ->add_option("--out,-o", options->out_path, "The workload YAML to write (a file: the conversion's only output)")
      ->required();
  auto* config = scalesim->add_option("--config,-c", options->config_path, "SCALE-Sim .cfg to convert as well")
                     ->check(input_file());
  scalesim->add_option("--config-out", options->config_out_path, "Accelerator config YAML to write")->needs(config);
  config->needs(scalesim->get_option("--config-out"));
  scalesim->footer(
      "Example:\n  ergon import scalesim -t alexnet.csv -c scale.cfg --config-out scale.yaml -o alexnet.yaml");
  scalesim->callback([options] { import_scalesim(*options); });

  CLI::App* onnx =
      command->add_subcommand("onnx", "An ONNX model as a workload YAML (unsupported operators are errors)");
  auto onnx_model = std::make_shared<std::string>();
  auto onnx_out = std::make_shared<std::string>();
  onnx->add_option("model", *onnx_model, "ONNX model (.onnx)")->required()->check(input_file());
  onnx->add_option("--out,-o", *onnx_out, "The workload YAML to write (a file: the conversion's only output)")
      ->required();
  onnx->footer("Example:\n  ergon import onnx resnet18.onnx --input-shape input=1x3x224x224 -o resnet18.yaml");
  onnx->callback([onnx_model, onnx_out] {
    refuse_output_over_inputs(*onnx_out, {*onnx_model}, "--out");
    check_output_file_option(*onnx_out, "--out");
    // Imported once; every layer checked against ONNX's shapes before anything is written.
    const OnnxImport imported = import_onnx(*onnx_model, model_import_options());
    const Workload workload = onnx_workload(imported, *onnx_model);
    print_import_messages(imported, *onnx_model);
    write_file_atomically(*onnx_out, onnx_workload_yaml(imported, *onnx_model));
    std::cout << fmt::format("wrote {}: {} layers, {} MACs and {} vector operations per image\n", *onnx_out,
                             workload.layers().size(), workload.total_macs(), workload.total_vector_ops());
  });
  register_import_timeloop(*command);
}

ERGON_REGISTER(CliCommand, "import", CliCommand{register_import_command}, 40)

}  // namespace ergon
