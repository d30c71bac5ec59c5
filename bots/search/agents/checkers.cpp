// The agents of checkers, compiled once here (bots/search/agent_factory.h declares them extern).

#include "bots/search/agent_factory.h"

namespace arena::search {

template Expected<std::unique_ptr<Agent<checkers::Checkers>>> make_agent_from_spec<checkers::Checkers>(
    const SearchSpec& spec);

}  // namespace arena::search
