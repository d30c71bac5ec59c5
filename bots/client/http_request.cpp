#include "bots/client/http_request.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace arena::client {

namespace beast = boost::beast;
namespace http = beast::http;

Expected<HttpResponse> http_request(const std::string& url, const std::string& method,
                                    const std::string& target, const std::string& body,
                                    const std::string& bearer, std::chrono::milliseconds timeout) {
  std::string rest = url;
  for (const char* scheme : {"http://", "ws://"})
    if (rest.starts_with(scheme)) rest = rest.substr(std::string(scheme).size());
  rest = rest.substr(0, rest.find('/'));
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size())
    return make_error("URL '" + url + "' has no host:port");
  const std::string host = rest.substr(0, colon), port = rest.substr(colon + 1);
  const http::verb verb = http::string_to_verb(method);
  if (verb == http::verb::unknown) return make_error("unknown HTTP method '" + method + "'");
  try {
    boost::asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    boost::asio::ip::tcp::resolver resolver(ioc);
    const auto endpoints = resolver.resolve(host, port);
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, host);
    req.set(http::field::content_type, "application/json");
    if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
    req.body() = body;
    req.prepare_payload();
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    // Asynchronous, because the stream's time limit applies only to asynchronous operations.
    beast::error_code result = boost::asio::error::timed_out;
    stream.expires_after(timeout);
    stream.async_connect(endpoints, [&](beast::error_code ec, auto) {
      if (ec) return void(result = ec);
      http::async_write(stream, req, [&](beast::error_code wec, std::size_t) {
        if (wec) return void(result = wec);
        http::async_read(stream, buffer, res,
                         [&](beast::error_code rec, std::size_t) { result = rec; });
      });
    });
    ioc.run();
    if (result) return make_error(method + " " + url + target + ": " + result.message());
    beast::error_code ec;
    stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    return HttpResponse{static_cast<int>(res.result_int()), std::move(res.body())};
  } catch (const std::exception& e) {
    return make_error(method + " " + url + target + ": " + e.what());
  }
}

}  // namespace arena::client
