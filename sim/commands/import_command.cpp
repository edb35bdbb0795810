// `ergon import`: converts other tools' inputs into Ergon's formats.
#include <filesystem>
#include <iostream>
#include <memory>

#include "common/atomic_file.hpp"
#include "network/importers/scalesim_topology.hpp"
#include "network/workload.hpp"
#include "sim/commands/commands.hpp"

namespace ergon {
namespace {

struct ScaleSimImportOptions {
  std::string topology_path;
  bool gemm = false;
  std::string name;
  std::string out_path;
};

void import_scalesim(const ScaleSimImportOptions& options) {
  const auto kind = options.gemm ? ScaleSimTopologyKind::kGemm : ScaleSimTopologyKind::kConv;
  const std::vector<ScaleSimLayer> layers = read_scalesim_topology(options.topology_path, kind);
  const std::string name =
      options.name.empty() ? std::filesystem::path(options.topology_path).stem().string() : options.name;
  write_file_atomically(options.out_path, scalesim_workload_yaml(layers, name, options.topology_path));
  const Workload check = load_workload(options.out_path);  // the written file must load
  std::cout << "wrote " << options.out_path << ": " << layers.size() << " layers, " << check.total_macs() << " MACs\n";
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
      ->check(CLI::ExistingFile);
  scalesim->add_flag("--gemm", options->gemm, "The CSV lists GEMMs (Layer, M, N, K) instead of convolutions");
  scalesim->add_option("--name", options->name, "Workload name (default: the file's name)");
  scalesim->add_option("--out,-o", options->out_path, "Workload YAML to write")->required();
  scalesim->callback([options] { import_scalesim(*options); });
}

}  // namespace ergon
