#include "bots/client/roster.h"

namespace arena::client {
namespace {

// Isolation: the AI-course tournament (7x7, knight moves). MM at depth 3, AB at depth 5,
// the ID agents with the course's 150 ms per move unless the clock allows less.
std::vector<Preset> isolation_presets() {
  return {
      {"Random", "isolation", "random", "Isolation: a uniformly random legal move"},
      {"MM_Open", "isolation", "minimax:eval=open_move_score,depth=3",
       "Isolation: minimax to depth 3, own mobility (open_move_score)"},
      {"MM_Center", "isolation", "minimax:eval=center_score,depth=3",
       "Isolation: minimax to depth 3, distance from the centre (center_score)"},
      {"MM_Improved", "isolation", "minimax:eval=improved_score,depth=3",
       "Isolation: minimax to depth 3, own minus opponent's moves (improved_score)"},
      {"AB_Open", "isolation", "alphabeta:eval=open_move_score,depth=5",
       "Isolation: alpha-beta to depth 5, open_move_score"},
      {"AB_Center", "isolation", "alphabeta:eval=center_score,depth=5",
       "Isolation: alpha-beta to depth 5, center_score"},
      {"AB_Improved", "isolation", "alphabeta:eval=improved_score,depth=5",
       "Isolation: alpha-beta to depth 5, improved_score"},
      {"AB_Improved_ID", "isolation", "id:eval=improved_score,movetime=150",
       "Isolation: iterative-deepening alpha-beta (150 ms), improved_score"},
      {"AB_Custom", "isolation", "id:eval=custom_score,movetime=150",
       "Isolation: iterative deepening (150 ms), custom_score (directional weights)"},
      {"AB_Custom_2", "isolation", "id:eval=custom_score_2,movetime=150",
       "Isolation: iterative deepening (150 ms), custom_score_2"},
      {"AB_Custom_3", "isolation", "id:eval=custom_score_3,movetime=150",
       "Isolation: iterative deepening (150 ms), custom_score_3"},
  };
}

// Tic-tac-toe: the tutorial's one-ply players, and a full-depth search.
std::vector<Preset> tictactoe_presets() {
  return {
      {"bad_heuristic", "tictactoe", "greedy:eval=bad_heuristic",
       "Tic-tac-toe: one ply, a heuristic that knows nothing (always 1)"},
      {"available_wins", "tictactoe", "greedy:eval=available_wins",
       "Tic-tac-toe: one ply, lines still open to the mover"},
      {"combined", "tictactoe", "greedy:eval=combined",
       "Tic-tac-toe: one ply, available_wins plus 2 x block_win"},
      {"fuzzy_goal", "tictactoe", "greedy:eval=fuzzy_goal",
       "Tic-tac-toe: one ply, Fluxplayer-style fuzzy goal value"},
      {"perfect", "tictactoe", "alphabeta:eval=bad_heuristic,depth=9",
       "Tic-tac-toe: alpha-beta to the end of the game (never loses)"},
  };
}

// Qubic.
std::vector<Preset> qubic_presets() {
  return {
      {"qubic_random", "qubic", "random", "Qubic: a random legal move"},
      {"qubic_greedy", "qubic", "greedy:eval=linear", "Qubic: one ply, six-feature linear eval"},
      {"qubic_ab_linear", "qubic", "id:eval=linear,movetime=500",
       "Qubic: iterative-deepening alpha-beta (500 ms), linear eval"},
  };
}

// Othello.
std::vector<Preset> othello_presets() {
  return {
      {"othello_random", "othello", "random", "Othello: a random legal move"},
      {"othello_greedy", "othello", "greedy:eval=material", "Othello: one ply, most discs"},
      {"othello_ab_material", "othello", "alphabeta:eval=material,depth=4",
       "Othello: alpha-beta to depth 4, disc count"},
      {"othello_ab_weighted", "othello", "id:eval=weighted_squares,movetime=500",
       "Othello: iterative deepening (500 ms), Norvig's weighted squares"},
      {"othello_ab_mobility", "othello", "id:eval=mobility,movetime=500",
       "Othello: iterative deepening (500 ms), mobility"},
      {"othello_ab_combined", "othello", "id:eval=combined,movetime=500",
       "Othello: iterative deepening (500 ms), combined (squares, mobility, corners)"},
  };
}

// Checkers.
std::vector<Preset> checkers_presets() {
  return {
      {"checkers_random", "checkers", "random", "Checkers: a random legal move"},
      {"checkers_greedy", "checkers", "greedy:eval=material", "Checkers: one ply, material"},
      {"checkers_ab_material", "checkers", "alphabeta:eval=material,depth=6",
       "Checkers: alpha-beta to depth 6, material"},
      {"checkers_ab_combined", "checkers", "id:eval=combined,movetime=500",
       "Checkers: iterative deepening (500 ms), material + advancement + back rank"},
  };
}

// Chess.
std::vector<Preset> chess_presets() {
  return {
      {"chess_random", "chess", "random", "Chess: a random legal move"},
      {"chess_greedy", "chess", "greedy:eval=material", "Chess: one ply, material"},
      {"chess_ab_material", "chess", "alphabeta:eval=material,depth=3",
       "Chess: alpha-beta to depth 3, material"},
      {"chess_ab_positional", "chess", "id:eval=piece_square,movetime=500",
       "Chess: iterative deepening (500 ms), material + piece-square tables"},
      {"chess_ab_mobility", "chess", "id:eval=combined,movetime=500",
       "Chess: iterative deepening (500 ms), piece-square + mobility"},
      {"chess_ab_quiescence", "chess", "id:eval=piece_square,qsearch,movetime=500",
       "Chess: iterative deepening (500 ms) with quiescence, piece-square"},
      {"chess_bestfirst_tactical", "chess", "bestfirst:eval=material,movetime=500",
       "Chess: Harris's best-first search with the tactical search heuristic, material"},
      {"chess_strong", "chess",
       "id:eval=tapered,qsearch,futility=100,hash=20,countermove=1,malus=1,nullr=1,qtt=1,"
       "movetime=500",
       "Chess: Arena's strongest: iterative deepening (500 ms) with quiescence, check "
       "extension, static exchange and futility pruning (100 cp a ply), countermoves, history "
       "malus, adaptive null move, table in quiescence, 2^20 table entries, tapered evaluation "
       "(king safety, pawn structure, mobility, pieces attacked by pawns), its weights fitted to "
       "Stockfish's scores of 178,079 positions (arena tune)"},
  };
}

// Puzzles: solvers that take puzzle sessions.
std::vector<Preset> puzzle_presets() {
  return {
      {"sliding_ida_manhattan", "sliding", "idastar:h=manhattan",
       "Sliding tiles (8/15/24): IDA* with Manhattan distance, optimal"},
      {"sliding_ida_pdb", "sliding", "idastar:h=pdb",
       "15-puzzle: IDA* with the 6-6-3 additive pattern databases (others: Manhattan)"},
      {"rubik_ida_manhattan", "rubik", "idastar:h=manhattan",
       "Rubik's cube: IDA* with the admissible 3-D Manhattan distance (short scrambles)"},
  };
}

// GDL: players of any rule sheet (bots/gdl/gdl_player.h). Their game "gdl" means every
// gdl:NAME game: the bot takes challenges and seeks of any sheet (seeking needs --game).
std::vector<Preset> gdl_presets() {
  return {
      {"GDL_Random", "gdl", "random", "GDL: a random legal move, any gdl:NAME game"},
      {"GDL_UCT", "gdl", "uct",
       "GDL: decoupled UCT, random playouts to the end (any roles, simultaneous moves)"},
      {"GDL_Fuzzy", "gdl", "fuzzy",
       "GDL: UCT whose new leaves are scored by the fuzzy goal heuristic of the game's rules"},
      {"GDL_MCTS_PB", "gdl", "mcts-pb",
       "GDL: UCT with the fuzzy goal heuristic as progressive bias, random playouts to the end"},
      {"GDL_MCTS_Cutoff", "gdl", "mcts-cutoff",
       "GDL: UCT whose playouts stop after a few random turns and score the fuzzy goal "
       "heuristic"},
      {"GDL_Fuzzy_AB", "gdl", "fuzzy-ab",
       "GDL: iterative deepening alpha-beta with the fuzzy goal heuristic at the leaves (two "
       "roles taking turns; otherwise UCT)"},
  };
}

// Every preset, in the order `arena bot --list` shows them.
std::vector<Preset> make_presets() {
  std::vector<Preset> all;
  for (auto group : {isolation_presets, tictactoe_presets, qubic_presets, othello_presets,
                     checkers_presets, chess_presets, puzzle_presets, gdl_presets}) {
    auto some = group();
    all.insert(all.end(), some.begin(), some.end());
  }
  return all;
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = make_presets();
  return all;
}

const Preset* find_preset(std::string_view name) {
  for (const Preset& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<HouseBotChoice> house_bot_roster() {
  constexpr std::int64_t kWeakerTakesAfterMs = 1500, kStrongerTakesAfterMs = 3000;
  return {
      // A person's open seek of a hand-written game is taken by its easy bot after 1.5 s (by
      // its strong one after 3 s, when the easy one has its most games at once).
      {"house_tictactoe_easy", "available_wins", 0, kWeakerTakesAfterMs},
      {"house_tictactoe_perfect", "perfect", 0, kStrongerTakesAfterMs},
      {"house_qubic_easy", "qubic_greedy", 0, kWeakerTakesAfterMs},
      {"house_qubic_strong", "qubic_ab_linear", 0, kStrongerTakesAfterMs},
      {"house_isolation_easy", "MM_Improved", 0, kWeakerTakesAfterMs},
      {"house_isolation_strong", "AB_Custom_2", 0, kStrongerTakesAfterMs},
      {"house_othello_easy", "othello_greedy", 0, kWeakerTakesAfterMs},
      {"house_othello_strong", "othello_ab_combined", 0, kStrongerTakesAfterMs},
      {"house_checkers_easy", "checkers_greedy", 0, kWeakerTakesAfterMs},
      {"house_checkers_strong", "checkers_ab_combined", 0, kStrongerTakesAfterMs},
      {"house_chess_easy", "chess_greedy", 0, kWeakerTakesAfterMs},
      {"house_chess_strong", "chess_strong", 0, kStrongerTakesAfterMs},
      // GDL sheets are too many to keep a seek open for each: this one takes every open offer
      // and challenge of a gdl:NAME game instead (start_house_bots), so a person who starts
      // any sheet in the page has an opponent. The other two join only offers of games of three
      // seats or more, so that a sheet of up to four roles fills with house bots too
      // (house_bot_accounts adds more for larger sheets).
      {"house_gdl_uct", "GDL_UCT"},
      {"house_gdl_fuzzy", "GDL_Fuzzy", 3},
      {"house_gdl_random", "GDL_Random", 3},
  };
}

}  // namespace arena::client
