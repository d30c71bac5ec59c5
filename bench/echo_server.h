#pragma once
// EchoServer: the references for bench/server_load and bench/store, plain Boost.Beast WebSocket
// servers on loopback with the same library, sockets and thread count as the arena server:
//   - echo (kEcho): every message goes back unchanged to its sender, the cheapest thing a
//     WebSocket server can do per message. "arena moves/s divided by echo messages/s" says
//     what the arena's work per move costs on this machine, in this run.
//   - forward (kPairs): connections pair up (each sends "pair K" first; the two with the same
//     K are partners and each is sent "paired"), and every later message goes to its sender
//     and to its partner, unchanged, through the arena's own write path: the input and output
//     a relayed move needs at the least (one read, a write to each of the two seats) with no
//     game behind it. "forward messages/s divided by echo messages/s" is the ratio a relay
//     could reach if it did nothing else.

#include <memory>

namespace arena::bench {

enum class EchoMode { kEcho, kPairs };

class EchoServer {
 public:
  // Listens on 127.0.0.1 at a free port with `threads` I/O threads.
  explicit EchoServer(int threads, EchoMode mode = EchoMode::kEcho);
  ~EchoServer();  // closes the listener and every session, joins the threads
  EchoServer(const EchoServer&) = delete;
  EchoServer& operator=(const EchoServer&) = delete;

  unsigned short port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena::bench
