// The agents of Othello, compiled once here (bots/search/agent_factory.h declares them extern).

#include "bots/search/agent_factory.h"

namespace arena::search {

template Expected<std::unique_ptr<Agent<othello::Othello>>> make_agent_from_spec<othello::Othello>(
    const SearchSpec& spec);

}  // namespace arena::search
