#pragma once
// SystemC 2.3 keeps one global simulation context that cannot elaborate again after it has run. Each
// Ergon simulation therefore starts from a fresh context. The previous context is not deleted
// (SystemC 2.3 crashes when one is destroyed); a few kilobytes per run stay allocated.
namespace ergon {

void start_fresh_systemc_kernel();

}  // namespace ergon
