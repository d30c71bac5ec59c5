// The HTTP request path before the WebSocket upgrade: the bytes a client sends on a new
// connection, read by Beast's request parser with the session's limits (64 KiB body, 8 KiB
// header), then routed as HttpSession does: a refusal (413, 431, 400), the /ws upgrade (its
// target, the Bearer token, the session cookie), a POST to the API, a GET of the API or of a
// static file. No socket: the parser is fed the bytes as async_read feeds it a buffer.
//
// Promises: no crash, leak, hang or undefined behaviour for any bytes; the parser either asks
// for more, refuses with a status the session can send, or yields a request; a static path
// never leaves the web root ("..") and is absolute; the API's answers are valid.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/beast/core/buffers_prefix.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_hub.h"
#include "server/api/rest.h"
#include "server/net/http_request.h"

namespace beast = boost::beast;
namespace http = beast::http;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 3 * 64 * 1024) return -1;
  auto& fh = arena::fuzz::fuzz_hub();
  // Several requests on one connection (keep-alive), each read by a fresh parser as do_read
  // makes one.
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (int request = 0; request < 4 && !bytes.empty(); ++request) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(arena::server::kHttpBodyLimit);
    parser.header_limit(arena::server::kHttpHeaderLimit);
    parser.eager(true);
    beast::error_code ec;
    std::size_t used = 0;
    while (used < bytes.size() && !parser.is_done()) {
      // Beast's read loop gives the parser what is buffered; an odd split point tests the
      // parser's resumption as the network would.
      const std::size_t n =
          parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
      if (ec == http::error::need_more) {
        ec = {};
        if (n == 0) break;
      }
      if (ec) break;
      used += n;
      if (n == 0) break;
    }
    if (!ec && !parser.is_done()) {
      parser.put_eof(ec);  // the client closed the connection
      if (!ec && !parser.is_done()) return 0;
    }
    if (ec) {
      auto refusal = arena::server::refusal_for(ec);
      if (refusal) {
        const int status = static_cast<int>(refusal->status);
        FUZZ_CHECK(status == 400 || status == 413 || status == 431);
      }
      return 0;
    }
    bytes.remove_prefix(used);
    auto req = parser.release();
    if (beast::websocket::is_upgrade(req)) {
      if (req.target() != "/ws") continue;  // 404
      std::string_view auth = req[http::field::authorization];
      if (auth.starts_with("Bearer "))
        (void)fh.store.authenticate_token(std::string(auth.substr(7)));
      const std::string cookie =
          arena::server::cookie_value(req[http::field::cookie], "arena_session");
      FUZZ_CHECK(cookie.size() <= req[http::field::cookie].size());
      continue;
    }
    (void)arena::server::cookie_value(req[http::field::cookie], "arena_session");
    if (req.method() == http::verb::post) {
      if (auto reply = arena::server::handle_api_post(*fh.hub, req.target(),
                                                      req[http::field::authorization], req.body()))
        FUZZ_CHECK(reply->status >= 200 && reply->status <= 599);
      continue;
    }
    if (req.method() != http::verb::get && req.method() != http::verb::head) continue;  // 405
    if (auto reply = arena::server::handle_api(*fh.hub, req.target())) {
      FUZZ_CHECK(reply->status >= 200 && reply->status <= 599);
      continue;
    }
    if (auto path = arena::server::static_file_path(req.target())) {
      FUZZ_CHECK(path->starts_with("/"));
      FUZZ_CHECK(path->find("..") == std::string::npos);
    }
    if (!req.keep_alive()) break;
  }
  return 0;
}
