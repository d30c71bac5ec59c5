// league/child_process.h: the processes a local league starts (its server and bots), and
// league/server_league.h's refusals before it starts any.

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "league/child_process.h"
#include "league/server_league.h"
#include "tests/db/temp_dir.h"

namespace arena::league {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int wait_for_exit(ChildProcess& p) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto code = p.poll()) return *code;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

// The child's output is appended to the log, it sees the variables given (over the
// environment's own) and the rest of the environment, and poll() gives its exit code.
TEST(ChildProcess, LogsOutputPassesTheEnvironmentAndGivesTheExitCode) {
  const std::string log = arena::test::scratch_file("child_process_log.txt");
  std::filesystem::remove(log);
  std::ofstream(log) << "before\n";
  ::setenv("ARENA_CHILD_TEST_KEPT", "kept", 1);
  ::setenv("ARENA_CHILD_TEST_SET", "old", 1);
  auto p = ChildProcess::spawn(
      {"/bin/sh", "-c", "echo out $ARENA_CHILD_TEST_SET $ARENA_CHILD_TEST_KEPT; echo err >&2; exit 3"},
      log, {{"ARENA_CHILD_TEST_SET", "new"}});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(wait_for_exit(*p), 3);
  EXPECT_EQ(read_all(log), "before\nout new kept\nerr\n");
  EXPECT_EQ(p->terminate(), 3);  // already ended: its status again
}

// terminate() stops a child that runs on with SIGTERM; one that ignores it gets SIGKILL after
// the grace period.
TEST(ChildProcess, TerminateStopsItThenKillsItIfItHoldsOn) {
  const std::string log = arena::test::scratch_file("child_process_term.txt");
  auto p = ChildProcess::spawn({"/bin/sleep", "30"}, log);
  ASSERT_TRUE(p) << p.error();
  EXPECT_FALSE(p->poll());
  EXPECT_EQ(p->terminate(std::chrono::seconds(10)), 128 + SIGTERM);
  auto stubborn = ChildProcess::spawn(
      {"/bin/sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"}, log);
  ASSERT_TRUE(stubborn) << stubborn.error();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the trap is set
  EXPECT_EQ(stubborn->terminate(std::chrono::milliseconds(200)), 128 + SIGKILL);
}

// A program that cannot be run exits 127 in the child; a log that cannot be written and an
// empty argv are refused before any fork.
TEST(ChildProcess, WhatCannotRunIsSaid) {
  const std::string log = arena::test::scratch_file("child_process_bad.txt");
  auto missing = ChildProcess::spawn({"/nonexistent/arena"}, log);
  ASSERT_TRUE(missing) << missing.error();
  EXPECT_EQ(wait_for_exit(*missing), 127);
  auto no_log = ChildProcess::spawn({"/bin/true"}, "/nonexistent/dir/log.txt");
  ASSERT_FALSE(no_log);
  EXPECT_NE(no_log.error().find("cannot write /nonexistent/dir/log.txt"), std::string::npos);
  auto empty = ChildProcess::spawn({}, log);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().find("no program"), std::string::npos);
}

TEST(ChildProcess, AFreeLoopbackPortCanBeBound) {
  auto port = free_loopback_port();
  ASSERT_TRUE(port) << port.error();
  EXPECT_GT(*port, 0);
  EXPECT_FALSE(self_executable().empty());
}

// A league through a server: a remote one needs a token; a local one whose server cannot
// start says so with the server's log, and no process is left behind.
TEST(ServerLeague, RefusesWhatCannotRun) {
  tournament::LeagueConfig config;
  config.name = "server-league-test";
  config.game = "tictactoe";
  config.players = {{.name = "a", .spec = "random"}, {.name = "b", .spec = "random"}};
  ServerLeagueOptions remote;
  remote.server = "http://127.0.0.1:1";
  auto no_token = run_league_on_server(config, remote);
  ASSERT_FALSE(no_token);
  EXPECT_NE(no_token.error().find("--server needs a bot token"), std::string::npos)
      << no_token.error();
  ServerLeagueOptions local;
  local.db = arena::test::scratch_file("server_league_test.db");
  local.arena_binary = "/nonexistent/arena";
  auto no_server = run_league_on_server(config, local);
  ASSERT_FALSE(no_server);
  EXPECT_NE(no_server.error().find("the server exited (127) at its start"), std::string::npos)
      << no_server.error();
}

}  // namespace
}  // namespace arena::league
