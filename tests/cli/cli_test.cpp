#include <gtest/gtest.h>

#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/run_command.h"

namespace {

using arena::test::run_command;
const std::string kArena = ARENA_BINARY;
// A shell prefix: $d is a fresh directory, removed with what the command left in it when the
// shell exits (the command's exit status stays the shell's).
const std::string kTempDir = "d=$(mktemp -d) && trap 'rm -rf \"$d\"' EXIT && ";

TEST(Cli, HelpListsWorkingSubcommands) {
  auto r = run_command(kArena + " help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("perft"), std::string::npos) << r.output;
}

TEST(Cli, UnknownSubcommandExitsTwoWithMessage) {
  auto r = run_command(kArena + " frobnicate");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("frobnicate"), std::string::npos) << r.output;
}

TEST(Cli, BadFlagExitsTwoWithMessage) {
  auto r = run_command(kArena + " perft --game tictactoe --depth 2 --bogus");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--bogus"), std::string::npos) << r.output;
}

TEST(Cli, ServeRefusesAnUnknownDurabilityNamingTheFlag) {
  auto r = run_command(kArena + " serve --port 0 --db :memory: --synchronous sometimes");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--synchronous"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("sometimes"), std::string::npos) << r.output;
}

TEST(Cli, ServeRefusesAnUnknownMoveJournalSettingNamingTheFlag) {
  auto r = run_command(kArena + " serve --port 0 --db :memory: --move-journal maybe");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--move-journal"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("maybe"), std::string::npos) << r.output;
}

TEST(Cli, ServeRefusesANegativeCommitWindowNamingTheFlag) {
  auto r = run_command(kArena + " serve --port 0 --db :memory: --commit-window-us -5");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--commit-window-us"), std::string::npos) << r.output;
}

TEST(Cli, APortOutOfRangeIsRefusedWithTheRange) {
  for (const char* command : {" serve --port 99999 --db :memory:", " league --port 70000",
                              " serve --port -1 --db :memory:"}) {
    auto r = run_command(kArena + command);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_NE(r.output.find("--port: Value"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("not in range 0 to 65535"), std::string::npos) << r.output;
  }
}

// arena study refuses bad flags with exit 2 and a message naming the flag, before any game.
TEST(Cli, StudyRefusesBadFlagsNamingThem) {
  const std::pair<const char*, const char*> cases[] = {
      {" study --players uct --db :memory:", "at least two"},
      {" study --players uct,nosuchplayer --db :memory:", "nosuchplayer"},
      {" study --movetime 0 --db :memory:", "--movetime"},
      {" study --format xml --db :memory:", "--format"},
      {" study --versus fuzzy --db :memory:", "--versus"},
      {" study --gdl /no/such/sheet.kif --db :memory:", "sheet.kif"},
  };
  for (const auto& [command, needle] : cases) {
    auto r = run_command(kArena + command);
    EXPECT_EQ(r.status, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find(needle), std::string::npos) << command << "\n" << r.output;
  }
}

// A study on two sheets through the binary: one played (its table), one with three roles listed
// with the reason; the CSV file has a row per player and one for the sheet not played.
TEST(Cli, StudyPlaysASheetAndListsOneItCannotPlay) {
  const std::string sheets = std::string(ARENA_SOURCE_DIR) + "/games/gdl/sheets/";
  auto r = run_command(kTempDir + kArena + " study --gdl " + sheets + "tictactoe.kif --gdl " +
                       sheets + "3pttc.kif --players random,uct --movetime 2 --db \"$d/s.db\"" +
                       " --csv \"$d/s.csv\" -q && cat \"$d/s.csv\"");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("gdl:tictactoe  tournament 1, 2/2 games"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gdl:3pttc: gdl:3pttc has 3 roles"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gdl:tictactoe,1,2,2,random,"), std::string::npos) << r.output;
}

TEST(Cli, VersionPrintsVersion) {
  auto r = run_command(kArena + " --version");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("arena"), std::string::npos);
}

