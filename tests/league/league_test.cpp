// The in-process league: fair starts, a tiny league end to end, resuming after an interruption.
#include "league/league_runner.h"
#include "tournament/report/tournament_json.h"

#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "db/forwarding_store.h"
#include "db/sqlite_store.h"
#include "games/catalog/catalog.h"
#include "games/core/opening_book.h"
#include "games/core/turn_rows.h"
#include "games/gdl/library/library.h"
#include "games/isolation/isolation.h"
#include "games/othello/othello.h"
#include "league/league_presets.h"
#include "league/play_gdl_game.h"
#include "league/server_league.h"
#include "tests/db/temp_dir.h"
#include "tournament/pairing/fair_start.h"
#include "tournament/report/report.h"
#include "tournament/report/stored_analysis.h"

namespace arena::league {
namespace {

TEST(FairStart, TheSameSeedGivesTheSamePositionAndSeedsDiffer) {
  auto start = isolation::Isolation::create({{"size", "5"}});
  ASSERT_TRUE(start);
  std::set<std::string> seen;
  for (int pair = 0; pair < 8; ++pair) {
    const auto seed = tournament::pair_seed(7, pair);
    const std::string a = random_opening(*start, 2, seed).serialize();
    EXPECT_EQ(a, random_opening(*start, 2, seed).serialize());
    EXPECT_NE(a, start->serialize());
    seen.insert(a);
  }
  EXPECT_GT(seen.size(), 4u);
}

TEST(FairStart, OthelloTakesTheXotLineOfTheSeed) {
  auto book = tournament::read_opening_book(std::string(ARENA_TEST_DATA_DIR) + "/xot_small.txt");
  ASSERT_TRUE(book);
  EXPECT_EQ(book->size(), 3623u);  // the small list's count, stated in the file's header
  auto start = othello::Othello::create({});
  ASSERT_TRUE(start);
  auto g = tournament::fair_start(*start, 0, 5, *book);
  ASSERT_TRUE(g);
  auto expected = othello::Othello::from_opening((*book)[5]);
  ASSERT_TRUE(expected);
  EXPECT_EQ(g->serialize(), expected->serialize());
  EXPECT_FALSE(tournament::read_opening_book("/nonexistent/book.txt"));
}

// A game without opening lines of its own: the ladder plays a book line's moves from the start
// (book_opening), a league's fair start keeps to random plies, and an illegal word is named.
TEST(BookOpening, AnyGamePlaysTheLinesMovesFromItsStart) {
  auto start = isolation::Isolation::create({{"size", "5"}});
  ASSERT_TRUE(start);
  std::vector<std::string> moves;
  const auto expected = random_opening(*start, 3, 11, &moves);
  ASSERT_EQ(moves.size(), 3u);
  const std::vector<std::string> book{"# not this one", moves[0] + "  " + moves[1] + " " + moves[2]};
  auto g = book_opening(*start, book, 1);
  ASSERT_TRUE(g) << g.error();
  EXPECT_EQ(g->serialize(), expected.serialize());
  auto plies = tournament::fair_start(*start, 0, 1, book);
  ASSERT_TRUE(plies);
  EXPECT_EQ(plies->serialize(), start->serialize()) << "a league's book is for opening lines only";
  auto bad = book_opening(*start, std::vector<std::string>{moves[0] + " zz9"}, 0);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("'zz9' is not legal"), std::string::npos) << bad.error();
}

tournament::LeagueConfig tiny_league(tournament::Format format) {
  tournament::LeagueConfig c;
  c.name = "tiny";
  c.game = "tictactoe";
  c.format = format;
  c.players = {{"rand", "random:seed=3"}, {"greedy", "greedy"}, {"ab", "alphabeta:depth=9"}};
  if (format == tournament::Format::kSwiss) c.players.push_back({"rand2", "random:seed=9"});
  c.games_per_pairing = 2;
  c.rounds = 2;
  c.concurrency = 2;
  c.opening_plies = 1;
  return c;
}

struct Fixture {
  test::TempDir dir;
  std::string path = dir.file("league.db");
};

TEST(League, ARoundRobinRunsToItsEndWithFairPairsInTheStore) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store) << store.error();
  int reports = 0;
  auto run = run_league(tiny_league(tournament::Format::kRoundRobin), **store, f.path,
                        [&](const LeagueProgress&) { ++reports; });
  ASSERT_TRUE(run) << run.error();
  EXPECT_EQ(run->games_played, 6);
  EXPECT_EQ(reports, 6);
  auto reader = db::TournamentReader::open(f.path);
  ASSERT_TRUE(reader);
  auto info = reader->tournament(run->tournament);
  ASSERT_TRUE(info);
  EXPECT_TRUE(info->finished);
  EXPECT_EQ(info->format, "round-robin");
  auto rows = reader->pairings(run->tournament);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 6u);
  for (std::size_t k = 0; k < rows->size(); k += 2) {
    const auto& a = (*rows)[k];
    const auto& b = (*rows)[k + 1];
    EXPECT_EQ(a.first, b.second);
    EXPECT_EQ(a.seed, b.seed);
    auto ga = (*store)->game_detail(a.game);
    auto gb = (*store)->game_detail(b.game);
    ASSERT_TRUE(ga && gb);
    EXPECT_EQ(ga->start_position, gb->start_position);  // the pair's shared opening
    EXPECT_FALSE(ga->summary.result.empty());
    // Each row stores its mover: the start's side to move, then the seats alternate.
    for (const db::GameDetail* g : {&*ga, &*gb}) {
      auto start = load_game(g->summary.kind, g->start_position);
      ASSERT_TRUE(start) << start.error();
      int seat = (*start)->movers().front();
      for (const auto& m : g->moves) {
        EXPECT_EQ(m.seat, seat) << "ply " << m.ply;
        seat = 1 - seat;
      }
    }
  }
  auto analysis = tournament::load_analysis(*reader, run->tournament);
  ASSERT_TRUE(analysis);
  int games = 0;
  for (const auto& s : analysis->standings) games += s.games;
  EXPECT_EQ(games, 12);  // 6 games, counted once per side
  // Perfect play never loses at tic-tac-toe.
  for (const auto& s : analysis->standings)
    if (analysis->names[static_cast<std::size_t>(s.player)] == "ab") {
      EXPECT_EQ(s.losses, 0);
    }
}

