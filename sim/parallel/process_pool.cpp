#include "sim/parallel/process_pool.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sim/parallel/interrupt.hpp"

namespace ergon {
namespace {

struct Worker {
  std::size_t task = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string output;  // first byte: 'O' result follows, 'E' error message follows
};

void write_all(int fd, const std::string& data) {
  for (std::size_t sent = 0; sent < data.size();) {
    const ssize_t n = ::write(fd, data.data() + sent, data.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    sent += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void run_child(int fd, std::size_t index, const PoolTask& task) {
  std::string message;
  try {
    message = "O" + task(index);
  } catch (const std::exception& error) {
    message = std::string("E") + error.what();
  } catch (...) {
    message = "Eunknown error";
  }
  write_all(fd, message);
  ::close(fd);
  std::fflush(nullptr);
  ::_exit(0);  // no destructors: the parent owns every shared resource
}

Worker start_worker(std::size_t index, const PoolTask& task) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // or the child would flush the parent's buffered output again
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1], index, task);
  }
  ::close(fds[1]);
  return {index, pid, fds[0], {}};
}

void stop_all(std::vector<Worker>& workers) {
  for (Worker& w : workers) {
    ::kill(w.pid, SIGKILL);
    ::close(w.fd);
    ::waitpid(w.pid, nullptr, 0);
  }
  workers.clear();
}

// Reads what is available; returns true when the worker has finished (end of its pipe).
bool drain(Worker& worker) {
  char buffer[65536];
  const ssize_t n = ::read(worker.fd, buffer, sizeof(buffer));
  if (n < 0 && errno == EINTR) return false;
  if (n > 0) {
    worker.output.append(buffer, static_cast<std::size_t>(n));
    return false;
  }
  return true;
}

std::string finish(Worker& worker) {
  ::close(worker.fd);
  int status = 0;
  ::waitpid(worker.pid, &status, 0);
  const std::string where = "point " + std::to_string(worker.task);
  if (worker.output.empty() || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(where + ": its worker process died" +
                             (WIFSIGNALED(status) ? " (signal " + std::to_string(WTERMSIG(status)) + ")" : ""));
  }
  if (worker.output[0] == 'E') throw std::runtime_error(where + ": " + worker.output.substr(1));
  return worker.output.substr(1);
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

}  // namespace

unsigned available_cores() {
  return std::max(1u, std::thread::hardware_concurrency());
}

void run_in_processes(std::size_t task_count, unsigned jobs, const PoolTask& task, const PoolResult& on_done) {
  if (jobs <= 1 || task_count <= 1) return run_serially(task_count, task, on_done);
  std::vector<Worker> workers;
  std::size_t next = 0;
  try {
    while (next < task_count || !workers.empty()) {
      stop_if_interrupted();
      while (next < task_count && workers.size() < jobs) workers.push_back(start_worker(next++, task));
      std::vector<pollfd> polled;
      for (const Worker& w : workers) polled.push_back({w.fd, POLLIN, 0});
      if (::poll(polled.data(), polled.size(), -1) < 0 && errno != EINTR) {
        throw std::runtime_error(std::string("waiting for workers failed: ") + std::strerror(errno));
      }
      for (std::size_t i = workers.size(); i-- > 0;) {
        if (polled[i].revents == 0 || !drain(workers[i])) continue;
        Worker done = workers[i];
        workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(i));
        on_done(done.task, finish(done));
      }
    }
  } catch (...) {
    stop_all(workers);
    throw;
  }
}

}  // namespace ergon
