#!/bin/sh
# Container entrypoint: `arena ARGS...`, except that a bot's token is read from a secret file
# (ARENA_TOKEN_FILE, e.g. /run/secrets/bot_token) rather than passed on the command line, where
# it would show in `docker inspect` and ps.
#   arena-entrypoint bot --server ws://server:8080 --preset AB_Custom
set -eu
arena=${ARENA_BIN:-arena}
if [ "${1:-}" = bot ] && [ -n "${ARENA_TOKEN_FILE:-}" ]; then
  if [ ! -r "$ARENA_TOKEN_FILE" ]; then
    echo "arena-entrypoint: cannot read the token file $ARENA_TOKEN_FILE" >&2
    exit 1
  fi
  token=$(cat "$ARENA_TOKEN_FILE")
  shift
  exec "$arena" bot --token "$token" "$@"
fi
exec "$arena" "$@"