// A store that keeps each bot version registered with it, and the id it got.
class VersionRecordingStore : public db::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  Expected<std::int64_t> register_bot_version(const db::BotVersion& v) override {
    auto id = ForwardingStore::register_bot_version(v);
    if (id) versions.emplace_back(v, *id);
    return id;
  }
  std::vector<std::pair<db::BotVersion, std::int64_t>> versions;
};

// A league registers a player whose heuristic reads a weights file with the file's text, as a
// bot's hello names it: the same spec over edited weights is a new version of the player.
TEST(League, APlayersVersionCarriesItsWeightsFilesText) {
  Fixture f;
  auto sqlite = db::open_sqlite_store(f.path);
  ASSERT_TRUE(sqlite) << sqlite.error();
  VersionRecordingStore store(**sqlite);
  const std::string weights = f.dir.file("qubic.txt");
  tournament::LeagueConfig c;
  c.game = "qubic";
  c.players = {{"linear", "alphabeta:eval=linear,weights=" + weights + ",depth=1"},
               {"rand", "random:seed=3"}};
  c.games_per_pairing = 2;
  for (const std::string text : {"own1 1\nown2 4\nown3 16\n", "own1 1\nown2 5\nown3 20\n"}) {
    std::ofstream(weights) << text;
    c.name = "weights " + std::to_string(store.versions.size() / 2);
    auto run = run_league(c, store, f.path, nullptr);
    ASSERT_TRUE(run) << run.error();
    ASSERT_FALSE(store.versions.empty());
    EXPECT_EQ(store.versions[store.versions.size() - 2].first.parameters, text);
    EXPECT_EQ(store.versions.back().first.parameters, "");  // the random player's
  }
  ASSERT_EQ(store.versions.size(), 4u);
  EXPECT_NE(store.versions[0].second, store.versions[2].second);
  EXPECT_EQ(store.versions[1].second, store.versions[3].second);
}