TEST(Cli, PerftUnknownGameNamesIt) {
  auto r = run_command(kArena + " perft --game nosuchgame --depth 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("nosuchgame"), std::string::npos) << r.output;
}

// A puzzle solver that cannot take the game is refused before connecting (no server here).
TEST(Cli, BotRefusesASolverForTheWrongKindOfPuzzle) {
  auto ida =
      run_command(kArena + " bot --server ws://127.0.0.1:9/ws --game gdl:maze --search idastar");
  EXPECT_EQ(ida.status, 1);
  EXPECT_NE(ida.output.find("--search bfs or best_first"), std::string::npos) << ida.output;
  auto bfs = run_command(kArena + " bot --server ws://127.0.0.1:9/ws --game sliding --search bfs");
  EXPECT_EQ(bfs.status, 1);
  EXPECT_NE(bfs.output.find("takes idastar"), std::string::npos) << bfs.output;
}

// arena match plays a GDL sheet with GDL players, here a sheet outside the GDL folder given
// with --gdl; a search spec of the catalog's games is refused naming the flag.
// Deterministic players from the same start play the same game again: the match says how many
// games were repeats and how to vary them; from random openings the games differ and no note
// is printed. A random player (or a seeded search) whose spec sets no seed gets one per game from
// --seed, so its games differ too, for the catalog's games and GDL sheets alike; a spec's own
// seed= is kept.
TEST(Cli, MatchSaysWhenDeterministicPlayersRepeatTheirGames) {
  auto same = run_command(
      kArena + " match --game tictactoe --a alphabeta:depth=9 --b alphabeta:depth=9 -n 6");
  EXPECT_EQ(same.status, 0) << same.output;
  EXPECT_NE(same.output.find("note: 4 of the 6 games repeated an earlier game move for move"),
            std::string::npos)
      << same.output;
  EXPECT_NE(same.output.find("--opening-plies N starts each pair"), std::string::npos)
      << same.output;
  auto varied = run_command(kArena +
                            " match --game tictactoe --a alphabeta:depth=9 --b alphabeta:depth=9 "
                            "-n 6 --opening-plies 3");
  EXPECT_EQ(varied.status, 0) << varied.output;
  EXPECT_EQ(varied.output.find("note:"), std::string::npos) << varied.output;
  auto random = run_command(kArena + " match --game tictactoe --a random --b greedy -n 6");
  EXPECT_EQ(random.status, 0) << random.output;
  EXPECT_EQ(random.output.find("note:"), std::string::npos) << random.output;
  auto fixed = run_command(kArena + " match --game tictactoe --a random:seed=5 --b greedy -n 6");
  EXPECT_NE(fixed.output.find("note: 4 of the 6 games repeated"), std::string::npos)
      << fixed.output;
  auto gdl =
      run_command(kArena + " match --game gdl:tictactoe --a uct:iterations=50 --b random -n 6");
  EXPECT_EQ(gdl.status, 0) << gdl.output;
  EXPECT_EQ(gdl.output.find("note:"), std::string::npos) << gdl.output;
}

TEST(Cli, MatchPlaysAGdlSheetGivenAsAFile) {
  const std::string sheet = std::string(ARENA_TEST_DATA_DIR) + "/gdl/ticTacToe.kif";
  auto r =
      run_command(kArena + " match --gdl " + sheet +
                  " --game gdl:ticTacToe --a uct:iterations=200 --b random -n 2 --movetime 500");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("game 1: goals xplayer A "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("game 2: goals xplayer B "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("total for A: "), std::string::npos) << r.output;
  auto native = run_command(kArena + " match --gdl " + sheet +
                            " --game gdl:ticTacToe --a alphabeta:depth=3 --b random");
  EXPECT_EQ(native.status, 2) << native.output;
  EXPECT_NE(native.output.find("--a: unknown GDL player 'alphabeta'"), std::string::npos)
      << native.output;
  auto puzzle = run_command(kArena + " match --game gdl:maze --a random --b random");
  EXPECT_EQ(puzzle.status, 2) << puzzle.output;
  EXPECT_NE(puzzle.output.find("is a puzzle"), std::string::npos) << puzzle.output;
}

// arena league --in-process plays a GDL sheet with GDL players, the sheet given as a file under
// a name the project's folder does not have; the table follows.
TEST(Cli, LeagueInProcessPlaysAGdlSheetGivenAsAFile) {
  const std::string copy = kTempDir + "cp " + std::string(ARENA_SOURCE_DIR) +
                           "/games/gdl/sheets/tictactoe.kif $d/myOwnTicTacToe.kif && ";
  auto r = run_command(copy + kArena +
                       " league --in-process -q --gdl $d/myOwnTicTacToe.kif --game "
                       "gdl:myOwnTicTacToe --players GDL_Random GDL_UCT --movetime 20 "
                       "--games-per-pairing 2 --db $d/league.db");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("(round-robin, gdl:myOwnTicTacToe): 2 games played"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("GDL_UCT "), std::string::npos) << r.output;
  auto spec = run_command(kTempDir + kArena +
                          " league --in-process -q --game gdl:tictactoe --players GDL_UCT "
                          "Random --db $d/league.db");
  EXPECT_EQ(spec.status, 1) << spec.output;
  EXPECT_NE(spec.output.find("preset 'Random' plays isolation, not gdl:tictactoe"),
            std::string::npos)
      << spec.output;
}

// arena solve takes --gdl too: a puzzle sheet copied under a new name is found only through it.
TEST(Cli, SolveFindsAPuzzleSheetGivenAsAFile) {
  const std::string copy = kTempDir + "cp " + std::string(ARENA_SOURCE_DIR) +
                           "/games/gdl/sheets/maze.kif $d/myOwnMaze.kif && ";
  auto without = run_command(copy + kArena + " solve --puzzle gdl:myOwnMaze");
  EXPECT_EQ(without.status, 1) << without.output;
  EXPECT_NE(without.output.find("no GDL sheet 'myOwnMaze'"), std::string::npos) << without.output;
  auto with = run_command(copy + kArena + " solve --gdl $d/myOwnMaze.kif --puzzle gdl:myOwnMaze");
  EXPECT_EQ(with.status, 0) << with.output;
  EXPECT_NE(with.output.find("(the shortest)"), std::string::npos) << with.output;
}

// Two different --gdl files of one name would both be gdl:NAME: refused naming both, where the
// last one used to hide the first without a word; the same file twice is one sheet.
TEST(Cli, TwoGdlFilesOfOneNameAreRefusedNamingBoth) {
  const std::string copies = kTempDir + "mkdir $d/a $d/b && for x in a b; do cp " +
                             std::string(ARENA_SOURCE_DIR) +
                             "/games/gdl/sheets/maze.kif $d/$x/myMaze.kif; done && ";
  auto two = run_command(copies + kArena +
                         " solve --gdl $d/a/myMaze.kif --gdl $d/b/myMaze.kif --puzzle gdl:myMaze");
  EXPECT_EQ(two.status, 2) << two.output;  // a bad flag
  EXPECT_NE(two.output.find("/a/myMaze.kif and --gdl "), std::string::npos) << two.output;
  EXPECT_NE(two.output.find("/b/myMaze.kif would both be gdl:myMaze"), std::string::npos)
      << two.output;
  auto same =
      run_command(copies + kArena +
                  " solve --gdl $d/a/myMaze.kif --gdl $d/a/../a/myMaze.kif --puzzle gdl:myMaze");
  EXPECT_EQ(same.status, 0) << same.output;
}

// arena league's --players are names, whatever they hold: a quote or a backslash in one is
// named back in the error, not taken for the config's JSON (which the flags were pasted into).
TEST(Cli, LeaguePlayersWithQuotesAreNamedAsGiven) {
  auto r = run_command(kTempDir + kArena +
                       " league --in-process -q --game tictactoe --players 'my\"bot\\' Random"
                       " --db $d/l.db");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("player 'my\"bot\\': unknown preset 'my\"bot\\'"), std::string::npos)
      << r.output;
}

// arena league gives its --gdl sheets to the server and bots it starts: a league of a sheet
// outside the GDL folder is played, and without the flag the server refuses the game.
TEST(Cli, LeagueGivesItsGdlSheetsToTheServerAndBots) {
  const std::string copy = kTempDir + "cp " + std::string(ARENA_TEST_DATA_DIR) +
                           "/gdl/ticTacToe.kif $d/leagueTic.kif && ";
  const std::string league = kArena +
                             " league --game gdl:leagueTic --players GDL_Random,GDL_UCT"
                             " --games-per-pairing 2 --movetime 50 --max-plies 20 -q --db $d/l.db";
  auto r = run_command(copy + league + " --gdl $d/leagueTic.kif");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("(round-robin, gdl:leagueTic): 2 games played"), std::string::npos)
      << r.output;
  auto without = run_command(copy + league);
  EXPECT_EQ(without.status, 1) << without.output;
  EXPECT_NE(without.output.find("no GDL sheet 'leagueTic'"), std::string::npos) << without.output;
}

