#include "games/chess/pgn.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "games/core/movetext.h"

namespace arena::chess {

namespace {

constexpr std::array<std::string_view, 7> kRoster = {"Event", "Site",  "Date",  "Round",
                                                     "White", "Black", "Result"};
constexpr std::array<std::string_view, 7> kRosterDefaults = {"?", "?", "????.??.??", "?",
                                                             "?", "?", "*"};

bool is_result(std::string_view token) {
  return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

std::string escape(std::string_view value) {
  std::string out;
  for (const char ch : value) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

// Reads games token by token; `pos_` is the offset into the text.
class PgnReader {
 public:
  explicit PgnReader(std::string_view text) : text_(text) {}

  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }

  Expected<PgnGame> read_game() {
    PgnGame game;
    if (auto ok = read_tags(game); !ok) return make_error(ok.error());
    game.start_fen = game.tag("FEN");
    auto start = game.start_position();
    if (!start) return make_error("PGN FEN tag: " + start.error());
    Chess position = *start;
    while (true) {
      skip_space();
      if (pos_ >= text_.size()) return game;  // a game without a termination marker
      if (text_[pos_] == '[') return game;    // the next game's tags
      if (auto ok = skip_non_move(); !ok) return make_error(ok.error());
      if (skipped_) continue;
      const std::string_view token = next_token();
      if (is_result(token)) {
        game.result = std::string(token);
        return game;
      }
      const std::string_view move_text = strip_move_number(token);
      if (move_text.empty()) continue;
      const auto move = position.parse_san(move_text);
      if (!move) {
        return make_error("PGN move " + std::to_string(position.fullmove_number()) +
                          (position.side_to_move() == Player::kFirst ? " (white)" : " (black)") +
                          ": illegal or unknown move '" + std::string(move_text) + "'");
      }
      position.make_move(*move);
      game.moves.push_back(*move);
    }
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  Expected<void> read_tags(PgnGame& game) {
    while (true) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '[') return {};
      const std::size_t close = text_.find(']', pos_);
      const std::size_t quote = text_.find('"', pos_);
      if (close == std::string_view::npos || quote == std::string_view::npos || quote > close) {
        return make_error(
            "PGN: bad tag pair starting '" +
            std::string(text_.substr(pos_, std::min<std::size_t>(40, text_.size() - pos_))) + "'");
      }
      std::string name(text_.substr(pos_ + 1, quote - pos_ - 1));
      while (!name.empty() && name.back() == ' ') name.pop_back();
      std::string value;
      std::size_t i = quote + 1;
      for (; i < text_.size() && text_[i] != '"'; ++i) {
        if (text_[i] == '\\' && i + 1 < text_.size()) ++i;
        value += text_[i];
      }
      const std::size_t end = text_.find(']', i);
      if (i >= text_.size() || end == std::string_view::npos || name.empty()) {
        return make_error("PGN: unterminated tag '" + name + "'");
      }
      game.tags.emplace_back(std::move(name), std::move(value));
      pos_ = end + 1;
    }
  }

  // Skips one comment, variation, NAG or escape line if one starts here (sets skipped_).
  Expected<void> skip_non_move() {
    skipped_ = true;
    const char ch = text_[pos_];
    if (ch == '{') {
      const std::size_t end = text_.find('}', pos_);
      if (end == std::string_view::npos) return make_error("PGN: unterminated comment '{'");
      pos_ = end + 1;
    } else if (ch == ';' || (ch == '%' && (pos_ == 0 || text_[pos_ - 1] == '\n'))) {
      const std::size_t end = text_.find('\n', pos_);
      pos_ = end == std::string_view::npos ? text_.size() : end + 1;
    } else if (ch == '(') {
      int depth = 0;
      for (; pos_ < text_.size(); ++pos_) {
        if (text_[pos_] == '{') {
          const std::size_t end = text_.find('}', pos_);
          if (end == std::string_view::npos) break;
          pos_ = end;
        } else if (text_[pos_] == '(') {
          ++depth;
        } else if (text_[pos_] == ')' && --depth == 0) {
          break;
        }
      }
      if (pos_ >= text_.size()) return make_error("PGN: unterminated variation '('");
      ++pos_;
    } else if (ch == '$') {
      ++pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    } else if (ch == ')' || ch == '}') {
      return make_error(std::string("PGN: unexpected '") + ch + "'");
    } else {
      skipped_ = false;
    }
    return {};
  }

  std::string_view next_token() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
           std::string_view("{;($)").find(text_[pos_]) == std::string_view::npos) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  // "12." "12..." "12.e4" -> "", "", "e4"; annotations "!?" are dropped.
  static std::string_view strip_move_number(std::string_view token) {
    std::size_t i = 0;
    while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
    if (i > 0 && i < token.size() && token[i] == '.') {
      while (i < token.size() && token[i] == '.') ++i;
      token.remove_prefix(i);
    } else if (i == token.size()) {
      token = {};  // a bare number
    }
    while (!token.empty() && (token.back() == '!' || token.back() == '?')) token.remove_suffix(1);
    return token;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  bool skipped_ = false;
};

}  // namespace

std::string PgnGame::tag(std::string_view name) const {
  for (const auto& [key, value] : tags) {
    if (key == name) return value;
  }
  return "";
}

Expected<Chess> PgnGame::start_position() const {
  return Chess::deserialize(start_fen.empty() ? Chess::kStartFen : std::string_view(start_fen));
}

std::string pgn_result(const Outcome& outcome) {
  return outcome.is_terminal() ? std::string(result_notation(outcome.result)) : "*";
}

std::string write_pgn(const PgnGame& game) {
  std::string out;
  auto write_tag = [&](std::string_view name, std::string_view value) {
    out += "[" + std::string(name) + " \"" + escape(value) + "\"]\n";
  };
  for (std::size_t i = 0; i < kRoster.size(); ++i) {
    const std::string value = i + 1 == kRoster.size() ? game.result : game.tag(kRoster[i]);
    write_tag(kRoster[i], value.empty() ? kRosterDefaults[i] : value);
  }
  const bool set_up = !game.start_fen.empty() && game.start_fen != Chess::kStartFen;
  if (set_up) {
    write_tag("SetUp", "1");
    write_tag("FEN", game.start_fen);
  }
  for (const auto& [name, value] : game.tags) {
    const bool roster = std::find(kRoster.begin(), kRoster.end(), name) != kRoster.end();
    if (!roster && name != "SetUp" && name != "FEN") write_tag(name, value);
  }
  out += '\n';
  MovetextLines movetext;
  auto emit = [&](const std::string& token) { movetext.add(token); };
  auto start = game.start_position();
  if (start) {
    Chess position = *start;
    bool first = true;
    for (const Move m : game.moves) {
      const auto legal = position.parse_move(position.move_to_string(m));
      if (!legal || !(*legal == m)) {
        emit("{illegal move " + position.move_to_string(m) + "}");
        break;
      }
      const std::string number = std::to_string(position.fullmove_number());
      if (position.side_to_move() == Player::kFirst) {
        emit(number + ". " + position.to_san(m));
      } else {
        emit((first ? number + "... " : "") + position.to_san(m));
      }
      first = false;
      position.make_move(m);
    }
  } else {
    emit("{bad start position: " + start.error() + "}");
  }
  emit(game.result);
  return out + movetext.text();
}

Expected<std::vector<PgnGame>> read_pgn_games(std::string_view text) {
  PgnReader reader(text);
  std::vector<PgnGame> games;
  while (!reader.at_end()) {
    auto game = reader.read_game();
    if (!game) {
      return make_error("game " + std::to_string(games.size() + 1) + ": " + game.error());
    }
    games.push_back(std::move(*game));
  }
  return games;
}

Expected<PgnGame> read_pgn(std::string_view text) {
  PgnReader reader(text);
  if (reader.at_end()) return make_error("PGN: no game in the text");
  return reader.read_game();
}

}  // namespace arena::chess
