// run_clingo (clingo.h): clingo as a child process, bounded in time, memory and output.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "games/gdl/library/clingo.h"

namespace arena::gdl {
namespace {

using Clock = std::chrono::steady_clock;

std::string install_hint(const std::string& program) {
  return "cannot run clingo ('" + program + "'): %s; install it with: apt-get install gringo";
}

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// The program in a temporary file, removed when it goes out of scope.
class TempFile {
 public:
  ~TempFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  Expected<std::string> write(const std::string& text) {
    std::string pattern = (std::filesystem::temp_directory_path() / "arena-asp-XXXXXX.lp").string();
    Fd fd(::mkstemps(pattern.data(), 3));
    if (fd.get() < 0)
      return make_error("cannot create a temporary file for clingo: " +
                        std::string(std::strerror(errno)));
    path_ = pattern;
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return make_error("cannot write " + path_ + ": " + std::strerror(errno));
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }

 private:
  std::string path_;
};

bool make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  return true;
}

// In the child: only async-signal-safe calls until exec.
[[noreturn]] void exec_child(char* const* argv, int out_fd, int err_fd, int status_fd,
                             rlim_t memory_bytes) {
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  const int devnull = ::open("/dev/null", O_RDONLY);
  if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
  if (memory_bytes > 0) {
    const rlimit limit{memory_bytes, memory_bytes};
    ::setrlimit(RLIMIT_AS, &limit);
  }
  ::execvp(argv[0], argv);
  const int error = errno;
  [[maybe_unused]] const ssize_t n = ::write(status_fd, &error, sizeof error);
  ::_exit(127);
}

// Reads stdout and stderr until both close or the deadline passes; false on the deadline.
Expected<bool> collect(int out_fd, int err_fd, Clock::time_point deadline, std::size_t max_bytes,
                       ClingoRun& run) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&run.output, &run.errors};
  int open = 2;
  char buffer[1 << 16];
  while (open > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR)
      return make_error(std::string("poll: ") + std::strerror(errno));
    for (int i = 0; i < 2 && ready > 0; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open;
        continue;
      }
      sinks[i]->append(buffer, static_cast<std::size_t>(n));
      if (sinks[i]->size() > max_bytes)
        return make_error("clingo printed more than " + std::to_string(max_bytes) + " bytes");
    }
  }
  return true;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

Expected<ClingoRun> run_clingo(const std::string& program_text, const ClingoOptions& options) {
  const auto start = Clock::now();
  TempFile file;
  auto path = file.write(program_text);
  if (!path) return make_error(path.error());

  std::vector<std::string> args{options.program};
  args.insert(args.end(), options.arguments.begin(), options.arguments.end());
  args.push_back(*path);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  Fd out_read, out_write, err_read, err_write, status_read, status_write;
  if (!make_pipe(out_read, out_write) || !make_pipe(err_read, err_write) ||
      !make_pipe(status_read, status_write))
    return make_error(std::string("cannot create pipes for clingo: ") + std::strerror(errno));
  const rlim_t memory = static_cast<rlim_t>(options.max_memory_mb) << 20;
  const pid_t pid = ::fork();
  if (pid < 0) return make_error(std::string("cannot start clingo: ") + std::strerror(errno));
  if (pid == 0)
    exec_child(argv.data(), out_write.get(), err_write.get(), status_write.get(), memory);
  out_write.reset();
  err_write.reset();
  status_write.reset();

  // The status pipe closes on exec (O_CLOEXEC); bytes on it are exec's errno.
  int exec_error = 0;
  ssize_t got = 0;
  while ((got = ::read(status_read.get(), &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    wait_for(pid);
    std::string message = install_hint(options.program);
    message.replace(message.find("%s"), 2, std::strerror(exec_error));
    return make_error(message);
  }

  ClingoRun run;
  const double limit = std::isfinite(options.timeout_seconds) && options.timeout_seconds > 0
                           ? std::min(options.timeout_seconds, 1e6)
                           : 60.0;
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
  auto finished = collect(out_read.get(), err_read.get(), deadline, options.max_output_bytes, run);
  if (!finished || !*finished) {
    ::kill(pid, SIGKILL);
    wait_for(pid);
    if (!finished) return make_error(finished.error());
    return make_error("clingo did not finish within " + std::to_string(limit) +
                      " s (time limit); raise the timeout or simplify the sheet");
  }
  const int status = wait_for(pid);
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return make_error(
        "clingo was killed by signal " + std::to_string(signal) +
        (signal == SIGKILL || signal == SIGSEGV || signal == SIGABRT
             ? " (out of memory? its limit is " + std::to_string(options.max_memory_mb) + " MB)"
             : std::string()) +
        ": " + run.errors.substr(0, 500));
  }
  run.exit_code = WEXITSTATUS(status);
  return run;
}

}  // namespace arena::gdl
