// The agents of chess, compiled once here (bots/search/agent_factory.h declares them extern).

#include "bots/search/agent_factory.h"

namespace arena::search {

template Expected<std::unique_ptr<Agent<chess::Chess>>> make_agent_from_spec<chess::Chess>(
    const SearchSpec& spec);

}  // namespace arena::search
