#include "arch/controller/command_queue.hpp"

#include <algorithm>

namespace ergon {

CommandQueue::CommandQueue(const CommandsConfig& config, const ClockDomain& clock)
    : config_(config),
      clock_(clock),
      free_(config.issue_cycles == 0 && config.load_queue_depth == 0 && config.compute_queue_depth == 0 &&
            config.store_queue_depth == 0) {}

std::size_t CommandQueue::depth(Engine engine) const {
  const std::int64_t depths[] = {config_.load_queue_depth, config_.compute_queue_depth, config_.store_queue_depth};
  return static_cast<std::size_t>(depths[static_cast<std::size_t>(engine)]);
}

sc_core::sc_time CommandQueue::issue(Engine engine) {
  if (free_) return sc_core::SC_ZERO_TIME;  // every command issued long before it is needed
  const std::deque<sc_core::sc_time>& leaves = leaves_[static_cast<std::size_t>(engine)];
  sc_core::sc_time start = issued_until_;
  // A full queue: the command `depth` places earlier (the oldest one recorded) must leave first.
  if (depth(engine) > 0 && leaves.size() == depth(engine)) start = std::max(start, leaves.front());
  issued_until_ = start + clock_.period() * static_cast<double>(config_.issue_cycles);
  issue_cycles_ += static_cast<std::uint64_t>(config_.issue_cycles);
  return issued_until_;
}

void CommandQueue::wait_until_issued(Engine engine) {
  if (free_) return;
  const sc_core::sc_time issued = issue(engine);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (issued > now) sc_core::wait(issued - now);
}

void CommandQueue::left(Engine engine, const sc_core::sc_time& at) {
  if (free_ || depth(engine) == 0) return;  // an unbounded queue never fills
  std::deque<sc_core::sc_time>& leaves = leaves_[static_cast<std::size_t>(engine)];
  leaves.push_back(at);
  if (leaves.size() > depth(engine)) leaves.pop_front();
}

}  // namespace ergon
