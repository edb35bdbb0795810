#pragma once
// NeuPart's client/cloud partitioning (Manasi, Snigdha, Sapatnekar; seed 003, Secs. VI-VIII): run a
// network's first layers on the battery-powered client, send what crosses the cut to the cloud, and pick
// the cut where client computation plus transmission costs the least energy:
//   cost(cut) = E_client(layers before the cut) + P_Tx x bits / B,                          (eqs. 1, 24)
//   bits = elements x word_bits x (1 - sparsity) x (1 + alpha)                                (eq. 25)
// with alpha the run-length coding overhead per bit of a non-zero value (rlc_overhead below). The input
// image counts the same way with its Sparsity-In (the paper's JPEG stand-in). A cut is a topological cut of
// the workload graph (every prefix of its topological order), so several tensors cross it where branches or
// residual joins span it. Analytical: the client energies are given.
#include <cstdint>
#include <string>
#include <vector>

#include "network/workload.hpp"

namespace ergon {

// Run-length coding as NeuPart sizes it (Sec. VI-A, after Eyeriss [17]): a 64-bit word holds a 1-bit
// last-word flag and as many (zero-run, value) pairs as fit, so a non-zero `word_bits` value costs
// 64 / pairs bits and alpha = 64 / (pairs x word_bits) - 1. The paper's run fields, 4 bits at 8-bit data and
// 5 at 16-bit, give its alpha = 3/5 (5 pairs) and 1/3 (3 pairs).
int paper_rlc_run_bits(int word_bits);  // 4 at 8 bits, 5 otherwise (the paper's 16-bit / Eyeriss field)
// (run, value) pairs per 64-bit word; std::invalid_argument when the widths are not positive or one pair
// and the flag do not fit the word.
int rlc_pairs_per_word(int word_bits, int run_bits);
double rlc_overhead(int word_bits, int run_bits);  // alpha of eq. 25
double rlc_bits(double elements, double sparsity, int word_bits, int run_bits);
double rlc_bits(double elements, double sparsity, int word_bits);  // with paper_rlc_run_bits(word_bits)

// NeuPart's Sparsity-In quartile boundaries over 5,500 ImageNet test images (Fig. 11, Fig. 12 caption).
inline constexpr double kSparsityInQuartiles[] = {0.5199, 0.608, 0.6909};

struct PartitionInputs {
  std::vector<double> client_energy_j;   // per workload layer (topological order), per image
  std::vector<double> client_latency_s;  // per workload layer
  std::vector<double> ofmap_sparsity;    // per workload layer: zero share of its output tensor
  double input_sparsity = 0.608;         // Sparsity-In: NeuPart's median image (Fig. 12 caption)
  int word_bits = 8;                     // width of a transmitted value; NeuPart partitions 8-bit inference
  int rlc_run_bits = 0;                  // run field of the transmission's RLC; 0: paper_rlc_run_bits(word_bits)
  double bitrate_bps = 60e6;
  double tx_power_w = 0.5;
  double cloud_ops_per_s = 92e12;  // Google TPU, as NeuPart's delay model assumes; 2 ops per MAC
};

struct CutResult {
  std::size_t client_layers = 0;  // the first `client_layers` layers of the topological order run locally
  std::string last_client_layer;
  std::vector<std::string> crossing;  // layers whose outputs are sent
  double bits = 0;
  double client_energy_j = 0, transmit_energy_j = 0, total_energy_j = 0;
  double delay_s = 0;  // client + transmission + cloud
};

// The savings as NeuPart's Table IV and Fig. 12 report them. Against FCC: the optimum over all cuts (0 when
// sending the input is best). Against FISC: the optimum over the cuts that compute at least one layer on the
// client, so that, as the paper notes under Table IV, it does not depend on Sparsity-In (0 when computing
// everything locally is the best of those).
struct PartitionResult {
  std::vector<CutResult> cuts;      // cuts[0]: fully cloud (only the input is sent); last: fully on the client
  std::size_t best = 0;             // least energy over all cuts
  std::size_t best_on_client = 0;   // least energy over cuts[1..]: what is compared with FISC
  double saving_vs_cloud_pct = 0;   // cuts[best] against sending the input (FCC)
  double saving_vs_client_pct = 0;  // cuts[best_on_client] against computing everything locally (FISC)
};

PartitionResult partition_network(const Workload& workload, const PartitionInputs& inputs);

// Each layer's output sparsity: its own `sparsity.ofmap` if set, else the same-named layer's in a CNNergy
// layer table (NeuPart's data), else the ifmap sparsity the table gives its sole consumer, a concatenation's
// element-weighted inputs, or what its input carries; `fallback` where nothing is known.
std::vector<double> tensor_sparsity(const Workload& workload, const Workload* table, double fallback);

// The workload as the client computes it, with the tensor sparsities the transmission uses: each layer's
// `sparsity.ofmap` = its tensor's, `sparsity.ifmap` = the element-weighted sparsity of its input tensors. A
// layer reading the network's input keeps its own ifmap figure: Sparsity-In sizes the JPEG file, it does not
// count zero pixels. Sparsities are capped below 1 (a workload's sparsity must be < 1).
Workload with_tensor_sparsity(const Workload& workload, const std::vector<double>& ofmap_sparsity);

// The workload with each layer's batch (images processed together, CNNergy's n2) taken from the same-named
// row of a CNNergy layer table, as NeuPart's client energies assume: fully connected layers batched over 18
// images share each weight fetch. Layers the table does not name keep theirs.
Workload with_table_batches(const Workload& workload, const Workload& table);

}  // namespace ergon
