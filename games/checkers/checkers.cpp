// English checkers: move generation, make/unmake and the end-of-game rules. The text forms
// (PDN FEN, move notation) live in notation.cpp.

#include "games/checkers/checkers.h"

#include <algorithm>

#include "games/checkers/board.h"
#include "games/checkers/keys.h"

namespace arena::checkers {
namespace {

using namespace board;

constexpr Bitboard bit(int sq) {
  return Bitboard{1} << sq;
}

constexpr Bitboard crown_row(Player p) {
  return p == Player::kFirst ? kBlackCrownRow : kWhiteCrownRow;
}

// Adds one step move per destination in `dests`; the origin is `delta` squares away.
void add_steps(Bitboard dests, int delta, Checkers::MoveList& list) {
  std::size_t n = list.size();
  while (dests) {
    const int to = std::countr_zero(dests);
    list[n++] = Move{0, static_cast<std::uint8_t>(to + delta), static_cast<std::uint8_t>(to)};
    dests &= dests - 1;
  }
  list.resize(n);
}

// Depth-first enumeration of the capture sequences of one piece. Captured pieces stay on the
// board until the move ends (they block landing and cannot be jumped twice); the moving
// piece's own start square counts as empty, so a king may return to it.
struct CaptureSearch {
  Bitboard opp;
  Bitboard empty;
  Bitboard crown;  // reaching it ends a man's move
  int first_dir;
  int last_dir;
  bool king;
  int from;
  Checkers::MoveList* list;

  void extend(int sq, Bitboard captured) const {
    bool extended = false;
    for (int dir = first_dir; dir <= last_dir; ++dir) {
      const int land = kTables.jump[dir][sq];
      if (land < 0 || !(empty & bit(land))) continue;
      const Bitboard mid = bit(kTables.neighbour[dir][sq]);
      if (!(opp & mid) || (captured & mid)) continue;
      extended = true;
      if (!king && (bit(land) & crown)) {
        add(land, captured | mid);
      } else {
        extend(land, captured | mid);
      }
    }
    if (!extended && captured) add(sq, captured);
  }