// The search statistics row of `bot` in a league's report: its moves and nodes per move.
std::pair<double, double> search_row(const std::string& report, const std::string& bot) {
  const auto table = report.find("search statistics");
  const auto at = report.find("\n" + bot + " ", table);
  if (table == std::string::npos || at == std::string::npos) return {-1, -1};
  std::istringstream line(report.substr(at + 1, report.find('\n', at + 1) - at - 1));
  std::string name;
  double moves = -1, depth = -1, nodes = -1;
  line >> name >> moves >> depth >> nodes;
  return {moves, nodes};
}

// A league on the local server plays a sheet whose roles move at once: both bots move in every
// turn they are movers in (the second seat's bot used to wait for `to_move`, and lost every game
// on time without a move), and the search statistics give each bot its own rows. 200 ms a move:
// at 50 ms, with two busy processes beside the sanitizer build, a bot lost on time before its
// first move in two leagues of three (and once in CI, 3 moves each instead of at least 4).
TEST(Cli, LeagueOnTheServerPlaysASimultaneousSheet) {
  auto r = run_command(
      kTempDir + kArena +
      " league --game gdl:chickentictactoe --players GDL_Random,GDL_UCT --games-per-pairing 2"
      " --movetime 200 --opening-plies 1 -q --db $d/l.db");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("(round-robin, gdl:chickentictactoe): 2 games played"), std::string::npos)
      << r.output;
  const auto [random_moves, random_nodes] = search_row(r.output, "GDL_Random");
  const auto [uct_moves, uct_nodes] = search_row(r.output, "GDL_UCT");
  EXPECT_GE(random_moves, 4) << r.output;
  EXPECT_GE(uct_moves, 4) << r.output;
  EXPECT_EQ(random_nodes, 0) << r.output;
  EXPECT_GT(uct_nodes, 0) << r.output;
}

