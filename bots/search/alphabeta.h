#pragma once
// Alpha-beta in negamax form, from a plain fixed-depth search ("AB") to iterative deepening
// with a transposition table, move ordering and quiescence. The options switch the parts on
// and off; none of them changes the value of a fixed-depth search (only the node count),
// except quiescence, which extends the leaves with noisy moves.
//
//   AlphaBeta<G, Eval> ab(eval, options);      // allocates the TT and tables once
//   SearchResult<G::Move> r = ab.search(position, limits);
//
// eval: a callable int(const G&) for the side to move (bots/eval/heuristic.h); taking it as a
// template parameter lets the compiler inline it. Terminal positions score by score.h.
// Limits: iterative deepening runs depth 1, 2, ... until limits.depth, the node or time limit,
// the stop flag, or a proven win/loss; the move is the best of the last completed iteration
// (the first ordered root move if none completed), so a legal move is always ready. Without
// `iterative`, one search to limits.depth (>= 1) is run and, if stopped, the best root move
// finished so far is returned.
// The node limit is checked before a node expands, so the count may pass it by the children
// of that one node.
// Reports: depth (last completed), seldepth, nodes (root + every make_move), score, pv, time.
// The node count of a search without a time limit or stop flag is deterministic.
// Not thread-safe; one searcher per thread. `clear()` forgets the TT, killers and history.

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>

#include "bots/search/clock.h"
#include "bots/search/limits.h"
#include "bots/search/move_ordering.h"
#include "bots/search/pv_table.h"
#include "bots/search/score.h"
#include "bots/search/search_info.h"
#include "bots/search/transposition_table.h"
#include "games/core/game.h"

namespace arena::search {

struct AlphaBetaOptions {
  bool iterative = true;      // iterative deepening; false = one fixed-depth search
  bool transposition = true;  // use the transposition table
  bool ordering = true;       // hash move, captures, killers, history
  bool quiescence = false;    // extend leaves with noisy moves (games with HasNoisyMoves)
  int tt_log2_entries = 18;

  // The plain fixed-depth alpha-beta of the AI course.
  static AlphaBetaOptions plain() { return {false, false, false, false, 10}; }
};

template <class G>
constexpr bool has_in_check = requires(const G& g) {
  { g.in_check() } -> std::convertible_to<bool>;
};

template <Game G, class Eval>
class AlphaBeta {
 public:
  using Move = typename G::Move;

  explicit AlphaBeta(Eval eval, AlphaBetaOptions options = {})
      : eval_(std::move(eval)),
        options_(options),
        tt_(options.transposition ? options.tt_log2_entries : 0),
        ordering_(std::make_unique<MoveOrdering<Move>>()),
        pv_(std::make_unique<PvTable<Move>>()) {}

  void clear() {
    tt_.clear();
    ordering_->clear();
  }

  SearchResult<Move> search(const G& root, const Limits& limits) {
    SearchClock clock(limits);
    clock_ = &clock;
    nodes_ = 1;
    seldepth_ = 0;
    tt_.new_search();
    G game = root;
    SearchResult<Move> result;
    typename G::MoveList list;
    game.generate_moves(list);
    if (list.empty() || game.outcome().is_terminal()) {
      result.info.score = game.outcome().is_terminal()
                              ? terminal_score(game.outcome(), game.side_to_move(), 0)
                              : eval_(game);
      result.info.nodes = nodes_;
      return result;
    }
    if (options_.ordering) order(game, list, 0, probe_move(game, 0));
    result.move = list[0];
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 1) : kMaxPly - 1;
    const int first_depth = options_.iterative ? 1 : max_depth;
    for (int depth = first_depth; depth <= max_depth; ++depth) {
      std::optional<Move> best;
      const int score = search_root(game, list, depth, best);
      if (clock.stopped()) {
        // A partial iteration is used only when no iteration completed.
        if (result.info.depth == 0 && best) {
          result.move = best;
          result.info.score = score;
          result.info.pv = pv_to_strings(root, pv_->line(0));
        }
        break;
      }
      result.move = best;
      result.info.depth = depth;
      result.info.score = score;
      result.info.pv = pv_to_strings(root, pv_->line(0));
      // The best move first for the next iteration, the others in their previous order.
      std::rotate(list.begin(), std::find(list.begin(), list.end(), *best),
                  std::find(list.begin(), list.end(), *best) + 1);
      if (is_win_score(score) && std::abs(plies_to_end(score)) <= depth) break;
    }
    result.info.seldepth = seldepth_;
    result.info.nodes = nodes_;
    result.info.time_ms = clock.elapsed_ms();
    return result;
  }

 private:
  // Step 1 of every iteration: each root move with a full window below the current best.
  int search_root(G& game, const typename G::MoveList& list, int depth, std::optional<Move>& best) {
    pv_->clear_ply(0);
    int alpha = -kScoreInfinite;
    for (const Move& m : list) {
      game.make_move(m);
      ++nodes_;
      const int score = -negamax(game, depth - 1, -kScoreInfinite, -alpha, 1);
      game.unmake_move(m);
      if (clock_->stopped()) break;
      if (!best || score > alpha) {
        alpha = score;
        best = m;
        pv_->update(0, m);
      }
    }
    if (best && !clock_->stopped()) tt_store(game, depth, alpha, Bound::kExact, &*best, 0);
    return alpha;
  }

