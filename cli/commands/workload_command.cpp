#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands/cli_checks.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/output.hpp"
#include "common/text.hpp"
#include "network/workload.hpp"

namespace ergon {
namespace {

struct ShowOptions {
  std::string workload_path;
  std::string format = "table";
  std::string out_dir;
};

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ",") + name;
  return text.empty() ? "-" : text;
}

std::string workload_table(const Workload& workload) {
  std::string out = fmt::format("{}: {} layers in topological order\nsource: {}\n", workload.name(),
                                workload.layers().size(), workload.source());
  out += fmt::format("{:>4} {:<34} {:<15} {:<16} {:>16} {:>14} {:>11} {:>5}  {}\n", "#", "layer", "op", "input",
                     "output", "MACs", "params", "batch", "inputs");
  std::size_t index = 0;
  for (const Layer& layer : workload.layers()) {
    const std::string input = layer.input_shapes.empty() ? "-" : layer.input_shapes[0].to_string();
    out += fmt::format("{:>4} {:<34} {:<15} {:<16} {:>16} {:>14} {:>11} {:>5}  {}\n", index++, layer.name,
                       op_name(layer.op), input, layer.output_shape.to_string(), layer.macs, layer.params_count,
                       layer.batch, joined(layer.input_names));
  }
  out += fmt::format("total: {} MACs ({:.4f} G), {} parameters ({:.4f} M), {} vector operations\n",
                     workload.total_macs(), static_cast<double>(workload.total_macs()) / 1e9, workload.total_params(),
                     static_cast<double>(workload.total_params()) / 1e6, workload.total_vector_ops());
  return out;
}

// An operand width a quantised model gives a layer; empty when it gives none (the accelerator's own).
std::string width_cell(int bits) {
  return bits > 0 ? std::to_string(bits) : "";
}

nlohmann::ordered_json width_json(int bits) {
  return bits > 0 ? nlohmann::ordered_json(bits) : nlohmann::ordered_json(nullptr);
}

std::string workload_csv(const Workload& workload) {
  std::string csv =
      "index,layer,op,input_shape,output_shape,macs,params,vector_ops,batch,inputs,activation_bits,weight_bits,"
      "accumulator_bits\n";
  std::size_t index = 0;
  for (const Layer& layer : workload.layers()) {
    const std::string input = layer.input_shapes.empty() ? "" : layer.input_shapes[0].to_string();
    std::string inputs;
    for (const auto& name : layer.input_names) inputs += (inputs.empty() ? "" : " ") + name;
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", index++, csv_quoted(layer.name), op_name(layer.op),
                       csv_quoted(input), csv_quoted(layer.output_shape.to_string()), layer.macs, layer.params_count,
                       layer.vector_ops, layer.batch, csv_quoted(inputs), width_cell(layer.widths.activation_bits),
                       width_cell(layer.widths.weight_bits), width_cell(layer.widths.accumulator_bits));
  }
  return csv;
}

nlohmann::ordered_json shape_json(const TensorShape& shape) {
  return nlohmann::ordered_json::array({shape.channels, shape.height, shape.width});
}

std::string workload_json(const Workload& workload) {
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const Layer& layer : workload.layers()) {
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    for (const auto& shape : layer.input_shapes) inputs.push_back(shape_json(shape));
    layers.push_back({{"name", layer.name},
                      {"op", op_name(layer.op)},
                      {"inputs", layer.input_names},
                      {"input_shapes", inputs},
                      {"output_shape", shape_json(layer.output_shape)},
                      {"macs", layer.macs},
                      {"params", layer.params_count},
                      {"vector_ops", layer.vector_ops},
                      {"batch", layer.batch},
                      {"sparsity", {{"ifmap", layer.sparsity.ifmap}, {"ofmap", layer.sparsity.ofmap}}},
                      {"activation_bits", width_json(layer.widths.activation_bits)},
                      {"weight_bits", width_json(layer.widths.weight_bits)},
                      {"accumulator_bits", width_json(layer.widths.accumulator_bits)}});
  }
  const nlohmann::ordered_json json = {{"schema_version", 1},
                                       {"name", workload.name()},
                                       {"source", workload.source()},
                                       {"total_macs", workload.total_macs()},
                                       {"total_params", workload.total_params()},
                                       {"total_vector_ops", workload.total_vector_ops()},
                                       {"layers", layers}};
  return json.dump(2) + "\n";
}

}  // namespace

void register_workload_command(CLI::App& app) {
  CLI::App* workload = app.add_subcommand("workload", "Inspect workload graphs");
  workload->require_subcommand(1);
  CLI::App* show = workload->add_subcommand("show", "Print the graph in topological order with shapes and MACs");
  auto options = std::make_shared<ShowOptions>();
  show->footer("Example:\n  ergon workload show alexnet --format csv");
  show->add_option("file", options->workload_path, "Workload YAML")->required()->transform(shipped_workload());
  add_format_option(*show, options->format);
  add_report_out_option(*show, options->out_dir, "workload");
  show->callback([options] {
    std::optional<OutputFolder> out = open_report_folder(options->out_dir, "workload", {options->workload_path});
    const Workload loaded = load_workload(options->workload_path);
    emit_report({workload_table(loaded), workload_json(loaded), workload_csv(loaded)}, options->format, out,
                "workload");
  });
}

ERGON_REGISTER(CliCommand, "workload", CliCommand{register_workload_command}, 140)

}  // namespace ergon
