#include "server/presence/presence.h"

#include <algorithm>
#include <set>

#include "protocol/player_name.h"

namespace arena::server {

bool Presence::add(const std::shared_ptr<Connection>& c,
                   const std::function<void()>& before_listed) {
  std::lock_guard lock(mutex_);
  auto& conns = player_conns_[c->player.id];
  std::erase_if(conns, [](const auto& w) { return w.expired(); });
  const bool first = conns.empty();
  before_listed();
  conns.push_back(c);
  return first;
}

bool Presence::remove(const std::shared_ptr<Connection>& c,
                      const std::function<void()>& last_left) {
  std::lock_guard lock(mutex_);
  auto& conns = player_conns_[c->player.id];
  std::erase_if(conns, [&](const auto& w) { return w.expired() || w.lock() == c; });
  if (!conns.empty()) return false;
  player_conns_.erase(c->player.id);
  last_left();
  return true;
}

void Presence::with_connections_of(const std::vector<protocol::PlayerInfo>& players,
                                   const std::function<void(const Conns&)>& f) {
  std::lock_guard lock(mutex_);
  Conns conns;
  for (const auto& p : players)
    if (auto it = player_conns_.find(p.id); it != player_conns_.end())
      conns.insert(conns.end(), it->second.begin(), it->second.end());
  f(conns);
}

void Presence::send_to_player(std::int64_t player_id, const Text& text) {
  std::vector<std::shared_ptr<Connection>> targets;
  {
    std::lock_guard lock(mutex_);
    if (auto it = player_conns_.find(player_id); it != player_conns_.end())
      for (auto& w : it->second)
        if (auto c = w.lock()) targets.push_back(std::move(c));
  }
  for (const auto& c : targets) c->send(text);
}

std::optional<protocol::PlayerInfo> Presence::find_by_name(const std::string& name) {
  std::lock_guard lock(mutex_);
  std::optional<protocol::PlayerInfo> found;
  for (const auto& [id, conns] : player_conns_)
    for (const auto& w : conns)
      if (auto other = w.lock(); other && other->player.name == name) found = other->player;
  return found;
}

std::optional<protocol::PlayerInfo> Presence::online(std::int64_t id) {
  std::lock_guard lock(mutex_);
  if (auto it = player_conns_.find(id); it != player_conns_.end())
    for (const auto& w : it->second)
      if (auto conn = w.lock()) return conn->player;
  return std::nullopt;
}

std::vector<protocol::PlayerInfo> Presence::online_players(std::size_t limit) {
  std::lock_guard lock(mutex_);
  std::vector<protocol::PlayerInfo> out;
  for (const auto& [id, conns] : player_conns_) {
    if (out.size() >= limit) break;
    for (const auto& w : conns)
      if (auto c = w.lock()) {
        out.push_back(c->player);
        break;
      }
  }
  return out;
}

std::int64_t Presence::players_online() {
  std::lock_guard lock(mutex_);
  std::int64_t n = 0;
  for (const auto& [id, conns] : player_conns_)
    n += std::any_of(conns.begin(), conns.end(), [](const auto& w) { return !w.expired(); });
  return n;
}

std::map<std::int64_t, int> Presence::online_counts() {
  std::lock_guard lock(mutex_);
  std::map<std::int64_t, int> out;
  for (const auto& [id, conns] : player_conns_) {
    int n = 0;
    for (const auto& w : conns) n += !w.expired();
    if (n > 0) out[id] = n;
  }
  return out;
}

std::vector<std::shared_ptr<Connection>> Presence::behind(std::uint64_t version, std::size_t batch,
                                                          std::int64_t& cursor) {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<Connection>> targets;
  auto visit = [&](auto from, auto to) {
    for (auto it = from; it != to && targets.size() < batch; ++it)
      for (auto& w : it->second)
        if (auto c = w.lock(); c && c->lobby_seen < version) {
          c->lobby_seen = version;
          targets.push_back(std::move(c));
          cursor = it->first;
        }
  };
  const auto split = player_conns_.upper_bound(cursor);
  visit(split, player_conns_.end());
  visit(player_conns_.begin(), split);
  return targets;
}

std::optional<protocol::PlayerInfo> Presence::guest(const std::string& token) {
  std::lock_guard lock(mutex_);
  auto it = token.empty() ? guests_.end() : guests_.find(token);
  if (it == guests_.end()) return std::nullopt;
  return it->second;
}

void Presence::remember_guest(const std::string& token, const std::string& stored_name,
                              const protocol::PlayerInfo& player) {
  std::lock_guard lock(mutex_);
  guests_[token] = player;
  guest_names_[stored_name] = player.name;
}

std::string Presence::display_name(const std::string& stored_name) {
  if (!stored_name.starts_with("guest:")) return stored_name;
  std::lock_guard lock(mutex_);
  auto it = guest_names_.find(stored_name);
  return it == guest_names_.end() ? "guest" : it->second;
}

Expected<void> Presence::rename_guest(const std::shared_ptr<Connection>& c,
                                      const std::string& name) {
  const std::string key = protocol::name_key(name);
  std::lock_guard lock(mutex_);
  const std::int64_t me = c->player.id;
  for (const auto& [id, conns] : player_conns_)
    for (const auto& w : conns)
      if (auto other = w.lock();
          other && id != me && protocol::name_key(other->player.name) == key)
        return make_error("the name '" + name + "' is taken by another player");
  for (const auto& [token, guest] : guests_)
    if (guest.id != me && protocol::name_key(guest.name) == key)
      return make_error("the name '" + name + "' is taken by another player");
  const std::string old = c->player.name;
  c->player.name = name;
  if (auto it = guests_.find(c->session_token); it != guests_.end()) it->second.name = name;
  for (auto& [stored, shown] : guest_names_)
    if (shown == old) shown = name;
  return {};
}

std::size_t Presence::forget_guests(const std::vector<std::int64_t>& player_ids) {
  const std::set<std::int64_t> ids(player_ids.begin(), player_ids.end());
  std::lock_guard lock(mutex_);
  std::set<std::string> names;
  std::size_t forgotten = 0;
  for (auto it = guests_.begin(); it != guests_.end();) {
    if (ids.contains(it->second.id) && !player_conns_.contains(it->second.id)) {
      names.insert(it->second.name);
      it = guests_.erase(it);
      ++forgotten;
    } else {
      ++it;
    }
  }
  std::erase_if(guest_names_, [&](const auto& kv) { return names.contains(kv.second); });
  return forgotten;
}

void Presence::set_bot_version(std::int64_t player_id, std::int64_t version) {
  std::lock_guard lock(mutex_);
  bot_versions_[player_id] = version;
}

std::int64_t Presence::bot_version(std::int64_t player_id) {
  std::lock_guard lock(mutex_);
  auto it = bot_versions_.find(player_id);
  return it == bot_versions_.end() ? 0 : it->second;
}

void Presence::clear() {
  std::map<std::int64_t, Conns> conns;
  std::lock_guard lock(mutex_);
  conns.swap(player_conns_);
}

}  // namespace arena::server