// A league stopped half-way and run again after its weights file changed would mix two versions
// of one player in one table: it is refused, naming the player, and the tournament is untouched;
// with the weights restored it finishes.
TEST(League, AResumedLeagueRefusesAPlayerWhoseWeightsChanged) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store) << store.error();
  const std::string weights = f.dir.file("qubic.txt");
  const std::string before = "own1 1\nown2 4\nown3 16\n";
  std::ofstream(weights) << before;
  tournament::LeagueConfig c;
  c.name = "edited";
  c.game = "qubic";
  c.players = {{"linear", "alphabeta:eval=linear,weights=" + weights + ",depth=1"},
               {"rand", "random:seed=3"}};
  c.games_per_pairing = 4;
  c.concurrency = 1;
  std::atomic<bool> stop{false};
  auto first = run_league(
      c, **store, f.path, [&](const LeagueProgress& p) { stop = p.done_now >= 2; }, &stop);
  ASSERT_TRUE(first) << first.error();
  ASSERT_EQ(first->games_played, 2);
  auto reader = db::TournamentReader::open(f.path);
  ASSERT_TRUE(reader);
  auto played = reader->versions_played(first->tournament);
  ASSERT_TRUE(played) << played.error();
  ASSERT_EQ(played->size(), 2u) << "one version per player";
  EXPECT_EQ((*played)[0].player, "linear");
  EXPECT_EQ((*played)[0].search, c.players[0].spec);

  std::ofstream(weights) << "own1 1\nown2 5\nown3 20\n";
  auto edited = run_league(c, **store, f.path, {});
  ASSERT_FALSE(edited);
  EXPECT_NE(edited.error().find("player 'linear'"), std::string::npos) << edited.error();
  EXPECT_NE(edited.error().find("its weights changed"), std::string::npos) << edited.error();
  // The same league through a local server is refused the same way, before anything starts.
  ServerLeagueOptions on_server;
  on_server.db = f.path;
  on_server.arena_binary = "/nonexistent/arena";
  auto served = run_league_on_server(c, on_server);
  ASSERT_FALSE(served);
  EXPECT_NE(served.error().find("player 'linear'"), std::string::npos) << served.error();
  EXPECT_NE(served.error().find("its weights changed"), std::string::npos) << served.error();
  c.players[0].spec = "alphabeta:eval=linear,weights=" + weights + ",depth=2";
  auto respecced = run_league(c, **store, f.path, {});
  ASSERT_FALSE(respecced);
  EXPECT_NE(respecced.error().find("its spec changed"), std::string::npos) << respecced.error();
  c.players[0].spec = "alphabeta:eval=linear,weights=" + weights + ",depth=1";
  auto rows = reader->pairings(first->tournament);
  ASSERT_TRUE(rows);
  int finished = 0;
  for (const auto& r : *rows) finished += r.result.empty() ? 0 : 1;
  EXPECT_EQ(finished, 2) << "no game was played with the edited weights";
  EXPECT_FALSE(reader->tournament(first->tournament)->finished);

  std::ofstream(weights) << before;
  auto restored = run_league(c, **store, f.path, {});
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_TRUE(restored->resumed);
  EXPECT_EQ(restored->games_played, 2);
  played = reader->versions_played(first->tournament);
  ASSERT_TRUE(played);
  EXPECT_EQ(played->size(), 2u) << "the same two versions played every game";
}