  void add(int to, Bitboard captured) const {
    const Move m{captured, static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
    if (king) {
      for (const Move& other : *list) {
        if (other == m) return;  // the same capture along another path: one move
      }
    }
    if (list->size() < Checkers::MoveList::kCapacity) list->push_back(m);
  }
};

}  // namespace

Expected<Checkers> Checkers::create(const GameOptions& options) {
  if (!options.empty()) {
    return make_error("checkers takes no options; unknown option '" + options.begin()->first + "'");
  }
  Checkers game;
  game.pieces_[index(Player::kFirst)] = 0x00000FFFu;   // squares 1-12
  game.pieces_[index(Player::kSecond)] = 0xFFF00000u;  // squares 21-32
  game.hash_ = game.compute_hash();
  game.history_.reserve(256);
  return game;
}

std::uint64_t Checkers::compute_hash() const {
  std::uint64_t h = side_ == Player::kSecond ? kSideKey : 0;
  for (int p = 0; p < 2; ++p) {
    for (int sq = 0; sq < 32; ++sq) {
      if (!(pieces_[p] & bit(sq))) continue;
      h ^= piece_key(p, (kings_ & bit(sq)) != 0, sq);
    }
  }
  return h;
}

void Checkers::generate_moves(MoveList& list) const {
  list.clear();
  const int me = index(side_);
  const Bitboard own = pieces_[me];
  const Bitboard opp = pieces_[1 - me];
  const Bitboard empty = ~(own | opp);
  const Bitboard own_kings = own & kings_;
  const bool black = side_ == Player::kFirst;
  const Bitboard down_movers = black ? own : own_kings;
  const Bitboard up_movers = black ? own_kings : own;

  // Step 1. Captures are mandatory: find the pieces that can jump, scanning backwards from
  // the empty landing squares over the opponent's pieces.
  Bitboard jumpers = 0;
  for (int dir = 0; dir < 4; ++dir) {
    const int back = 3 - dir;  // the opposite direction
    const Bitboard movers = dir < 2 ? down_movers : up_movers;
    jumpers |= step(step(empty, back) & opp, back) & movers;
  }
  if (jumpers) {
    while (jumpers) {
      const int from = std::countr_zero(jumpers);
      jumpers &= jumpers - 1;
      const bool king = (kings_ & bit(from)) != 0;
      const CaptureSearch search{opp,
                                 empty | bit(from),
                                 crown_row(side_),
                                 king || black ? kDownLeft : kUpLeft,
                                 king || !black ? kUpRight : kDownRight,
                                 king,
                                 from,
                                 &list};
      search.extend(from, 0);
    }
    return;
  }

  // Step 2. Steps, grouped by bit shift so that each origin is destination minus the shift.
  add_steps((down_movers << 4) & empty, -4, list);
  add_steps(((down_movers & kEvenNotRight) << 5) & empty, -5, list);
  add_steps(((down_movers & kOddNotLeft) << 3) & empty, -3, list);
  add_steps((up_movers >> 4) & empty, 4, list);
  add_steps(((up_movers & kEvenNotRight) >> 3) & empty, 3, list);
  add_steps(((up_movers & kOddNotLeft) >> 5) & empty, 5, list);
}

void Checkers::make_move(Move m) {
  const int me = index(side_);
  const int them = 1 - me;
  const Bitboard from_bit = bit(m.from);
  const Bitboard to_bit = bit(m.to);
  const bool king = (kings_ & from_bit) != 0;
  const Bitboard captured_kings = kings_ & m.captured;
  const std::uint64_t old_hash = hash_;
  const int old_no_progress = no_progress_;
  bool crowned = false;

  pieces_[me] ^= from_bit ^ to_bit;  // from == to (a king's round trip) leaves it in place
  std::uint64_t h = hash_ ^ kSideKey ^ piece_key(me, king, m.from);
  if (king) {
    kings_ ^= from_bit ^ to_bit;
    h ^= piece_key(me, true, m.to);
  } else if (to_bit & crown_row(side_)) {
    kings_ |= to_bit;
    crowned = true;
    h ^= piece_key(me, true, m.to);
  } else {
    h ^= piece_key(me, false, m.to);
  }
  if (m.captured) {
    pieces_[them] &= ~m.captured;
    kings_ &= ~m.captured;
    for (Bitboard c = m.captured; c; c &= c - 1) {
      const int sq = std::countr_zero(c);
      h ^= piece_key(them, (captured_kings & bit(sq)) != 0, sq);
    }
  }
  hash_ = h;
  no_progress_ = (m.captured || !king) ? 0 : no_progress_ + 1;
  side_ = opponent(side_);
  // Built in one piece: filling a stack copy field by field stalls on store forwarding.
  history_.push_back(Undo{old_hash, captured_kings,
                          static_cast<std::uint16_t>(std::min(old_no_progress, 0xFFFF)),
                          static_cast<std::uint16_t>(crowned)});
}

void Checkers::unmake_move(Move m) {
  const Undo undo = history_.back();
  history_.pop_back();
  side_ = opponent(side_);
  const int me = index(side_);
  const Bitboard from_bit = bit(m.from);
  const Bitboard to_bit = bit(m.to);
  if (undo.crowned) {
    kings_ &= ~to_bit;
  } else if (kings_ & to_bit) {
    kings_ ^= from_bit ^ to_bit;
  }
  pieces_[me] ^= from_bit ^ to_bit;
  pieces_[1 - me] |= m.captured;
  kings_ |= undo.captured_kings;
  hash_ = undo.hash;
  no_progress_ = undo.no_progress;
}

bool Checkers::is_repetition() const {
  // Only positions since the last capture or man's move can repeat, every second ply.
  int seen = 1;
  const int n = static_cast<int>(history_.size());
  for (int back = 2; back <= no_progress_ && back <= n; back += 2) {
    if (history_[n - back].hash == hash_ && ++seen >= 3) return true;
  }
  return false;
}

Outcome Checkers::outcome() const {
  MoveList list;
  generate_moves(list);
  if (list.empty()) return Outcome::win_for(opponent(side_), EndReason::kNoMoves);
  if (no_progress_ >= kNoProgressPlies) return Outcome::draw(EndReason::kNoProgress);
  if (is_repetition()) return Outcome::draw(EndReason::kThreefoldRepetition);
  return Outcome::ongoing();
}

// Perft by copy-make of three bitboards (own pieces, the opponent's, kings), with the side to
// move a template parameter so that the forward directions are constants.
namespace {

struct Jump {
  Bitboard from;
  Bitboard to;
  Bitboard captured;
};

// Every capture of the side to move, as generate_moves() lists them (the same sequences,
// duplicate king paths merged, at most MoveList::kCapacity).
template <bool kBlack>
struct Jumps {
  static constexpr Bitboard kCrown = kBlack ? kBlackCrownRow : kWhiteCrownRow;
  static constexpr int kFirstManDir = kBlack ? kDownLeft : kUpLeft;

  Jumps(Bitboard opponent, Bitboard empty_squares) : opp(opponent), empty(empty_squares) {}

  Bitboard opp;
  Bitboard empty;
  Bitboard from = 0;
  bool king = false;
  int size = 0;
  Jump list[Checkers::MoveList::kCapacity];  // left uninitialised: only [0, size) is read

  void add(Bitboard to, Bitboard captured) {
    if (king) {
      for (int i = 0; i < size; ++i) {
        if (list[i].from == from && list[i].to == to && list[i].captured == captured) return;
      }
    }
    if (size < static_cast<int>(Checkers::MoveList::kCapacity)) list[size++] = {from, to, captured};
  }

