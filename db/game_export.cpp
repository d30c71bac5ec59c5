#include "db/game_export.h"

#include <cstdint>
#include <ctime>
#include <nlohmann/json.hpp>

#include "games/chess/pgn.h"
#include "games/core/movetext.h"
#include "games/core/utf8.h"

namespace arena::db {
namespace {

// "YYYY.MM.DD" (UTC) as PGN and PDN date tags want it; "????.??.??" when unknown.
std::string pgn_date(std::int64_t unix_ms) {
  if (unix_ms <= 0) return "????.??.??";
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
  return buf;
}

std::string player_name(const std::string& name) {
  return name.empty() ? "?" : printable_tag_value(name);
}

// PGN/PDN results; a live game is "*".
std::string result_token(const std::string& result) {
  if (result == "1-0" || result == "0-1" || result == "1/2-1/2") return result;
  return "*";
}

// PGN's and PDN's string token: the quote and the backslash escaped, nothing unprintable.
std::string pdn_escape(const std::string& value) {
  std::string out;
  for (char ch : printable_tag_value(value)) {
    if (ch == '"' || ch == '\\') out.push_back('\\');
    out.push_back(ch);
  }
  return out;
}

bool unprintable(std::uint32_t cp) {
  return utf8::is_control(cp) || utf8::is_bidi_control(cp) ||
         cp == 0x2028 || cp == 0x2029;  // line and paragraph separators end lines too
}

}  // namespace

std::string printable_tag_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size();) {
    const std::size_t at = i;
    const auto cp = utf8::next_code_point(value, i);
    if (!cp) {
      out += '?';  // a byte that is not UTF-8
      i = at + 1;
    } else if (unprintable(*cp)) {
      out += '?';
    } else {
      out.append(value.substr(at, i - at));
    }
  }
  return out;
}

std::string game_to_text(const GameDetail& game) {
  const GameSummary& s = game.summary;
  std::string out;
  auto tag = [&](const std::string& name, const std::string& value) {
    out += "[" + name + " \"" + pdn_escape(value) + "\"]\n";
  };
  tag("Game", s.kind);
  tag("Options", s.options);
  tag("First", s.first_name);
  tag("Second", s.second_name);
  tag("Result", s.result.empty() ? "*" : s.result);
  // Games of more seats name each one; every game with scores (GDL goals) lists them.
  for (std::size_t seat = 2; seat < s.seat_names.size() && s.seat_names.size() > 2; ++seat)
    tag("Seat" + std::to_string(seat + 1), s.seat_names[seat]);
  if (!s.scores.empty()) {
    std::string scores;
    for (std::size_t seat = 0; seat < s.scores.size(); ++seat)
      scores += (seat ? " " : "") + std::to_string(s.scores[seat]);
    tag("Scores", scores);
  }
  tag("Start", game.start_position);
  out += '\n';
  for (const auto& m : game.moves) out += printable_tag_value(m.move) + "\n";
  return out;
}

Expected<ExportFormat> parse_export_format(std::string_view text) {
  if (text == "pgn") return ExportFormat::kPgn;
  if (text == "pdn") return ExportFormat::kPdn;
  if (text == "json") return ExportFormat::kJson;
  return make_error("unknown export format '" + std::string(text) + "' (pgn, pdn or json)");
}

std::string_view export_kind(ExportFormat format) {
  switch (format) {
    case ExportFormat::kPgn:
      return "chess";
    case ExportFormat::kPdn:
      return "checkers";
    case ExportFormat::kJson:
      return "";
  }
  return "";
}

Expected<std::string> game_to_pgn(const GameDetail& game) {
  chess::PgnGame pgn;
  const GameSummary& s = game.summary;
  pgn.tags = {{"Event", "arena game " + std::to_string(s.id)},
              {"Site", "arena"},
              {"Date", pgn_date(s.started_at_ms)},
              {"Round", "-"},
              {"White", player_name(s.first_name)},
              {"Black", player_name(s.second_name)}};
  // write_pgn escapes the quote and the backslash; nothing unprintable reaches it.
  if (!s.reason.empty()) pgn.tags.emplace_back("Termination", printable_tag_value(s.reason));
  if (!s.time_control.empty())
    pgn.tags.emplace_back("ArenaTimeControl", printable_tag_value(s.time_control));
  const bool standard = game.start_position.empty() || game.start_position == "start" ||
                        game.start_position == chess::Chess::kStartFen;
  if (!standard) pgn.start_fen = game.start_position;
  pgn.result = result_token(s.result);
  auto position = pgn.start_position();
  if (!position)
    return make_error("game " + std::to_string(s.id) + ": bad start position: " + position.error());
  chess::Chess board = *position;
  for (const MoveRecord& m : game.moves) {
    auto move = board.parse_move(m.move);
    if (!move)
      return make_error("game " + std::to_string(s.id) + ": stored move " +
                        std::to_string(m.ply + 1) + " '" + m.move + "' is not legal");
    board.make_move(*move);
    pgn.moves.push_back(*move);
  }
  return chess::write_pgn(pgn);
}

