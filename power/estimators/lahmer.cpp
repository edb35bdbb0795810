#include "power/estimators/lahmer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>

#include "common/yaml_view.hpp"

namespace ergon {
namespace {

LahmerBoard parse_board(YamlMap map, const std::string& name, const std::string& source) {
  LahmerBoard board;
  board.name = name;
  board.source = source;
  board.description = map.get_string("description", "");
  board.a_c = map.get_number("a_c", kPositive);
  board.b_c = map.get_number("b_c", kNonNegative);
  if (map.has("a_f")) board.a_f = map.get_number("a_f", kPositive);
  board.fitted_kclc = map.get_string("kclc", "");
  board.fitted_kclc_padding = map.get_string("kclc_padding", "");
  try {
    if (!board.fitted_kclc.empty()) parse_kclc_form(board.fitted_kclc);
    if (!board.fitted_kclc_padding.empty()) parse_kclc_padding(board.fitted_kclc_padding);
  } catch (const std::invalid_argument& error) {
    map.view().fail(error.what());
  }
  map.reject_unknown_keys();
  return board;
}

LahmerLayerEstimate estimate_layer(const Layer& layer, const LahmerBoard& board, const KclcOptions& kclc) {
  LahmerLayerEstimate estimate;
  estimate.name = layer.name;
  estimate.op = op_name(layer.op);
  if (layer.op == OpKind::kConv) {
    const ConvParams& conv = layer.conv();
    const TensorShape& in = layer.input_shapes.at(0);
    const Window& w = conv.window;
    const ConvLoad load{static_cast<double>(in.height),
                        static_cast<double>(in.width),
                        static_cast<double>(in.channels / conv.groups),
                        static_cast<double>(conv.filters),
                        static_cast<double>((w.kernel_h - 1) * w.dilation_h + 1),
                        static_cast<double>((w.kernel_w - 1) * w.dilation_w + 1),
                        static_cast<double>(w.stride_h),
                        static_cast<double>(w.stride_w),
                        static_cast<double>(w.padding.top + w.padding.bottom),
                        static_cast<double>(w.padding.left + w.padding.right)};
    estimate.load = kernel_conv_load(load, kclc);
    // A dilated kernel spans more input but multiplies only its own taps.
    estimate.load *= static_cast<double>(w.kernel_h * w.kernel_w) / (load.kernel_h * load.kernel_w);
    estimate.ofm = load.ofm;
    estimate.energy_j = lahmer_conv_energy_j(board, estimate.load, estimate.ofm);
    estimate.modelled = true;
  } else if (layer.op == OpKind::kFullyConnected) {
    estimate.load =
        static_cast<double>(layer.input_shapes.at(0).elements()) * static_cast<double>(layer.output_shape.elements());
    estimate.ofm = static_cast<double>(layer.output_shape.elements());
    if (board.a_f) {
      estimate.energy_j = lahmer_fc_energy_j(*board.a_f, estimate.load);
      estimate.modelled = true;
    } else {
      estimate.note = "no a_f for " + board.name + " in " + board.source;
    }
  } else {
    estimate.note = "the model covers conv and fully connected layers only";
  }
  return estimate;
}

}  // namespace

LahmerBoard load_lahmer_board(const std::string& path, const std::string& board) {
  auto origin = std::make_shared<YamlOrigin>(YamlOrigin{path, {}});
  YamlMap root(YamlView(load_yaml_file(path), origin, ""));
  const std::string source = root.get_string("source");
  root.get_string("energy_unit");
  YamlMap boards = root.get_map("boards");
  const auto found = boards.find(board);
  if (!found) {
    std::string known;
    for (const auto& entry : boards.view().node()) known += (known.empty() ? "" : ", ") + entry.first.as<std::string>();
    boards.view().fail("no board '" + board + "'; the file has: " + known);
  }
  return parse_board(YamlMap(*found), board, source);
}

std::vector<std::string> lahmer_board_names(const std::string& path) {
  std::vector<std::string> names;
  for (const auto& entry : load_yaml_file(path)["boards"]) names.push_back(entry.first.as<std::string>());
  return names;
}

const char* kclc_form_name(KclcForm form) {
  return form == KclcForm::kExact ? "exact" : "approximate";
}

const char* kclc_padding_name(KclcPadding padding) {
  return padding == KclcPadding::kIgnore ? "ignore" : "include";
}

KclcForm parse_kclc_form(const std::string& name) {
  if (name == "exact") return KclcForm::kExact;
  if (name == "approximate") return KclcForm::kApproximate;
  throw std::invalid_argument("KCLC form '" + name + "' is not exact or approximate");
}

KclcPadding parse_kclc_padding(const std::string& name) {
  if (name == "ignore") return KclcPadding::kIgnore;
  if (name == "include") return KclcPadding::kInclude;
  throw std::invalid_argument("KCLC padding '" + name + "' is not ignore or include");
}

KclcOptions make_kclc_options(KclcForm form, KclcPadding padding) {
  if (form == KclcForm::kApproximate && padding == KclcPadding::kInclude) {
    throw std::invalid_argument(
        "the approximate KCLC form (i_size/stride)^2 has no padding term; use --kclc exact with "
        "--kclc-padding include");
  }
  return {form, padding};
}

std::string kclc_description(const KclcOptions& options) {
  if (options.form == KclcForm::kApproximate) return "approximate KCLC (i_size/stride)^2, eq. 2";
  return options.padding == KclcPadding::kIgnore ? "exact KCLC, padding ignored as eq. 2 prints it"
                                                 : "exact KCLC, padding included (not the paper's form)";
}

double kernel_conv_load(const ConvLoad& c, const KclcOptions& options) {
  double rows = 0, cols = 0;
  if (options.form == KclcForm::kApproximate) {
    make_kclc_options(options.form, options.padding);  // rejects padding with the approximate form
    rows = c.i_height / c.stride_h;
    cols = c.i_width / c.stride_w;
  } else if (options.padding == KclcPadding::kIgnore) {  // eq. 2 as printed: no floor
    rows = (c.i_height - c.kernel_h) / c.stride_h + 1;
    cols = (c.i_width - c.kernel_w) / c.stride_w + 1;
  } else {  // the output positions the padded layer computes
    rows = std::floor((c.i_height + c.pad_h - c.kernel_h) / c.stride_h) + 1;
    cols = std::floor((c.i_width + c.pad_w - c.kernel_w) / c.stride_w) + 1;
  }
  return std::max(0.0, rows) * std::max(0.0, cols) * c.ifm * c.kernel_h * c.kernel_w;
}

double lahmer_conv_energy_j(const LahmerBoard& board, double kclc, double ofm) {
  return kclc * (board.a_c + board.b_c * ofm);
}

double lahmer_fc_energy_j(double a_f, double clf) {
  return clf * a_f;
}

LahmerEstimate estimate_lahmer(const Workload& workload, const LahmerBoard& board, const KclcOptions& kclc) {
  make_kclc_options(kclc.form, kclc.padding);
  LahmerEstimate estimate;
  estimate.workload = workload.name();
  estimate.board = board;
  estimate.kclc = kclc;
  for (const Layer& layer : workload.layers()) {
    LahmerLayerEstimate entry = estimate_layer(layer, board, kclc);
    estimate.total_j += entry.energy_j;
    const bool compute = layer.op == OpKind::kConv || layer.op == OpKind::kFullyConnected;
    if (compute && !entry.modelled) ++estimate.unmodelled_compute_layers;
    estimate.layers.push_back(std::move(entry));
  }
  return estimate;
}

LahmerFit fit_lahmer(const std::vector<LahmerConvSample>& conv, const std::vector<LahmerFcSample>& fc) {
  LahmerFit fit;
  std::map<double, std::pair<std::vector<std::vector<double>>, std::vector<double>>> by_ofm;
  for (const LahmerConvSample& s : conv) {
    by_ofm[s.ofm].first.push_back({s.kclc * s.ofm});  // CLC
    by_ofm[s.ofm].second.push_back(s.energy_j);
  }
  std::vector<std::vector<double>> slope_rows;
  std::vector<double> slopes;
  for (const auto& [ofm, data] : by_ofm) {
    const double slope = fit_least_squares(data.first, data.second).coefficients.at(0);
    fit.slopes.push_back({ofm, slope});
    slope_rows.push_back({1 / ofm, 1});
    slopes.push_back(slope);
  }
  if (slopes.size() < 2) throw std::invalid_argument("eq. 6 needs conv samples at two output-map counts or more");
  fit.slope_fit = fit_least_squares(slope_rows, slopes);
  fit.a_c = fit.slope_fit.coefficients[0];
  fit.b_c = fit.slope_fit.coefficients[1];
  std::vector<double> predicted, observed;
  for (const LahmerConvSample& s : conv) {
    predicted.push_back(s.kclc * (fit.a_c + fit.b_c * s.ofm));
    observed.push_back(s.energy_j);
  }
  score_fit(fit.conv_fit, predicted, observed);
  if (!fc.empty()) {
    std::vector<std::vector<double>> rows;
    std::vector<double> energies;
    for (const LahmerFcSample& s : fc) {
      rows.push_back({s.clf});
      energies.push_back(s.energy_j);
    }
    fit.fc_fit = fit_least_squares(rows, energies);
    fit.a_f = fit.fc_fit.coefficients[0];
  }
  return fit;
}

}  // namespace ergon
