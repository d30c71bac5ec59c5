#pragma once
// Alpha-beta in negamax form, from a plain fixed-depth search ("AB") to iterative deepening
// with a transposition table, move ordering, aspiration windows, principal variation search,
// null-move pruning, late move reductions and quiescence. Each part has its own switch in
// AlphaBetaOptions, so that the bench (bench_search) can measure each one off in turn.
//
//   AlphaBeta<G, Eval> ab(eval, options);      // allocates the TT and tables once
//   SearchResult<G::Move> r = ab.search(position, limits);
//
// What each part does to the value of a fixed-depth search:
//   - ordering, killers, history, transposition table: only the node count (with a table, a
//     value may come from a deeper transposition);
//   - aspiration windows, PVS: only the node count (a fail outside the window or a null
//     window is searched again with the right one);
//   - null-move pruning, late move reductions: selective, they may change the value (a
//     reduced line is searched again at full depth only when it looks better than alpha);
//   - quiescence extends the leaves with noisy moves.
// Aspiration, PVS, null move and LMR are parts of the iterative engine: they need `iterative`,
// and the fixed-depth search (iterative = false) stays the exact alpha-beta that the lab's
// training targets and AlphaBetaOptions::plain() rely on. The default options are the
// strongest configuration: everything on, null move only in games that say where it is
// sound (HasNullMove: chess, not in check, with a piece other than pawns; never in
// zugzwang games such as Othello, checkers or Isolation). `full_width()` is the default
// without the selective parts (null move, LMR), whose fixed-depth values equal plain
// alpha-beta's when the table cannot transpose.
//
// eval: a callable int(const G&) for the side to move (bots/eval/heuristic.h); taking it as a
// template parameter lets the compiler inline it. Terminal positions score by score.h.
// Limits: iterative deepening runs depth 1, 2, ... until limits.depth, the node or time limit,
// the stop flag, or a proven win/loss; the move is the best of the last completed iteration
// (the first ordered root move if none completed), or of the unfinished one when a move
// there already beat the last best move (searched first), so a legal move is always ready. Without
// `iterative`, one search to limits.depth (>= 1) is run and, if stopped, the best root move
// finished so far is returned.
// The node limit is checked before a node expands, so the count may pass it by the children
// of that one node.
// Reports: depth (last completed), seldepth, nodes (root + every make_move and null move),
// score, pv, time. The node count of a search without a time limit or stop flag is
// deterministic.
// Not thread-safe; one searcher per thread. `clear()` forgets the TT, killers and history.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
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
  bool ordering = true;       // sort the moves: hash move, captures (MVV-LVA), then quiet moves
  bool quiescence = false;    // extend leaves with noisy moves (games with HasNoisyMoves)
  int tt_log2_entries = 18;
  // How quiet moves are sorted (with `ordering`):
  bool killers = true;  // two killer moves per ply first
  bool history = true;  // then by history (cut-offs, weighted by depth squared)
  // The iterative engine's parts (need `iterative`):
  bool aspiration = true;     // window around the last iteration's score, widened on a fail
  bool pvs = true;            // principal variation search: null window after the first move
  bool null_move = true;      // null-move pruning, in games with HasNullMove only
  bool lmr = true;            // late move reductions of quiet moves
  int aspiration_delta = 25;  // first half-width of the window, in evaluation units
  // Added after the fields above, so that their positional initialisation stays valid:
  bool check_extension = true;  // a side in check searches one ply deeper (games with in_check)
  // A position that occurred before (in the tree or the game) scores as a draw below the root
  // (games with repetitions()).
  bool repetition_draws = true;
  // Futility margin in evaluation units per ply; 0 = off (the default: the margin depends on
  // the evaluation's scale, so a spec sets it, e.g. 100 for chess centipawns). With a margin,
  // in null-window nodes near the leaves: reverse futility (static evaluation minus
  // margin x depth at least beta: cut), futility (static evaluation plus margin x depth at
  // most alpha: quiet moves skipped), late move pruning (quiet moves after the first
  // 3 + depth^2 skipped at depth <= 3), and in quiescence delta pruning (captures whose
  // exchange gain plus twice the margin cannot bring the score to alpha).
  int futility_margin = 0;
  // With an exchange evaluator (the constructor's `exchange`, e.g. chess's static exchange
  // evaluation): quiescence skips captures that lose material, and ordering puts them last.
  bool exchange = true;
  // Later parts, off by default (a spec turns them on; bots/search/spec.h):
  bool countermoves = false;   // the quiet move that last refuted the opponent's move, after the killers
  bool history_malus = false;  // quiet moves tried before a cut-off lose the history it gains
  bool adaptive_null_move = false;  // null-move reduction 3 + depth / 4 (+ 1 when far above beta)
  bool quiescence_tt = false;  // quiescence takes cut-offs and its first move from the table
  bool lmr_pv = false;  // LMR one ply less in PV nodes (open windows)
  // With futility and an exchange evaluator: in null-window nodes at depth <= 4, captures
  // whose exchange loses more than the futility margin per ply are skipped.
  bool exchange_pruning = false;
  // With futility: a node whose static evaluation is not above the one two plies before
  // (the same side to move) prunes late quiet moves after half as many (3 + depth^2) / 2,
  // and reverse futility cuts with one margin less when it is above (Stockfish's
  // "improving").
  bool improving = false;
  // LMR by history: a late quiet move whose history is above 0 (it has caused more cut-offs
  // than it failed to) is reduced one ply less, one below 0 one ply more.
  bool lmr_history = false;
  // Internal iterative reduction: a node of 4 or more plies left with no move from the table
  // is searched one ply shallower (its ordering is poor; a later visit will have the move).
  bool iir = false;

  // The plain fixed-depth alpha-beta of the AI course.
  static AlphaBetaOptions plain() {
    return {false, false, false, false, 10, false, false, false, false, false, false};
  }
  // The default without the selective parts (null move, LMR): what it saves changes only
  // the node count, never the value of a fixed-depth search without transpositions.
  static AlphaBetaOptions full_width() {
    AlphaBetaOptions o;
    o.null_move = false;
    o.lmr = false;
    o.check_extension = false;
    o.repetition_draws = false;
    return o;
  }
};

