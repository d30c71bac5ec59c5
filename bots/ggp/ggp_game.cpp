#include "bots/ggp/ggp_game.h"

#include <algorithm>
#include <cctype>

#include "games/gdl/propnet/compiled.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/prover/prover.h"

namespace arena::ggp {

using gdl::lower;

Expected<std::unique_ptr<GgpGame>> GgpGame::create(std::string_view rules, std::string source,
                                                   std::chrono::milliseconds compile_budget) {
  auto description = gdl::read_description(rules, source);
  if (!description) return make_error(description.error());
  auto shared = std::make_shared<const gdl::Description>(std::move(*description));
  std::unique_ptr<GgpGame> game(new GgpGame());
  gdl::GroundLimits limits;
  limits.max_seconds =
      std::min(limits.max_seconds, std::chrono::duration<double>(compile_budget).count());
  if (limits.max_seconds > 0) {
    auto compiled = gdl::make_compiled(shared, nullptr, limits);
    if (compiled)
      game->machine_ = std::move(*compiled);
    else
      game->fallback_reason_ = compiled.error();
  } else {
    game->fallback_reason_ = "no time to compile";
  }
  if (!game->machine_) game->machine_ = gdl::make_prover(shared);
  if (game->machine_->roles().empty()) return make_error(source + ": the game has no role");
  game->state_ = game->machine_->initial_state();
  return game;
}

std::vector<std::string> GgpGame::role_names() const {
  std::vector<std::string> out;
  const auto& symbols = machine_->description().symbols;
  for (gdl::TermId role : machine_->roles()) out.push_back(machine_->pool().to_kif(role, symbols));
  return out;
}

int GgpGame::role_index(std::string_view name) const {
  const std::string wanted = lower(name);
  const auto names = role_names();
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == wanted) return static_cast<int>(k);
  return -1;
}

Expected<gdl::TermId> GgpGame::to_term(const SExpr& e) {
  const auto& symbols = machine_->description().symbols;
  gdl::Symbol name = 0;
  if (!e.is_list) {
    if (e.atom.starts_with('?')) return make_error("the move holds a variable, " + e.atom);
    if (!symbols.find(e.atom, name)) return make_error("'" + e.atom + "' is not in the rules");
    return machine_->pool().constant(name);
  }
  if (e.items.empty()) return make_error("the move is an empty list");
  if (e.items[0].is_list) return make_error("a move's functor must be a name");
  if (!symbols.find(e.items[0].atom, name))
    return make_error("'" + e.items[0].atom + "' is not in the rules");
  std::vector<gdl::TermId> args;
  for (std::size_t k = 1; k < e.items.size(); ++k) {
    auto arg = to_term(e.items[k]);
    if (!arg) return arg;
    args.push_back(*arg);
  }
  return machine_->pool().make(name, args);  // (f) is the constant f, as ggp-base reads it
}

Expected<gdl::State> GgpGame::parse_state(std::string_view text) {
  auto fluents = parse_sexprs(text);
  if (!fluents) return make_error("position: " + fluents.error());
  gdl::State state;
  for (const SExpr& f : *fluents) {
    auto term = to_term(f);
    if (!term) return make_error("position: fluent " + to_text(f) + ": " + term.error());
    state.push_back(*term);
  }
  std::sort(state.begin(), state.end());
  state.erase(std::unique(state.begin(), state.end()), state.end());
  return state;
}

Expected<gdl::Move> GgpGame::legal_move(const SExpr& e, int role) {
  const auto names = role_names();
  if (role < 0 || role >= static_cast<int>(names.size()))
    return make_error("no role " + std::to_string(role));
  auto term = to_term(e);
  if (!term) return make_error("move " + to_text(e) + " of " + names[role] + ": " + term.error());
  const auto legal = machine_->legal_moves(state_, role);
  if (!std::binary_search(legal.begin(), legal.end(), *term))
    return make_error("move " + to_text(e) + " is not legal for " + names[role] + " now");
  return *term;
}

std::string GgpGame::move_text(gdl::Move move) const {
  return machine_->pool().to_kif(move, machine_->description().symbols);
}

std::string GgpGame::state_text() const {
  std::string out;
  for (gdl::TermId fluent : state_)
    out += (out.empty() ? "" : " ") + machine_->pool().to_kif(fluent, machine_->description().symbols);
  return out;
}

Expected<void> GgpGame::play(const std::vector<SExpr>& moves) {
  const std::size_t roles = machine_->roles().size();
  if (moves.size() != roles)
    return make_error(std::to_string(moves.size()) + " moves for " + std::to_string(roles) +
                      " roles");
  if (machine_->is_terminal(state_)) return make_error("the game is over; no more moves");
  gdl::JointMove joint;
  for (std::size_t r = 0; r < roles; ++r) {
    auto move = legal_move(moves[r], static_cast<int>(r));
    if (!move) return make_error(move.error());
    joint.push_back(*move);
  }
  play(joint);
  return {};
}

void GgpGame::play(const gdl::JointMove& moves) {
  state_ = machine_->next_state(state_, moves);
  ++steps_;
}

}  // namespace arena::ggp
