#pragma once
// Runs independent tasks on several cores. SystemC 2.3 keeps one simulation kernel per process, so
// simulations cannot run side by side in threads; tasks run in forked worker processes instead, each of
// which takes task indices over a pipe and sends results (strings) back (up to 256 tasks, then it is
// replaced). Results arrive in completion order.
#include <cstddef>
#include <functional>
#include <string>

namespace ergon {

using PoolTask = std::function<std::string(std::size_t task)>;
using PoolResult = std::function<void(std::size_t task, const std::string& result)>;

// With jobs == 1 the tasks run in this process, in order. A task that throws, or a worker that dies,
// stops the pool: running workers are killed and a std::runtime_error names the task. Under an
// InterruptGuard, SIGINT/SIGTERM stop it the same way with an Interrupted error (results already
// handed to `on_done` stay delivered).
// `progress_what` names the tasks ("Blackthorn profile simulations") for a progress display on stderr
// (common/progress_display, when progress is shown); empty: none. The tasks show no progress of their own.
void run_in_processes(std::size_t task_count, unsigned jobs, const PoolTask& task, const PoolResult& on_done,
                      const std::string& progress_what = "");

// The most worker processes a command's --jobs (and the Python package's `jobs`) may ask for.
inline constexpr unsigned kMaxWorkerProcesses = 1024;

// Cores this process may use (at least 1).
unsigned available_cores();

}  // namespace ergon
