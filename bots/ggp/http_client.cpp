#include "bots/ggp/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace arena::ggp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

Expected<PlayerUrl> parse_player_url(const std::string& url) {
  constexpr std::string_view kScheme = "http://";
  if (!url.starts_with(kScheme)) return make_error("player URL '" + url + "' is not http://HOST:PORT");
  std::string rest = url.substr(kScheme.size());
  PlayerUrl out;
  const auto slash = rest.find('/');
  out.target = slash == std::string::npos ? "/" : rest.substr(slash);
  rest = rest.substr(0, slash);
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size())
    return make_error("player URL '" + url + "' has no HOST:PORT");
  out.host = rest.substr(0, colon);
  out.port = rest.substr(colon + 1);
  if (out.port.find_first_not_of("0123456789") != std::string::npos || out.port.size() > 5 ||
      std::stoi(out.port) > 65535)
    return make_error("player URL '" + url + "': bad port '" + out.port + "'");
  return out;
}

Expected<Reply> post_message(const std::string& url, const std::string& body,
                             std::chrono::milliseconds timeout, std::size_t reply_limit) {
  auto parsed = parse_player_url(url);
  if (!parsed) return make_error(parsed.error());
  try {
    asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    asio::ip::tcp::resolver resolver(ioc);
    http::request<http::string_body> req{http::verb::post, parsed->target, 11};
    req.set(http::field::host, parsed->host + ":" + parsed->port);
    req.set(http::field::content_type, "text/acl");
    req.set(http::field::accept, "text/acl, text/plain");
    req.keep_alive(false);
    req.body() = body;
    req.prepare_payload();
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(reply_limit);
    // Asynchronous, because the stream's time limit applies only to asynchronous operations;
    // the one deadline covers resolve, connect, write and read.
    beast::error_code result = asio::error::timed_out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    resolver.async_resolve(parsed->host, parsed->port, [&](beast::error_code rec, auto endpoints) {
      if (rec) return void(result = rec);
      stream.expires_at(deadline);
      stream.async_connect(endpoints, [&](beast::error_code cec, auto) {
        if (cec) return void(result = cec);
        http::async_write(stream, req, [&](beast::error_code wec, std::size_t) {
          if (wec) return void(result = wec);
          http::async_read(stream, buffer, parser,
                           [&](beast::error_code rdec, std::size_t) { result = rdec; });
        });
      });
    });
    ioc.run_until(deadline + std::chrono::milliseconds(50));
    if (!ioc.stopped()) {
      // Still resolving (the stream's own timer covers the rest): cancel, and let the
      // cancelled handlers run before the variables they use go away.
      resolver.cancel();
      beast::error_code ignored;
      stream.socket().close(ignored);
      ioc.restart();
      ioc.run();
      result = asio::error::timed_out;
    }
    if (result) {
      const std::string what = result == beast::error::timeout || result == asio::error::timed_out
                                   ? "no reply in time"
                                   : result.message();
      return make_error("POST " + url + ": " + what);
    }
    beast::error_code ec;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    auto res = parser.release();
    return Reply{static_cast<int>(res.result_int()), std::move(res.body())};
  } catch (const std::exception& e) {
    return make_error("POST " + url + ": " + e.what());
  }
}

}  // namespace arena::ggp
