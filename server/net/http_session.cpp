#include "server/net/http_session.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include "server/api/rest.h"
#include "server/net/http_request.h"
#include "server/net/origin.h"
#include "server/net/websocket_session.h"

namespace arena::server {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

std::string new_cookie_token() {
  std::random_device rd;
  std::string t;
  for (int i = 0; i < 32; ++i) t += "0123456789abcdef"[rd() % 16];
  return t;
}

std::string new_session_cookie(const std::string& token) {
  return std::string(kSessionCookie) + "=" + token + "; Path=/; HttpOnly; SameSite=Lax";
}

std::string_view mime_type(std::string_view path) {
  if (path.ends_with(".html")) return "text/html; charset=utf-8";
  if (path.ends_with(".js")) return "text/javascript";
  if (path.ends_with(".css")) return "text/css";
  if (path.ends_with(".svg")) return "image/svg+xml";
  if (path.ends_with(".json")) return "application/json";
  if (path.ends_with(".png")) return "image/png";
  return "application/octet-stream";
}

}  // namespace

HttpSession::HttpSession(boost::asio::ip::tcp::socket&& socket,
                         boost::asio::any_io_executor blocking,
                         std::shared_ptr<ClientEvents> events, std::shared_ptr<HubQueries> queries,
                         std::string web_root, std::shared_ptr<LoginThrottle> throttle,
                         std::shared_ptr<void> slot)
    : stream_(std::move(socket)),
      blocking_(std::move(blocking)),
      events_(std::move(events)),
      hub_(std::move(queries)),
      web_root_(std::move(web_root)),
      throttle_(std::move(throttle)),
      slot_(std::move(slot)) {
  boost::system::error_code ec;
  const auto ep = stream_.socket().remote_endpoint(ec);
  peer_address_ = ec ? std::string("?") : ep.address().to_string();
}

std::string HttpSession::throttled_body(const std::string& address, std::int64_t wait_ms) {
  return "too many failed token logins from " + address + ": try again in " +
         std::to_string((wait_ms + 999) / 1000) + " s (at most " +
         std::to_string(LoginThrottle::kBurst) + " failures in a row, then one every " +
         std::to_string(LoginThrottle::kRefillMs) + " ms)\n";
}

void HttpSession::run() {
  // Start on the socket's strand: every handler of this session runs there.
  boost::asio::dispatch(stream_.get_executor(),
                        beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->body_limit(kHttpBodyLimit);
  parser_->header_limit(kHttpHeaderLimit);
  stream_.expires_after(std::chrono::seconds(30));
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  // A request the parser refused gets an answer that says why; a client that went away or
  // timed out gets none.
  if (auto refusal = refusal_for(ec))
    return refuse(ec == http::error::body_limit ? parser_->get().version() : 11, refusal->status,
                  std::move(refusal->body));
  if (ec) {
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
    return;
  }
  if (beast::websocket::is_upgrade(parser_->get())) return upgrade();
  const bool keep_alive = parser_->get().keep_alive();
  // The answer is made on the blocking executor (it may read the store or a file) and
  // written from the session's strand.
  boost::asio::post(
      blocking_, [self = shared_from_this(), req = parser_->release(), keep_alive]() mutable {
        auto answer = std::make_shared<http::message_generator>(self->handle(std::move(req)));
        boost::asio::post(self->stream_.get_executor(), [self, answer, keep_alive] {
          beast::async_write(self->stream_, std::move(*answer),
                             beast::bind_front_handler(&HttpSession::on_write, self, keep_alive));
        });
      });
}

void HttpSession::refuse(unsigned version, http::status status, std::string body,
                         std::int64_t retry_after_ms) {
  http::response<http::string_body> res{status, version};
  res.set(http::field::content_type, "text/plain");
  if (retry_after_ms > 0)
    res.set(http::field::retry_after, std::to_string((retry_after_ms + 999) / 1000));
  res.keep_alive(false);
  res.body() = std::move(body);
  res.prepare_payload();
  beast::async_write(stream_, http::message_generator(std::move(res)),
                     beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), false));
}

void HttpSession::upgrade() {
  auto req = parser_->release();
  if (req.target() != "/ws")
    return refuse(req.version(), http::status::not_found, "WebSocket only on /ws\n");
  // A page of another origin must not open a socket with this site's cookie (origin.h); no
  // Origin: no browser, nothing to check.
  if (const auto origin = req.find(http::field::origin); origin != req.end())
    if (auto why =
            origin_refusal(origin->value(), req[http::field::host], hub_->config().allowed_origins))
      return refuse(req.version(), http::status::forbidden, "WebSocket refused: " + *why + "\n");
  auto token = bearer_token(req[http::field::authorization]);
  if (!token) return finish_upgrade(std::move(req), protocol::PlayerInfo{}, false);
  // An address that failed too often is refused before its token is looked up.
  if (const auto wait = throttle_->wait_ms(peer_address_); wait > 0)
    return refuse(req.version(), http::status::too_many_requests,
                  throttled_body(peer_address_, wait), wait);
  // The token is checked in the store on the blocking executor; the upgrade goes on from
  // the session's strand.
  boost::asio::post(blocking_, [self = shared_from_this(), req = std::move(req),
                                token = std::move(*token)]() mutable {
    Expected<protocol::PlayerInfo> bot = make_error("unknown bot token");
    if (auto record = self->hub_->store().authenticate_token(token))
      bot = protocol::PlayerInfo{record->id, record->name, true};
    else
      self->throttle_->failed(self->peer_address_);
    boost::asio::post(self->stream_.get_executor(),
                      [self, req = std::move(req), bot = std::move(bot)]() mutable {
                        self->finish_upgrade(std::move(req), std::move(bot), true);
                      });
  });
}

