#pragma once

namespace ergon {

// `dram.page_policy` of a bank-level DRAM: a row stays open until another row of its bank or a refresh needs
// the bank, or each access precharges its row at once.
enum class PagePolicy { kOpen, kClosed };

}  // namespace ergon
