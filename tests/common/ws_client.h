#pragma once
// A small blocking WebSocket client for the tests of a running server (tests/server, the crash
// test of tests/db, the bot client's tests; Beast, loopback only). Every wait has a timeout, so a
// broken server fails a test instead of hanging it. Beast is compiled once, in ws_client.cpp:
// the units that use the client include no Boost header.

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/codec.h"

namespace arena::server::testing {

using protocol::Json;
using Headers = std::vector<std::pair<std::string, std::string>>;

class WsClient {
 public:
  // `receive_buffer` > 0: the socket's receive buffer in bytes (a small one makes a client
  // that does not read fill the server's queue soon).
  explicit WsClient(unsigned short port, Headers headers = {}, int receive_buffer = 0);
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  bool open() const;
  int handshake_status() const;
  std::string set_cookie() const;

  void send_text(const std::string& text);
  void send(const Json& j) { send_text(j.dump()); }
  void send_binary(const std::string& bytes);

  // The next message, or nullopt on timeout or close (closed() tells which).
  std::optional<Json> recv(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // The first message (buffered or new) that satisfies `pred`; others stay buffered.
  Json wait_for(const std::function<bool(const Json&)>& pred, const std::string& what,
                std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // The latest lobby update if it satisfies `pred` (updates read while waiting for something
  // else are not buffered, only remembered), else the next one that does.
  Json lobby_where(const std::function<bool(const Json&)>& pred, const std::string& what);
  Json expect(const std::string& type);
  Json expect_error(const std::string& code);
  // Round trip: everything the server sent before the pong has arrived afterwards.
  void sync();
  // Buffered messages of `type` (dropping lobby updates).
  std::vector<Json> drain(const std::string& type);

  Json hello(const std::string& name, const std::string& resume = "");

  bool closed() const { return closed_; }
  int close_code() const;
  std::string close_reason() const;
  void close();
  void drop();

 private:
  struct Transport;  // Beast's stream and its io_context (ws_client.cpp)

  std::optional<Json> read(std::chrono::milliseconds timeout);

  std::unique_ptr<Transport> transport_;
  std::deque<Json> backlog_;
  Json last_lobby_;
  bool closed_ = false;
};

}  // namespace arena::server::testing
