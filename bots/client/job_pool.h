#pragma once
// A small fixed pool of worker threads for searches, so the I/O thread never waits on one.
// Jobs run in submission order on the first free worker; the destructor finishes the queued
// jobs and joins.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace arena::client {

class JobPool {
 public:
  explicit JobPool(int threads);
  ~JobPool();
  JobPool(const JobPool&) = delete;
  JobPool& operator=(const JobPool&) = delete;

  void submit(std::function<void()> job);

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool closing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace arena::client
