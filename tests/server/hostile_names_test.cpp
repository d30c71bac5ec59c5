// Hostile names (issue 53, item 2) and the identity a guest chooses (issue 52, item 5): every
// name is checked where it enters (hello.name, set_name: protocol/player_name.h) and escaped
// where it leaves (db/game_export: PGN, PDN, tagged text, JSON), also for names an older server
// stored unchecked; the export of a game between players with hostile names parses with
// pgn-extract and carries the real result. A guest chooses a unique name; a guest whose hello
// names an engine is badged a bot. And the guests a login storm leaves behind (item 3): the
// per-address limit on new guests and the purge of guests who never played.

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "db/game_export.h"
#include "db/sqlite_store.h"
#include "protocol/player_name.h"
#include "server/server.h"
#include "tests/db/raw_db.h"
#include "tests/server/bystander.h"
#include "tests/server/hostile_fixture.h"
#include "tests/server/test_games.h"
#include "tests/common/ws_client.h"

namespace arena::server::testing {
namespace {

using protocol::Json;

// The lines of the issue: a name that closes its tag and forges a result, and the rest of the
// class (NUL, BEL, ESC, CR, a right-to-left override, a backslash, invalid UTF-8).
const std::vector<std::string>& hostile_names() {
  static const std::vector<std::string> names = {
      "e\"]\n[Result \"1-0\"]\n[Injected \"yes",
      std::string("nul\0byte", 8),
      "bell\a\x1b[31mred",
      "cr\r[Result \"1-0\"]",
      "rlo \xe2\x80\xae" "cba",
      "back\\slash\\\"]",
      "bad \xff\xfe utf8",
      "line\xe2\x80\xa8separator",
  };
  return names;
}

// --- the rules ---------------------------------------------------------------------------

TEST(NameRules, ControlBidiInvalidLongAndSpacedNamesAreRefusedNamingTheProblem) {
  using protocol::name_problem;
  EXPECT_EQ(name_problem("Ann"), std::nullopt);
  EXPECT_EQ(name_problem("Zoë 李 Müller"), std::nullopt);
  EXPECT_EQ(name_problem(std::string(32, 'x')), std::nullopt);
  EXPECT_EQ(name_problem("<img src=x onerror=alert(1)>"), std::nullopt) << "HTML is text";
  EXPECT_EQ(name_problem(""), "is empty (a name has 1 to 32 characters)");
  EXPECT_EQ(name_problem(std::string(33, 'x')), "is longer than 32 characters");
  EXPECT_EQ(name_problem(std::string("a\0b", 3)),
            "contains a control character (U+0000) at character 2");
  EXPECT_EQ(name_problem("a\ab"), "contains a control character (U+0007) at character 2");
  EXPECT_EQ(name_problem("\x1b[31m"), "contains a control character (U+001B) at character 1");
  EXPECT_EQ(name_problem("a\r"), "contains a control character (U+000D) at character 2");
  EXPECT_EQ(name_problem("a\nb"), "contains a control character (U+000A) at character 2");
  EXPECT_EQ(name_problem("a\x7f"), "contains a control character (U+007F) at character 2");
  EXPECT_EQ(name_problem("a\xc2\x85"), "contains a control character (U+0085) at character 2");
  for (const char* bidi : {"\xd8\x9c", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa",
                           "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa9"})
    EXPECT_NE(name_problem(std::string("ab") + bidi).value_or("").find("bidirectional"),
              std::string::npos)
        << bidi;
  EXPECT_EQ(name_problem("bad \xff"), "is not valid UTF-8 (byte 5)");
  EXPECT_EQ(name_problem("\xc0\x80"), "is not valid UTF-8 (byte 1)") << "overlong NUL";
  EXPECT_EQ(name_problem("\xed\xa0\x80"), "is not valid UTF-8 (byte 1)") << "a surrogate";
  EXPECT_EQ(name_problem("cut \xe2\x80"), "is not valid UTF-8 (byte 5)");
  EXPECT_EQ(name_problem(" Ann"), "begins or ends with a space");
  EXPECT_EQ(name_problem("Ann "), "begins or ends with a space");
  // 32 characters of two bytes each: characters count, not bytes.
  std::string wide;
  for (int i = 0; i < 32; ++i) wide += "é";
  EXPECT_EQ(name_problem(wide), std::nullopt);
  EXPECT_NE(protocol::chosen_name_problem("guest#12"), std::nullopt) << "'#' is the server's";
  EXPECT_EQ(protocol::name_key("Ann Lovelace"), protocol::name_key("ann LOVELACE"));
}

// --- escaping where names leave -----------------------------------------------------------

// A finished game between two hostile names, as an older database could hold it.
db::GameDetail hostile_game(const std::string& kind, const std::string& first,
                            const std::string& second, const std::vector<std::string>& moves,
                            const std::string& result) {
  db::GameDetail g;
  g.summary.id = 7;
  g.summary.kind = kind;
  g.summary.first_name = first;
  g.summary.second_name = second;
  g.summary.result = result;
  g.summary.reason = "resign\nInjected";
  g.summary.started_at_ms = 1'700'000'000'000;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    db::MoveRecord m;
    m.game = g.summary.id;
    m.ply = static_cast<int>(i);
    m.move = moves[i];
    g.moves.push_back(m);
  }
  return g;
}

// Every line that starts a tag is exactly one well-formed tag (PGN's string token: no raw
// quote, a backslash only before a quote or a backslash), and there is one Result tag: `result`.
void expect_one_tag_per_line(const std::string& text, const std::string& result) {
  static const std::regex tag(R"re(^\[[A-Za-z0-9_]+ "([^"\\]|\\["\\])*"\]$)re");
  std::istringstream in(text);
  std::string line;
  int results = 0;
  bool in_tags = true;
  while (std::getline(in, line)) {
    if (line.empty()) {
      in_tags = false;
      continue;
    }
    if (!in_tags) continue;
    EXPECT_TRUE(std::regex_match(line, tag)) << "not one tag: " << line << "\nin\n" << text;
    if (line.starts_with("[Result ")) {
      ++results;
      EXPECT_EQ(line, "[Result \"" + result + "\"]");
    }
    for (unsigned char ch : line) EXPECT_GE(ch, 0x20) << "a control byte in " << line;
  }
  EXPECT_EQ(results, 1) << text;
}

TEST(HostileNameExport, PdnAndTaggedTextKeepOneTagPerLineAndTheRealResult) {
  const auto& names = hostile_names();
  for (std::size_t i = 0; i + 1 < names.size(); ++i) {
    SCOPED_TRACE(i);
    expect_one_tag_per_line(
        db::game_to_pdn(hostile_game("checkers", names[i], names[i + 1], {"11-15"}, "0-1")),
        "0-1");
    expect_one_tag_per_line(
        db::game_to_text(hostile_game("race", names[i], names[i + 1], {"2", "1"}, "1/2-1/2")),
        "1/2-1/2");
  }
  // The quote and the backslash are escaped as the standards say; the newline became '?'.
  const std::string pdn = db::game_to_pdn(hostile_game("checkers", names[0], "b", {}, "0-1"));
  EXPECT_NE(pdn.find(R"([Black "e\"]?[Result \"1-0\"]?[Injected \"yes"])"), std::string::npos)
      << pdn;
}

TEST(HostileNameExport, JsonEscapesEveryControlCharacterAndSurvivesInvalidUtf8) {
  for (const std::string& name : hostile_names()) {
    const std::string text = db::game_to_json(hostile_game("race", name, name, {"2"}, "1-0"));
    for (unsigned char ch : text) ASSERT_GE(ch, 0x20) << "raw control byte in " << text;
    const Json j = Json::parse(text);
    EXPECT_EQ(j["result"], "1-0");
  }
}

// pgn-extract, where installed (Debian's package: scripts/install-deps test).
std::string pgn_extract_path() {
  for (const char* p : {"/usr/games/pgn-extract", "/usr/bin/pgn-extract"})
    if (::access(p, X_OK) == 0) return p;
  return "";
}

struct Extracted {
  int status = -1;
  std::string out, err;
};

// Runs pgn-extract on `pgn` (-s: no log to stdout), its stdout and stderr kept.
Extracted run_pgn_extract(const std::string& pgn) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("arena_pgn_extract_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "in.pgn", std::ios::binary) << pgn;
  const std::string cmd = pgn_extract_path() + " -s " + (dir / "in.pgn").string() + " > " +
                          (dir / "out.pgn").string() + " 2> " + (dir / "err.txt").string();
  Extracted e;
  const int raw = std::system(cmd.c_str());
  e.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  auto slurp = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  e.out = slurp(dir / "out.pgn");
  e.err = slurp(dir / "err.txt");
  std::filesystem::remove_all(dir);
  return e;
}

// The lines of `text` that begin with `prefix` (a tag's name, not text inside a tag's value).
int lines_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.starts_with(prefix);
  return n;
}

