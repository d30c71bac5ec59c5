#pragma once
// The nice value of this process's thread called `name` (-100 if there is none), read from
// /proc/self/task/*/stat: the store's writer and checkpointer threads are named; and the calling
// thread's own.

#include <sys/resource.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace arena::test {

inline int nice_of_thread(const std::string& name) {
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string c;
    std::getline(comm, c);
    if (c != name) continue;
    std::ifstream stat(task.path() / "stat");
    std::string line;
    std::getline(stat, line);
    // Fields after the ")" that closes the name: state is field 3, nice field 19.
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string field;
    for (int i = 3; i < 19; ++i) rest >> field;
    int nice = 0;
    rest >> nice;
    return nice;
  }
  return -100;
}

// The calling thread's nice value: the threads it creates (the store's) start with it.
inline int own_nice() {
  errno = 0;
  const int n = getpriority(PRIO_PROCESS, 0);
  return n == -1 && errno != 0 ? 0 : n;
}

}  // namespace arena::test
