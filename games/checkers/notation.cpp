// English checkers: PDN FEN in and out, move text in and out, a text picture of the board.

#include <charconv>
#include <vector>

#include "games/checkers/board.h"
#include "games/checkers/checkers.h"

namespace arena::checkers {
namespace {

using namespace board;

constexpr Bitboard bit(int sq) {
  return Bitboard{1} << sq;
}

// A PDN square number "1".."32" -> 0..31, or -1.
int parse_square(std::string_view text) {
  int value = 0;
  if (text.empty() || text.size() > 2) return -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > 32) return -1;
  return value - 1;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

struct Section {
  Bitboard pieces = 0;
  Bitboard kings = 0;
};

// One colour's list: "K1,2,5-8" (the colour letter already removed).
Expected<Section> parse_section(std::string_view list, char colour) {
  Section s;
  if (list.empty()) return s;
  for (std::string_view item : split(list, ',')) {
    const bool king = !item.empty() && item[0] == 'K';
    if (king) item.remove_prefix(1);
    const std::size_t dash = item.find('-');
    const int first = parse_square(item.substr(0, dash));
    const int last = dash == std::string_view::npos ? first : parse_square(item.substr(dash + 1));
    if (first < 0 || last < first) {
      return make_error(std::string("checkers position: '") + colour + "' list has '" +
                        std::string(item) + "'; expected squares 1-32 such as 5, K5 or 1-12");
    }
    for (int sq = first; sq <= last; ++sq) {
      if (s.pieces & bit(sq)) {
        return make_error("checkers position: square " + std::to_string(sq + 1) +
                          " is given twice");
      }
      s.pieces |= bit(sq);
      if (king) s.kings |= bit(sq);
    }
  }
  return s;
}

std::string section_text(char colour, Bitboard pieces, Bitboard kings) {
  std::string out(1, colour);
  bool first = true;
  for (int sq = 0; sq < 32; ++sq) {
    if (!(pieces & bit(sq))) continue;
    if (!first) out += ',';
    first = false;
    if (kings & bit(sq)) out += 'K';
    out += std::to_string(sq + 1);
  }
  return out;
}

}  // namespace

Expected<Checkers> Checkers::deserialize(std::string_view text) {
  const std::string quoted = "checkers position '" + std::string(text) + "': ";
  if (!text.empty() && text.back() == '.') text.remove_suffix(1);
  const auto fields = split(text, ':');
  if (fields.size() < 3 || fields[0].size() != 1 || (fields[0][0] != 'B' && fields[0][0] != 'W'))
    return make_error(quoted + "expected PDN FEN such as B:W21,22,...:B1,2,...");
  Checkers game;
  game.side_ = fields[0][0] == 'B' ? Player::kFirst : Player::kSecond;
  bool seen[2] = {false, false};
  for (std::size_t i = 1; i < fields.size(); ++i) {
    const std::string_view field = fields[i];
    if (!field.empty() && field[0] == 'N') {
      const auto [end, ec] =
          std::from_chars(field.data() + 1, field.data() + field.size(), game.no_progress_);
      if (ec != std::errc() || end != field.data() + field.size() || game.no_progress_ < 0)
        return make_error(quoted + "bad no-progress count '" + std::string(field) + "'");
      continue;
    }
    if (field.empty() || (field[0] != 'B' && field[0] != 'W'))
      return make_error(quoted + "unexpected field '" + std::string(field) + "'");
    const int who = field[0] == 'B' ? 0 : 1;
    if (seen[who]) return make_error(quoted + "two lists for " + field[0]);
    seen[who] = true;
    auto section = parse_section(field.substr(1), field[0]);
    if (!section) return make_error(section.error());
    game.pieces_[who] = section->pieces;
    game.kings_ |= section->kings;
  }
  if (!seen[0] || !seen[1]) return make_error(quoted + "needs both a W list and a B list");
  if (game.pieces_[0] & game.pieces_[1]) {
    return make_error(quoted + "square " +
                      std::to_string(std::countr_zero(game.pieces_[0] & game.pieces_[1]) + 1) +
                      " holds both colours");
  }
  for (int who = 0; who < 2; ++who) {
    const char* name = who == 0 ? "Black" : "White";
    if (std::popcount(game.pieces_[who]) > 12)
      return make_error(quoted + name + " has more than 12 pieces");
    const Bitboard crown = who == 0 ? kBlackCrownRow : kWhiteCrownRow;
    const Bitboard uncrowned = game.pieces_[who] & ~game.kings_ & crown;
    if (uncrowned) {
      return make_error(quoted + name + " man on " +
                        std::to_string(std::countr_zero(uncrowned) + 1) +
                        ", its crowning row, should be a king");
    }
  }
  game.hash_ = game.compute_hash();
  game.history_.reserve(256);
  return game;
}

std::string Checkers::serialize() const {
  std::string out(1, side_ == Player::kFirst ? 'B' : 'W');
  out += ':' + section_text('W', pieces_[1], kings_);
  out += ':' + section_text('B', pieces_[0], kings_);
  if (no_progress_ > 0) out += ":N" + std::to_string(no_progress_);
  return out;
}

// One landing-square path of a capture (several exist when duplicate paths were merged; the
// first found in direction order is printed).
std::string Checkers::capture_path(Move m) const {
  const bool king = (kings_ & bit(m.from)) != 0;
  const bool black = side_ == Player::kFirst;
  const int first_dir = king || black ? kDownLeft : kUpLeft;
  const int last_dir = king || !black ? kUpRight : kDownRight;
  const Bitboard empty = ~(pieces_[0] | pieces_[1]) | bit(m.from);
  std::vector<int> path{m.from};
  auto search = [&](auto& self, int sq, Bitboard left) -> bool {
    if (left == 0) return sq == m.to;
    for (int dir = first_dir; dir <= last_dir; ++dir) {
      const int land = kTables.jump[dir][sq];
      if (land < 0 || !(empty & bit(land))) continue;
      const Bitboard mid = bit(kTables.neighbour[dir][sq]);
      if (!(left & mid)) continue;
      path.push_back(land);
      if (self(self, land, left & ~mid)) return true;
      path.pop_back();
    }
    return false;
  };
  search(search, m.from, m.captured);
  std::string out;
  for (int sq : path) {
    if (!out.empty()) out += 'x';
    out += std::to_string(sq + 1);
  }
  return out;
}

std::string Checkers::move_to_string(Move m) const {
  if (m.is_capture()) return capture_path(m);
  return std::to_string(m.from + 1) + "-" + std::to_string(m.to + 1);
}

std::optional<Move> Checkers::parse_move(std::string_view text) const {
  const bool capture = text.find('x') != std::string_view::npos;
  const auto parts = split(text, capture ? 'x' : '-');
  if (parts.size() < 2 || (!capture && parts.size() != 2)) return std::nullopt;
  std::vector<int> squares;
  for (std::string_view part : parts) {
    const int sq = parse_square(part);
    if (sq < 0) return std::nullopt;
    squares.push_back(sq);
  }
  MoveList list;
  generate_moves(list);
  if (!capture) {
    for (const Move& m : list) {
      if (!m.is_capture() && m.from == squares[0] && m.to == squares[1]) return m;
    }
    return std::nullopt;
  }
  // Read the text as a full path: every hop a jump to a free square; the squares jumped over
  // are the captured pieces.
  const Bitboard free = ~(pieces_[0] | pieces_[1]) | bit(squares.front());
  Bitboard jumped = 0;
  bool is_path = true;
  for (std::size_t i = 0; i + 1 < squares.size() && is_path; ++i) {
    int over = -1;
    for (int dir = 0; dir < 4; ++dir) {
      if (kTables.jump[dir][squares[i]] == squares[i + 1])
        over = kTables.neighbour[dir][squares[i]];
    }
    is_path = over >= 0 && (free & bit(squares[i + 1])) && !(jumped & bit(over));
    if (is_path) jumped |= bit(over);
  }
  std::optional<Move> short_form;
  int short_matches = 0;
  for (const Move& m : list) {
    if (!m.is_capture() || m.from != squares.front() || m.to != squares.back()) continue;
    if (is_path && m.captured == jumped) {
      // A man's route is unique and men only jump forward: insist on exactly that route.
      const bool king = (kings_ & bit(m.from)) != 0;
      if (king || capture_path(m) == text) return m;
      return std::nullopt;
    }
    short_form = m;
    ++short_matches;
  }
  if (squares.size() == 2 && short_matches == 1) return short_form;  // "11x25"
  return std::nullopt;
}

std::string Checkers::render() const {
  std::string out;
  for (int row = 0; row < 8; ++row) {
    for (int col = 0; col < 8; ++col) {
      const bool dark = (row + col) % 2 == 1;
      if (!dark) {
        out += "  ";
        continue;
      }
      const int sq = row * 4 + col / 2;
      char c = '.';
      if (pieces_[0] & bit(sq)) c = (kings_ & bit(sq)) ? 'B' : 'b';
      if (pieces_[1] & bit(sq)) c = (kings_ & bit(sq)) ? 'W' : 'w';
      out += ' ';
      out += c;
    }
    out += '\n';
  }
  out += side_ == Player::kFirst ? "Black to move\n" : "White to move\n";
  return out;
}

}  // namespace arena::checkers
