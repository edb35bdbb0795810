#include "sim/parallel/process_pool.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/progress_display.hpp"
#include "sim/parallel/interrupt.hpp"

namespace ergon {
namespace {

// A worker runs this many tasks, then exits and is replaced: forking once per task cost more than a small
// simulation (about 12 ms a fork on the benchmark machine), while SystemC 2.3 keeps a few KiB per finished
// simulation, so a worker must not live for a whole 10,000-point sweep.
constexpr std::size_t kTasksPerWorker = 256;

// Parent -> worker: a task index (8 bytes). Worker -> parent: a frame per task, a kind byte ('O' result,
// 'E' error message), the payload's length (8 bytes), then the payload.
constexpr std::size_t kFrameHeaderBytes = 1 + sizeof(std::uint64_t);

struct Worker {
  pid_t pid = -1;
  int task_fd = -1;      // write end: task indices
  int result_fd = -1;    // read end: result frames
  std::size_t task = 0;  // in flight: every worker in the pool has one
  std::size_t tasks_done = 0;
  std::string received;
};

bool write_all(int fd, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  for (std::size_t sent = 0; sent < size;) {
    const ssize_t n = ::write(fd, bytes + sent, size - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t size) {
  auto* bytes = static_cast<char*>(data);
  for (std::size_t got = 0; got < size;) {
    const ssize_t n = ::read(fd, bytes + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

std::string run_task(const PoolTask& task, std::size_t index, char& kind) {
  kind = 'O';
  try {
    return task(index);
  } catch (const std::exception& error) {
    kind = 'E';
    return error.what();
  } catch (...) {
    kind = 'E';
    return "unknown error";
  }
}

// The worker's loop: a task index in, a frame out, until the parent closes the task pipe.
[[noreturn]] void run_worker(int task_fd, int result_fd, const PoolTask& task) {
  std::uint64_t index = 0;
  while (read_all(task_fd, &index, sizeof index)) {
    char kind = 'O';
    const std::string payload = run_task(task, static_cast<std::size_t>(index), kind);
    const std::uint64_t length = payload.size();
    std::fflush(nullptr);
    if (!write_all(result_fd, &kind, 1) || !write_all(result_fd, &length, sizeof length) ||
        !write_all(result_fd, payload.data(), payload.size())) {
      break;  // the parent is gone
    }
  }
  std::fflush(nullptr);
  ::_exit(0);  // no destructors: the parent owns every shared resource
}

Worker start_worker(const PoolTask& task, const std::vector<Worker>& running) {
  int tasks[2], results[2];
  if (::pipe(tasks) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  if (::pipe(results) != 0) {
    ::close(tasks[0]);
    ::close(tasks[1]);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  std::fflush(nullptr);  // or the child would flush the parent's buffered output again
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
  if (pid == 0) {
    // A copy of another worker's task pipe would keep that worker from ever seeing its end.
    for (const Worker& other : running) {
      ::close(other.task_fd);
      ::close(other.result_fd);
    }
    ::close(tasks[1]);
    ::close(results[0]);
    run_worker(tasks[0], results[1], task);
  }
  ::close(tasks[0]);
  ::close(results[1]);
  Worker worker;
  worker.pid = pid;
  worker.task_fd = tasks[1];
  worker.result_fd = results[0];
  return worker;
}

// Closes the task pipe (the worker exits at its end) and reaps the worker, once; returns its wait status.
int retire(Worker& worker) {
  if (worker.pid < 0) return 0;
  ::close(worker.task_fd);
  ::close(worker.result_fd);
  int status = 0;
  while (::waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
  }
  worker.pid = worker.task_fd = worker.result_fd = -1;
  return status;
}

void stop_all(std::vector<Worker>& workers) {
  for (Worker& w : workers) {
    if (w.pid >= 0) ::kill(w.pid, SIGKILL);
    retire(w);
  }
  workers.clear();
}

[[noreturn]] void worker_died(Worker& worker) {
  const std::size_t task = worker.task;
  ::kill(worker.pid, SIGKILL);  // it closed its results, so it is on its way out anyway
  const int status = retire(worker);
  throw std::runtime_error("point " + std::to_string(task) + ": its worker process died" +
                           (WIFSIGNALED(status) ? " (signal " + std::to_string(WTERMSIG(status)) + ")" : ""));
}

// Takes one whole frame from the worker's received bytes, if there is one: (kind, payload).
std::optional<std::pair<char, std::string>> take_frame(Worker& worker) {
  if (worker.received.size() < kFrameHeaderBytes) return std::nullopt;
  std::uint64_t length = 0;
  std::memcpy(&length, worker.received.data() + 1, sizeof length);
  if (worker.received.size() - kFrameHeaderBytes < length) return std::nullopt;
  std::pair<char, std::string> frame{worker.received[0], worker.received.substr(kFrameHeaderBytes, length)};
  worker.received.erase(0, kFrameHeaderBytes + length);
  return frame;
}

// Reads what the worker has sent; returns false at the end of its results (it exited or died).
bool receive(Worker& worker) {
  char buffer[65536];
  const ssize_t n = ::read(worker.result_fd, buffer, sizeof(buffer));
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  worker.received.append(buffer, static_cast<std::size_t>(n));
  return true;
}

void stop_if_interrupted() {
  if (InterruptGuard::requested()) {
    throw Interrupted("stopped by signal " + std::to_string(InterruptGuard::signal_number()));
  }
}

void run_serially(std::size_t task_count, const PoolTask& task, const PoolResult& on_done) {
  for (std::size_t i = 0; i < task_count; ++i) {
    stop_if_interrupted();
    std::string result;
    try {
      result = task(i);
    } catch (const std::exception& error) {
      throw std::runtime_error("point " + std::to_string(i) + ": " + error.what());
    }
    on_done(i, result);
  }
}

// SIGPIPE ignored while the pool runs: a worker that dies before reading its next task index must show up
// as a dead worker (the end of its results), not kill this process.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() { ::sigaction(SIGPIPE, &ignore_, &previous_); }
  ~IgnoreSigpipe() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  struct sigaction ignore_ = make_ignore();
  struct sigaction previous_ {};
  static struct sigaction make_ignore() {
    struct sigaction action {};
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    return action;
  }
};

// The parent's side: hands out task indices in order and collects the frames.
class Pool {
 public:
  Pool(std::size_t task_count, unsigned jobs, const PoolTask& task, const PoolResult& on_done)
      : task_count_(task_count), jobs_(jobs), task_(task), on_done_(on_done) {}
  ~Pool() { stop_all(workers_); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  void run() {
    while (next_ < task_count_ || !workers_.empty()) {
      stop_if_interrupted();
      while (next_ < task_count_ && workers_.size() < jobs_) {
        workers_.push_back(start_worker(task_, workers_));
        assign(workers_.back());
      }
      wait_for_results();
    }
  }

 private:
  void assign(Worker& worker) {
    const std::uint64_t index = next_++;
    worker.task = index;
    if (!write_all(worker.task_fd, &index, sizeof index)) worker_died(worker);
  }

  void wait_for_results() {
    std::vector<pollfd> polled;
    for (const Worker& w : workers_) polled.push_back({w.result_fd, POLLIN, 0});
    if (::poll(polled.data(), polled.size(), -1) < 0) {
      if (errno == EINTR) return;
      throw std::runtime_error(std::string("waiting for workers failed: ") + std::strerror(errno));
    }
    for (std::size_t i = workers_.size(); i-- > 0;) {
      if (polled[i].revents == 0) continue;
      if (!receive(workers_[i])) worker_died(workers_[i]);
      // One task is in flight per worker, so there is at most one frame.
      if (auto frame = take_frame(workers_[i])) finish_task(i, frame->first, frame->second);
    }
  }

  // Delivers a task's result, then gives the worker its next task or retires it (removing it from
  // workers_, which the caller walks backwards).
  void finish_task(std::size_t worker_index, char kind, const std::string& payload) {
    Worker& worker = workers_[worker_index];
    const std::size_t task = worker.task;
    ++worker.tasks_done;
    if (kind != 'O') throw std::runtime_error("point " + std::to_string(task) + ": " + payload);
    on_done_(task, payload);
    if (next_ < task_count_ && worker.tasks_done < kTasksPerWorker && !InterruptGuard::requested()) {
      assign(worker);
      return;
    }
    retire(worker);
    workers_.erase(workers_.begin() + static_cast<std::ptrdiff_t>(worker_index));
  }

  std::size_t task_count_;
  unsigned jobs_;
  const PoolTask& task_;
  const PoolResult& on_done_;
  std::size_t next_ = 0;
  std::vector<Worker> workers_;
};

}  // namespace

unsigned available_cores() {
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {

// Progress is the pool's alone while it runs: tasks (and the workers forked from here) show none.
class PoolProgress {
 public:
  PoolProgress(std::size_t task_count, const std::string& what)
      : shown_before_(progress_shown()), task_count_(task_count), display_(what, shown_before_ && !what.empty()) {
    set_progress_shown(false);
  }
  ~PoolProgress() { set_progress_shown(shown_before_); }
  PoolProgress(const PoolProgress&) = delete;
  PoolProgress& operator=(const PoolProgress&) = delete;
  void task_done() {
    ++done_;
    if (!display_.enabled()) return;
    display_.update(static_cast<double>(done_) / static_cast<double>(task_count_),
                    fmt::format("{} of {} done", done_, task_count_));
    if (done_ == task_count_) display_.finish(fmt::format("{} done", task_count_));
  }

 private:
  bool shown_before_;
  std::size_t task_count_, done_ = 0;
  ProgressDisplay display_;
};

}  // namespace

void run_in_processes(std::size_t task_count, unsigned jobs, const PoolTask& task, const PoolResult& on_done,
                      const std::string& progress_what) {
  PoolProgress progress(task_count, progress_what);
  const PoolResult counted = [&](std::size_t index, const std::string& result) {
    on_done(index, result);
    progress.task_done();
  };
  if (jobs <= 1 || task_count <= 1) return run_serially(task_count, task, counted);
  const IgnoreSigpipe ignore_sigpipe;
  Pool(task_count, jobs, task, counted).run();
}

}  // namespace ergon