// arena analyze measures a GDL sheet's goal heuristics along self-play games; arena learn,
// which fits the catalog's feature sets, says a sheet is not its to fit instead of calling it
// unknown beside a list that offers gdl:NAME.
TEST(Cli, AnalyzeMeasuresAGdlSheetAndLearnSaysItDoesNot) {
  auto analyze =
      run_command(kArena + " analyze --game gdl:tictactoe --games 3 --player uct:iterations=50");
  EXPECT_EQ(analyze.status, 0) << analyze.output;
  for (const char* row : {"fuzzy_goal ", "fuzzy_goal_written ", "goal "})
    EXPECT_NE(analyze.output.find(row), std::string::npos) << row << analyze.output;
  EXPECT_NE(analyze.output.find("3 self-play games (uct:iterations=50)"), std::string::npos)
      << analyze.output;
  // --db adds the sheet's games a league recorded (an in-process one here: two games), found
  // under the sheet's name however it is written; and the ratings: fuzzy_goal guides
  // GDL_Fuzzy's search, so its row has GDL_Fuzzy's rating, and no preset searches with the
  // other two.
  const std::string league = kTempDir + kArena +
                             " league --in-process -q --game gdl:tictactoe --players GDL_Random "
                             "GDL_Fuzzy --movetime 20 --games-per-pairing 2 --db $d/l.db && ";
  auto db =
      run_command(league + kArena + " analyze --game gdl:TICTACTOE --games 0 --db $d/l.db && " +
                  kArena + " ratings --game gdl:tictactoe --db $d/l.db");
  EXPECT_EQ(db.status, 0) << db.output;
  EXPECT_NE(db.output.find("0 self-play games (uct:iterations=300) + 2 stored games"),
            std::string::npos)
      << db.output;
  // The second column of the line that starts with `first` (the analysis's rating, the
  // leaderboard's player).
  auto column = [&](const std::string& first, int index) {
    std::istringstream lines(db.output);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
      if (w.size() > static_cast<std::size_t>(index) && w.front() == first)
        return w[static_cast<std::size_t>(index)];
    }
    return std::string("(no line)");
  };
  const std::string fuzzy_rating = column("fuzzy_goal", 1);
  EXPECT_NE(fuzzy_rating, "-") << db.output;
  // The leaderboard's line (the output's last): rank, player, rating.
  std::istringstream board(db.output.substr(db.output.rfind("GDL_Fuzzy ")));
  std::string name, rating;
  board >> name >> rating;
  ASSERT_NE(fuzzy_rating, "-");
  EXPECT_NEAR(std::stod(rating), std::stod(fuzzy_rating), 1.0) << db.output;
  EXPECT_EQ(column("goal", 1), "-") << db.output;
  EXPECT_EQ(column("fuzzy_goal_written", 1), "-") << db.output;
  auto options = run_command(kArena + " analyze --game gdl:tictactoe --options size=4");
  EXPECT_EQ(options.status, 2) << options.output;
  EXPECT_NE(options.output.find("--options is not taken for a GDL sheet"), std::string::npos)
      << options.output;
  auto learn = run_command(kArena + " learn --game gdl:tictactoe");
  EXPECT_EQ(learn.status, 2) << learn.output;
  EXPECT_NE(learn.output.find("is a GDL sheet"), std::string::npos) << learn.output;
  EXPECT_EQ(learn.output.find("gdl:NAME ("), std::string::npos) << learn.output;
}