// What /api/tournaments serves: the standings add up to the games played, the crosstable is
// symmetric (a's points against b plus b's against a is their games), unknown ids are named.
TEST(League, TournamentsAsJsonForTheApi) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store) << store.error();
  auto run = run_league(tiny_league(tournament::Format::kRoundRobin), **store, f.path, {});
  ASSERT_TRUE(run) << run.error();
  (*store)->flush();
  auto all = tournament::tournaments_json(f.path);
  ASSERT_TRUE(all) << all.error();
  ASSERT_EQ(all->size(), 1u);
  const auto& t = (*all)[0];
  EXPECT_EQ(t["id"], run->tournament);
  EXPECT_EQ(t["status"], "finished");
  EXPECT_EQ(t["games_played"], 6);
  EXPECT_EQ(t["games_total"], 6);
  double points = 0;
  int games = 0;
  for (const auto& row : t["standings"]) {
    points += row["points"].get<double>();
    games += row["games"].get<int>();
    EXPECT_TRUE(row.contains("bt_elo")) << row;
  }
  EXPECT_EQ(games, 12);
  EXPECT_DOUBLE_EQ(points, 6.0);  // one point per game
  for (const auto& a : t["crosstable"])
    for (const auto& b : t["crosstable"]) {
      if (a["player"] == b["player"]) continue;
      const std::string ab = a[b["player"].get<std::string>()],
                        ba = b[a["player"].get<std::string>()];
      ASSERT_FALSE(ab.empty());
      const double pa = std::stod(ab.substr(0, ab.find('/'))),
                   pb = std::stod(ba.substr(0, ba.find('/')));
      EXPECT_DOUBLE_EQ(pa + pb, std::stod(ab.substr(ab.find('/') + 1))) << ab << " vs " << ba;
    }
  auto one = tournament::tournaments_json(f.path, run->tournament);
  ASSERT_TRUE(one) << one.error();
  EXPECT_EQ((*one)["standings"], t["standings"]);
  auto missing = tournament::tournaments_json(f.path, 99);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("no tournament 99"), std::string::npos) << missing.error();
}

TEST(League, AStoppedAndInterruptedLeagueResumesWithoutReplayingFinishedGames) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store);
  tournament::LeagueConfig config = tiny_league(tournament::Format::kRoundRobin);
  config.concurrency = 1;
  std::atomic<bool> stop{false};
  auto first = run_league(
      config, **store, f.path, [&](const LeagueProgress& p) { stop = p.done_now >= 2; }, &stop);
  ASSERT_TRUE(first) << first.error();
  auto reader = db::TournamentReader::open(f.path);
  ASSERT_TRUE(reader);
  auto rows = reader->pairings(first->tournament);
  ASSERT_TRUE(rows);
  std::map<std::int64_t, db::GameId> finished_before;
  std::int64_t cut_off_row = 0;
  for (const auto& r : *rows) {
    if (!r.result.empty())
      finished_before[r.id] = r.game;
    else if (cut_off_row == 0)
      cut_off_row = r.id;
  }
  ASSERT_EQ(finished_before.size(), 2u);
  // A game that started and never ended (the process was killed in the middle).
  auto cut = (*store)->create_game({"tictactoe", "", "", 1, 2, "none", 1, first->tournament, 0, 0});
  ASSERT_TRUE(cut);
  ASSERT_TRUE((*store)->set_pairing_game(cut_off_row, *cut));

  auto second = run_league(config, **store, f.path, {});
  ASSERT_TRUE(second) << second.error();
  EXPECT_TRUE(second->resumed);
  EXPECT_EQ(second->tournament, first->tournament);
  EXPECT_EQ(second->games_played, 4);
  auto after = reader->pairings(first->tournament);
  ASSERT_TRUE(after);
  for (const auto& r : *after) {
    EXPECT_FALSE(r.result.empty() || r.result == "*") << r.id;
    if (finished_before.count(r.id)) {
      EXPECT_EQ(r.game, finished_before[r.id]);
    }
    if (r.id == cut_off_row) {
      EXPECT_NE(r.game, *cut);
    }
  }
  auto aborted = (*store)->game_detail(*cut);
  ASSERT_TRUE(aborted);
  EXPECT_EQ(aborted->summary.result, "*");
  EXPECT_TRUE(reader->tournament(first->tournament)->finished);
}

TEST(League, SwissPlaysItsRoundsWithoutRepeats) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store);
  auto run = run_league(tiny_league(tournament::Format::kSwiss), **store, f.path, {});
  ASSERT_TRUE(run) << run.error();
  auto reader = db::TournamentReader::open(f.path);
  auto rows = reader->pairings(run->tournament);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 8u);  // 2 rounds x 2 pairings x 2 games
  std::map<std::pair<db::PlayerId, db::PlayerId>, std::set<int>> rounds_of;
  for (const auto& r : *rows)
    rounds_of[{std::min(r.first, r.second), std::max(r.first, r.second)}].insert(r.round);
  for (const auto& [pair, rounds] : rounds_of) EXPECT_EQ(rounds.size(), 1u);
}

