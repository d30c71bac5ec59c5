#pragma once
// What the benchmarks read of this process and the machine from /proc: memory, the CPU time of
// named threads, the machine's CPU time (stolen and used by others), and the fd limit.

#include <cstdint>
#include <string>

namespace arena::bench {

// Resident set size of this process in bytes (/proc/self/statm), 0 if unavailable.
double rss_bytes();
// CPU seconds used so far by this process's threads named `name` (schedstat's nanoseconds;
// stat's 10 ms ticks where schedstat is missing).
double thread_cpu_seconds(const std::string& name);

// The machine's CPU time so far, from /proc/stat's "cpu" line, in seconds over all CPUs; and
// this process's own (user + system, all threads).
struct MachineCpu {
  double total = 0, steal = 0, busy = 0;  // busy: neither idle, iowait nor steal
  double self = 0;
};
MachineCpu machine_cpu();

// Raises RLIMIT_NOFILE's soft limit to the hard limit and returns the soft limit now in force.
std::uint64_t raise_fd_limit();

}  // namespace arena::bench