  template <int kDir>
  bool try_dir(Bitboard at, Bitboard captured) {
    const Bitboard mid = step(at, kDir) & opp & ~captured;
    const Bitboard land = step(mid, kDir) & empty;
    if (!land) return false;
    if (!king && (land & kCrown)) {
      add(land, captured | mid);
    } else {
      extend(land, captured | mid);
    }
    return true;
  }

  void extend(Bitboard at, Bitboard captured) {
    bool extended;
    if (king) {
      extended = try_dir<kDownLeft>(at, captured) | try_dir<kDownRight>(at, captured) |
                 try_dir<kUpLeft>(at, captured) | try_dir<kUpRight>(at, captured);
    } else {
      extended = try_dir<kFirstManDir>(at, captured) | try_dir<kFirstManDir + 1>(at, captured);
    }
    if (!extended && captured) add(at, captured);
  }

  // Fills the list from the pieces in `jumpers`, in square order as generate_moves() does.
  void generate(Bitboard kings, Bitboard jumpers) {
    const Bitboard board_empty = empty;
    while (jumpers) {
      from = jumpers & (Bitboard{0} - jumpers);
      jumpers &= jumpers - 1;
      king = (kings & from) != 0;
      empty = board_empty | from;
      extend(from, 0);
    }
  }
};

// Without the POPCNT instruction std::popcount is a call into libgcc; inline bit arithmetic
// is faster in the perft loop.
inline int count_squares(Bitboard b) {
#if defined(__POPCNT__)
  return std::popcount(b);
#else
  b -= (b >> 1) & 0x55555555u;
  b = (b & 0x33333333u) + ((b >> 2) & 0x33333333u);
  b = (b + (b >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((b * 0x01010101u) >> 24);
#endif
}

template <bool kBlack>
std::uint64_t perft_node(Bitboard own, Bitboard opp, Bitboard kings, int depth) {
  const Bitboard empty = ~(own | opp);
  const Bitboard own_kings = own & kings;
  const Bitboard down = kBlack ? own : own_kings;
  const Bitboard up = kBlack ? own_kings : own;
  const Bitboard jumpers =
      ((step(step(empty, kUpRight) & opp, kUpRight) | step(step(empty, kUpLeft) & opp, kUpLeft)) &
       down) |
      ((step(step(empty, kDownRight) & opp, kDownRight) |
        step(step(empty, kDownLeft) & opp, kDownLeft)) &
       up);
  if (jumpers) {
    Jumps<kBlack> jumps(opp, empty);
    jumps.generate(kings, jumpers);
    if (depth == 1) return static_cast<std::uint64_t>(jumps.size);
    std::uint64_t nodes = 0;
    for (int i = 0; i < jumps.size; ++i) {
      const Jump& j = jumps.list[i];
      Bitboard next_kings = kings & ~j.captured;
      if (kings & j.from) {
        next_kings ^= j.from ^ j.to;
      } else {
        next_kings |= j.to & Jumps<kBlack>::kCrown;
      }
      nodes += perft_node<!kBlack>(opp & ~j.captured, own ^ j.from ^ j.to, next_kings, depth - 1);
    }
    return nodes;
  }

  const Bitboard dests[4] = {step(down, kDownLeft) & empty, step(down, kDownRight) & empty,
                             step(up, kUpLeft) & empty, step(up, kUpRight) & empty};
  if (depth == 1) {
    return static_cast<std::uint64_t>(count_squares(dests[0]) + count_squares(dests[1]) +
                                      count_squares(dests[2]) + count_squares(dests[3]));
  }
  std::uint64_t nodes = 0;
  for (int dir = 0; dir < 4; ++dir) {
    for (Bitboard d = dests[dir]; d; d &= d - 1) {
      const Bitboard to = d & (Bitboard{0} - d);
      const Bitboard from = step(to, 3 - dir);
      const Bitboard next_kings =
          (kings & from) ? kings ^ from ^ to : kings | (to & Jumps<kBlack>::kCrown);
      nodes += perft_node<!kBlack>(opp, own ^ from ^ to, next_kings, depth - 1);
    }
  }
  return nodes;
}

}  // namespace

std::uint64_t fast_perft(const Checkers& game, int depth) {
  if (depth <= 0) return 1;
  const Bitboard kings = game.kings(Player::kFirst) | game.kings(Player::kSecond);
  const Bitboard black = game.pieces(Player::kFirst);
  const Bitboard white = game.pieces(Player::kSecond);
  return game.side_to_move() == Player::kFirst ? perft_node<true>(black, white, kings, depth)
                                               : perft_node<false>(white, black, kings, depth);
}

}  // namespace arena::checkers
