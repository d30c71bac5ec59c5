#pragma once
// WsConnection: one bot's WebSocket to the server (Boost.Beast, kept out of this header), on
// its own I/O thread, reconnecting with back-off whenever the connection drops (not when the
// server refuses the token: that is final). It carries
// frames only: what they mean is the MessageHandler's business (BotSession).

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "games/core/expected.h"

namespace arena::client {

struct WsUrl {
  std::string host, port, path;
};
// "ws://HOST:PORT[/PATH]" (PATH defaults to /ws); errors name the bad part.
Expected<WsUrl> parse_ws_url(std::string_view url);

class MessageHandler {
 public:
  virtual ~MessageHandler() = default;
  virtual void on_open() = 0;                          // connected (again)
  virtual void on_message(std::string_view text) = 0;  // one text frame
  virtual void on_closed() = 0;                        // the connection dropped
};

class WsConnection {
 public:
  // `token` goes in the upgrade request as "Authorization: Bearer TOKEN" (empty: a guest).
  WsConnection(WsUrl url, std::string token, MessageHandler& handler);
  ~WsConnection();
  WsConnection(const WsConnection&) = delete;
  WsConnection& operator=(const WsConnection&) = delete;

  void start();  // connects on the I/O thread, and keeps reconnecting until stop()
  void stop();   // closes and joins; idempotent
  // Queues a frame on the current connection; dropped if there is none (the session resends
  // what matters after the next hello).
  void send(std::string text);
  // Cuts the TCP connection without a close handshake, as a network failure would (tests).
  void drop();
  int connects() const { return connects_; }
  // The server answered the upgrade 401 or 403 (an unknown or revoked token): the connection
  // stopped trying, and last_error() says why.
  bool refused() const;
  std::string last_error() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::atomic<int> connects_{0};
};

}  // namespace arena::client