  int negamax(G& game, int depth, int alpha, int beta, int ply) {
    // Step 1. Terminal positions, leaves and the budget.
    pv_->clear_ply(ply);
    if (ply > seldepth_) seldepth_ = ply;
    const Outcome outcome = game.outcome();
    if (outcome.is_terminal()) return terminal_score(outcome, game.side_to_move(), ply);
    if (ply >= kMaxPly - 1) return eval_(game);
    if (depth <= 0) return leaf(game, alpha, beta, ply);
    if (clock_->out_of_budget(nodes_)) return 0;  // discarded by the caller

    // Step 2. The transposition table: a cut-off, or at least a move to try first.
    const int alpha_orig = alpha;
    std::optional<Move> hash_move;
    if (options_.transposition) {
      if (const TtEntry<Move>* e = tt_.probe(game.hash(), ply)) {
        if (e->has_move) hash_move = e->move;
        if (e->depth >= depth) {
          if (e->bound == Bound::kExact) return e->score;
          if (e->bound == Bound::kLower && e->score >= beta) return e->score;
          if (e->bound == Bound::kUpper && e->score <= alpha) return e->score;
        }
      }
    }

    // Step 3. The moves, best-looking first.
    typename G::MoveList list;
    game.generate_moves(list);
    if (list.empty()) return eval_(game);
    if (options_.ordering) order(game, list, ply, hash_move ? &*hash_move : nullptr);

    // Step 4. Search them; a move at least as good as beta refutes the opponent's last move.
    int best = -kScoreInfinite;
    const Move* best_move = nullptr;
    for (const Move& m : list) {
      game.make_move(m);
      ++nodes_;
      const int score = -negamax(game, depth - 1, -beta, -alpha, ply + 1);
      game.unmake_move(m);
      if (clock_->stopped()) return 0;
      if (score > best) {
        best = score;
        best_move = &m;
        if (score > alpha) {
          alpha = score;
          pv_->update(ply, m);
          if (alpha >= beta) {
            if (options_.ordering) ordering_->on_cutoff(game, m, ply, depth);
            break;
          }
        }
      }
    }

    // Step 5. Remember the result with the kind of bound it is.
    const Bound bound = best >= beta        ? Bound::kLower
                        : best > alpha_orig ? Bound::kExact
                                            : Bound::kUpper;
    tt_store(game, depth, best, bound, best_move, ply);
    return best;
  }

  int leaf(G& game, int alpha, int beta, int ply) {
    if constexpr (HasNoisyMoves<G>) {
      if (options_.quiescence) return quiesce(game, alpha, beta, ply);
    }
    return eval_(game);
  }

  // Quiescence: only noisy moves (captures, promotions), with the option to stand pat on the
  // static evaluation; in check (where the game can tell) every move is searched instead.
  int quiesce(G& game, int alpha, int beta, int ply) requires HasNoisyMoves<G> {
    pv_->clear_ply(ply);
    if (ply > seldepth_) seldepth_ = ply;
    const Outcome outcome = game.outcome();
    if (outcome.is_terminal()) return terminal_score(outcome, game.side_to_move(), ply);
    if (ply >= kMaxPly - 1 || clock_->out_of_budget(nodes_)) return eval_(game);
    bool in_check = false;
    if constexpr (has_in_check<G>) in_check = game.in_check();
    typename G::MoveList list;
    int best = -kScoreInfinite;
    if (in_check) {
      game.generate_moves(list);
    } else {
      best = eval_(game);  // stand pat: the side to move need not capture
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
      game.generate_noisy_moves(list);
    }
    if (options_.ordering) order(game, list, ply, nullptr);
    for (const Move& m : list) {
      game.make_move(m);
      ++nodes_;
      const int score = -quiesce(game, -beta, -alpha, ply + 1);
      game.unmake_move(m);
      if (clock_->stopped()) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          pv_->update(ply, m);
          if (alpha >= beta) break;
        }
      }
    }
    return best;
  }

  const Move* probe_move(const G& game, int ply) {
    if (!options_.transposition) return nullptr;
    const TtEntry<Move>* e = tt_.probe(game.hash(), ply);
    return e != nullptr && e->has_move ? &e->move : nullptr;
  }

  void tt_store(const G& game, int depth, int score, Bound bound, const Move* move, int ply) {
    if (options_.transposition) tt_.store(game.hash(), depth, score, bound, move, ply);
  }

  void order(const G& game, typename G::MoveList& list, int ply, const Move* hash_move) {
    int scores[G::MoveList::kCapacity];
    for (std::size_t i = 0; i < list.size(); ++i)
      scores[i] = ordering_->score(game, list[i], ply, hash_move);
    sort_by_scores(list, scores);
  }

  Eval eval_;
  AlphaBetaOptions options_;
  TranspositionTable<Move> tt_;
  std::unique_ptr<MoveOrdering<Move>> ordering_;
  std::unique_ptr<PvTable<Move>> pv_;
  SearchClock* clock_ = nullptr;
  std::uint64_t nodes_ = 0;
  int seldepth_ = 0;
};

}  // namespace arena::search
