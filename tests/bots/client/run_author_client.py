#!/usr/bin/env python3
"""Runs one of the bot-author clients (protocol/clients/) against a real server.

Starts `arena serve` on a free loopback port with a throw-away store, an Arena bot
(`arena bot --preset ... --seek 1`) as the opponent, then the client, which must take the
seek, play the game to its end and exit 0. Everything is bounded in time.

    run_author_client.py ARENA_BINARY python|javascript SOURCE_DIR
Exit 0 pass, 1 fail, 77 skipped (node or its `ws` package is not installed).
"""

import os
import re
import subprocess
import sys
import time


def main():
    arena, kind, source = sys.argv[1], sys.argv[2], sys.argv[3]
    clients = os.path.join(source, "protocol", "clients")
    if kind == "python":
        command = [sys.executable, os.path.join(clients, "python", "arena_client.py")]
    else:
        js = os.path.join(clients, "javascript")
        if not os.path.isdir(os.path.join(js, "node_modules", "ws")):
            print("skipped: run `npm ci` in", js)
            return 77
        command = ["node", os.path.join(js, "arena_client.mjs")]
    server = subprocess.Popen([arena, "serve", "--port", "0", "--db", ":memory:"],
                              stdout=subprocess.PIPE, text=True)
    procs = [server]
    try:
        port = None
        deadline = time.time() + 30
        while time.time() < deadline and port is None:
            line = server.stdout.readline()
            if not line:
                break
            match = re.search(r"listening on http://[^:]+:(\d+)/", line)
            if match:
                port = match.group(1)
        if port is None:
            print("the server did not start")
            return 1
        url = "ws://127.0.0.1:%s/ws" % port
        opponent = subprocess.Popen([arena, "bot", "--server", url, "--name", "arena_opponent",
                                     "--preset", "available_wins", "--seek", "1"])
        procs.append(opponent)
        client = subprocess.run(command + ["--server", url, "--name", kind + "_client",
                                           "--game", "tictactoe", "--timeout", "60"],
                                capture_output=True, text=True, timeout=90)
        print(client.stdout, client.stderr)
        if client.returncode != 0 or " ended " not in client.stdout:
            print("the %s client did not finish its game" % kind)
            return 1
        if opponent.wait(timeout=30) != 0:
            print("the Arena bot did not finish cleanly")
            return 1
        return 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()


if __name__ == "__main__":
    sys.exit(main())