// A game the rules ended by their own fault (here a terminal state without goal values, so
// every game of the sheet has a note) is kept but not rated, and arena analyze leaves it out
// of the positions it measures, saying how many it left.
TEST(Cli, GamesEndedByAFaultOfTheRulesAreNeitherRatedNorAnalyzed) {
  const std::string sheet =
      "printf '%s\\n' '(role a) (role b) (init (c 0)) (legal a go) (legal b wait)' "
      "'(<= (next (c 1)) (does a go)) (<= terminal (true (c 1)))' "
      "'(<= (goal a 100) (true (c 2))) (<= (goal b 100) (true (c 2)))' > $d/nogoal.kif && ";
  auto r = run_command(
      kTempDir + sheet + kArena +
      " league --in-process -q --gdl $d/nogoal.kif --game gdl:nogoal --players GDL_Random "
      "GDL_Fuzzy --games-per-pairing 2 --db $d/l.db && " +
      kArena + " ratings --game gdl:nogoal --db $d/l.db && " + kArena +
      " analyze --gdl $d/nogoal.kif --game gdl:nogoal --games 0 --db $d/l.db");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 games played"), std::string::npos) << r.output;
  const auto board = r.output.find("Glicko-2 ratings of gdl:nogoal");
  ASSERT_NE(board, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("GDL_Random", board), std::string::npos) << "rated:\n" << r.output;
  EXPECT_NE(r.output.find("+ 0 stored games (2 ended by a fault of the rules, left out)"),
            std::string::npos)
      << r.output;
}

