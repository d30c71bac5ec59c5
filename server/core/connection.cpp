#include "server/core/connection.h"

namespace arena::server {

Reply reply_to(const std::shared_ptr<Connection>& c) {
  return [weak = std::weak_ptr<Connection>(c)](Text t) {
    if (auto conn = weak.lock()) conn->send(std::move(t));
  };
}

void send_error(const std::shared_ptr<Connection>& c, protocol::ErrorCode code,
                const std::string& message, std::string_view ref) {
  c->send(std::make_shared<const std::string>(protocol::encode_error(code, message, ref)));
}

}  // namespace arena::server
