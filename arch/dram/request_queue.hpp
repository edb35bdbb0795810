#pragma once
// What every DRAM model shares at its TLM boundary: a request queue of bounded depth (a request that
// finds `depth` requests outstanding waits until one completes) and the byte and request counts.
#include <algorithm>
#include <cstddef>
#include <deque>
#include <systemc>
#include <tlm>

#include "arch/dram/dram.hpp"

namespace ergon {

class RequestQueue {
 public:
  explicit RequestQueue(std::size_t depth) : depth_(depth) {}

  // When a request arriving at `arrival` is accepted; a wait for a free slot is counted in `counters`.
  sc_core::sc_time admit(sc_core::sc_time arrival, DramCounters& counters) {
    retire_until(arrival);
    if (completions_.size() >= depth_) {
      ++counters.queue_full_waits;
      arrival = completions_[completions_.size() - depth_];
      retire_until(arrival);
    }
    return arrival;
  }
  // The accepted request completes at `completion`.
  void add(const sc_core::sc_time& completion) {
    completions_.insert(std::upper_bound(completions_.begin(), completions_.end(), completion), completion);
  }

 private:
  void retire_until(const sc_core::sc_time& time) {
    while (!completions_.empty() && completions_.front() <= time) completions_.pop_front();
  }

  std::size_t depth_;
  std::deque<sc_core::sc_time> completions_;  // of the requests in the queue, ascending
};

// Counts a served request's bytes by direction, and by the tensor its stream carries (a burst without a
// stream extension is counted in the total only, so the shares then fall short of it).
inline void count_request(const tlm::tlm_generic_payload& payload, DramCounters& counters) {
  const DramStreamExtension* stream = stream_extension(payload);
  const std::uint64_t bytes = payload.get_data_length();
  if (payload.is_read()) {
    counters.read_bytes += bytes;
    ++counters.read_requests;
    if (stream != nullptr) counters.read_shares[tensor_of(stream->stream)] += bytes;
  } else {
    counters.write_bytes += bytes;
    ++counters.write_requests;
    if (stream != nullptr) counters.write_shares[tensor_of(stream->stream)] += bytes;
  }
}

// A burst of a free first fill (DramStreamExtension::before_layer) is counted and answered at once: its
// data arrived before the layer. Returns whether the payload was one.
inline bool serve_before_layer(tlm::tlm_generic_payload& payload, DramCounters& counters) {
  if (!arrived_before_layer(payload)) return false;
  count_request(payload, counters);
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

}  // namespace ergon
