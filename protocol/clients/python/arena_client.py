#!/usr/bin/env python3
"""A minimal Arena bot in Python: log in, take (or offer) a game, play random legal moves.

The server sends the legal moves with every state, so a bot needs no rules code: replace
choose_move() with your own search and you have a real bot. Speaks protocol version 3: it
also plays games of three to six seats and simultaneous turns (GDL games, gdl:NAME), and its
moves are acknowledged by the state that carries their client_id (no move_ack).

    python3 arena_client.py --server ws://127.0.0.1:8080/ws --name pybot --game tictactoe
    python3 arena_client.py --server ws://HOST:PORT/ws --token TOKEN --seek --games 3

Needs the `websockets` package (Debian: python3-websockets). Protocol: protocol/README.md.
Exit status 0 when the games asked for have ended, 1 on a connection or protocol problem.
"""

import argparse
import asyncio
import json
import random
import sys

import websockets


def my_moves(state, seat):
    """The legal moves of `seat` in `state`, or [] when it does not move now (protocol 2:
    `movers` lists every seat to move; simultaneous games have `legal_moves_by_seat`)."""
    if state["result"] is not None or seat not in state.get("movers", [state["to_move"]]):
        return []
    by_seat = state.get("legal_moves_by_seat")
    if by_seat is not None:
        return by_seat[seat]
    return state["legal_moves"] if state["to_move"] == seat else []


def choose_move(state, moves):
    """Your bot goes here: state["position"] and your legal `moves` are all you need."""
    return random.choice(moves)


async def play(args):
    headers = {"Authorization": "Bearer " + args.token} if args.token else {}
    # websockets 14 renamed extra_headers to additional_headers.
    major = int(websockets.__version__.split(".")[0])
    header_arg = "additional_headers" if major >= 14 else "extra_headers"
    async with websockets.connect(args.server, **{header_arg: headers}) as ws:
        async def send(message):
            await ws.send(json.dumps(message))

        hello = {"type": "hello", "version": 3, "name": args.name}
        if args.search:  # recorded as this bot's version, so its games can be told apart
            hello["engine"] = {"search": args.search, "heuristic": args.heuristic}
        await send(hello)
        me, seats, finished, accepted = None, {}, 0, set()
        unacked = {}  # game id -> the client_id of our move not yet acknowledged
        async for frame in ws:
            msg = json.loads(frame)
            kind = msg.get("type")
            if kind == "welcome":
                me = msg["player"]["id"]
                print("logged in as", msg["player"]["name"])
                if args.seek:
                    await send({"type": "seek", "game": args.game or "tictactoe",
                                "options": args.options, "time_control": args.time_control})
            elif kind == "lobby" and not args.seek and not seats:
                # Take the first open seek of the game we want (or of any game).
                for seek in msg["seeks"]:
                    wanted = args.game in (None, seek["game"])
                    if seek["by"]["id"] != me and wanted and seek["seek_id"] not in accepted:
                        accepted.add(seek["seek_id"])
                        await send({"type": "accept", "seek_id": seek["seek_id"]})
                        break
            elif kind == "challenge_offer":
                await send({"type": "accept", "challenge_id": msg["challenge_id"]})
            elif kind == "game_start":
                ids = [p["id"] for p in msg["players"]]
                if me in ids:
                    seats[msg["game_id"]] = ids.index(me)
                    print("game", msg["game_id"], msg["game"], "as player", ids.index(me))
            elif kind == "state":
                game = msg["game_id"]
                # v3: the state that carries our client_id acknowledges our move (durable).
                if msg.get("client_id") is not None and unacked.get(game) == msg["client_id"]:
                    del unacked[game]
                moves = my_moves(msg, seats[game]) if game in seats else []
                if moves:
                    move = choose_move(msg, moves)
                    unacked[game] = "%d-%d" % (game, msg["version"])
                    await send({"type": "move", "game_id": game, "move": move,
                                "client_id": unacked[game],
                                "info": {"depth": 0, "nodes": len(moves),
                                         "pv": [move], "time_ms": 0}})
            elif kind == "move_ack":
                # Still the answer to a resent move that was already recorded.
                if unacked.get(msg["game_id"]) == msg["client_id"]:
                    del unacked[msg["game_id"]]
            elif kind == "game_end" and msg["game_id"] in seats:
                seat = seats.pop(msg["game_id"])
                print("game", msg["game_id"], "ended", msg["result"], msg["reason"],
                      "(we were player %d)" % seat, "scores", msg.get("scores"))
                if msg.get("note"):  # why the rules ended it there (a GDL sheet's bug)
                    print("  note:", msg["note"])
                finished += 1
                if finished >= args.games:
                    return 0
                if args.seek:
                    await send({"type": "seek", "game": args.game or "tictactoe",
                                "options": args.options, "time_control": args.time_control})
            elif kind == "error":
                print("server said:", msg["code"], msg["message"], file=sys.stderr)
    print("the server closed the connection", file=sys.stderr)
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="ws://127.0.0.1:8080/ws")
    parser.add_argument("--token", help="bot token (arena token create NAME); else a guest")
    parser.add_argument("--name", default="pybot", help="guest display name")
    parser.add_argument("--game", help="catalog name; default: any seek (tictactoe to seek)")
    parser.add_argument("--options", default="", help="game options of a seek")
    parser.add_argument("--time-control", default="none")
    parser.add_argument("--seek", action="store_true", help="offer games instead of taking them")
    parser.add_argument("--games", type=int, default=1, help="games to play before exiting")
    parser.add_argument("--timeout", type=float, default=0, help="give up after this many s")
    parser.add_argument("--search", default="", help="name your search in the hello (engine)")
    parser.add_argument("--heuristic", default="", help="and the heuristic that guides it")
    args = parser.parse_args()
    try:
        coro = play(args)
        return asyncio.run(asyncio.wait_for(coro, args.timeout) if args.timeout else coro)
    except (OSError, websockets.exceptions.WebSocketException, asyncio.TimeoutError) as e:
        print("arena_client.py:", type(e).__name__, e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