TEST(HostileNameExport, PgnOfHostileNamesParsesWithPgnExtractAndKeepsTheRealResult) {
  if (pgn_extract_path().empty()) GTEST_SKIP() << "pgn-extract is not installed";
  const auto& names = hostile_names();
  for (std::size_t i = 0; i + 1 < names.size(); ++i) {
    SCOPED_TRACE(i);
    auto pgn = db::game_to_pgn(
        hostile_game("chess", names[i], names[i + 1], {"e2e4", "e7e5", "g1f3"}, "0-1"));
    ASSERT_TRUE(pgn) << pgn.error();
    expect_one_tag_per_line(*pgn, "0-1");
    const Extracted e = run_pgn_extract(*pgn);
    EXPECT_EQ(e.status, 0);
    EXPECT_EQ(e.err, "") << "pgn-extract complained about\n" << *pgn;
    EXPECT_EQ(lines_starting(e.out, "[Event "), 1) << e.out;
    EXPECT_EQ(lines_starting(e.out, "[Result "), 1) << e.out;
    EXPECT_NE(e.out.find("[Result \"0-1\"]"), std::string::npos) << e.out;
    EXPECT_NE(e.out.find("1. e4 e5 2. Nf3 0-1"), std::string::npos) << e.out;
  }
}

// --- through the server --------------------------------------------------------------------

