#include "common/action_catalogue.hpp"

#include <stdexcept>
#include <string>

namespace ergon {

std::string_view tensor_name(Tensor tensor) {
  switch (tensor) {
    case Tensor::kWeights: return "weights";
    case Tensor::kInputs: return "inputs";
    case Tensor::kOutputs: break;
  }
  return "outputs";
}

namespace {

std::vector<ActionSpec> build_catalogue() {
  using A = Action;
  using T = TensorOf;
  using P = FiveKeyPrice;
  std::vector<ActionSpec> catalogue = {
      {A::kMacCompute,
       "mac.compute",
       "MACs",
       "computed_macs",
       "MACs on a non-zero operand (pooling comparisons included)",
       true,
       T::kNone,
       "mac_pj",
       P::kAsGiven,
       {"mac_random", "compute", "mac", "mac_reused"}},
      {A::kMacGated,
       "mac.gated",
       "MACs",
       "gated_macs",
       "MACs skipped for a zero or padding operand",
       true,
       T::kNone,
       "mac_pj",
       P::kFree,
       {"mac_gated"}},
      {A::kRfIfmapRead,
       "rf.ifmap_read",
       "words",
       "rf_ifmap_reads",
       "ifmap operands read from the PEs' register files",
       true,
       T::kInputs,
       "rf_pj",
       P::kAsGiven,
       {"read"}},
      {A::kRfIfmapWrite,
       "rf.ifmap_write",
       "words",
       "rf_ifmap_writes",
       "ifmap words written into the register files",
       true,
       T::kInputs,
       "rf_pj",
       P::kAsGiven,
       {"write"}},
      {A::kRfFilterRead,
       "rf.filter_read",
       "words",
       "rf_filter_reads",
       "filter operands read from the register files",
       true,
       T::kWeights,
       "rf_pj",
       P::kAsGiven,
       {"read"}},
      {A::kRfFilterWrite,
       "rf.filter_write",
       "words",
       "rf_filter_writes",
       "filter words written into the register files",
       true,
       T::kWeights,
       "rf_pj",
       P::kAsGiven,
       {"write"}},
      {A::kRfPsumRead,
       "rf.psum_read",
       "words",
       "rf_psum_reads",
       "partial sums read to accumulate",
       true,
       T::kOutputs,
       "rf_pj",
       P::kAsGiven,
       {"read"}},
      {A::kRfPsumWrite,
       "rf.psum_write",
       "words",
       "rf_psum_writes",
       "partial sums written back",
       true,
       T::kOutputs,
       "rf_pj",
       P::kAsGiven,
       {"write"}},
      {A::kPeBusyCycle,
       "pe.busy_cycle",
       "PE-cycles",
       "pe_busy_cycles",
       "PE-cycles spent on MACs (utilization)",
       false,
       T::kNone,
       "",
       P::kAsGiven,
       {}},
      {A::kNocFilterTransfer,
       "noc.filter_transfer",
       "words",
       "noc_filter_words",
       "filter words the GLB sends to the array",
       true,
       T::kWeights,
       "glb_pj",
       P::kFree,
       {"transfer"}},
      {A::kNocIfmapTransfer,
       "noc.ifmap_transfer",
       "words",
       "noc_ifmap_words",
       "ifmap words the GLB sends to the array",
       true,
       T::kInputs,
       "glb_pj",
       P::kFree,
       {"transfer"}},
      {A::kNocPsumTransfer,
       "noc.psum_transfer",
       "words",
       "noc_psum_words",
       "psum words between the GLB and the array",
       true,
       T::kOutputs,
       "glb_pj",
       P::kFree,
       {"transfer"}},
      {A::kNocPeHop,
       "noc.pe_hop",
       "words",
       "noc_pe_hops",
       "words passed between neighbouring PEs (row stationary: psums; systolic: operands)",
       true,
       T::kSplit,
       "inter_pe_pj",
       P::kAsGiven,
       {"hop", "transfer"}},
      {A::kGlbRead,
       "glb.read",
       "words",
       "glb_reads",
       "words read from the global buffer",
       true,
       T::kSplit,
       "glb_pj",
       P::kAsGiven,
       {"read"}},
      {A::kGlbWrite,
       "glb.write",
       "words",
       "glb_writes",
       "words written into the global buffer",
       true,
       T::kSplit,
       "glb_pj",
       P::kAsGiven,
       {"write"}},
      {A::kDramRead,
       "dram.read",
       "bytes",
       "dram_read_bytes",
       "bytes read from DRAM",
       true,
       T::kSplit,
       "dram_pj",
       P::kPerWord,
       {"read"}},
      {A::kDramWrite,
       "dram.write",
       "bytes",
       "dram_write_bytes",
       "bytes written to DRAM",
       true,
       T::kSplit,
       "dram_pj",
       P::kPerWord,
       {"write"}},
  };
  for (std::size_t i = 0; i < catalogue.size(); ++i) {
    if (static_cast<std::size_t>(catalogue[i].id) != i) {
      throw std::logic_error("action catalogue: '" + std::string(catalogue[i].name) + "' is out of Action order");
    }
  }
  if (catalogue.size() != kActionCount) throw std::logic_error("action catalogue: kActionCount is stale");
  return catalogue;
}

}  // namespace

const std::vector<ActionSpec>& action_catalogue() {
  static const std::vector<ActionSpec> catalogue = build_catalogue();
  return catalogue;
}

const ActionSpec& action_spec(Action action) {
  return action_catalogue()[static_cast<std::size_t>(action)];
}

const ActionSpec* find_action(std::string_view name) {
  for (const ActionSpec& spec : action_catalogue()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

}  // namespace ergon
