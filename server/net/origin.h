#pragma once
// Which pages may open a WebSocket: the Origin check of the upgrade (RFC 6455, 10.2; RFC 6454).
// A browser names the page that opens a socket in `Origin` and sends the site's cookies with
// it, also for a page of another origin of the same site (another port or subdomain), which
// could then act as the cookie's player. So an upgrade that carries an Origin is accepted only
// from the server's own origin (the scheme, host and port of the Host header the browser sent
// with it: the page's address bar, whichever name the server is reached by) or from an origin
// on the allow-list (`arena serve --allow-origin URL`, repeatable; "*" allows every origin).
// An upgrade without Origin is no browser's (bots, the example clients): it is not checked,
// since a program that can leave the header out can also forge any value of it.
//
// Origins compare by scheme, host and port, case-insensitively, a default port (80 for http
// and ws, 443 for https and wss) the same as no port. "null" (a sandboxed frame, a file: page)
// is nobody's origin: refused unless the allow-list has "null". Pure functions.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/expected.h"

namespace arena::server {

namespace origin_detail {

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

inline int default_port(std::string_view scheme) {
  if (scheme == "http" || scheme == "ws") return 80;
  if (scheme == "https" || scheme == "wss") return 443;
  return 0;
}

// "host[:port]" (a bracketed IPv6 address keeps its brackets): {host lowercased, port or -1}.
inline std::optional<std::pair<std::string, int>> host_and_port(std::string_view authority) {
  std::string_view host = authority, port;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    const auto after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::nullopt;
      port = after.substr(1);
      if (port.empty()) return std::nullopt;
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (port.empty()) return std::nullopt;
  }
  if (host.empty()) return std::nullopt;
  for (const char c : host)
    if (c == '/' || c == '?' || c == '#' || c == '@' || c == ' ' || c == '\\' ||
        static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) == 0x7f)
      return std::nullopt;
  int number = -1;
  if (!port.empty()) {
    if (port.size() > 5) return std::nullopt;
    number = 0;
    for (const char c : port) {
      if (c < '0' || c > '9') return std::nullopt;
      number = number * 10 + (c - '0');
    }
    if (number > 65535) return std::nullopt;
  }
  return std::pair{lower(host), number};
}

}  // namespace origin_detail

// An origin in one spelling, "scheme://host:port" (lowercase, the port always written), or
// "null"; an error names what is wrong. `trailing_slash`: accept "http://h/" (an allow-list
// entry typed as a URL); an Origin header never has a path.
inline Expected<std::string> normalize_origin(std::string_view text, bool trailing_slash = false) {
  using namespace origin_detail;
  if (text == "null") return std::string("null");
  const auto sep = text.find("://");
  if (sep == std::string_view::npos || sep == 0)
    return make_error("'" + std::string(text) + "' is not an origin (scheme://host[:port])");
  const std::string scheme = lower(text.substr(0, sep));
  for (const char c : scheme)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
      return make_error("'" + std::string(text) + "' has a bad scheme");
  auto authority = text.substr(sep + 3);
  if (trailing_slash && authority.ends_with('/')) authority.remove_suffix(1);
  const auto hp = host_and_port(authority);
  if (!hp) return make_error("'" + std::string(text) + "' is not an origin (scheme://host[:port])");
  int port = hp->second >= 0 ? hp->second : default_port(scheme);
  if (port <= 0)
    return make_error("'" + std::string(text) + "' needs a port (its scheme has no default)");
  return scheme + "://" + hp->first + ":" + std::to_string(port);
}

// Why an upgrade whose Origin header is `origin` (present) and Host header is `host` is refused,
// or nullopt when it is accepted: the server's own origin, or one of `allowed` (normalized
// origins, "null", or "*" for all).
inline std::optional<std::string> origin_refusal(std::string_view origin, std::string_view host,
                                                 const std::vector<std::string>& allowed) {
  using namespace origin_detail;
  for (const auto& a : allowed)
    if (a == "*") return std::nullopt;
  const auto normalized = normalize_origin(origin);
  if (!normalized) return "malformed Origin: " + normalized.error();
  for (const auto& a : allowed)
    if (a == *normalized) return std::nullopt;
  if (*normalized == "null")
    return std::string("Origin 'null' (a sandboxed or file: page) is not allowed");
  // The server's own origin: http(s) with the Host header's host and port.
  const auto sep = normalized->find("://");
  const std::string scheme = normalized->substr(0, sep);
  const auto own = host_and_port(host);
  if ((scheme == "http" || scheme == "https") && own) {
    const int port = own->second >= 0 ? own->second : default_port(scheme);
    if (*normalized == scheme + "://" + own->first + ":" + std::to_string(port))
      return std::nullopt;
  }
  return "Origin '" + std::string(origin) + "' is not this server's origin (Host '" +
         std::string(host) + "') nor one it allows (arena serve --allow-origin)";
}

}  // namespace arena::server