// The server on a SQLite file (so that a test can write what an older server stored).
class HostileNamesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::filesystem::path base =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : ::testing::TempDir();
    dir_ = base / ("arena_hostile_names2_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto opened = db::open_sqlite_store(db_path());
    ASSERT_TRUE(opened) << opened.error();
    store_ = std::move(*opened);
  }
  void start(HubConfig hub = test_hub_config()) {
    ServerConfig config;
    config.port = 0;
    config.threads = 2;
    config.close_grace_ms = 200;
    hub.lobby_interval_ms = 20;
    config.hub = std::move(hub);
    server_ = std::make_unique<Server>(config, *store_);
    auto started = server_->start();
    ASSERT_TRUE(started) << started.error();
  }
  void TearDown() override {
    if (server_) server_->stop();
    server_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::string db_path() const { return (dir_ / "arena.db").string(); }
  unsigned short port() const { return server_->port(); }
  std::unique_ptr<WsClient> guest(const std::string& name = "") {
    auto c = std::make_unique<WsClient>(port());
    EXPECT_TRUE(c->open());
    if (!name.empty()) welcomes_[c.get()] = c->hello(name);
    return c;
  }
  // The welcome `c` got from guest(name).
  Json welcome_of(const std::unique_ptr<WsClient>& c) { return welcomes_[c.get()]; }
  Json hello(WsClient& c, const Json& fields) {
    Json h{{"type", "hello"}, {"version", 3}};
    h.update(fields);
    c.send(h);
    return c.wait_for(
        [](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; },
        "welcome or error");
  }
  long guest_rows() {
    test::RawDb raw(db_path(), true);
    return std::stol(raw.text("SELECT count(*) FROM players WHERE name LIKE 'guest:%'"));
  }

  std::filesystem::path dir_;
  std::unique_ptr<db::SqliteStore> store_;
  std::unique_ptr<Server> server_;
  std::map<WsClient*, Json> welcomes_;
};

