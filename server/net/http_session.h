#pragma once
// HttpSession: one HTTP/1.1 connection. Serves the REST API, /healthz, /metrics and the
// static files of the web root; hands a /ws upgrade to a WebSocketSession. Every read has a
// body limit and a timeout. A browser without the arena_session cookie gets one.
//
// Threading: the session's handlers run on its strand (an I/O thread). What may wait on
// SQLite or the disk (every request's answer: the REST API reads the store, the rest reads
// files; a bot token's check at the upgrade) runs on `blocking`, the server's executor for
// such work, and its result is posted back to the strand: db/store.h's rule that the
// server's I/O threads never wait on the store.
//
// Token guessing: failed token logins are counted per peer address (LoginThrottle, shared by
// the listener's sessions); an address over its limit gets 429 with Retry-After. The bearer
// scheme is case-insensitive (server/api/bearer.h).
//
// The upgrade: an `Origin` that is neither the server's own nor allowed gets 403 naming it
// (origin.h); an upgrade with an Origin is a browser's, whose session is its cookie alone (the
// welcome carries no token for a script to read: Connection::browser). A session cookie that
// is not well-formed is ignored and replaced (http_request.h's session_cookie).
//
// HTTP (RFC 9110): HEAD answers as GET would, headers only (Content-Length that of the GET's
// body); a directory named without its final '/' is redirected (301) to it, one with it serves
// its index.html or 404; only regular files are served.

#include <memory>
#include <optional>
#include <string>

#include <boost/asio/any_io_executor.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "server/core/client_events.h"
#include "server/core/hub_queries.h"
#include "server/net/login_throttle.h"

namespace arena::server {

class HttpSession final : public std::enable_shared_from_this<HttpSession> {
 public:
  // `events` and `queries`: the hub, as the WebSocket sessions and the REST API see it.
  // `slot`: the connection's place under the per-address cap (ConnectionLimit), held as long
  // as the connection lives (handed on to the WebSocketSession at an upgrade).
  HttpSession(boost::asio::ip::tcp::socket&& socket, boost::asio::any_io_executor blocking,
              std::shared_ptr<ClientEvents> events, std::shared_ptr<HubQueries> queries,
              std::string web_root, std::shared_ptr<LoginThrottle> throttle,
              std::shared_ptr<void> slot = nullptr);
  void run();

 private:
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  boost::beast::http::message_generator handle(
      boost::beast::http::request<boost::beast::http::string_body>&& req);
  void upgrade();
  void finish_upgrade(boost::beast::http::request<boost::beast::http::string_body> req,
                      Expected<protocol::PlayerInfo> bot, bool has_token);
  void refuse(unsigned version, boost::beast::http::status status, std::string body,
              std::int64_t retry_after_ms = 0);
  // The 429 answer's body when `address` may not try a token now (wait_ms > 0).
  static std::string throttled_body(const std::string& address, std::int64_t wait_ms);
  void drain(std::size_t so_far);

  boost::beast::tcp_stream stream_;
  boost::asio::any_io_executor blocking_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  std::shared_ptr<ClientEvents> events_;
  std::shared_ptr<HubQueries> hub_;
  std::string web_root_;
  std::shared_ptr<LoginThrottle> throttle_;
  std::string peer_address_;  // the client's IP address, for the throttle
  std::shared_ptr<void> slot_;
};

}  // namespace arena::server
