// Start-up checks: a database that cannot be written is refused at open with a message naming
// the file, not discovered at the first move. Where a check needs the OS to refuse writes it
// runs in a forked child, so that limits and identities do not leak into other tests.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <future>
#include <string>

#include "db/sqlite_store.h"
#include "tests/db/temp_dir.h"

namespace arena::db {
namespace {

// Runs `body` in a child process and returns what it returned (through a pipe).
std::string in_child(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const std::string out = body();
    (void)!write(fds[1], out.data(), out.size());
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

std::string open_error(const std::string& path, const SqliteOptions& options = {}) {
  auto store = open_sqlite_store(path, options);
  return store ? "opened" : store.error();
}

void create_database(const std::string& path) {
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
}

// A file without write permission. As root, permissions do not stop writes, so the open runs in
// a child that has dropped to the unprivileged user 65534 (nobody): the check then faces the
// same refusal the kernel gives any ordinary user of a 0444 file.
TEST(StoreOpen, ReadOnlyFileIsRefusedNamingIt) {
  test::TempDir dir("arena-db-", "/tmp");  // user 65534 must reach it: not under TMPDIR
  const std::string path = dir.file("ro.db");
  create_database(path);
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
  const std::string error = in_child([&] {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
      return std::string("setuid failed");
    return open_error(path);
  });
  EXPECT_NE(error.find("cannot write database " + path), std::string::npos) << error;
  EXPECT_NE(error.find("read-only"), std::string::npos) << error;
}

// A full disk, simulated with RLIMIT_FSIZE (the kernel refuses writes past the limit for root
// too): the store's first write, creating the schema, fails and the open reports it.
TEST(StoreOpen, FullDiskIsRefusedAtOpen) {
  test::TempDir dir;
  const std::string path = dir.file("full.db");
  const std::string error = in_child([&] {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{0, RLIM_INFINITY};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return std::string("setrlimit failed");
    return open_error(path);
  });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("cannot"), std::string::npos) << error;
  EXPECT_NE(error.find("File too large"), std::string::npos) << error;
}

// The same limit reached after the open: the write fails through its callback with an error
// that names the file (the move journal's, or without it the database's), and the process
// goes on (no crash mid-game).
TEST(StoreOpen, WriteFailureLaterIsReportedToTheCallback) {
  for (const bool journal : {true, false}) {
    SCOPED_TRACE(journal ? "with the move journal" : "without the move journal");
    test::TempDir dir;
    const std::string path = dir.file("later.db");
    const std::string result = in_child([&] {
      SqliteOptions options;
      options.move_journal = journal;
      auto store = open_sqlite_store(path, options);
      if (!store) return "open failed: " + store.error();
      auto a = (*store)->find_or_create_player("a", true);
      auto game = (*store)->create_game({"chess", "", "", a->id, a->id, "none", 0, {}, 0, 0});
      signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{1, RLIM_INFINITY};
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return std::string("setrlimit failed");
      std::promise<Expected<void>> done;
      MoveRecord move;
      move.game = *game;
      move.move = "e2e4";
      (*store)->append_move(move, [&](Expected<void> r) { done.set_value(std::move(r)); });
      auto r = done.get_future().get();
      return r ? std::string("write succeeded") : "callback error: " + r.error();
    });
    const std::string expected = journal ? "callback error: cannot write the move journal " + path
                                         : "callback error: cannot write database " + path;
    EXPECT_NE(result.find(expected), std::string::npos) << result;
    if (journal) {
      EXPECT_NE(result.find("File too large"), std::string::npos) << result;
    }
  }
}

TEST(StoreOpen, TooLittleFreeSpaceIsRefused) {
  test::TempDir dir;
  const std::string path = dir.file("space.db");
  const std::string error = open_error(path, {.min_free_bytes = ~std::uint64_t{0}});
  EXPECT_NE(error.find("cannot write database " + path), std::string::npos) << error;
  EXPECT_NE(error.find("bytes free"), std::string::npos) << error;
}

TEST(StoreOpen, MissingDirectoryIsNamed) {
  const std::string path = "/nonexistent-arena-dir/x.db";
  const std::string error = open_error(path);
  EXPECT_NE(error.find("cannot open database " + path), std::string::npos) << error;
}

TEST(StoreOpen, FileThatIsNotADatabaseIsNamed) {
  test::TempDir dir;
  const std::string path = dir.file("text.db");
  std::ofstream(path) << "this is a plain text file, long enough to fill a header of sqlite.....\n";
  const std::string error = open_error(path);
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("not a database"), std::string::npos) << error;
}

}  // namespace
}  // namespace arena::db