// The second word of the output's first line whose first word is `first` (an analysis row's
// rating), "(no line)" when none is.
std::string second_word(const std::string& output, const std::string& first) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string a, b;
    if (words >> a >> b && a == first) return b;
  }
  return "(no line)";
}

// The rating of `player` on the leaderboard that ends the output (its line: player, rating).
double board_rating(const std::string& output, const std::string& player) {
  const auto at = output.rfind(player + " ");
  if (at == std::string::npos) return -1e9;
  std::istringstream line(output.substr(at));
  std::string name;
  double rating = -1e9;
  line >> name >> rating;
  return rating;
}

// A league of `players` (a JSON list) at `game` in process, then arena analyze's rating column
// and the leaderboard.
arena::test::CommandResult league_then_analyze(const std::string& game, const std::string& players,
                                               const std::string& analyze_flags) {
  const std::string config = R"({"game": ")" + game + R"(", "players": )" + players +
                             R"(, "games_per_pairing": 2, "movetime_ms": 20})";
  return run_command(kTempDir + "printf '%s' '" + config + "' > $d/c.json && " + kArena +
                     " league --in-process -q --config $d/c.json --db $d/l.db && " + kArena +
                     " analyze --game " + game + " --db $d/l.db " + analyze_flags + " && " +
                     kArena + " ratings --game " + game + " --db $d/l.db");
}

// A league entrant named by its author ("Goals", a fuzzy spec, no preset) is registered with
// the heuristic its search uses, so arena analyze gives fuzzy_goal's row that player's rating;
// the random player searches with no heuristic, so the other rows stay empty.
TEST(Cli, AnalyzeRatesAGdlHeuristicByTheBotVersionThatUsesItUnderAnyName) {
  auto r = league_then_analyze(
      "gdl:tictactoe", R"(["GDL_Random", {"name": "Goals", "spec": "fuzzy:iterations=30"}])",
      "--games 0");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string fuzzy = second_word(r.output, "fuzzy_goal");
  ASSERT_NE(fuzzy, "-") << r.output;
  ASSERT_NE(fuzzy, "(no line)") << r.output;
  EXPECT_NEAR(board_rating(r.output, "Goals"), std::stod(fuzzy), 1.0) << r.output;
  EXPECT_EQ(second_word(r.output, "goal"), "-") << r.output;
}

// The same for the catalog's heuristics: players whose names say nothing of their evaluation
// are rated by the heuristic their registered version searches with; one nobody uses stays
// empty.
TEST(Cli, AnalyzeRatesACatalogHeuristicByTheBotVersionThatUsesItUnderAnyName) {
  auto r = league_then_analyze("tictactoe",
                               R"([{"name": "Lines", "spec": "greedy:eval=available_wins"}, )"
                               R"({"name": "Other", "spec": "greedy:eval=bad_heuristic"}])",
                               "--games 1 --heuristics available_wins,bad_heuristic,combined");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const auto& [heuristic, player] :
       {std::pair{"available_wins", "Lines"}, std::pair{"bad_heuristic", "Other"}}) {
    const std::string rating = second_word(r.output, heuristic);
    ASSERT_NE(rating, "-") << heuristic << r.output;
    ASSERT_NE(rating, "(no line)") << heuristic << r.output;
    EXPECT_NEAR(board_rating(r.output, player), std::stod(rating), 1.0) << r.output;
  }
  EXPECT_EQ(second_word(r.output, "combined"), "-") << r.output;
}

}  // namespace

