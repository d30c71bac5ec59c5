#pragma once
// HubConfig: what `arena serve` (and a test) sets for the hub and the owners it routes to (the
// lobby, the game rooms, the puzzle sessions, the tournament link). Each owner keeps a copy.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/any_game.h"
#include "protocol/codec.h"

namespace arena::server {

using GameFactory =
    std::function<Expected<std::unique_ptr<AnyGame>>(std::string_view name, const GameOptions&)>;
using GameLoader = std::function<Expected<std::unique_ptr<AnyGame>>(std::string_view name,
                                                                    std::string_view position)>;

struct HubConfig {
  std::int64_t seek_ttl_ms = 10 * 60 * 1000;
  std::int64_t challenge_ttl_ms = 60 * 1000;
  std::int64_t reconnect_grace_ms = 30 * 1000;
  bool illegal_move_loses = false;
  std::int64_t lobby_interval_ms = 100;  // lobby updates are coalesced over this interval
  // A WebSocket that sent nothing for this long is closed; it is pinged at half of it (Beast's
  // keep-alive, checked every half).
  std::int64_t idle_timeout_ms = 60 * 1000;
  // A puzzle nobody moved in for this long is closed (dropped from memory; its row stays
  // unfinished, as one left by a player who went away). A finished one is kept for
  // reconnect_grace_ms, so that a late move is told it is over.
  std::int64_t puzzle_idle_ms = 60 * 60 * 1000;
  // Guests (issue 53: every guest login made a player row that stayed forever). A guest row
  // that never played is deleted this long after it was made, unless its player is online
  // (Store::purge_guests_async, checked every guest_purge_interval_ms); 0: never. At most
  // guest_logins_per_minute new guests (a hello that makes or finds a guest row) per client
  // address, a token bucket of that many; over it, the hello is refused with rate_limited.
  // 0: no limit. Loopback addresses and connections with no address (tests) are exempt unless
  // limit_loopback_guests (house bots log in with tokens: never limited).
  std::int64_t guest_ttl_ms = 24 * 3600 * 1000;
  std::int64_t guest_purge_interval_ms = 60 * 1000;
  int guest_logins_per_minute = 30;
  bool limit_loopback_guests = false;
  GameFactory make_game;                 // default: the catalog
  GameLoader load_game;                  // default: the catalog
  // The optimal solution length of a puzzle position, or nullopt (unknown, or too costly).
  // Empty: puzzle_end says null. Called when a session starts, before its first state is
  // sent, on the hub's blocking executor (Hub::use_blocking_executor: the server's
  // "arena-blocking" threads).
  std::function<std::optional<int>(std::string_view puzzle, std::string_view position)>
      optimal_length;
  // The tournaments in the store as JSON (all, or one by id) for /api/tournaments; empty:
  // this server shows none. Injected by `arena serve` (server/tournament reads the file).
  std::function<Expected<protocol::Json>(std::optional<std::int64_t> id)> tournaments;
  // The transport's limits (server/net): the connections one peer address may hold at once
  // (0: no cap; -1: three quarters of the descriptor limit, server/net/connection_limit.h), and
  // the origins besides the server's own whose pages may open a WebSocket (normalized:
  // "scheme://host:port", "null", or "*" for all; server/net/origin.h).
  int max_connections_per_address = -1;
  std::vector<std::string> allowed_origins;
};

}  // namespace arena::server
