#pragma once
// The bearer token of an Authorization header, for the WebSocket upgrade (a bot's login) and
// POST /api/tournaments. Pure function.

#include <optional>
#include <string>
#include <string_view>

namespace arena::server {

// The token of an `Authorization: Bearer TOKEN` header (RFC 6750, 2.1), or nullopt when the
// header names no bearer credentials (absent, or another scheme: a guest). The scheme is
// case-insensitive (RFC 9110, 11.1: "bearer" and "BEARER" are "Bearer"); one or more spaces
// follow it; the token is what remains, spaces around it trimmed. A "Bearer" with nothing
// after it yields "" (a token login that fails: 401, never a guest).
inline std::optional<std::string> bearer_token(std::string_view authorization) {
  while (!authorization.empty() && (authorization.front() == ' ' || authorization.front() == '\t'))
    authorization.remove_prefix(1);
  constexpr std::string_view kScheme = "bearer";
  if (authorization.size() < kScheme.size()) return std::nullopt;
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    const char c = authorization[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != kScheme[i])
      return std::nullopt;
  }
  auto rest = authorization.substr(kScheme.size());
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t')
    return std::nullopt;  // "Bearerish": another scheme
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
  return std::string(rest);
}

}  // namespace arena::server
