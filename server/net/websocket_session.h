#pragma once
// WebSocketSession: one client on /ws. Reads frames (up to protocol::kMaxMessageBytes a
// message, idle timeout with pings) and hands each text to the hub (ClientEvents). send() puts a
// message in an outbox; the messages sent before the session's strand gets to them leave in one
// socket write (game_start and the first state, for one), and so do the messages queued while a
// socket write is under way (WriteBehindStream). What waits has a cap: a client that does not
// read is closed, never waited for.
//
// Every close the server makes sends a code and a reason, and is logged with the peer's address:
// 1009 a message over the size limit, 1008 a client that does not read (the queue's cap), 1011
// an exception while handling a message, 1001 the server shutting down. A close waits at most
// kCloseGrace for the client, then the socket is closed. fail() logs what it drops (the
// messages still queued) when a connection ends.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "server/core/client_events.h"
#include "server/core/connection.h"
#include "server/net/write_behind_stream.h"

namespace arena::server {

inline constexpr std::size_t kMaxQueuedMessages = 4096;
// How long a close the server starts may wait for the client: a client that does not read
// never lets the close frame out (it waits behind the answers it left unread), and while the
// close waits nothing is read, so its own writes would block until the idle timeout. After
// this the socket is closed outright.
inline constexpr std::chrono::milliseconds kCloseGrace{5000};
// Lag probes: a message from the client is followed by a ping of ours (payload "lag N") at most
// this often; its pong gives the connection's round trip (Connection::measured_lag_ms, what
// a move's clock is credited: GameClock's LagRule). Idle connections send nothing and cost
// nothing more than Beast's keep-alive pings.
inline constexpr std::chrono::milliseconds kLagProbeInterval{1000};

class WebSocketSession final : public Connection,
                               public std::enable_shared_from_this<WebSocketSession> {
 public:
  // `events`: the hub. `idle_timeout`: a client that sent nothing for this long is closed
  // (pinged at half of it). `slot`: the connection's place under the per-address cap, held
  // while the session lives.
  WebSocketSession(boost::beast::tcp_stream&& stream, std::shared_ptr<ClientEvents> events,
                   std::chrono::milliseconds idle_timeout, std::shared_ptr<void> slot = nullptr);

  // Accepts the upgrade `request`; `set_cookie` (if not empty) goes into the response.
  void run(boost::beast::http::request<boost::beast::http::string_body> request,
           std::string set_cookie);

  void send(Text text) override;
  void close_going_away() override;
  void close_for_policy(std::string reason) override;
  void close_now() override;
  void continue_reading(std::function<void()> step) override;
  void probe_turn() override;

 private:
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  // On the strand: frames what the outbox holds and sends it.
  void drain();
  // Sends a close frame with `code` and `reason` (logged with the peer); the hub hears of the
  // end when the close completes or the read fails.
  void close_with(boost::beast::websocket::close_code code, std::string_view reason);
  // On the strand: closes the socket without a close handshake (pending operations fail).
  void close_socket();
  void fail(boost::beast::error_code ec, std::string_view during);
  // On the strand: sends a lag probe unless one went out less than kLagProbeInterval ago.
  void probe_lag();
  // On the strand: a lag probe timed from `sent`, unless one is being written.
  void send_probe(std::chrono::steady_clock::time_point sent);
  // From a read, on the strand: a pong that answers our last probe gives a round trip.
  void on_control_frame(boost::beast::websocket::frame_type kind, std::string_view payload);

  boost::beast::websocket::stream<WriteBehindStream> ws_;
  boost::asio::steady_timer close_deadline_;  // kCloseGrace after close_with
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<ClientEvents> hub_;
  std::chrono::milliseconds idle_timeout_;
  std::string peer_;  // "address:port", for the log
  std::shared_ptr<void> slot_;
  bool open_ = false, closed_ = false;
  // Lag probes (on the strand): the last probe's payload and time, and its estimate so far.
  bool probe_writing_ = false;  // our async_ping has not completed
  std::uint64_t probes_ = 0;
  std::string probe_payload_;
  std::chrono::steady_clock::time_point probe_sent_{};
  std::int64_t round_trip_ms_ = -1;
  std::mutex outbox_mutex_;
  std::vector<Text> outbox_;   // guarded by outbox_mutex_
  bool drain_posted_ = false;  // guarded by outbox_mutex_
};

}  // namespace arena::server