// arena ladder: a tiny ladder of presets prints the table and the player's Elo; a bad seat is
// a usage error that names it. (The ladder's library is tested in tests/league/ladder_test.cpp,
// with a game against Debian's stockfish when it is installed.)
TEST(Cli, LadderPlaysPairedGamesAndPrintsTheElo) {
  auto r = run_command(kArena +
                       " ladder --game tictactoe --player perfect --opponent bad_heuristic@0"
                       " --opponent available_wins --pairs 1 --movetime 10 --jobs 2 --quiet");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 at a time"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bad_heuristic"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(anchor)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("perfect: Elo"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("4 games"), std::string::npos) << r.output;
}

TEST(Cli, LadderNamesAnUnknownPresetAndAMissingEngine) {
  auto preset = run_command(kArena + " ladder --game tictactoe --player perfekt --opponent combined");
  EXPECT_EQ(preset.status, 2);
  EXPECT_NE(preset.output.find("unknown preset 'perfekt'"), std::string::npos) << preset.output;
  auto engine = run_command(kArena + " ladder --player chess_greedy --opponent uci:/no/engine");
  EXPECT_EQ(engine.status, 2);
  EXPECT_NE(engine.output.find("'/no/engine' not found"), std::string::npos) << engine.output;
  auto tc = run_command(kArena + " ladder --game tictactoe --player perfect --opponent combined"
                                 " --tc ten");
  EXPECT_EQ(tc.status, 2);
  EXPECT_NE(tc.output.find("--tc 'ten'"), std::string::npos) << tc.output;
  auto jobs = run_command(kArena + " ladder --game tictactoe --player perfect --opponent combined"
                                   " --jobs 0");
  EXPECT_EQ(jobs.status, 2);
  EXPECT_NE(jobs.output.find("--jobs"), std::string::npos) << jobs.output;
}

// What the game cannot be played with is a usage error before any game, naming it: a bad
// option of a catalog game, an unknown sheet, a sheet of three roles, options or a book for a
// sheet.
TEST(Cli, LadderRefusesAGameItCannotPlayAsAUsageError) {
  struct Refusal {
    std::string args, says;
  };
  const std::string gdl = " ladder --player GDL_UCT --opponent GDL_Random --pairs 1 --game ";
  for (const Refusal& r :
       {Refusal{" ladder --player chess_greedy --opponent chess_random --options x", "options"},
        Refusal{" ladder --game isolation --options size=99 --player AB_Improved"
                " --opponent AB_Open",
                "size"},
        Refusal{gdl + "gdl:noSuchSheet", "noSuchSheet"}, Refusal{gdl + "gdl:3pttc", "3 roles"},
        Refusal{gdl + "gdl:ticTacToe --options size=4", "takes no options"},
        Refusal{gdl + "gdl:ticTacToe --book /dev/null", "opening book"}}) {
    auto out = run_command(kArena + r.args);
    EXPECT_EQ(out.status, 2) << r.args << "\n" << out.output;
    EXPECT_NE(out.output.find(r.says), std::string::npos) << r.args << "\n" << out.output;
    EXPECT_EQ(out.output.find("[1/"), std::string::npos) << "a game was played: " << r.args;
  }
}

// arena ladder rates GDL players on a sheet, one given as a file (--gdl) too.
TEST(Cli, LadderRatesGdlPlayersOnASheetGivenAsAFile) {
  auto r = run_command(kTempDir + "cp " + std::string(ARENA_TEST_DATA_DIR) +
                       "/gdl/ticTacToe.kif $d/ladderTic.kif && " + kArena +
                       " ladder --gdl $d/ladderTic.kif --game gdl:ladderTic --player GDL_UCT"
                       " --opponent GDL_Random@0 --pairs 1 --movetime 20 -q");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("ladder: gdl:ladderTic, GDL_UCT against 1 opponent"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("GDL_UCT: Elo"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("over 2 games"), std::string::npos) << r.output;
}
