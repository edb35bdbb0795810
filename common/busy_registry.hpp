#pragma once
// Busy time of the simulated resources, the sibling of the counter registry: each part that can bound a
// layer (the PE array, each GLB port, each NoC bus, the DRAM, the controller's fill/drain stalls and DVFS
// switches) registers the busy time it accumulates; the controller snapshots them per layer, and reports,
// the `bound` label and the DVFS policy iterate over the registry instead of naming resources
// (docs/simulator.md, "What bounds a layer").
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ergon {

// What a resource is, for whoever acts on the bound: the DVFS policy slows the clock domain that does not
// bound a layer. Array, buffer ports and network buses run on the compute clock; the memory is the
// DRAM; fill and drain are the waits for a layer's first data and last write-back; a DVFS switch stops
// the compute clock.
enum class ResourceKind { kArray, kBufferPort, kNetworkBus, kMemory, kFillDrain, kDvfsSwitch, kSequencer };

// The unit a resource counts its busy time in: cycles of the compute clock, or picoseconds.
enum class BusyUnit { kComputeCycles, kPicoseconds };

struct ResourceSpec {
  std::string name;  // lower case, digits, '_' and '.': "glb.read_port"
  ResourceKind kind = ResourceKind::kArray;
  BusyUnit unit = BusyUnit::kComputeCycles;
  std::string description;  // one line: when it counts as busy
  // Its column in layers.csv: the name with '.' as '_', then "_busy_share".
  std::string share_column() const;
};

// A resource by its place in the registry (and in a run's SimulationResult::resources).
using ResourceId = std::size_t;

class BusyRegistry {
 public:
  // Registers the busy time a part accumulates at `source`, which must outlive the registry. Throws
  // std::logic_error for a name already registered or not of the allowed characters.
  void add(ResourceSpec spec, const std::uint64_t& source);
  const std::vector<ResourceSpec>& specs() const { return specs_; }
  // Every resource's busy time so far, in registry order and each in its own unit.
  std::vector<std::uint64_t> snapshot() const;

 private:
  std::vector<ResourceSpec> specs_;
  std::vector<const std::uint64_t*> sources_;
};

// The resource with the most busy time (`busy` in a common unit, indexed like the registry); ties go to the
// first registered. -1 (as ResourceId: none) when nothing was busy.
inline constexpr ResourceId kNoResource = static_cast<ResourceId>(-1);
ResourceId busiest(const std::vector<std::uint64_t>& busy);

}  // namespace ergon