TEST_F(HostileNamesTest, AHelloWithAHostileNameIsRefusedNamingTheProblem) {
  start();
  auto c = guest();
  const std::pair<std::string, std::string> cases[] = {
      {std::string("nul\0", 4), "contains a control character (U+0000) at character 4"},
      {"bell\a", "contains a control character (U+0007) at character 5"},
      {"\x1b[31m", "contains a control character (U+001B) at character 1"},
      {"cr\r", "contains a control character (U+000D) at character 3"},
      {hostile_names()[0], "contains a control character (U+000A) at character 4"},
      {"rlo \xe2\x80\xae",
       "contains a bidirectional control character (U+202E) at character 5"},
      {std::string(33, 'n'), "is longer than 32 characters"},
      {" x", "begins or ends with a space"}};
  for (const auto& [name, problem] : cases) {
    const Json answer = hello(*c, {{"name", name}});
    EXPECT_EQ(answer["type"], "error") << answer.dump();
    EXPECT_EQ(answer.value("code", ""), "bad_field");
    EXPECT_EQ(answer.value("ref", ""), "hello");
    EXPECT_EQ(answer.value("message", ""), "field 'name' " + problem);
  }
  // The connection is still there for a good hello.
  const Json welcome = hello(*c, {{"name", "Zoë"}});
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_TRUE(welcome["player"]["name"].get<std::string>().starts_with("Zoë#"));
}

TEST_F(HostileNamesTest, AGuestChoosesAUniqueNameThatOthersSee) {
  start();
  auto ann = guest("ann");
  auto bob = guest("bob");
  const std::int64_t ann_id = welcome_of(ann)["player"]["id"];
  ann->send(Json{{"type", "set_name"}, {"name", "Ann Lovelace"}});
  const Json set = ann->expect("name_set");
  EXPECT_EQ(set["player"]["name"], "Ann Lovelace");
  EXPECT_EQ(set["player"]["id"], ann_id);
  // Bob sees it in the lobby, and may challenge her by it.
  bob->lobby_where(
      [&](const Json& l) {
        for (const auto& p : l["players"])
          if (p["name"] == "Ann Lovelace" && p["id"] == ann_id) return true;
        return false;
      },
      "Ann's new name in the lobby");
  // Taken (letters compared without case), '#', control characters: refused, naming why.
  bob->send(Json{{"type", "set_name"}, {"name", "ann lovelace"}});
  EXPECT_EQ(bob->expect_error("bad_field")["message"],
            "the name 'ann lovelace' is taken by another player");
  bob->send(Json{{"type", "set_name"}, {"name", "bob#1"}});
  EXPECT_NE(bob->expect_error("bad_field")["message"].get<std::string>().find("'#'"),
            std::string::npos);
  bob->send(Json{{"type", "set_name"}, {"name", "bob\nbob"}});
  EXPECT_EQ(bob->expect_error("bad_field")["message"],
            "field 'name' contains a control character (U+000A) at character 4");
  // Her session keeps it: a new connection resuming it is Ann Lovelace.
  const std::string session = welcome_of(ann)["session"];
  auto again = guest();
  const Json back = hello(*again, {{"resume", session}});
  EXPECT_EQ(back["player"]["name"], "Ann Lovelace") << back.dump();
  // A bot with a token is named by its token.
  auto token = store_->create_bot_token("tokened");
  ASSERT_TRUE(token) << token.error();
  WsClient bot(port(), Headers{{"Authorization", "Bearer " + *token}});
  ASSERT_TRUE(bot.open());
  bot.hello("x");
  bot.send(Json{{"type", "set_name"}, {"name", "renamed"}});
  EXPECT_NE(bot.expect_error("bad_field")["message"].get<std::string>().find("token"),
            std::string::npos);
}

TEST_F(HostileNamesTest, AStoredPlayersNameIsRefusedWhileItIsOffline) {
  // A bot with a stored row (its token), never connected: its name, in any case, is not free.
  ASSERT_TRUE(store_->create_bot_token("Deep_Thought"));
  start();
  auto ann = guest("ann");
  ann->send(Json{{"type", "set_name"}, {"name", "deep_THOUGHT"}});
  EXPECT_EQ(ann->expect_error("bad_field")["message"],
            "the name 'deep_THOUGHT' is taken by another player");
  // A name nobody holds is still granted, and the connection goes on reading.
  ann->send(Json{{"type", "set_name"}, {"name", "Deep Thought"}});
  EXPECT_EQ(ann->expect("name_set")["player"]["name"], "Deep Thought");
}

