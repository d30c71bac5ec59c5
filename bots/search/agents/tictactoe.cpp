// The agents of tic-tac-toe, compiled once here (bots/search/agent_factory.h declares them extern).

#include "bots/search/agent_factory.h"

namespace arena::search {

template Expected<std::unique_ptr<Agent<tictactoe::TicTacToe>>> make_agent_from_spec<tictactoe::TicTacToe>(
    const SearchSpec& spec);

}  // namespace arena::search
