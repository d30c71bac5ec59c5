#pragma once
// ClientEvents: what the transport (server/net) tells the hub of its clients, without the hub's
// header. Hub implements it; a WebSocketSession holds it.
//
// Threading: each call is made on the calling connection's strand (any I/O thread).

#include <memory>
#include <string_view>

#include "server/core/connection.h"

namespace arena::server {

class ClientEvents {
 public:
  virtual ~ClientEvents() = default;
  // The upgrade is accepted: `c` may be sent to from now on.
  virtual void on_open(const std::shared_ptr<Connection>& c) = 0;
  // One text frame: a client message, decoded and routed by the hub.
  virtual void on_message(const std::shared_ptr<Connection>& c, std::string_view text) = 0;
  // A binary frame: refused with an error that says the protocol is text.
  virtual void on_binary_message(const std::shared_ptr<Connection>& c) = 0;
  // The connection ended (either side closed it, or it failed).
  virtual void on_close(const std::shared_ptr<Connection>& c) = 0;
};

}  // namespace arena::server