// Two GDL players of the roster at tic-tac-toe's sheet.
tournament::LeagueConfig gdl_league() {
  tournament::LeagueConfig c = tiny_league(tournament::Format::kRoundRobin);
  c.game = "gdl:tictactoe";
  c.players = {{"GDL_Random", "", "GDL_Random"}, {"GDL_UCT", "", "GDL_UCT"}};
  return c;
}

// A GDL sheet in process: GDL players, every game recorded as the server records one (kind
// gdl:NAME, the start position after the pair's random turns, the turns as moves, the goals as
// the seats' scores), so replaying the stored moves from the stored start reaches the stored
// end, and the goals agree with the result.
TEST(League, AGdlSheetPlaysInProcessAndEveryGameReplaysFromTheStore) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store) << store.error();
  tournament::LeagueConfig c = gdl_league();
  c.movetime_ms = 20;
  c.opening_plies = 2;
  c.concurrency = 1;  // the second game is played on the first one's reasoner
  auto run = run_league(c, **store, f.path, {});
  ASSERT_TRUE(run) << run.error();
  EXPECT_EQ(run->games_played, 2);
  auto reader = db::TournamentReader::open(f.path);
  ASSERT_TRUE(reader);
  EXPECT_TRUE(reader->tournament(run->tournament)->finished);
  auto rows = reader->pairings(run->tournament);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 2u);
  auto first = (*store)->game_detail((*rows)[0].game);
  auto second = (*store)->game_detail((*rows)[1].game);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->start_position, second->start_position);  // the pair's shared opening
  for (const auto* g : {&*first, &*second}) {
    EXPECT_EQ(g->summary.kind, "gdl:tictactoe");
    auto start = make_game("gdl:tictactoe");
    ASSERT_TRUE(start) << start.error();
    EXPECT_NE(g->start_position, (*start)->serialize()) << "two random turns were played";
    auto replay = load_game("gdl:tictactoe", g->start_position);
    ASSERT_TRUE(replay) << replay.error();
    for (const auto& m : g->moves)
      ASSERT_TRUE((*replay)->play(m.move)) << "stored move '" << m.move << "' at ply " << m.ply;
    EXPECT_TRUE((*replay)->outcome().is_terminal());
    EXPECT_EQ((*replay)->serialize(), g->final_position);
    ASSERT_EQ(g->summary.scores.size(), 2u);
    EXPECT_EQ(g->summary.scores, (*replay)->scores());
    const auto& sc = g->summary.scores;
    EXPECT_EQ(g->summary.result, sc[0] > sc[1] ? "1-0" : sc[0] < sc[1] ? "0-1" : "1/2-1/2");
    EXPECT_EQ(g->summary.reason, "goals");
    EXPECT_EQ(g->summary.note, "") << "the rules ended it as usual";
    std::int64_t iterations = 0;  // GDL_UCT's moves carry its search's iterations
    for (const auto& m : g->moves) iterations += m.nodes;
    EXPECT_GT(iterations, 0);
  }
}

// A sheet whose end gives the roles no goal value (a sheet's bug): each game is recorded with
// the note the server's game_end would carry, naming the role.
TEST(League, AGdlGameEndedByASheetsBugKeepsItsNote) {
  Fixture f;
  const std::string sheet = f.dir.file("nogoal.kif");
  std::ofstream(sheet) << "(role a) (role b) (init (c 0)) (legal a go) (legal b go)\n"
                          "(<= (next (c 1)) (does a go)) (<= terminal (true (c 1)))\n";
  auto added = gdl::add_gdl_file(sheet);
  ASSERT_TRUE(added) << added.error();
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store) << store.error();
  tournament::LeagueConfig c = gdl_league();
  c.game = "gdl:" + *added;
  auto run = run_league(c, **store, f.path, {});
  gdl::clear_gdl_files();
  ASSERT_TRUE(run) << run.error();
  EXPECT_EQ(run->games_played, 2);
  auto games = (*store)->list_games({});
  ASSERT_TRUE(games) << games.error();
  ASSERT_EQ(games->size(), 2u);
  for (const auto& g : *games) {
    EXPECT_EQ(g.reason, "goals");
    EXPECT_NE(g.note.find("no goal value"), std::string::npos) << g.note;
    EXPECT_TRUE(g.note.find("for a ") != std::string::npos ||  // the compiled reasoner's words
                g.note.find("of a:") != std::string::npos)     // the prover's
        << g.note;
  }
  // The tournament's report counts them as their scores make them (draws at 0-0) and says how
  // many ended so, with the first one's note; so does its JSON.
  auto reader = db::TournamentReader::open(f.path);
  ASSERT_TRUE(reader) << reader.error();
  auto analysis = tournament::load_analysis(*reader, run->tournament);
  ASSERT_TRUE(analysis) << analysis.error();
  EXPECT_EQ(analysis->noted_games, 2);
  EXPECT_EQ(analysis->first_note, games->back().note);  // list_games: newest first
  std::ostringstream report;
  tournament::print_report(report, *analysis);
  EXPECT_NE(report.str().find("(2 games ended by a fault of the rules, counted as their scores "
                              "make them and not rated in the store; the first: " +
                              analysis->first_note + ")"),
            std::string::npos)
      << report.str();
  auto json = tournament::tournaments_json(f.path, run->tournament);
  ASSERT_TRUE(json) << json.error();
  EXPECT_EQ(json->value("noted_games", 0), 2) << json->dump();
  EXPECT_EQ(json->value("first_note", ""), analysis->first_note);
}

