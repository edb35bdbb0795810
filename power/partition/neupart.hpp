#pragma once
// NeuPart's client/cloud partitioning (Manasi, Snigdha, Sapatnekar; seed 003, Secs. VI-VIII): run a
// network's first layers on the battery-powered client, send what crosses the cut to the cloud, and pick
// the cut where client computation plus transmission costs the least energy:
//   cost(cut) = E_client(layers before the cut) + P_Tx x bits / B,                          (eqs. 1, 24)
//   bits = elements x word_bits x (1 - sparsity) x (1 + alpha),  alpha = 3/5 at 8 bit, 1/3 at 16  (eq. 25)
// the input image counted the same way with its Sparsity-In (the paper's JPEG stand-in). A cut is a
// topological cut of the workload graph (every prefix of its topological order), so several tensors cross
// it where branches or residual joins span it. Analytical: the client energies are given.
#include <cstdint>
#include <string>
#include <vector>

#include "network/workload.hpp"

namespace ergon {

struct PartitionInputs {
  std::vector<double> client_energy_j;   // per workload layer (topological order), per image
  std::vector<double> client_latency_s;  // per workload layer
  std::vector<double> ofmap_sparsity;    // per workload layer: zero share of its output tensor
  double input_sparsity = 0.608;         // Sparsity-In: NeuPart's median image (Fig. 12 caption)
  int word_bits = 8;                     // NeuPart partitions 8-bit inference
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

struct PartitionResult {
  std::vector<CutResult> cuts;  // cuts[0]: fully cloud (only the input is sent); last: fully on the client
  std::size_t best = 0;
  double saving_vs_cloud_pct = 0;   // against sending the input (FCC)
  double saving_vs_client_pct = 0;  // against computing everything locally (FISC)
};

double rlc_bits(double elements, double sparsity, int word_bits);

PartitionResult partition_network(const Workload& workload, const PartitionInputs& inputs);

// Each layer's output sparsity: its own `sparsity.ofmap` if set, else the same-named layer's in a CNNergy
// layer table (NeuPart's data), else the ifmap sparsity the table gives its sole consumer, a concatenation's
// element-weighted inputs, or what its input carries; `fallback` where nothing is known.
std::vector<double> tensor_sparsity(const Workload& workload, const Workload* table, double fallback);

}  // namespace ergon
