#pragma once
// The JSON REST API, /healthz and /metrics, independent of the HTTP library: a request
// target in, a reply out. It reads the hub through HubQueries (server/core/hub_queries.h).
// Thread-safe (reads the hub's copies and the store's reads).

#include <optional>
#include <string>
#include <string_view>

#include "server/core/hub_queries.h"

namespace arena::server {

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// Handles GET `target` (path and query) if it belongs to the API; nullopt otherwise.
std::optional<HttpReply> handle_api(HubQueries& hub, std::string_view target);

// Handles POST `target` if it belongs to the API: /api/tournaments creates a tournament from a
// league config (the body; leagues/*.json) for a caller with a bot token, 201 {"id": N}, or 200
// {"id": N, "resumed": true} for an unfinished one of the same name; 400 names a bad config.
std::optional<HttpReply> handle_api_post(HubQueries& hub, std::string_view target,
                                         std::string_view authorization, const std::string& body);

}  // namespace arena::server
