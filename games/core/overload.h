#pragma once
// Overload: several lambdas as one visitor for std::visit, one per alternative.
//   std::visit(Overload{[](const A&) {...}, [](const B&) {...}}, variant);

namespace arena {

template <class... Ts>
struct Overload : Ts... {
  using Ts::operator()...;
};
// Clang 14 (the fuzz build) does not deduce an aggregate's template arguments by itself.
template <class... Ts>
Overload(Ts...) -> Overload<Ts...>;

}  // namespace arena