std::string game_to_pdn(const GameDetail& game) {
  const GameSummary& s = game.summary;
  std::string out;
  auto tag = [&](const std::string& name, const std::string& value) {
    out += "[" + name + " \"" + pdn_escape(value) + "\"]\n";
  };
  tag("Event", "arena game " + std::to_string(s.id));
  tag("Site", "arena");
  tag("Date", pgn_date(s.started_at_ms));
  tag("Round", "-");
  tag("Black", player_name(s.first_name));  // Black moves first in English checkers
  tag("White", player_name(s.second_name));
  tag("Result", result_token(s.result));
  tag("GameType", "21");  // 21 = English draughts in the PDN standard
  if (!game.start_position.empty() && game.start_position != "start")
    tag("FEN", game.start_position);
  out += '\n';
  MovetextLines movetext;
  auto emit = [&](const std::string& token) { movetext.add(token); };
  for (const MoveRecord& m : game.moves) {
    if (m.ply % 2 == 0) emit(std::to_string(m.ply / 2 + 1) + ".");
    emit(m.move);
  }
  emit(result_token(s.result));
  out += movetext.text() + '\n';
  return out;
}

std::string game_to_json(const GameDetail& game) {
  const GameSummary& s = game.summary;
  nlohmann::json moves = nlohmann::json::array();
  for (const MoveRecord& m : game.moves) {
    nlohmann::json j = {{"ply", m.ply},
                        {"seat", m.seat >= 0 ? nlohmann::json(m.seat) : nlohmann::json(nullptr)},
                        {"move", m.move},
                        {"time_used_ms", m.time_used_ms},
                        {"clock_left_ms", m.clock_left_ms},
                        {"depth", m.depth},
                        {"nodes", m.nodes},
                        {"pv", m.pv}};
    j["score"] = m.score ? nlohmann::json(*m.score) : nlohmann::json(nullptr);
    moves.push_back(std::move(j));
  }
  const nlohmann::json j = {
      {"id", s.id},
      {"kind", s.kind},
      {"options", s.options},
      {"first", s.first_name},
      {"second", s.second_name},
      {"result", s.result},
      {"reason", s.reason},
      {"note", s.note},
      {"time_control", s.time_control},
      {"started_at_ms", s.started_at_ms},
      {"ended_at_ms", s.ended_at_ms},
      {"start_position", game.start_position},
      {"final_position", game.final_position},
      {"seed", std::to_string(game.seed)},  // as text: JSON numbers lose 64-bit precision
      {"moves", std::move(moves)}};
  // JSON escapes every control character; bytes that are not UTF-8 (a name stored before the
  // server checked names) become U+FFFD instead of an exception.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Expected<int> export_games(Store& store, ExportFormat format, const std::string& kind,
                           std::ostream& out) {
  const std::string_view format_kind = export_kind(format);
  if (!format_kind.empty() && !kind.empty() && kind != format_kind)
    return make_error("format " + std::string(format == ExportFormat::kPgn ? "pgn" : "pdn") +
                      " is for " + std::string(format_kind) + " games, not '" + kind +
                      "' (use json)");
  GameFilter filter;
  filter.kind = kind.empty() ? std::string(format_kind) : kind;
  filter.finished_only = false;
  filter.limit = 0;
  filter.oldest_first = true;
  auto games = store.list_games(filter);
  if (!games) return Error{games.error()};
  int written = 0;
  if (format == ExportFormat::kJson) out << "[";
  for (const GameSummary& summary : *games) {
    auto detail = store.game_detail(summary.id);
    if (!detail) return Error{detail.error()};
    if (format == ExportFormat::kPgn) {
      auto text = game_to_pgn(*detail);
      if (!text) return Error{text.error()};
      out << *text << "\n";
    } else if (format == ExportFormat::kPdn) {
      out << game_to_pdn(*detail);
    } else {
      out << (written ? ",\n" : "\n") << game_to_json(*detail);
    }
    ++written;
  }
  if (format == ExportFormat::kJson) out << "\n]\n";
  return written;
}

}  // namespace arena::db