template <class G>
constexpr bool has_in_check = requires(const G& g) {
  { g.in_check() } -> std::convertible_to<bool>;
};

// A game that counts how often the current position occurred before in its history (chess:
// repetitions()). The search scores a repetition inside the tree as a draw at once, as
// engines do: whoever could repeat once can repeat again.
template <class G>
constexpr bool has_repetitions = requires(const G& g) {
  { g.repetitions() } -> std::convertible_to<int>;
};

// A game that tells its draws by rule apart from the end by having no legal move (chess:
// drawn_by_rule(), outcome() being terminal exactly when it is true or no move is legal): the
// search then skips outcome()'s move generation at every node and finds mate and stalemate
// from the moves it generates anyway (in quiescence only in check: standing pat is allowed
// in a stalemate, as in most engines).
template <class G>
constexpr bool has_drawn_by_rule = has_in_check<G> && requires(const G& g) {
  { g.drawn_by_rule() } -> std::convertible_to<bool>;
};

template <class G>
constexpr bool has_gives_check = requires(const G& g, const typename G::Move& m) {
  { g.gives_check(m) } -> std::convertible_to<bool>;
};

// A game where passing is a sound test for null-move pruning: make_null_move() lets the
// opponent move twice, unmake_null_move() takes it back, null_move_allowed() says whether
// this position may be tested (no zugzwang risk: chess, not in check, with a piece other than
// pawns). Games whose passes are real moves (Othello) or that are full of zugzwang
// (checkers, Isolation) do not provide it.
template <class G>
concept HasNullMove = requires(G g, const G& cg) {
  g.make_null_move();
  g.unmake_null_move();
  { cg.null_move_allowed() } -> std::convertible_to<bool>;
};

// The late-move reduction of the `number`-th move (0-based) with `depth` plies left:
// logarithmic in both, as in most engines (0.75 + ln d * ln n / 2.25).
inline int late_move_reduction(int depth, int number) {
  static const auto table = [] {
    std::array<std::array<std::uint8_t, 64>, 64> t{};
    for (int d = 1; d < 64; ++d)
      for (int n = 1; n < 64; ++n)
        t[d][n] = static_cast<std::uint8_t>(0.75 + std::log(d) * std::log(n) / 2.25);
    return t;
  }();
  return table[std::min(depth, 63)][std::min(number, 63)];
}