TEST_F(HostileNamesTest, AGuestThatNamesItsEngineIsBadgedABot) {
  start();
  auto person = guest("person");
  EXPECT_EQ(welcome_of(person)["player"]["bot"], false);
  auto program = guest();
  const Json welcome =
      hello(*program, {{"name", "program"}, {"engine", {{"search", "random"}}}});
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(welcome["player"]["bot"], true);
  const std::int64_t id = welcome["player"]["id"];
  person->lobby_where(
      [&](const Json& l) {
        for (const auto& p : l["players"])
          if (p["id"] == id) return p["bot"] == true;
        return false;
      },
      "the program badged a bot in the lobby");
}

TEST_F(HostileNamesTest, TheExportOfAGameBetweenStoredHostileNamesParsesWithPgnExtract) {
  if (pgn_extract_path().empty()) GTEST_SKIP() << "pgn-extract is not installed";
  start();
  // Two bots play chess; White resigns after three plies: 0-1.
  auto white_token = store_->create_bot_token("white-bot");
  auto black_token = store_->create_bot_token("black-bot");
  ASSERT_TRUE(white_token && black_token);
  WsClient white(port(), Headers{{"Authorization", "Bearer " + *white_token}});
  WsClient black(port(), Headers{{"Authorization", "Bearer " + *black_token}});
  ASSERT_TRUE(white.open() && black.open());
  white.hello("w");
  black.hello("b");
  white.send(Json{{"type", "seek"}, {"game", "chess"}});
  const Json created = white.expect("seek_created");
  black.send(Json{{"type", "accept"}, {"seek_id", created["seek_id"]}});
  const std::int64_t id = white.expect("game_start")["game_id"];
  black.expect("game_start");
  const char* moves[] = {"e2e4", "e7e5", "g1f3"};
  WsClient* seats[] = {&white, &black};
  for (int i = 0; i < 3; ++i) {
    seats[i % 2]->send(Json{{"type", "move"},
                            {"game_id", id},
                            {"move", moves[i]},
                            {"client_id", "m" + std::to_string(i)}});
    seats[i % 2]->expect("move_ack");
  }
  white.send(Json{{"type", "resign"}, {"game_id", id}});
  white.expect("game_end");
  store_->flush();
  // What an older server could have stored: the issue's forged name, and a bidi override.
  {
    test::RawDb raw(db_path());
    ASSERT_EQ(raw.text("UPDATE players SET name = 'e\"]' || char(10) || '[Result \"1-0\"]' || "
                       "char(10) || '[Injected \"yes' WHERE name = 'white-bot' RETURNING id")
                  .empty(),
              false);
    ASSERT_EQ(raw.text("UPDATE players SET name = 'rlo ' || char(8238) || char(7) || 'kcalb' "
                       "WHERE name = 'black-bot' RETURNING id")
                  .empty(),
              false);
  }
  const HttpAnswer pgn = http_get(port(), "/api/games/" + std::to_string(id) + "/export");
  ASSERT_EQ(pgn.status, 200) << pgn.body;
  expect_one_tag_per_line(pgn.body, "0-1");
  EXPECT_NE(pgn.body.find(R"([White "e\"]?[Result \"1-0\"]?[Injected \"yes"])"),
            std::string::npos)
      << pgn.body;
  EXPECT_NE(pgn.body.find(R"([Black "rlo ??kcalb"])"), std::string::npos) << pgn.body;
  const Extracted e = run_pgn_extract(pgn.body);
  EXPECT_EQ(e.status, 0);
  EXPECT_EQ(e.err, "") << "pgn-extract complained about\n" << pgn.body;
  EXPECT_EQ(lines_starting(e.out, "[Event "), 1) << e.out;
  EXPECT_EQ(lines_starting(e.out, "[Result "), 1) << e.out;
  EXPECT_NE(e.out.find("[Result \"0-1\"]"), std::string::npos) << e.out;
  // The JSON of the same game: the names intact, every control character in them escaped
  // (the body's own line breaks are its layout).
  const HttpAnswer json = http_get(port(), "/api/games/" + std::to_string(id));
  ASSERT_EQ(json.status, 200);
  EXPECT_NE(json.body.find(R"("e\"]\n[Result \"1-0\"]\n[Injected \"yes")"), std::string::npos)
      << json.body;
  EXPECT_NE(json.body.find(R"(\u0007kcalb")"), std::string::npos) << json.body;
  const Json parsed = Json::parse(json.body);
  EXPECT_EQ(parsed["players"][0], "e\"]\n[Result \"1-0\"]\n[Injected \"yes");
}

// --- guests a login storm leaves behind ---------------------------------------------------

TEST_F(HostileNamesTest, NewGuestsAreLimitedPerAddressAndTokenBotsAreNot) {
  HubConfig hub = test_hub_config();
  hub.guest_logins_per_minute = 5;
  hub.limit_loopback_guests = true;
  start(hub);
  for (int i = 0; i < 5; ++i) {
    auto c = guest();
    EXPECT_EQ(hello(*c, {{"name", "g" + std::to_string(i)}})["type"], "welcome") << i;
  }
  auto sixth = guest();
  const Json refused = hello(*sixth, {{"name", "g5"}});
  EXPECT_EQ(refused.value("code", ""), "rate_limited") << refused.dump();
  EXPECT_NE(refused.value("message", "").find("too many new guests from 127.0.0.1 (at most 5 a "
                                              "minute); say hello again in "),
            std::string::npos)
      << refused.dump();
  auto token = store_->create_bot_token("house-like");
  ASSERT_TRUE(token);
  WsClient bot(port(), Headers{{"Authorization", "Bearer " + *token}});
  ASSERT_TRUE(bot.open());
  EXPECT_EQ(bot.hello("x")["player"]["name"], "house-like");
}

TEST_F(HostileNamesTest, LoopbackIsNotLimitedUnlessAskedTo) {
  HubConfig hub = test_hub_config();
  hub.guest_logins_per_minute = 2;
  start(hub);
  for (int i = 0; i < 6; ++i) {
    auto c = guest();
    EXPECT_EQ(hello(*c, {{"name", "g" + std::to_string(i)}})["type"], "welcome") << i;
  }
}

TEST_F(HostileNamesTest, ThePurgeDeletesGuestsWhoNeverPlayedAndSparesGamesAndSessions) {
  HubConfig hub = test_hub_config();
  hub.guest_ttl_ms = 1;  // every guest row is old enough at once
  hub.guest_purge_interval_ms = 3'600'000;  // only when the test asks (purge_guests)
  start(hub);
  // 20 guests who come and go, two who play a game and leave it live, one who stays online
  // with a seek open, one who leaves and comes back with its session after the purge.
  for (int i = 0; i < 20; ++i) {
    auto c = guest("drive-by");
    c->close();
  }
  auto a = guest("a");
  auto b = guest("b");
  a->send(Json{{"type", "seek"}, {"game", "race"}});
  const Json created = a->expect("seek_created");
  b->send(Json{{"type", "accept"}, {"seek_id", created["seek_id"]}});
  const std::int64_t game = a->expect("game_start")["game_id"];
  b->expect("game_start");
  a->drop();
  b->drop();
  auto seeker = guest("seeker");
  seeker->send(Json{{"type", "seek"}, {"game", "race"}});
  const std::int64_t seek = seeker->expect("seek_created")["seek_id"];
  auto leaver = guest("leaver");
  const std::string session = welcome_of(leaver)["session"];
  leaver->close();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the closes are seen
  store_->flush();
  EXPECT_EQ(guest_rows(), 24) << "20 drive-bys, a, b, the seeker and the leaver";

  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // older than guest_ttl_ms
  server_->hub().purge_guests();
  for (int i = 0; i < 200 && server_->hub().guests_purged() < 21; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(server_->hub().guests_purged(), 21u) << "20 drive-bys and the leaver";
  store_->flush();
  EXPECT_EQ(guest_rows(), 3) << "the two players of the live game and the seeker";

  // The live game goes on, the seek is still open, the leaver's session comes back.
  auto a2 = guest();
  hello(*a2, {{"resume", welcome_of(a)["session"].get<std::string>()}});
  EXPECT_NE(server_->hub().find_match(game), nullptr);
  auto taker = guest("taker");
  taker->send(Json{{"type", "accept"}, {"seek_id", seek}});
  EXPECT_EQ(taker->expect("game_start")["players"][0]["name"],
            welcome_of(seeker)["player"]["name"]);
  auto back = guest();
  const Json welcome = hello(*back, {{"resume", session}});
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  EXPECT_EQ(welcome["session"], session);
}


// Issue 53: a login storm of 950 logins a second left a row per login and raised other
// players' p99 to 50-86 ms. Now one address makes at most guest_logins_per_minute guests (the
// rest are refused before the store is asked), the purge deletes those who never played, and
// the bystanders' move round trip during the storm stays within twice their quiet p99 (or
// the floor). The figures go to RELIABILITY.md.
TEST_F(HostileNamesTest, ALoginStormIsBoundedPurgedAndLeavesTheBystandersP99) {
  constexpr int kPerMinute = 120;
  HubConfig hub = test_hub_config();
  hub.guest_logins_per_minute = kPerMinute;
  hub.limit_loopback_guests = true;  // the storm comes from loopback, as every test client
  hub.guest_ttl_ms = 1;
  hub.guest_purge_interval_ms = 3'600'000;
  start(hub);
  Bystanders by(port());
  const auto quiet = quiet_run(by);
  store_->flush();
  const long rows_before = guest_rows();
  std::atomic<int> attempts{0}, welcomed{0}, limited{0};
  const auto t0 = Clock::now();
  // Four clients log in one after another as fast as the server answers, until the
  // bystanders are done (or 5,000 logins, or 120 s).
  auto storm = [&](HostileRun& r) {
    auto one_client = [&] {
      while (!r.done && attempts < 5000 && seconds_since(t0) < 120) {
        WsClient c(port());
        if (!c.open()) continue;
        c.send(Json{{"type", "hello"}, {"version", 3}, {"name", "storm"}});
        const Json a = c.wait_for(
            [](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; },
            "welcome or error");
        ++attempts;
        if (a["type"] == "welcome") ++welcomed;
        if (a.value("code", "") == "rate_limited") ++limited;
        c.close();
      }
    };
    std::vector<std::thread> clients;
    for (int i = 0; i < 4; ++i) clients.emplace_back(one_client);
    r.started();
    for (auto& t : clients) t.join();
  };
  HostileRun run;
  const auto hostile = run.run(by, storm);
  expect_p99_within("login storm", quiet, hostile, measure_again(by, run, storm));
  const double secs = seconds_since(t0);
  store_->flush();
  const long rows_after_storm = guest_rows();
  server_->hub().purge_guests();
  for (int i = 0; i < 500 && server_->hub().guests_purged() < std::uint64_t(welcomed); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  store_->flush();
  const long rows_after_purge = guest_rows();
  std::printf("[hostile] login storm: %d logins in %.1f s (%.0f a second), %d welcomed, %d "
              "refused rate_limited; guest rows %ld before, %ld after the storm, %ld after the "
              "purge (%llu purged)\n",
              attempts.load(), secs, attempts / secs, welcomed.load(), limited.load(), rows_before,
              rows_after_storm, rows_after_purge,
              static_cast<unsigned long long>(server_->hub().guests_purged()));
  std::fflush(stdout);
  EXPECT_GT(limited.load(), 0) << "the storm outran the limit";
  // The bucket: kPerMinute at once, then kPerMinute a minute (the bystanders took 2).
  EXPECT_LE(welcomed.load(), kPerMinute + static_cast<int>(secs * kPerMinute / 60.0) + 1);
  EXPECT_EQ(rows_after_storm - rows_before, welcomed.load()) << "a row per welcomed guest";
  EXPECT_EQ(rows_after_purge, rows_before) << "the bystanders played: their rows stay";
}

}  // namespace
}  // namespace arena::server::testing
