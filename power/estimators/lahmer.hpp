#pragma once
// The empirical energy model of Lahmer et al. for Jetson boards (WiOpt 2022, seed 000; docs/lahmer.md):
// a layer's energy from its computational load, with per-board parameters fitted to measurements.
//   CLF  = i_size x o_size                                     (eq. 1, fully connected)
//   KCLC = ((i_size - ksize)/stride + 1)^2 x ifm x ksize^2     (eq. 2, exact; padding neglected)
//        ~ (i_size/stride)^2 x ifm x ksize^2                   (eq. 2, approximate)
//   KCLC = (floor((i_size + 2 padding - ksize)/stride) + 1)^2 x ifm x ksize^2
//                                               (not in the paper: exact with padding included, an option)
//   CLC  = KCLC x ofm                                          (eq. 3)
//   E_conv = KCLC (a_c + b_c ofm),  E_fc = CLF a_f             (eqs. 7, 8)
// Analytical only: it never calls the simulator.
#include <optional>
#include <string>
#include <vector>

#include "common/least_squares.hpp"
#include "network/workload.hpp"

namespace ergon {

struct LahmerBoard {
  std::string name;
  std::string description;
  std::string source;
  // E_conv = a_c KCLC + b_c CLC. Units assumed (the paper states none): joules per MAC of one output map
  // (a_c: costs every output map shares) and joules per MAC (b_c, a_f).
  double a_c = 0;
  double b_c = 0;
  std::optional<double> a_f;  // Table III gives it for Xavier NX only
  // The KCLC form the parameters were fitted with, when the file says (`ergon fit lahmer --measurements`
  // writes it; Table III does not: the paper does not say which form it fitted with).
  std::string fitted_kclc;          // "exact" or "approximate"; empty when unknown
  std::string fitted_kclc_padding;  // "ignore" or "include"; empty when unknown
};

// Reads one board from a parameter file such as reference/jetson/lahmer_2022_table3.yaml.
LahmerBoard load_lahmer_board(const std::string& path, const std::string& board);
std::vector<std::string> lahmer_board_names(const std::string& path);

enum class KclcForm { kExact, kApproximate };
// Eq. 2 as printed neglects padding (the default): a 3x3 "same" layer on 224x224 counts 222^2 output
// positions, not the 224^2 it computes. kInclude counts the positions the padded layer computes (exact
// form only: the approximate form has no kernel or padding term to include it in).
enum class KclcPadding { kIgnore, kInclude };
struct KclcOptions {
  KclcForm form = KclcForm::kExact;
  KclcPadding padding = KclcPadding::kIgnore;
};
const char* kclc_form_name(KclcForm form);           // exact, approximate
const char* kclc_padding_name(KclcPadding padding);  // ignore, include
KclcForm parse_kclc_form(const std::string& name);   // throws std::invalid_argument
KclcPadding parse_kclc_padding(const std::string& name);
// Throws std::invalid_argument for the approximate form with padding included.
KclcOptions make_kclc_options(KclcForm form, KclcPadding padding);
// "exact KCLC, padding ignored as eq. 2 prints it", for report headings.
std::string kclc_description(const KclcOptions& options);

// Square inputs and kernels in the paper; here each axis separately, with ifm the channels one kernel
// sees (channels / groups).
struct ConvLoad {
  double i_height = 0, i_width = 0, ifm = 0, ofm = 0, kernel_h = 0, kernel_w = 0, stride_h = 1, stride_w = 1;
  double pad_h = 0, pad_w = 0;  // total padding along each axis (top + bottom, left + right)
};
double kernel_conv_load(const ConvLoad& conv, const KclcOptions& options);  // KCLC
inline double kernel_conv_load(const ConvLoad& conv, KclcForm form) {
  return kernel_conv_load(conv, KclcOptions{form, KclcPadding::kIgnore});
}
double lahmer_conv_energy_j(const LahmerBoard& board, double kclc, double ofm);
double lahmer_fc_energy_j(double a_f, double clf);

struct LahmerLayerEstimate {
  std::string name;
  std::string op;
  bool modelled = false;
  std::string note;  // why a layer is not modelled
  double load = 0;   // KCLC (conv) or CLF (fc)
  double ofm = 0;
  double energy_j = 0;  // per image
};

struct LahmerEstimate {
  std::string workload;
  LahmerBoard board;
  KclcOptions kclc;
  std::vector<LahmerLayerEstimate> layers;
  double total_j = 0;
  std::size_t unmodelled_compute_layers = 0;  // conv/FC layers the board's parameters cannot price
};

LahmerEstimate estimate_lahmer(const Workload& workload, const LahmerBoard& board, const KclcOptions& kclc);
inline LahmerEstimate estimate_lahmer(const Workload& workload, const LahmerBoard& board, KclcForm form) {
  return estimate_lahmer(workload, board, KclcOptions{form, KclcPadding::kIgnore});
}

// The paper's fitting procedure (Sec. IV-C): per output-map count, the slope of energy against CLC
// (least squares through the origin); then eq. 6, slope = a_c / ofm + b_c, by ordinary least squares.
// Fully connected: energy = a_f CLF through the origin.
struct LahmerConvSample {
  double kclc = 0;
  double ofm = 0;
  double energy_j = 0;
};
struct LahmerFcSample {
  double clf = 0;
  double energy_j = 0;
};
struct LahmerSlope {
  double ofm = 0;
  double slope_j_per_mac = 0;  // H(ofm)
};
struct LahmerFit {
  double a_c = 0, b_c = 0, a_f = 0;
  std::vector<LahmerSlope> slopes;
  LeastSquaresFit slope_fit;  // eq. 6 on the slopes
  LeastSquaresFit conv_fit;   // E_conv predictions against the conv samples
  LeastSquaresFit fc_fit;     // E_fc predictions against the FC samples
};
LahmerFit fit_lahmer(const std::vector<LahmerConvSample>& conv, const std::vector<LahmerFcSample>& fc);

}  // namespace ergon
