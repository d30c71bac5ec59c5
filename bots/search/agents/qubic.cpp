// The agents of qubic, compiled once here (bots/search/agent_factory.h declares them extern).

#include "bots/search/agent_factory.h"

namespace arena::search {

template Expected<std::unique_ptr<Agent<tictactoe::Qubic>>> make_agent_from_spec<tictactoe::Qubic>(
    const SearchSpec& spec);

}  // namespace arena::search