void HttpSession::finish_upgrade(http::request<http::string_body> req,
                                 Expected<protocol::PlayerInfo> checked, bool has_token) {
  // A wrong token is refused at the door: 401, no WebSocket.
  if (!checked) return refuse(req.version(), http::status::unauthorized, "unknown bot token\n");
  std::optional<protocol::PlayerInfo> bot;
  if (has_token) bot = *checked;
  // No well-formed session cookie (none, or a bad one): a fresh one, set by the 101 answer.
  std::string cookie = session_cookie(req[http::field::cookie]);
  std::string set_cookie;
  if (cookie.empty()) {
    cookie = new_cookie_token();
    set_cookie = new_session_cookie(cookie);
  }
  auto session = std::make_shared<WebSocketSession>(
      std::move(stream_), events_, std::chrono::milliseconds(hub_->config().idle_timeout_ms),
      std::move(slot_));
  session->cookie_token = cookie;
  session->bot = bot;
  session->browser = req.find(http::field::origin) != req.end();
  session->peer_address = peer_address_;
  session->run(std::move(req), set_cookie);
}

http::message_generator HttpSession::handle(http::request<http::string_body>&& req) {
  const bool head = req.method() == http::verb::head;
  auto reply = [&](http::status status, std::string_view type, std::string body,
                   std::int64_t retry_after_ms = 0, std::string_view location = {}) {
    http::response<http::string_body> res{status, req.version()};
    res.set(http::field::server, "arena");
    res.set(http::field::content_type, type);
    if (retry_after_ms > 0)
      res.set(http::field::retry_after, std::to_string((retry_after_ms + 999) / 1000));
    if (!location.empty()) res.set(http::field::location, location);
    // No well-formed session cookie (none, or a bad one): a fresh one.
    if (session_cookie(req[http::field::cookie]).empty())
      res.set(http::field::set_cookie, new_session_cookie(new_cookie_token()));
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    // HEAD: the same header, Content-Length the GET's, and no body (RFC 9110, 9.3.2).
    if (head) return http::message_generator(http::response<http::empty_body>(std::move(res.base())));
    return http::message_generator(std::move(res));
  };
  if (req.method() == http::verb::post) {
    // A Bearer token is a token login: throttled per address like the upgrade's.
    const bool has_token = bearer_token(req[http::field::authorization]).has_value();
    if (has_token)
      if (const auto wait = throttle_->wait_ms(peer_address_); wait > 0)
        return reply(http::status::too_many_requests, "text/plain",
                     throttled_body(peer_address_, wait), wait);
    if (auto api =
            handle_api_post(*hub_, req.target(), req[http::field::authorization], req.body())) {
      if (has_token && api->status == 401) throttle_->failed(peer_address_);
      return reply(static_cast<http::status>(api->status), api->content_type, std::move(api->body));
    }
    return reply(http::status::method_not_allowed, "text/plain", "POST only to /api/tournaments\n");
  }
  if (req.method() != http::verb::get && !head)
    return reply(http::status::method_not_allowed, "text/plain",
                 "only GET (and POST /api/tournaments)\n");
  std::string_view target = req.target();
  if (auto api = handle_api(*hub_, target))
    return reply(static_cast<http::status>(api->status), api->content_type, std::move(api->body));
  const auto file_path = static_file(target);
  if (!file_path) return reply(http::status::bad_request, "text/plain", file_path.error() + "\n");
  const std::string& path = *file_path;
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = web_root_.empty() ? fs::file_status{} : fs::status(web_root_ + path, ec);
  if (fs::is_directory(status)) {
    // A directory named without its final '/': where it is (its index.html, and its relative
    // links resolve from there), as a static server redirects.
    // One leading '/': "//js" must not become "//js/", another host to a browser.
    const auto q = target.find('?');
    auto raw = target.substr(0, q);
    while (raw.starts_with("//")) raw.remove_prefix(1);
    const std::string location = std::string(raw) + "/" +
                                 std::string(q == std::string_view::npos ? "" : target.substr(q));
    return reply(http::status::moved_permanently, "text/plain", "moved to " + location + "\n", 0,
                 location);
  }
  if (!fs::is_regular_file(status)) return reply(http::status::not_found, "text/plain", "not found\n");
  std::ifstream file(web_root_ + path, std::ios::binary);
  if (!file) {
    const int error = errno;
    if (error == EMFILE || error == ENFILE)
      return reply(http::status::service_unavailable, "text/plain",
                   "the server is at its descriptor limit: try again in a moment\n", 1000);
    return reply(http::status::forbidden, "text/plain", "cannot read " + path + "\n");
  }
  std::ostringstream body;
  body << file.rdbuf();
  return reply(http::status::ok, mime_type(path), body.str());
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) {
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
    drain(0);
    return;
  }
  do_read();
}

// After the last answer, reads what the client still sends (the rest of a body too large to
// take) until it closes, for up to 5 seconds and 1 MiB: closing a socket with unread data
// resets the connection, and the client may then lose the answer before it reads it.
void HttpSession::drain(std::size_t so_far) {
  constexpr std::size_t kDrainLimit = 1024 * 1024;
  if (so_far == 0) stream_.expires_after(std::chrono::seconds(5));
  if (so_far > kDrainLimit) return;
  buffer_.consume(buffer_.size());
  stream_.async_read_some(buffer_.prepare(16 * 1024),
                          [self = shared_from_this(), so_far](beast::error_code ec, std::size_t n) {
                            if (!ec) self->drain(so_far + n);
                          });
}

}  // namespace arena::server
