// The agents of Isolation, compiled once here (bots/search/agent_factory.h declares them extern).

#include "bots/search/agent_factory.h"

namespace arena::search {

template Expected<std::unique_ptr<Agent<isolation::Isolation>>> make_agent_from_spec<isolation::Isolation>(
    const SearchSpec& spec);

}  // namespace arena::search
