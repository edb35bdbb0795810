#pragma once
// NeuPart's names for the layers of the networks whose cuts its figures label (seed 003, Sec. VIII-A, Figs.
// 10 and 13): "In" the input image; C, P, FC a convolution, pooling or fully connected layer; Fs and Fe the
// squeeze and expand layers of a SqueezeNet-v1.1 fire module. The paper numbers each kind in network order:
// AlexNet's three pooling layers (after conv1, conv2, conv5) are its P1, P2, P3 (Fig. 13b). The same rule
// names the rest (an assumption where the text is silent: AlexNet's fc6-fc8 become FC1-FC3, SqueezeNet's
// fire2..fire9 Fs1/Fe1..Fs8/Fe8, so the paper's optimal Fs4 is fire5.squeeze1x1). The tables are written out
// in paper_layer_names.cpp (docs/neupart.md lists them).
#include <map>
#include <string>

#include "studies/neupart/neupart.hpp"

namespace ergon {

// Ergon layer name -> NeuPart's name, for the shipped workload `workload_name` (alexnet, squeezenet_v1_1);
// empty for networks whose layers the paper does not name.
const std::map<std::string, std::string>& paper_layer_names(const std::string& workload_name);

// The paper's name for a cut: that of its last client layer, or, when the next layer is a concatenation that
// reads exactly the tensors crossing the cut (the same cut: a concatenation only lays out its inputs), that of
// the concatenation (a fire module's expand layer Fe). Empty when the paper has no name for it.
std::string paper_cut_name(const Workload& workload, const CutResult& cut);

// "after pool2 (paper: P2)": the Ergon name, then the paper's where it has one.
std::string cut_name_both_ways(const Workload& workload, const CutResult& cut);

}  // namespace ergon