// A sheet whose roles move at once: each turn is stored as one row per mover, as the server
// stores it (games/core/turn_rows.h), so the rows replay turn by turn to the stored end; and
// each row stores the seat that made it (the seat the replay finds); the search statistics give
// each row to its own seat: the random player searched nothing, UCT did, and between them they
// made every row.
TEST(League, SimultaneousTurnsAreStoredOneRowPerMoverAndCountedForTheirSeats) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store) << store.error();
  tournament::LeagueConfig c = gdl_league();
  c.game = "gdl:chickentictactoe";
  c.movetime_ms = 10;
  c.concurrency = 1;
  auto run = run_league(c, **store, f.path, {});
  ASSERT_TRUE(run) << run.error();
  EXPECT_EQ(run->games_played, 2);
  auto reader = db::TournamentReader::open(f.path);
  ASSERT_TRUE(reader);
  auto rows = reader->pairings(run->tournament);
  ASSERT_TRUE(rows);
  std::size_t stored_rows = 0, turns = 0;
  for (const auto& row : *rows) {
    auto g = (*store)->game_detail(row.game);
    ASSERT_TRUE(g) << g.error();
    auto replay = load_game(g->summary.kind, g->start_position);
    ASSERT_TRUE(replay) << replay.error();
    std::vector<std::string> moves;
    for (const auto& m : g->moves) moves.push_back(m.move);
    const RowReplay r = replay_rows(**replay, moves);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ((*replay)->serialize(), g->final_position);
    ASSERT_EQ(r.rows.size(), g->moves.size());
    for (std::size_t i = 0; i < r.rows.size(); ++i)
      EXPECT_EQ(g->moves[i].seat, r.rows[i].seat) << "row " << i;
    ASSERT_FALSE(r.rows.empty());
    stored_rows += moves.size();
    turns += static_cast<std::size_t>(r.rows.back().turn + 1);
  }
  EXPECT_GT(stored_rows, turns) << "some turn had two movers";
  auto analysis = tournament::load_analysis(*reader, run->tournament);
  ASSERT_TRUE(analysis) << analysis.error();
  std::map<std::string, tournament::MoveStats> search;
  for (std::size_t i = 0; i < analysis->names.size(); ++i)
    search[analysis->names[i]] = analysis->search[i];
  EXPECT_GT(search["GDL_Random"].moves, 0);
  EXPECT_EQ(search["GDL_Random"].nodes_sum, 0.0);
  EXPECT_GT(search["GDL_UCT"].nodes_sum, 0.0);
  EXPECT_EQ(static_cast<std::size_t>(search["GDL_Random"].moves + search["GDL_UCT"].moves),
            stored_rows);
}

