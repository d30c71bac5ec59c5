#pragma once
// The parts of an HTTP session that read what the client sent, with no socket: the limits a
// request is read with, the answer to a request the parser refused, the session cookie in a
// Cookie header, and the file a GET names under the web root. HttpSession uses them; the
// fuzz target fuzz/http.cpp feeds them bytes. Pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http.hpp>

namespace arena::server {

inline constexpr std::uint64_t kHttpBodyLimit = 64 * 1024;
inline constexpr std::uint32_t kHttpHeaderLimit = 8 * 1024;  // Beast's default for requests

// The value of cookie `name` in a Cookie header ("a=1; arena_session=x"), or "".
inline std::string cookie_value(std::string_view header, std::string_view name) {
  std::size_t pos = 0;
  while (pos < header.size()) {
    auto semi = header.find(';', pos);
    auto part =
        header.substr(pos, semi == std::string_view::npos ? std::string_view::npos : semi - pos);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (part.starts_with(name) && part.size() > name.size() && part[name.size()] == '=')
      return std::string(part.substr(name.size() + 1));
    if (semi == std::string_view::npos) break;
    pos = semi + 1;
  }
  return {};
}

// The answer to a request that could not be read: 413 for a body over the limit, 431 for a
// header over it, 400 naming Beast's reason for bytes that are not HTTP; nullopt when none is
// owed (the client went away, timed out or sent nothing).
struct HttpRefusal {
  boost::beast::http::status status;
  std::string body;
};
inline std::optional<HttpRefusal> refusal_for(boost::beast::error_code ec) {
  namespace http = boost::beast::http;
  if (ec == http::error::body_limit)
    return HttpRefusal{http::status::payload_too_large,
                       "request body larger than " + std::to_string(kHttpBodyLimit) + " bytes\n"};
  if (ec == http::error::header_limit)
    return HttpRefusal{
        http::status::request_header_fields_too_large,
        "request header larger than " + std::to_string(kHttpHeaderLimit) + " bytes\n"};
  if (ec && ec.category() == http::make_error_code(http::error::bad_method).category() &&
      ec != http::error::end_of_stream && ec != http::error::partial_message)
    return HttpRefusal{http::status::bad_request, "malformed HTTP request: " + ec.message() + "\n"};
  return std::nullopt;
}

// The file a GET of `target` names, relative to the web root ("/" and "/dir/" name their
// index.html; the query is dropped), or nullopt when the path is empty, relative or has "..".
inline std::optional<std::string> static_file_path(std::string_view target) {
  std::string path(target.substr(0, target.find('?')));
  if (path.find("..") != std::string::npos || path.empty() || path[0] != '/') return std::nullopt;
  if (path.back() == '/') path += "index.html";
  return path;
}

}  // namespace arena::server
