#pragma once
// EchoServer: the reference for bench/server_load and bench/store. A plain Boost.Beast
// WebSocket server on loopback that sends every message back unchanged: the cheapest thing a
// WebSocket server can do per message with the same library, sockets and thread count as the
// arena server, so "arena moves/s divided by echo messages/s" says what the arena's work per
// move (parsing, rules, store, three messages out) costs on this machine, in this run.

#include <memory>

namespace arena::bench {

class EchoServer {
 public:
  // Listens on 127.0.0.1 at a free port with `threads` I/O threads.
  explicit EchoServer(int threads);
  ~EchoServer();  // closes the listener and every session, joins the threads
  EchoServer(const EchoServer&) = delete;
  EchoServer& operator=(const EchoServer&) = delete;

  unsigned short port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena::bench
