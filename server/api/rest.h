#pragma once
// The JSON REST API, /healthz and /metrics, independent of the HTTP library: a request
// target in, a reply out. Thread-safe (reads the hub's copies and the store's reads).

#include <string>
#include <string_view>

#include "server/hub.h"

namespace arena::server {

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// Handles GET `target` (path and query) if it belongs to the API; nullopt otherwise.
std::optional<HttpReply> handle_api(Hub& hub, std::string_view target);

}  // namespace arena::server
