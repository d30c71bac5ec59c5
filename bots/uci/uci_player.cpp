#include "bots/uci/uci_player.h"

#include <algorithm>
#include <utility>

namespace arena::uci {
namespace {

// With no clock, a second per move.
constexpr std::int64_t kDefaultMoveMs = 1000;

class UciPlayer final : public client::Player {
 public:
  explicit UciPlayer(std::unique_ptr<UciEngine> engine) : engine_(std::move(engine)) {}

  Expected<client::TurnReply> choose_move(const client::TurnRequest& request) override {
    UciGo go;
    go.movetime_ms = request.budget_ms > 0 ? request.budget_ms : kDefaultMoveMs;
    auto r = engine_->best_move(request.position, {}, go);
    if (!r) return make_error(r.error());
    client::TurnReply reply;
    reply.move = r->best_move;
    if (std::find(request.legal_moves.begin(), request.legal_moves.end(), reply.move) ==
        request.legal_moves.end())
      return make_error("UCI engine '" + engine_->name() + "' chose '" + reply.move +
                        "', which is not legal here");
    reply.info.depth = r->depth;
    reply.info.nodes = r->nodes;
    reply.info.score = r->score;
    reply.info.pv = r->pv;
    reply.info.time_ms = r->time_ms;
    return reply;
  }

  void new_game() override { (void)engine_->new_game(); }  // a failure shows at the next go

 private:
  std::unique_ptr<UciEngine> engine_;
};

}  // namespace

client::PlayerFactory uci_player_factory(std::string engine_path, UciOptions options) {
  return [engine_path = std::move(engine_path), options = std::move(options)](
             std::string_view game) -> Expected<std::unique_ptr<client::Player>> {
    if (game != "chess")
      return make_error("a UCI engine plays chess, not '" + std::string(game) + "'");
    auto engine = UciEngine::start(engine_path, options);
    if (!engine) return make_error(engine.error());
    if (auto fresh = (*engine)->new_game(); !fresh) return make_error(fresh.error());
    return std::unique_ptr<client::Player>(std::make_unique<UciPlayer>(std::move(*engine)));
  };
}

}  // namespace arena::uci
