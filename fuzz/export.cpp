// PGN and PDN export round trips: a stored game (its players' names, result, reason, time
// control, start position and moves, all chosen by clients or bots) exported as the REST API's
// /api/games/ID/export and `arena export` write it, then read back.
//
// Input lines: "chess" or "checkers"; the first and the second player's name; the result; the
// reason; the time control; the start position ("" for the standard one); then the moves. The
// moves that are legal in sequence are stored as the server stores them (canonical text); a
// move that is not legal is stored as is when the line after the start position is "raw", to
// see that the exporter refuses it instead of crashing.
//
// Promises: no crash, leak or undefined behaviour; chess: game_to_pgn either names a stored
// move that is not legal or writes a PGN that read_pgn reads back with the same players, start
// position, moves and result; checkers: game_to_pdn writes tag pairs that read back to the
// names, result and start position, and movetext whose moves replay to the stored ones; and
// game_to_json always writes JSON.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "db/game_export.h"
#include "fuzz/fuzz_check.h"
#include "games/checkers/checkers.h"
#include "games/chess/pgn.h"

namespace {

using namespace arena;

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (true) {
    auto nl = text.find('\n');
    lines.emplace_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

// A name as the tag holds it (every tag value is written so): unprintable characters (controls, bidi controls, bytes that are
// not UTF-8) become '?' (db::printable_tag_value), so that no name can start another tag.
std::string expected_name(const std::string& name) {
  return name.empty() ? "?" : db::printable_tag_value(name);
}

std::string expected_result(const std::string& result) {
  return result == "1-0" || result == "0-1" || result == "1/2-1/2" ? result : "*";
}

// The tag pairs and movetext tokens of one PDN game as game_to_pdn writes it.
struct Pdn {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::string> tokens;
  std::string tag(std::string_view name) const {
    for (const auto& [k, v] : tags)
      if (k == name) return v;
    return "";
  }
};

Pdn read_pdn(std::string_view text) {
  Pdn pdn;
  std::size_t pos = 0;
  while (pos < text.size() && text[pos] == '[') {
    const std::size_t space = text.find(" \"", pos);
    FUZZ_CHECK(space != std::string_view::npos);
    std::string name(text.substr(pos + 1, space - pos - 1));
    std::string value;
    std::size_t i = space + 2;
    for (; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\') ++i;
      FUZZ_CHECK(i < text.size());
      value += text[i];
    }
    FUZZ_CHECK(text.substr(i, 3) == "\"]\n");
    pdn.tags.emplace_back(std::move(name), std::move(value));
    pos = i + 3;
  }
  FUZZ_CHECK(pos < text.size() && text[pos] == '\n');
  std::string token;
  for (++pos; pos < text.size(); ++pos) {
    const char ch = text[pos];
    if (ch == ' ' || ch == '\n') {
      if (!token.empty()) pdn.tokens.push_back(token);
      token.clear();
    } else {
      token += ch;
    }
  }
  FUZZ_CHECK(token.empty());
  return pdn;
}

void fuzz_chess(db::GameDetail& detail, const std::vector<std::string>& moves, bool raw) {
  auto start = chess::Chess::deserialize(detail.start_position.empty()
                                             ? chess::Chess::kStartFen
                                             : std::string_view(detail.start_position));
  if (!start) return;
  chess::Chess board = *start;
  std::vector<chess::Move> played;
  for (const std::string& text : moves) {
    if (board.outcome().is_terminal()) break;
    auto m = board.parse_move(text);
    if (!m && !raw) continue;
    db::MoveRecord record;
    record.ply = static_cast<int>(detail.moves.size());
    record.move = m ? board.move_to_string(*m) : text;
    detail.moves.push_back(record);
    if (!m) break;
    board.make_move(*m);
    played.push_back(*m);
  }
  auto pgn = db::game_to_pgn(detail);
  if (!pgn) {
    FUZZ_CHECK(played.size() < detail.moves.size());  // only a move that is not legal
    return;
  }
  FUZZ_CHECK(played.size() == detail.moves.size());
  auto back = chess::read_pgn(*pgn);
  FUZZ_CHECK(back.has_value());
  FUZZ_CHECK(back->moves == played);
  FUZZ_CHECK(back->result == expected_result(detail.summary.result));
  FUZZ_CHECK(back->tag("White") == expected_name(detail.summary.first_name));
  FUZZ_CHECK(back->tag("Black") == expected_name(detail.summary.second_name));
  if (!detail.summary.reason.empty()) FUZZ_CHECK(back->tag("Termination") == db::printable_tag_value(detail.summary.reason));
  if (!detail.summary.time_control.empty())
    FUZZ_CHECK(back->tag("ArenaTimeControl") == db::printable_tag_value(detail.summary.time_control));
  auto from = back->start_position();
  FUZZ_CHECK(from.has_value() && from->serialize() == start->serialize());
}

void fuzz_checkers(db::GameDetail& detail, const std::vector<std::string>& moves) {
  auto start = checkers::Checkers::deserialize(detail.start_position);
  if (detail.start_position.empty()) start = checkers::Checkers::create({});
  if (!start) return;
  checkers::Checkers board = *start;
  for (const std::string& text : moves) {
    if (board.outcome().is_terminal()) break;
    auto m = board.parse_move(text);
    if (!m) continue;
    db::MoveRecord record;
    record.ply = static_cast<int>(detail.moves.size());
    record.move = board.move_to_string(*m);
    detail.moves.push_back(record);
    board.make_move(*m);
  }
  const Pdn pdn = read_pdn(db::game_to_pdn(detail));
  FUZZ_CHECK(pdn.tag("Black") == expected_name(detail.summary.first_name));
  FUZZ_CHECK(pdn.tag("White") == expected_name(detail.summary.second_name));
  FUZZ_CHECK(pdn.tag("Result") == expected_result(detail.summary.result));
  FUZZ_CHECK(pdn.tag("FEN") == db::printable_tag_value(detail.start_position));
  // Movetext: "1." black white "2." ... result.
  FUZZ_CHECK(!pdn.tokens.empty() && pdn.tokens.back() == expected_result(detail.summary.result));
  checkers::Checkers replay = *start;
  std::size_t ply = 0;
  for (std::size_t i = 0; i + 1 < pdn.tokens.size(); ++i) {
    const std::string& token = pdn.tokens[i];
    if (ply % 2 == 0 && token == std::to_string(ply / 2 + 1) + ".") continue;
    FUZZ_CHECK(ply < detail.moves.size() && token == detail.moves[ply].move);
    auto m = replay.parse_move(token);
    FUZZ_CHECK(m.has_value());
    replay.make_move(*m);
    ++ply;
  }
  FUZZ_CHECK(ply == detail.moves.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return -1;
  auto lines = split_lines(std::string_view(reinterpret_cast<const char*>(data), size));
  if (lines.size() < 7) return 0;
  db::GameDetail detail;
  detail.summary.id = 1;
  detail.summary.kind = lines[0];
  detail.summary.first_name = lines[1];
  detail.summary.second_name = lines[2];
  // Names are checked when a player is made (db::check_player_name); "" is a missing name.
  for (const std::string* name : {&lines[1], &lines[2]})
    if (!name->empty() && !db::check_player_name(*name)) return 0;
  detail.summary.result = lines[3];
  detail.summary.reason = lines[4];
  detail.summary.time_control = lines[5];
  detail.start_position = lines[6];
  std::vector<std::string> moves(lines.begin() + 7, lines.end());
  bool raw = false;
  if (!moves.empty() && moves.front() == "raw") {
    raw = true;
    moves.erase(moves.begin());
  }
  if (moves.size() > 300) return 0;
  if (lines[0] == "chess") fuzz_chess(detail, moves, raw);
  if (lines[0] == "checkers") fuzz_checkers(detail, moves);
  // JSON for every kind, with whatever bytes the strings hold (replaced when not UTF-8).
  try {
    const auto j = nlohmann::json::parse(db::game_to_json(detail));
    FUZZ_CHECK(j.is_object());
  } catch (const nlohmann::json::exception&) {
    // game_to_json throws on text that is not UTF-8 (nlohmann's dump): a name or move that is
    // not UTF-8 never reaches the store (JSON frames are UTF-8), so this is not a finding.
  }
  return 0;
}
