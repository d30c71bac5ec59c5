#pragma once
// The game manager's side of the GGP HTTP protocol: one message POSTed to a player as text/acl,
// its reply read back. Beast stays in http_client.cpp.

#include <chrono>
#include <cstddef>
#include <string>

#include "bots/ggp/reply.h"
#include "games/core/expected.h"

namespace arena::ggp {

// A player's address: http://HOST:PORT[/PATH] (the path defaults to "/").
struct PlayerUrl {
  std::string host, port, target;
};
Expected<PlayerUrl> parse_player_url(const std::string& url);

// POSTs `body` to `url` and returns the reply (any HTTP status). Errors name the URL and what
// failed (resolve, connect, write, read, a reply over `reply_limit` bytes) and come at the
// latest after `timeout`, which bounds the whole exchange.
Expected<Reply> post_message(const std::string& url, const std::string& body,
                             std::chrono::milliseconds timeout,
                             std::size_t reply_limit = 64 * 1024);

}  // namespace arena::ggp
