#pragma once
// Connection: what the hub knows of one client, without Beast. The WebSocket session
// implements send/close; the hub keeps the protocol state here.
//
// Threading: send(), close_going_away() and continue_reading() are thread-safe. The protocol
// fields are written only by Hub::on_message/on_open/on_close, which the session calls on its
// strand, and by the steps the hub passes to continue_reading; the owners the hub routes to
// read `player` and `protocol` from any thread once the hello is done.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "protocol/codec.h"
#include "protocol/messages.h"
#include "server/match/match.h"

namespace arena::server {

class Connection;

// Answers for one client: sends to `c` while it is open (a Reply may outlive the connection).
Reply reply_to(const std::shared_ptr<Connection>& c);
// Sends `c` an error message naming `ref`, the type of the message it refuses.
void send_error(const std::shared_ptr<Connection>& c, protocol::ErrorCode code,
                const std::string& message, std::string_view ref);

// Token bucket: `rate` messages per second sustained, `burst` at once. It also counts the
// messages it refused since the last pause of protocol::kFloodQuietMs between two refusals:
// flooding() says a connection went on sending far above the rate (the hub closes it).
class RateLimiter {
 public:
  RateLimiter(int rate, int burst) : rate_(rate), burst_(burst), tokens_(burst * 1000LL) {}
  bool allow(std::int64_t now_ms) {
    if (last_ms_ >= 0)
      tokens_ = std::min<std::int64_t>(burst_ * 1000LL, tokens_ + (now_ms - last_ms_) * rate_);
    last_ms_ = now_ms;
    if (tokens_ >= 1000) {
      tokens_ -= 1000;
      return true;
    }
    if (last_drop_ms_ < 0 || now_ms - last_drop_ms_ > protocol::kFloodQuietMs) dropped_ = 0;
    last_drop_ms_ = now_ms;
    ++dropped_;
    return false;
  }
  bool flooding() const { return dropped_ > protocol::kMaxDroppedMessages; }
  std::int64_t dropped() const { return dropped_; }

 private:
  int rate_, burst_;
  std::int64_t tokens_;  // thousandths of a message
  std::int64_t last_ms_ = -1;
  std::int64_t dropped_ = 0;  // refused since the last quiet pause
  std::int64_t last_drop_ms_ = -1;
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual void send(Text text) = 0;
  // Closes with the WebSocket "going away" code (server shutdown).
  virtual void close_going_away() = 0;
  // Closes the socket without a handshake (a client that did not answer the close in time).
  virtual void close_now() = 0;
  // Closes with 1008 (policy violation) and `reason` (a flood: RateLimiter::flooding).
  virtual void close_for_policy(std::string reason) = 0;
  // Reading stops after the message being handled when Hub::on_message sets `reading_paused`
  // (it waits for the store); the messages that follow wait in the socket, in order. This
  // runs `step` where on_message runs (the session's strand), then reads on.
  virtual void continue_reading(std::function<void()> step) = 0;
  // A player is about to be sent its turn: the transport measures the round trip from now
  // (a ping sent ahead of the turn, answered before any move), so the turn's own delivery is
  // what its move is credited (measured_lag_ms). Transports that cannot measure do nothing.
  virtual void probe_turn() {}

  // Set by the transport before on_open.
  std::optional<protocol::PlayerInfo> bot;  // authenticated by a bearer token
  std::string cookie_token;                 // the arena_session cookie, if any
  // The upgrade carried an Origin header (a browser's page): its session is the HttpOnly
  // cookie alone, so the welcome carries no session token for a script to read.
  bool browser = false;
  // The client's IP address as the socket has it ("" in tests without a socket): new guests
  // are limited per address (HubConfig::guest_logins_per_minute).
  std::string peer_address;

  // Protocol state, owned by the hub.
  bool hello_done = false;
  int protocol = 0;  // the protocol version its hello asked for (welcome says it back)
  bool reading_paused = false;  // see continue_reading
  protocol::PlayerInfo player;
  std::string session_token;
  std::optional<protocol::Engine> engine;  // the hello's, until it is recorded
  RateLimiter limiter{protocol::kMaxMessagesPerSecond, protocol::kMaxMessageBurst};
  // The last lobby version this connection was sent; guarded by Presence's mutex.
  std::uint64_t lobby_seen = 0;

  // The connection's round trip as the transport measured it (WebSocket pings and their
  // pongs: websocket_session.h), in ms; nullopt until the first answer. What a move's clock
  // is credited (GameClock's LagRule); a client cannot set it. Thread-safe.
  std::optional<std::int64_t> measured_lag_ms() const {
    const std::int64_t ms = measured_lag_ms_.load(std::memory_order_relaxed);
    return ms < 0 ? std::nullopt : std::optional<std::int64_t>(ms);
  }

 protected:
  void set_measured_lag_ms(std::int64_t ms) {
    measured_lag_ms_.store(ms < 0 ? 0 : ms, std::memory_order_relaxed);
  }

 private:
  std::atomic<std::int64_t> measured_lag_ms_{-1};
};

}  // namespace arena::server
