#include "bench/proc_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace arena::bench {

double rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  double pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

MachineCpu machine_cpu() {
  MachineCpu m;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::ifstream stat("/proc/stat");
  std::string cpu;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal &&
      cpu == "cpu") {
    m.busy = (user + nice + system + irq + softirq) / tick;
    m.steal = steal / tick;
    m.total = m.busy + m.steal + (idle + iowait) / tick;
  }
  std::ifstream self("/proc/self/stat");
  std::string line;
  if (std::getline(self, line)) {
    // Fields 14 and 15 (utime, stime) counted from after the ")" that closes the comm.
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 14) utime = std::atof(field.c_str());
      if (i == 15) stime = std::atof(field.c_str());
    }
    m.self = (utime + stime) / tick;
  }
  return m;
}

double thread_cpu_seconds(const std::string& name) {
  namespace fs = std::filesystem;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  double total = 0;
  std::error_code ec;
  for (const auto& task : fs::directory_iterator("/proc/self/task", ec)) {
    std::ifstream comm(task.path() / "comm");
    std::string thread_name;
    if (!std::getline(comm, thread_name) || thread_name != name) continue;
    // /proc/<pid>/task/<tid>/schedstat starts with the thread's time on a CPU in nanoseconds;
    // stat's utime and stime count 10 ms ticks, too coarse for runs of a second.
    std::ifstream schedstat(task.path() / "schedstat");
    long long on_cpu_ns = 0;
    if (schedstat >> on_cpu_ns) {
      total += static_cast<double>(on_cpu_ns) / 1e9;
      continue;
    }
    // Without schedstat: "tid (comm) state ..." then utime and stime are fields 14 and 15;
    // the comm may hold spaces, so count from the closing parenthesis.
    std::ifstream stat_file(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int k = 3; k <= 15 && fields >> field; ++k) {
      if (k == 14) utime = std::stod(field);
      if (k == 15) stime = std::stod(field);
    }
    total += (utime + stime) / ticks;
  }
  return total;
}

std::uint64_t raise_fd_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

}  // namespace arena::bench
