#pragma once
// The parts of an HTTP session that read what the client sent, with no socket: the limits a
// request is read with, the answer to a request the parser refused, the session cookie in a
// Cookie header, the bearer token of an Authorization header, and the file a GET names under
// the web root. HttpSession uses them; the fuzz target fuzz/http.cpp feeds them bytes. Pure
// functions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http.hpp>

#include "games/core/expected.h"
#include "server/api/bearer.h"
#include "server/api/url.h"

namespace arena::server {

inline constexpr std::uint64_t kHttpBodyLimit = 64 * 1024;
inline constexpr std::uint32_t kHttpHeaderLimit = 8 * 1024;  // Beast's default for requests

// The value of cookie `name` in a Cookie header ("a=1; arena_session=x"), or "": the first
// one `accept` takes (by default any) when the header names it more than once (a browser sends
// each cookie of that name it holds: one per path or domain).
inline std::string cookie_value(std::string_view header, std::string_view name,
                                bool (*accept)(std::string_view) = nullptr) {
  std::size_t pos = 0;
  while (pos < header.size()) {
    auto semi = header.find(';', pos);
    auto part =
        header.substr(pos, semi == std::string_view::npos ? std::string_view::npos : semi - pos);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (part.starts_with(name) && part.size() > name.size() && part[name.size()] == '=') {
      const auto value = part.substr(name.size() + 1);
      if (!accept || accept(value)) return std::string(value);
    }
    if (semi == std::string_view::npos) break;
    pos = semi + 1;
  }
  return {};
}

// The session cookie's name, and what a value of it must look like to be used: 16 to 128
// letters, digits, '-' or '_' (the server makes 32 hex digits). Anything else (cut short,
// quoted, another site's value) is not a session: it is ignored as if absent, and the answer
// sets a fresh cookie in its place, so that a bad cookie never locks a client out.
inline constexpr std::string_view kSessionCookie = "arena_session";
inline bool is_session_token(std::string_view value) {
  if (value.size() < 16 || value.size() > 128) return false;
  for (const char c : value)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          c == '-' || c == '_'))
      return false;
  return true;
}
// The session token of a Cookie header: its first well-formed arena_session value, or "".
inline std::string session_cookie(std::string_view header) {
  return cookie_value(header, kSessionCookie, &is_session_token);
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

// The file a GET of `target` names, relative to the web root: its path, each segment
// percent-decoded once (server/api/url.h: "/index%2Ehtml" is "/index.html"); "/" and "/dir/"
// name their index.html; the query is dropped. An error says what is wrong: a bad escape, or a
// path that is empty, relative or has ".." (also when written "%2E%2E").
inline Expected<std::string> static_file(std::string_view target) {
  const auto raw = target.substr(0, target.find('?'));
  if (raw.empty() || raw[0] != '/') return make_error("the path is not absolute");
  auto path = decode_path(raw);
  if (!path) return make_error("bad path: " + path.error());
  if (path->find("..") != std::string::npos) return make_error("the path has '..'");
  if (path->back() == '/') *path += "index.html";
  return path;
}
// static_file's path, or nullopt where it has an error.
inline std::optional<std::string> static_file_path(std::string_view target) {
  auto path = static_file(target);
  if (!path) return std::nullopt;
  return std::move(*path);
}

}  // namespace arena::server