// The gain of a capture for the side making it, after the best sequence of recaptures on its
// square (a static exchange evaluation, in evaluation units; negative: it loses material).
// Games that have one supply it to AlphaBeta (bots/search/agent_factory.h); empty = none.
template <class G>
using ExchangeEval = std::function<int(const G&, const typename G::Move&)>;

template <Game G, class Eval>
class AlphaBeta {
 public:
  using Move = typename G::Move;

  explicit AlphaBeta(Eval eval, AlphaBetaOptions options = {}, ExchangeEval<G> exchange = {})
      : eval_(std::move(eval)),
        exchange_(options.exchange ? std::move(exchange) : ExchangeEval<G>{}),
        options_(options),
        tt_(options.transposition ? options.tt_log2_entries : 0),
        ordering_(std::make_unique<MoveOrdering<Move>>(options.killers, options.history,
                                                       options.countermoves,
                                                       options.history_malus)),
        pv_(std::make_unique<PvTable<Move>>()),
        aspiration_(options.iterative && options.aspiration),
        pvs_(options.iterative && options.pvs),
        null_move_(options.iterative && options.null_move && HasNullMove<G>),
        lmr_(options.iterative && options.lmr),
        check_extension_(options.iterative && options.check_extension && has_in_check<G>),
        repetition_draws_(options.iterative && options.repetition_draws),
        futility_(options.iterative ? std::max(0, options.futility_margin) : 0) {
    static_evals_.fill(kNoStaticEval);
  }

  void clear() {
    tt_.clear();
    ordering_->clear();
  }

  // After a search: the nodes counted when iteration `depth` completed (0 if it did not),
  // for the effective branching factor nodes(d) / nodes(d - 1) (bench/search.cpp).
  std::uint64_t nodes_at_depth(int depth) const {
    return depth > 0 && depth < kMaxPly ? nodes_at_depth_[static_cast<std::size_t>(depth)] : 0;
  }

