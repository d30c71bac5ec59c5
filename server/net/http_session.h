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
// the listener's sessions); an address over its limit gets 429 with Retry-After.

#include <memory>
#include <optional>
#include <string>

#include <boost/asio/any_io_executor.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "server/hub.h"
#include "server/net/login_throttle.h"

namespace arena::server {

class HttpSession final : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket&& socket, boost::asio::any_io_executor blocking,
              std::shared_ptr<Hub> hub, std::string web_root,
              std::shared_ptr<LoginThrottle> throttle);
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
  std::shared_ptr<Hub> hub_;
  std::string web_root_;
  std::shared_ptr<LoginThrottle> throttle_;
  std::string peer_address_;  // the client's IP address, for the throttle
};

}  // namespace arena::server