// A reasoner serves one game at a time and is kept for the next: two games in play have two,
// a game that starts after one ended gets that one again.
TEST(League, GdlReasonersAreMadeOnlyForGamesInPlayAtOnce) {
  GdlReasonerPool pool("tictactoe");
  auto a = pool.take();
  auto b = pool.take();
  ASSERT_TRUE(a && b) << (a ? b.error() : a.error());
  EXPECT_NE(*a, *b);
  EXPECT_EQ(pool.made(), 2);
  const auto* first = a->get();
  pool.put(std::move(*a));
  auto c = pool.take();
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->get(), first);
  EXPECT_EQ(pool.made(), 2);
  GdlReasonerPool missing("noSuchSheet");
  auto none = missing.take();
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("noSuchSheet"), std::string::npos) << none.error();
}

// What an in-process GDL league cannot play is refused before anything is stored, naming it.
TEST(League, AGdlLeagueRefusesWhatItCannotPlayNamingIt) {
  Fixture f;
  auto store = db::open_sqlite_store(f.path);
  ASSERT_TRUE(store) << store.error();
  const tournament::LeagueConfig base = gdl_league();
  auto refused = [&](tournament::LeagueConfig c, const std::string& words) {
    auto run = run_league(c, **store, f.path, {});
    ASSERT_FALSE(run) << words;
    EXPECT_NE(run.error().find(words), std::string::npos) << run.error();
  };
  tournament::LeagueConfig three = base;
  three.game = "gdl:3pttc";
  three.players.push_back({"GDL_Fuzzy", "", "GDL_Fuzzy"});
  refused(three, "gdl:3pttc has 3 roles; a league plays games of two");
  tournament::LeagueConfig puzzle = base;
  puzzle.game = "gdl:maze";
  refused(puzzle, "gdl:maze has one role (a puzzle: arena solve)");
  tournament::LeagueConfig catalog_spec = base;
  catalog_spec.players[1] = {"ab", "alphabeta:depth=3"};
  refused(catalog_spec, "player 'ab': unknown GDL player 'alphabeta'");
  tournament::LeagueConfig by_url = base;
  by_url.players[1] = {"Outside", "ggp:http://127.0.0.1:9147"};
  refused(by_url, "player 'Outside': a GGP player by URL plays through a local server");
  tournament::LeagueConfig book = base;
  book.opening_book = std::string(ARENA_TEST_DATA_DIR) + "/xot_small.txt";
  refused(book, "opening_book");
  tournament::LeagueConfig options = base;
  options.options = "size=4";
  refused(options, "takes no options");
  tournament::LeagueConfig missing = base;
  missing.game = "gdl:no_such_sheet";
  refused(missing, "no_such_sheet");
  auto open = (*store)->unfinished_tournaments();
  ASSERT_TRUE(open) << open.error();
  EXPECT_TRUE(open->empty());
}

TEST(League, ConfigErrorsNameTheField) {
  auto unknown = tournament::parse_league_config(
      "{\"game\": \"isolation\", \"players\": [\"Nobody\", \"Random\"]}");
  ASSERT_TRUE(unknown) << "on a server a player is a name";
  auto resolved = resolve_entrants(*unknown);
  ASSERT_FALSE(resolved);
  EXPECT_NE(resolved.error().find("Nobody"), std::string::npos);
  auto wrong_game = tournament::parse_league_config(
      "{\"game\": \"chess\", \"players\": [\"Random\", \"AB_Custom\"]}");
  ASSERT_TRUE(wrong_game);
  EXPECT_NE(resolve_entrants(*wrong_game).error().find("plays isolation"), std::string::npos);
  EXPECT_NE(tournament::parse_league_config("{\"game\": \"isolation\", \"format\": \"ladder\"}")
                .error()
                .find("ladder"),
            std::string::npos);
  // Text that is not JSON at all is told apart from JSON of the wrong shape, with where.
  const auto broken = tournament::parse_league_config("{\"game\": isolation}");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().find("not valid JSON"), std::string::npos) << broken.error();
  EXPECT_NE(broken.error().find("column 10"), std::string::npos) << broken.error();
  EXPECT_EQ(tournament::parse_league_config("[\"isolation\"]").error(), "not a JSON object");
  auto preset = tournament::league_preset("aind-isolation");
  ASSERT_TRUE(preset) << preset.error();
  EXPECT_EQ(preset->players.size(), 11u);
  EXPECT_EQ(preset->num_challengers, 4);
  EXPECT_EQ(preset->games_per_pairing, 10);
}

}  // namespace
}  // namespace arena::league
