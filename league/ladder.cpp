#include "league/ladder.h"
#include "league/ladder_games_file.h"
#include "league/ladder_gdl.h"
#include "league/ladder_tasks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bots/client/roster.h"
#include "bots/client/time_budget.h"
#include "bots/search/agent_factory.h"
#include "bots/uci/uci_engine.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/core/opening_book.h"
#include "tournament/pairing/fair_start.h"

namespace arena::league {
namespace {

using Clock = std::chrono::steady_clock;

std::optional<double> parse_elo(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (...) {
  }
  return std::nullopt;
}

std::string basename_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool truthy(const std::string& v) { return v == "true" || v == "1" || v == "on" || v == "yes"; }

Expected<void> parse_uci_seat(LadderSeat& seat, const std::string& body, const std::string& game) {
  if (game != "chess")
    return make_error("seat '" + seat.text + "': a UCI engine plays chess, not '" + game + "'");
  const auto q = body.find('?');
  seat.kind = LadderSeat::Kind::kUci;
  seat.path = body.substr(0, q);
  if (seat.path.empty()) return make_error("seat '" + seat.text + "': no engine path after 'uci:'");
  if (seat.path.find(' ') != std::string::npos)
    return make_error("seat '" + seat.text + "': give the engine's path alone, no arguments " +
                      "(for gnuchess, /usr/games/gnuchessu runs gnuchess --uci)");
  if (::access(seat.path.c_str(), X_OK) != 0)
    return make_error("seat '" + seat.text + "': UCI engine '" + seat.path +
                      "' not found or not executable");
  std::string rest = q == std::string::npos ? "" : body.substr(q + 1);
  std::string name = basename_of(seat.path);
  bool limit = false;
  std::optional<double> uci_elo;
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string item = rest.substr(0, amp);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return make_error("seat '" + seat.text + "': UCI option '" + item + "' must be NAME=VALUE");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    seat.uci_options.emplace_back(key, value);
    if (key == "UCI_LimitStrength") {
      limit = truthy(value);
    } else if (key == "UCI_Elo") {
      uci_elo = parse_elo(value);
      if (!uci_elo)
        return make_error("seat '" + seat.text + "': UCI_Elo '" + value + "' is not a number");
      name += " UCI_Elo=" + value;
    } else if (key != "Threads" && key != "Hash" && key != "Ponder" &&
               key != "Number of Threads") {
      name += " " + item;
    }
    if (amp == std::string::npos) break;
    rest = rest.substr(amp + 1);
  }
  if (limit && uci_elo && !seat.anchor) seat.anchor = uci_elo;
  seat.name = name;
  return {};
}

// The spec with the ladder's time control instead of its own movetime.
Expected<search::SearchSpec> ladder_spec(const std::string& text) {
  auto spec = search::parse_search_spec(text);
  if (!spec) return make_error(spec.error());
  spec->movetime_ms = 0;
  return spec;
}

// One seat's player for one run of game G: an engine kept for the whole run, or a fresh agent
// per game.
template <class G>
struct Mover {
  const LadderSeat* seat = nullptr;
  std::unique_ptr<uci::UciEngine> engine;
  std::unique_ptr<search::Agent<G>> agent;
};

template <class G>
Expected<void> new_game(Mover<G>& m) {
  if (m.seat->kind == LadderSeat::Kind::kUci) {
    if (!m.engine) {
      auto e = uci::UciEngine::start(m.seat->path, m.seat->uci_options);
      if (!e) return make_error("seat '" + m.seat->text + "': " + e.error());
      m.engine = std::move(*e);
    }
    if (auto r = m.engine->new_game(); !r) return make_error(r.error());
    return {};
  }
  auto spec = ladder_spec(m.seat->spec);
  if (!spec) return make_error(spec.error());
  auto agent = search::make_agent_from_spec<G>(*spec);
  if (!agent) return make_error("seat '" + m.seat->text + "': " + agent.error());
  m.agent = std::move(*agent);
  return {};
}

// The start of pair p: a book line or random plies.
template <class G>
Expected<G> opening_of(const G& start, const LadderConfig& c, const std::vector<std::string>& book,
                       int p) {
  const std::uint64_t seed = tournament::pair_seed(static_cast<std::int64_t>(c.seed), p);
  if (book.empty()) return random_opening(start, c.opening_plies, seed);
  return book_opening(start, book, seed);
}

// Plays one game from `position`; the score of `a` (moving first), or an error that ends the run.
template <class G>
Expected<LadderGame> play(G position, Mover<G>& a, Mover<G>& b, const LadderConfig& c) {
  LadderGame game;
  for (Mover<G>* m : {&a, &b})
    if (auto r = new_game(*m); !r) return make_error(r.error());
  const std::string start_fen = position.serialize();
  std::vector<std::string> history;
  std::int64_t clock_ms[2] = {c.base_ms, c.base_ms};
  const client::TimeControl tc{client::TimeControl::Kind::kFischer, c.base_ms, c.increment_ms};
  auto lose = [&](Player side, const std::string& why) {
    game.first_score = side == Player::kFirst ? 0 : 1;
    game.reason = why;
    return game;
  };
  while (!position.outcome().is_terminal() && game.plies < c.max_plies) {
    const Player side = position.side_to_move();
    Mover<G>& m = side == Player::kFirst ? a : b;
    const std::size_t s = side == Player::kFirst ? 0 : 1;
    const auto t0 = Clock::now();
    std::string move;
    if (m.seat->kind == LadderSeat::Kind::kUci) {
      uci::UciGo go;
      if (c.base_ms > 0) {
        go.wtime_ms = clock_ms[0];
        go.btime_ms = clock_ms[1];
        go.winc_ms = go.binc_ms = c.increment_ms;
      } else {
        go.movetime_ms = c.movetime_ms;
      }
      auto r = m.engine->best_move(start_fen, history, go);
      if (!r) {
        m.engine.reset();  // started again for the next game
        return lose(side, "engine failed: " + r.error());
      }
      move = r->best_move;
    } else {
      search::Limits limits;
      limits.movetime_ms =
          c.base_ms > 0 ? client::move_budget_ms(tc, clock_ms[s]) : c.movetime_ms;
      auto r = m.agent->choose_move(position, limits);
      if (!r.move) return lose(side, "no move");
      move = position.move_to_string(*r.move);
    }
    const auto used =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    if (c.base_ms > 0) {
      clock_ms[s] -= used;
      if (clock_ms[s] < 0) return lose(side, "time forfeit");
      clock_ms[s] += c.increment_ms;
    }
    auto parsed = position.parse_move(move);
    if (!parsed) return lose(side, "illegal move '" + move + "'");
    position.make_move(*parsed);
    history.push_back(move);
    ++game.plies;
  }
  score_ladder_game(game, position.outcome(), std::to_string(c.max_plies) + " plies");
  return game;
}

// One worker: its own movers (its own engine processes, started at their first game unless
// given), playing tasks until none is left.
template <class G>
void work(const G& start, const LadderConfig& c, const std::vector<std::string>& book,
          std::vector<LadderSeat>& seats, TaskQueue& queue, std::vector<Mover<G>> movers = {}) {
  movers.resize(seats.size());
  for (std::size_t i = 0; i < seats.size(); ++i) movers[i].seat = &seats[i];
  while (auto t = queue.next()) {
    auto opening = opening_of(start, c, book, t->pair);
    if (!opening) return queue.fail(opening.error());
    auto g = play(*opening, movers[static_cast<std::size_t>(t->first)],
                  movers[static_cast<std::size_t>(t->second)], c);
    if (!g) return queue.fail(g.error());
    queue.done(*t, std::move(*g));
  }
}

template <class G>
Expected<void> run_games(const LadderConfig& c, const GameOptions& options, LadderResult& result,
                         const LadderProgress& progress, const std::atomic<bool>* stop,
                         Clock::time_point started) {
  if constexpr (G::kNumPlayers != 2) {
    return make_error(std::string(G::kName) + " is not a two-player game");
  } else {
    auto start = G::create(options);
    if (!start) return make_error(start.error());
    std::vector<std::string> book;
    if (!c.opening_book.empty()) {
      auto read = tournament::read_opening_book(c.opening_book);
      if (!read) return make_error(read.error());
      if (read->empty()) return make_error("opening book '" + c.opening_book + "' has no line");
      book = std::move(*read);
    }
    const int n = static_cast<int>(result.seats.size());
    // Every seat checked (engines started, specs built for G) before the first game; the
    // first worker keeps these movers.
    std::vector<Mover<G>> checked(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      checked[static_cast<std::size_t>(i)].seat = &result.seats[static_cast<std::size_t>(i)];
      if (auto r = new_game(checked[static_cast<std::size_t>(i)]); !r) return r;
    }
    TaskQueue queue(c, result, progress, stop, started,
                    game_tasks(c.pairs, ladder_pairings(n, c.all_pairs)));
    std::vector<std::thread> workers;
    for (int w = 1; w < std::max(1, c.jobs); ++w)
      workers.emplace_back([&] { work(*start, c, book, result.seats, queue); });
    work(*start, c, book, result.seats, queue, std::move(checked));
    for (auto& t : workers) t.join();
    queue.sort_games();
    return queue.status();
  }
}

std::string fixed(double v, int decimals = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string elo_text(const tournament::EloEstimate& e) {
  using B = tournament::EloEstimate::Bound;
  if (e.anchor) return fixed(e.elo) + " (anchor)";
  switch (e.bound) {
    case B::kAtLeast:
      return ">= " + fixed(e.elo) + " (perfect score)";
    case B::kAtMost:
      return "<= " + fixed(e.elo) + " (zero score)";
    case B::kUnknown:
      return "unknown (no games tie it to an anchor)";
    case B::kEstimate:
      break;
  }
  return fixed(e.elo) + " +/- " + fixed(e.half_width) + " [" + fixed(e.low()) + ", " +
         fixed(e.high()) + "]";
}

}  // namespace

Expected<LadderSeat> parse_ladder_seat(const std::string& text, const std::string& game) {
  LadderSeat seat;
  seat.text = text;
  std::string body = text;
  if (const auto at = body.rfind('@'); at != std::string::npos) {
    auto elo = parse_elo(body.substr(at + 1));
    if (!elo)
      return make_error("seat '" + text + "': '" + body.substr(at + 1) +
                        "' after '@' is not an Elo");
    seat.anchor = elo;
    body = body.substr(0, at);
  }
  if (body.empty()) return make_error("an empty seat");
  if (is_gdl_game(game)) {
    if (!has_gdl_sheet(game)) return make_error("unknown game '" + game + "'");
    if (auto r = parse_gdl_ladder_seat(seat, body, game); !r) return make_error(r.error());
    return seat;
  }
  if (body.starts_with("uci:")) {
    if (auto r = parse_uci_seat(seat, body.substr(4), game); !r) return make_error(r.error());
    return seat;
  }
  seat.name = body;
  if (const client::Preset* preset = client::find_preset(body)) {
    if (preset->game != game)
      return make_error("seat '" + text + "': preset '" + body + "' plays " + preset->game +
                        ", not " + game);
    seat.spec = preset->spec;
  } else {
    auto spec = search::parse_search_spec(body);
    if (!spec)
      return make_error("seat '" + text + "': unknown preset '" + body +
                        "' (arena bot --list-presets) and not a search spec (" + spec.error() +
                        ")");
    seat.spec = body;
  }
  // The spec must build for this game (its heuristic's name and parameters).
  GameOptions options;
  const std::string kind = resolve_game_name(game, options);
  Expected<void> built;
  const bool known = visit_game_type(kind, [&]<class G>(std::type_identity<G>) {
    auto spec = ladder_spec(seat.spec);
    if (!spec) return void(built = make_error(spec.error()));
    auto agent = search::make_agent_from_spec<G>(*spec);
    if (!agent) built = make_error(agent.error());
  });
  if (!known) return make_error("unknown game '" + game + "'");
  if (!built) return make_error("seat '" + text + "': " + built.error());
  return seat;
}

Expected<void> check_ladder_game(const LadderConfig& c) {
  if (is_gdl_game(c.game)) return check_gdl_ladder_game(c);
  GameOptions options;
  auto resolved = resolve_game(c.game, c.options, options);
  if (!resolved) return make_error("options: " + resolved.error());
  if (auto start = make_game(*resolved, options); !start) return make_error(start.error());
  return {};
}

Expected<LadderResult> run_ladder(const LadderConfig& c, const LadderProgress& progress,
                                  const std::atomic<bool>* stop) {
  if (c.opponents.empty()) return make_error("no opponents");
  if (c.pairs < 1) return make_error("pairs must be at least 1");
  if (c.base_ms <= 0 && c.movetime_ms <= 0) return make_error("no time control");
  const auto started = Clock::now();
  LadderResult result;
  std::map<std::string, int> names;
  std::vector<std::string> texts{c.player};
  texts.insert(texts.end(), c.opponents.begin(), c.opponents.end());
  for (const auto& text : texts) {
    auto seat = parse_ladder_seat(text, c.game);
    if (!seat) return make_error(seat.error());
    if (const int seen = names[seat->name]++; seen > 0)
      seat->name += " #" + std::to_string(seen + 1);
    result.seats.push_back(std::move(*seat));
  }
  if (!c.games_file.empty())
    if (auto read = read_games_file(c, result); !read) return make_error(read.error());
  if (is_gdl_game(c.game)) {
    if (auto played = run_gdl_ladder_games(c, result, progress, stop, started); !played)
      return make_error(played.error());
  } else {
    GameOptions options;
    auto resolved = resolve_game(c.game, c.options, options);
    if (!resolved) return make_error("options: " + resolved.error());
    const std::string kind = *resolved;
    Expected<void> status;
    const bool known = visit_game_type(kind, [&]<class G>(std::type_identity<G>) {
      status = run_games<G>(c, options, result, progress, stop, started);
    });
    if (!known) return make_error("unknown game '" + c.game + "'");
    if (!status) return make_error(status.error());
  }

  // The fit: the given anchors, or the weakest seat as the origin.
  const int n = static_cast<int>(result.seats.size());
  std::vector<std::optional<double>> anchors;
  for (const auto& s : result.seats) anchors.push_back(s.anchor);
  std::vector<tournament::GameOutcome> outcomes;
  for (const auto* list : {&result.earlier, &result.games})
    for (const auto& g : *list) outcomes.push_back({g.first, g.second, g.first_score});
  if (std::none_of(anchors.begin(), anchors.end(), [](const auto& a) { return a.has_value(); })) {
    std::vector<double> points(static_cast<std::size_t>(n), 0), games(static_cast<std::size_t>(n), 0);
    for (const auto& g : outcomes) {
      points[static_cast<std::size_t>(g.first)] += g.first_score;
      points[static_cast<std::size_t>(g.second)] += 1 - g.first_score;
      ++games[static_cast<std::size_t>(g.first)];
      ++games[static_cast<std::size_t>(g.second)];
    }
    int weakest = 1;
    auto rate = [&](int i) {
      return games[static_cast<std::size_t>(i)] > 0
                 ? points[static_cast<std::size_t>(i)] / games[static_cast<std::size_t>(i)]
                 : 1.0;
    };
    for (int i = 1; i < n; ++i)
      if (rate(i) < rate(weakest)) weakest = i;
    anchors[static_cast<std::size_t>(weakest)] = 0.0;
    result.origin_chosen = true;
    result.origin = weakest;
  }
  auto fit = tournament::fit_anchored_elo(anchors, outcomes, c.prior_draws);
  if (!fit) return make_error(fit.error());
  result.elo = std::move(*fit);
  result.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

namespace {

// The two lines above the table: the game and seats, then the settings and what was played.
void format_ladder_header(std::ostream& out, const LadderConfig& c, const LadderResult& r) {
  const std::string tc = c.base_ms > 0 ? fixed(static_cast<double>(c.base_ms) / 1000, 1) + " s + " +
                                             fixed(static_cast<double>(c.increment_ms) / 1000, 2) +
                                             " s a move"
                                       : std::to_string(c.movetime_ms) + " ms a move";
  const std::string openings = !c.opening_book.empty() ? "book " + c.opening_book
                               : c.opening_plies > 0
                                   ? std::to_string(c.opening_plies) +
                                         (is_gdl_game(c.game) ? " random turns" : " random plies")
                                   : "the start";
  out << "ladder: " << c.game << (c.options.empty() ? "" : " (" + c.options + ")") << ", "
      << r.seats[0].name << " against " << r.seats.size() - 1
      << (r.seats.size() == 2 ? " opponent" : " opponents")
      << (c.all_pairs ? ", every seat against every other" : "") << "\n";
  out << "time control " << tc << ", openings from " << openings << ", each with both colours, "
      << r.games.size() << " games in " << fixed(r.wall_s) << " s"
      << (c.jobs > 1 ? ", " + std::to_string(c.jobs) + " at a time" : "")
      << (r.stopped_early ? " (stopped at the time bound)" : "")
      << (c.games_file.empty()
              ? ""
              : ", plus " + std::to_string(r.earlier.size()) + " earlier games from " +
                    c.games_file +
                    (r.earlier_left_out > 0 ? " (" + std::to_string(r.earlier_left_out) +
                                                  " of other seats or settings left out)"
                                            : ""))
      << (c.prior_draws > 0 ? ", Elo fitted with " + std::to_string(c.prior_draws) +
                                  " virtual draw(s) per pairing"
                            : "")
      << "\n\n";
}

// The table of opponents: seat 0's games against each, and each one's Elo.
void format_ladder_opponents(std::ostream& out, const LadderResult& r, std::size_t width) {
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %-13s %5s %5s %5s %5s %7s  %s\n", static_cast<int>(width),
                "opponent", "kind", "games", "+", "-", "=", "score", "Elo (95% interval)");
  out << line;
  const int n = static_cast<int>(r.seats.size());
  for (int j = 1; j < n; ++j) {
    int wins = 0, losses = 0, draws = 0;
    for (const auto* list : {&r.earlier, &r.games})
      for (const auto& g : *list) {
        if (!((g.first == 0 && g.second == j) || (g.first == j && g.second == 0))) continue;
        const double s = g.first == 0 ? g.first_score : 1 - g.first_score;
        wins += s == 1;
        losses += s == 0;
        draws += s == 0.5;
      }
    const auto& seat = r.seats[static_cast<std::size_t>(j)];
    const auto& e = r.elo[static_cast<std::size_t>(j)];
    const std::string kind = e.anchor ? (r.origin_chosen ? "origin" : "anchor")
                             : seat.kind == LadderSeat::Kind::kUci ? "uncalibrated"
                                                                    : "estimated";
    const int games = wins + losses + draws;
    std::snprintf(line, sizeof line, "%-*s %-13s %5d %5d %5d %5d %6.1f%%  %s\n",
                  static_cast<int>(width), seat.name.c_str(), kind.c_str(), games, wins, losses,
                  draws, games > 0 ? 100.0 * (wins + 0.5 * draws) / games : 0.0,
                  elo_text(e).c_str());
    out << line;
  }
}

// Seat 0's Elo and the scale it is on.
void format_ladder_summary(std::ostream& out, const LadderResult& r) {
  const auto& me = r.elo[0];
  out << "\n" << r.seats[0].name << ": Elo " << elo_text(me) << " over " << me.games
      << " games (" << fixed(me.games > 0 ? 100 * me.points / me.games : 0, 1) << "%)";
  if (r.origin_chosen)
    out << ", relative to " << r.seats[static_cast<std::size_t>(r.origin)].name << " = 0";
  else {
    int anchors = 0;
    for (const auto& e : r.elo) anchors += e.anchor;
    out << ", on the scale of the " << anchors << " anchor" << (anchors == 1 ? "" : "s");
  }
  out << "\n";
}

// Every seat by Elo, best first (all_pairs ladders).
void format_ladder_ranking(std::ostream& out, const LadderResult& r, std::size_t width) {
  out << "\nevery seat, best first:\n";
  const int n = static_cast<int>(r.seats.size());
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return r.elo[static_cast<std::size_t>(a)].elo > r.elo[static_cast<std::size_t>(b)].elo;
  });
  char line[512];
  for (int i : order) {
    const auto& e = r.elo[static_cast<std::size_t>(i)];
    std::snprintf(line, sizeof line, "  %-*s %5d games %6.1f%%  %s\n", static_cast<int>(width),
                  r.seats[static_cast<std::size_t>(i)].name.c_str(), e.games,
                  e.games > 0 ? 100 * e.points / e.games : 0.0, elo_text(e).c_str());
    out << line;
  }
}

}  // namespace

std::string format_ladder(const LadderConfig& c, const LadderResult& r) {
  std::ostringstream out;
  format_ladder_header(out, c, r);
  std::size_t width = 8;
  for (const auto& s : r.seats) width = std::max(width, s.name.size() + 2);
  format_ladder_opponents(out, r, width);
  format_ladder_summary(out, r);
  if (c.all_pairs) format_ladder_ranking(out, r, width);
  return out.str();
}

}  // namespace arena::league