  SearchResult<Move> search(const G& root, const Limits& limits) {
    SearchClock clock(limits);
    clock_ = &clock;
    nodes_ = 1;
    seldepth_ = 0;
    nodes_at_depth_.fill(0);
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
    ordering_->set_previous(nullptr);
    if (options_.ordering) order(game, list, 0, probe_move(game, 0));
    result.move = list[0];
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 1) : kMaxPly - 1;
    const int first_depth = options_.iterative ? 1 : max_depth;
    int previous = 0;  // the last completed iteration's score
    for (int depth = first_depth; depth <= max_depth; ++depth) {
      std::optional<Move> best;
      int score = 0;
      if (aspiration_ && depth >= kAspirationMinDepth && !is_win_score(previous)) {
        score = search_aspiration(game, list, depth, previous, best);
      } else {
        score = search_root(game, list, depth, -kScoreInfinite, kScoreInfinite, best);
      }
      if (clock.stopped()) {
        // A partial iteration's move is used when no iteration completed, or when it beat
        // the previous best move, which the iteration searched first (in full).
        if (best && (result.info.depth == 0 || !(*best == *result.move))) {
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
      nodes_at_depth_[static_cast<std::size_t>(depth)] = nodes_;
      previous = score;
      // The best move first for the next iteration, the others in their previous order.
      to_front(list, *best);
      if (is_win_score(score) && std::abs(plies_to_end(score)) <= depth) break;
    }
    result.info.seldepth = seldepth_;
    result.info.nodes = nodes_;
    result.info.time_ms = clock.elapsed_ms();
    return result;
  }

 private:
  static constexpr int kAspirationMinDepth = 4;
  static constexpr int kNullMoveMinDepth = 3;
  static constexpr int kLmrMinDepth = 3;
  static constexpr int kLmrFirstMove = 3;  // the hash move, the best captures or killers: never
  static constexpr int kReverseFutilityMaxDepth = 6;
  static constexpr int kFutilityMaxDepth = 3;
  static constexpr int kLateMovePruningMaxDepth = 3;
  static constexpr int kLateMovePruningBase = 3;
  static constexpr int kMaxQuietsTried = 64;
  static constexpr int kExchangePruningMaxDepth = 4;
  static constexpr int kIirMinDepth = 4;
  static constexpr int kNoStaticEval = -kScoreInfinite;

  static void to_front(typename G::MoveList& list, const Move& m) {
    const auto it = std::find(list.begin(), list.end(), m);
    if (it != list.end()) std::rotate(list.begin(), it, it + 1);
  }

  // An iteration in a window around the last score; on a fail low or high the window widens
  // on that side (doubling) and the iteration is searched again, until the score is inside.
  int search_aspiration(G& game, typename G::MoveList& list, int depth, int previous,
                        std::optional<Move>& best) {
    int delta = std::max(1, options_.aspiration_delta);
    int low = previous - delta;
    int high = previous + delta;
    for (;;) {
      best.reset();
      const int score = search_root(game, list, depth, low, high, best);
      if (clock_->stopped() || (score > low && score < high)) return score;
      delta *= 2;
      const bool give_up = is_win_score(score) || delta > kScoreHeuristicMax;
      if (score <= low) {
        low = give_up ? -kScoreInfinite : std::max(score - delta, -kScoreInfinite);
      } else {
        high = give_up ? kScoreInfinite : std::min(score + delta, kScoreInfinite);
        to_front(list, *best);  // the move that failed high is searched first again
      }
    }
  }

  // The root of every iteration, in the window (alpha, beta): the first move with the whole
  // window, the others (with PVS) with a null window first. Returns the best score, which is
  // a bound when it falls outside the window (fail-soft).
  int search_root(G& game, const typename G::MoveList& list, int depth, int alpha, int beta,
                  std::optional<Move>& best) {
    pv_->clear_ply(0);
    const int alpha_orig = alpha;
    int best_score = -kScoreInfinite;
    for (const Move& m : list) {
      game.make_move(m);
      ++nodes_;
      played_[0] = m;
      int score;
      if (!best || !pvs_) {
        score = -negamax(game, depth - 1, -beta, -alpha, 1);
      } else {
        score = -negamax(game, depth - 1, -alpha - 1, -alpha, 1);
        if (score > alpha && score < beta && !clock_->stopped())
          score = -negamax(game, depth - 1, -beta, -alpha, 1);
      }
      game.unmake_move(m);
      if (clock_->stopped()) break;
      if (!best || score > best_score) {
        best_score = score;
        best = m;
        if (score > alpha) {
          alpha = score;
          pv_->update(0, m);
          if (alpha >= beta) break;
        }
      }
    }
    if (best && !clock_->stopped()) {
      const Bound bound = best_score >= beta        ? Bound::kLower
                          : best_score > alpha_orig ? Bound::kExact
                                                    : Bound::kUpper;
      tt_store(game, depth, best_score, bound, &*best, 0);
    }
    return best_score;
  }

  // The table's entry for `game`: its move (into `hash_move`), and its score when its depth
  // and bound settle this node's value.
  std::optional<int> probe_tt(const G& game, int depth, int alpha, int beta, int ply,
                              std::optional<Move>& hash_move) {
    if (!options_.transposition) return std::nullopt;
    const TtEntry<Move>* e = tt_.probe(game.hash(), ply);
    if (!e) return std::nullopt;
    if (e->has_move) hash_move = e->move;
    if (e->depth < depth) return std::nullopt;
    if (e->bound == Bound::kExact) return e->score;
    if (e->bound == Bound::kLower && e->score >= beta) return e->score;
    if (e->bound == Bound::kUpper && e->score <= alpha) return e->score;
    return std::nullopt;
  }

  // The null move's verdict: the opponent moves twice in a shallower null-window search; a
  // score still at least beta is the cut-off (beta itself for a mate, which it did not prove).
  // 0 when the clock stopped the search (the caller discards it).
  std::optional<int> null_move_cutoff(G& game, int depth, int beta, int ply, int static_eval)
    requires HasNullMove<G>
  {
    int reduction = depth >= 7 ? 3 : 2;
    if (options_.adaptive_null_move) {
      reduction = 3 + depth / 4;
      if (static_eval - beta >= 200) ++reduction;
    }
    game.make_null_move();
    ++nodes_;
    played_[static_cast<std::size_t>(ply)].reset();
    const int score = -negamax(game, depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
    game.unmake_null_move();
    if (clock_->stopped()) return 0;
    if (score >= beta) return is_win_score(score) ? beta : score;
    return std::nullopt;
  }

  // A move after the first, just made: PVS's null window (is it better than alpha?) at the
  // depth LMR's `reduction` leaves, searched again at full depth and then with the full window
  // when it says the move is better than alpha.
  int search_later_move(G& game, int depth, int alpha, int beta, int ply, int reduction) {
    const int window_beta = pvs_ ? alpha + 1 : beta;
    int score = -negamax(game, depth - 1 - reduction, -window_beta, -alpha, ply + 1);
    if (reduction > 0 && score > alpha && !clock_->stopped())
      score = -negamax(game, depth - 1, -window_beta, -alpha, ply + 1);
    if (window_beta < beta && score > alpha && score < beta && !clock_->stopped())
      score = -negamax(game, depth - 1, -beta, -alpha, ply + 1);
    return score;
  }

  // Step 1 of negamax: terminal positions, leaves and the budget. A side in check is searched
  // one ply deeper (check extension), so that a check at the horizon is not taken for quiet.
  // The node's score when it ends here; else nullopt, with `depth` extended and `in_check` set.
  std::optional<int> end_of_node(G& game, int& depth, int alpha, int beta, int ply,
                                 bool& in_check) {
    pv_->clear_ply(ply);
    if (ply > seldepth_) seldepth_ = ply;
    if constexpr (has_repetitions<G>) {
      if (repetition_draws_ && game.repetitions() > 0) return 0;
    }
    if constexpr (has_drawn_by_rule<G>) {
      if (game.drawn_by_rule()) return 0;
    } else {
      const Outcome outcome = game.outcome();
      if (outcome.is_terminal()) return terminal_score(outcome, game.side_to_move(), ply);
    }
    if (ply >= kMaxPly - 1) return eval_(game);
    if constexpr (has_in_check<G>) {
      if (lmr_ || check_extension_ || futility_ > 0 || has_drawn_by_rule<G>)
        in_check = game.in_check();
    }
    if (in_check && check_extension_) ++depth;
    if (depth <= 0) return leaf(game, alpha, beta, ply);
    if (clock_->out_of_budget(nodes_)) return 0;  // discarded by the caller
    return std::nullopt;
  }

  // Steps 3 and 4 of negamax, before any move is searched. Reverse futility: in a null-window
  // node near the leaves, a static evaluation that beats beta by a margin per ply left is
  // taken as a cut-off. Null move: if the opponent, moving twice, cannot bring the score below
  // beta in a shallower search, the position is good enough to cut without searching its
  // moves. The cut-off's score, or nullopt; `static_eval` and `improving` as far as known.
  std::optional<int> cut_before_moves(G& game, int depth, int beta, int ply, bool prune,
                                      bool null_allowed, std::optional<int>& static_eval,
                                      bool& improving) {
    if (prune && depth <= kReverseFutilityMaxDepth) {
      static_eval = eval_(game);
      if (options_.improving) improving = is_improving(ply, *static_eval);
      const int rfp_depth = options_.improving && improving ? depth - 1 : depth;
      if (*static_eval - futility_ * rfp_depth >= beta) return *static_eval;
    }
    if (options_.improving)
      static_evals_[static_cast<std::size_t>(ply)] = static_eval ? *static_eval : kNoStaticEval;
    if constexpr (HasNullMove<G>) {
      if (null_move_ && null_allowed && depth >= kNullMoveMinDepth && !is_win_score(beta) &&
          game.null_move_allowed()) {
        if (!static_eval) static_eval = eval_(game);
        if (*static_eval >= beta) return null_move_cutoff(game, depth, beta, ply, *static_eval);
      }
    }
    return std::nullopt;
  }

  // What negamax's move loop may prune near the leaves: with `futile`, every quiet move (only
  // moves that can change the material or give check are searched); late quiet moves
  // (late-move pruning); and captures that lose more than a margin per ply by static
  // exchange.
  struct MovePruning {
    bool prune = false, futile = false, prune_exchanges = false;
    int late_moves = 0;
  };

  // Whether move `m`, the `number`th tried, is pruned unsearched; a futile one raises `best` to
  // the futility bound.
  bool pruned(const G& game, const Move& m, const MovePruning& p, int depth, int number,
              int static_eval, int& best) const {
    if (!p.prune || number == 0 || best == -kScoreInfinite) return false;
    if ((p.futile || (depth <= kLateMovePruningMaxDepth && number >= p.late_moves)) &&
        is_quiet(game, m)) {
      if (p.futile) best = std::max(best, static_eval + futility_ * depth);
      return true;
    }
    return p.prune_exchanges && !is_quiet(game, m) &&
           exchange_(game, m) < -futility_ * depth;
  }

  // Near the leaves (with `p.prune`): futility when even a margin per ply over the static
  // evaluation stays at or below alpha, how many quiet moves are tried before late-move
  // pruning, and whether losing captures are pruned.
  void limit_pruning(MovePruning& p, int depth, int alpha, const std::optional<int>& static_eval,
                     bool improving) const {
    p.futile = p.prune && depth <= kFutilityMaxDepth && *static_eval + futility_ * depth <= alpha;
    p.late_moves = (kLateMovePruningBase + depth * depth) / (improving ? 1 : 2);
    p.prune_exchanges =
        p.prune && exchange_ && options_.exchange_pruning && depth <= kExchangePruningMaxDepth;
  }

  // Move `m` scored `score` above alpha: alpha and the principal variation take it; true when
  // it refutes the opponent's last move (at least beta), after the move ordering learns so.
  bool raise_alpha(const G& game, const Move& m, int score, int& alpha, int beta, int ply,
                   int depth, const Move* quiets_tried, int quiets_count) {
    alpha = score;
    pv_->update(ply, m);
    if (alpha < beta) return false;
    if (options_.ordering) {
      set_previous(ply);
      ordering_->on_cutoff(game, m, ply, depth, quiets_tried, quiets_count);
    }
    return true;
  }

  // `null_allowed` is false right after a null move (no two passes in a row).
  int negamax(G& game, int depth, int alpha, int beta, int ply, bool null_allowed = true) {
    // Step 1. Terminal positions, leaves and the budget (end_of_node).
    bool in_check = false;
    if (const auto end = end_of_node(game, depth, alpha, beta, ply, in_check)) return *end;

    // Step 2. The transposition table: a cut-off, or at least a move to try first.
    const int alpha_orig = alpha;
    std::optional<Move> hash_move;
    if (const auto cut = probe_tt(game, depth, alpha, beta, ply, hash_move)) return *cut;
    if (options_.iir && !hash_move && depth >= kIirMinDepth) --depth;

    // Steps 3 and 4. Reverse futility and the null move (cut_before_moves).
    const bool pv_node = beta - alpha > 1;
    MovePruning pruning;
    pruning.prune = futility_ > 0 && !pv_node && !in_check && !is_win_score(alpha) &&
                    !is_win_score(beta);
    std::optional<int> static_eval;
    bool improving = true;  // when unknown, prune as without the option
    if (const auto cut = cut_before_moves(game, depth, beta, ply, pruning.prune, null_allowed,
                                          static_eval, improving))
      return *cut;

    // Step 5. The moves, best-looking first.
    typename G::MoveList list;
    game.generate_moves(list);
    if (list.empty()) return without_moves(game, in_check, ply);
    // With ordering, the moves are scored here and picked best-first as the loop goes.
    int scores[G::MoveList::kCapacity];
    if (options_.ordering) {
      set_previous(ply);
      score_moves(game, list, scores, ply, hash_move ? &*hash_move : nullptr);
    }
    Move quiets_tried[kMaxQuietsTried];
    int quiets_count = 0;
    limit_pruning(pruning, depth, alpha, static_eval, improving);

    // Step 6. Search them; a move at least as good as beta refutes the opponent's last move.
    // After the first move, PVS tries a null window (is it better than alpha?) and LMR a
    // shallower search for late quiet moves; either is searched again in full when it says
    // the move is better than alpha.
    int best = -kScoreInfinite;
    const Move* best_move = nullptr;
    int number = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (options_.ordering) next_in_order(list, scores, i);
      const Move& m = list[i];
      if (pruned(game, m, pruning, depth, number, static_eval.value_or(0), best)) {
        ++number;
        continue;
      }
      const int reduction =
          lmr_ && number > 0
              ? reduction_of(game, m, depth, number, ply, in_check, pv_node,
                             options_.ordering ? scores[i] : 0)
              : 0;
      game.make_move(m);
      ++nodes_;
      if (options_.transposition && depth > 1) tt_.prefetch(game.hash());
      played_[static_cast<std::size_t>(ply)] = m;
      const int score = number == 0 ? -negamax(game, depth - 1, -beta, -alpha, ply + 1)
                                     : search_later_move(game, depth, alpha, beta, ply, reduction);
      game.unmake_move(m);
      ++number;
      if (clock_->stopped()) return 0;
      if (score > best) {
        best = score;
        best_move = &m;
        if (score > alpha && raise_alpha(game, m, score, alpha, beta, ply, depth, quiets_tried,
                                         quiets_count))
          break;
      }
      if (options_.history_malus && quiets_count < kMaxQuietsTried && is_quiet_for_history(game, m))
        quiets_tried[quiets_count++] = m;
    }

    // Step 7. Remember the result with the kind of bound it is.
    return remember(game, depth, best, alpha_orig, beta, best_move, ply);
  }

  // A node without legal moves: mate or stalemate where the rules say so, else the evaluation.
  int without_moves(const G& game, bool in_check, int ply) {
    if constexpr (has_drawn_by_rule<G>) return in_check ? loss_in(ply) : 0;
    return eval_(game);
  }

  // Stores `best` in the transposition table as a lower bound (it reached beta), an exact score
  // (it raised alpha) or an upper bound; returns it.
  int remember(const G& game, int depth, int best, int alpha_orig, int beta, const Move* best_move,
               int ply) {
    const Bound bound = best >= beta        ? Bound::kLower
                        : best > alpha_orig ? Bound::kExact
                                            : Bound::kUpper;
    tt_store(game, depth, best, bound, best_move, ply);
    return best;
  }

  // A move that neither captures, promotes (capture_score 0) nor gives check, where the game
  // can tell; without capture_score no move is quiet (nothing is pruned).
  bool is_quiet(const G& game, const Move& m) const {
    if constexpr (HasCaptureScore<G>) {
      if (game.capture_score(m) > 0) return false;
      if constexpr (has_gives_check<G>) {
        if (game.gives_check(m)) return false;
      }
      return true;
    } else {
      return false;
    }
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
    if constexpr (has_drawn_by_rule<G>) {
      if (game.drawn_by_rule()) return 0;
    } else {
      const Outcome outcome = game.outcome();
      if (outcome.is_terminal()) return terminal_score(outcome, game.side_to_move(), ply);
    }
    if (ply >= kMaxPly - 1 || clock_->out_of_budget(nodes_)) return eval_(game);
    std::optional<Move> hash_move;
    if (options_.quiescence_tt) {
      if (const auto cut = probe_tt(game, 0, alpha, beta, ply, hash_move)) return *cut;
    }
    bool in_check = false;
    if constexpr (has_in_check<G>) in_check = game.in_check();
    typename G::MoveList list;
    int best = -kScoreInfinite;
    if (in_check) {
      game.generate_moves(list);
      if constexpr (has_drawn_by_rule<G>) {
        if (list.empty()) return loss_in(ply);  // checkmate
      }
    } else {
      best = eval_(game);  // stand pat: the side to move need not capture
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
      game.generate_noisy_moves(list);
      if (exchange_) {
        // Captures that lose material, or that cannot bring the score to alpha even with
        // a margin (delta pruning), are not searched.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < list.size(); ++i) {
          const int gain = exchange_(game, list[i]);
          if (gain < 0) continue;
          if (futility_ > 0 && !is_win_score(alpha) && best + gain + 2 * futility_ <= alpha)
            continue;
          list[kept++] = list[i];
        }
        list.resize(kept);
      }
    }
    int scores[G::MoveList::kCapacity];
    if (options_.ordering) ordering_->set_previous(nullptr);
    if (options_.ordering)
      score_moves(game, list, scores, ply, hash_move ? &*hash_move : nullptr,
                  /*exchange_last=*/in_check);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (options_.ordering) next_in_order(list, scores, i);
      const Move& m = list[i];
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

  // LMR: how many plies less the `number`-th move (0-based) is searched. Never in check,
  // never for the first moves, captures, promotions, checks or killers.
  // `ordering_score` is the move's score from score_moves: a quiet move's history.
  int reduction_of(const G& game, const Move& m, int depth, int number, int ply,
                   bool in_check, bool pv_node, int ordering_score) const {
    if (depth < kLmrMinDepth || number < kLmrFirstMove || in_check) return 0;
    if constexpr (HasCaptureScore<G>) {
      if (game.capture_score(m) > 0) return 0;
    }
    if constexpr (has_gives_check<G>) {
      if (game.gives_check(m)) return 0;
    }
    if (ordering_->is_killer(m, ply)) return 0;
    int r = late_move_reduction(depth, number) - (options_.lmr_pv && pv_node ? 1 : 0);
    if (options_.lmr_history) r += ordering_score > 0 ? -1 : ordering_score < 0 ? 1 : 0;
    return std::clamp(r, options_.lmr_pv ? 0 : 1, depth - 2);
  }

  // Whether the static evaluation at `ply` is above the one two plies before (the same side
  // to move); true when that one is unknown (in check, a PV node, the root's children).
  bool is_improving(int ply, int static_eval) const {
    if (ply < 2) return true;  // the root's entry is never set: unknown
    const int before = static_evals_[static_cast<std::size_t>(ply - 2)];
    return before == kNoStaticEval || static_eval > before;
  }

  // The countermove heuristic's key: the move that led to `ply` (none at the root's children's
  // parent or after a null move).
  void set_previous(int ply) {
    const std::optional<Move>* previous =
        ply >= 1 ? &played_[static_cast<std::size_t>(ply - 1)] : nullptr;
    ordering_->set_previous(previous && *previous ? &**previous : nullptr);
  }

  // A move that history scores (neither a capture nor a promotion).
  bool is_quiet_for_history(const G& game, const Move& m) const {
    if constexpr (HasCaptureScore<G>) return game.capture_score(m) == 0;
    return true;
  }

  const Move* probe_move(const G& game, int ply) {
    if (!options_.transposition) return nullptr;
    const TtEntry<Move>* e = tt_.probe(game.hash(), ply);
    return e != nullptr && e->has_move ? &e->move : nullptr;
  }

  void tt_store(const G& game, int depth, int score, Bound bound, const Move* move, int ply) {
    if (options_.transposition) tt_.store(game.hash(), depth, score, bound, move, ply);
  }

  // With an exchange evaluator, captures that lose material go after the quiet moves.
  void order(const G& game, typename G::MoveList& list, int ply, const Move* hash_move,
             bool exchange_last = true) {
    int scores[G::MoveList::kCapacity];
    score_moves(game, list, scores, ply, hash_move, exchange_last);
    sort_by_scores(list, scores);
  }

  void score_moves(const G& game, const typename G::MoveList& list, int* scores, int ply,
                   const Move* hash_move, bool exchange_last = true) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      int& score = scores[i];
      score = ordering_->score(game, list[i], ply, hash_move);
      if (exchange_last && exchange_ && score >= MoveOrdering<Move>::kCaptureBase &&
          score < MoveOrdering<Move>::kHashMoveScore && exchange_(game, list[i]) < 0)
        score -= 2 * MoveOrdering<Move>::kCaptureBase;  // below every quiet move's history
    }
  }

  Eval eval_;
  ExchangeEval<G> exchange_;
  AlphaBetaOptions options_;
  TranspositionTable<Move> tt_;
  std::unique_ptr<MoveOrdering<Move>> ordering_;
  std::unique_ptr<PvTable<Move>> pv_;
  bool aspiration_;  // the options' switches, each with what it needs
  bool pvs_;
  bool null_move_;
  bool lmr_;
  bool check_extension_;
  bool repetition_draws_;
  int futility_;  // the margin per ply; 0 = no futility pruning
  SearchClock* clock_ = nullptr;
  std::uint64_t nodes_ = 0;
  int seldepth_ = 0;
  std::array<std::uint64_t, kMaxPly> nodes_at_depth_{};
  // The move made at each ply, none after a null move (for countermoves).
  std::array<std::optional<Move>, kMaxPly> played_{};
  // The static evaluation at each ply where it was computed, else kNoStaticEval (improving).
  std::array<int, kMaxPly> static_evals_{};
};

}  // namespace arena::search
