#!/usr/bin/env python3
"""Runs one of the bot-author clients (protocol/clients/) against a real server.

Starts `arena serve` on a free loopback port with a throw-away store, an Arena bot
(`arena bot --preset ... --seek 1`) as the opponent, then the client, which must take the
seek, play the game to its end and exit 0. Both name their engine in the hello (the client with
--search/--heuristic, the Arena bot its preset's spec): the store must hold a bot version for
each and record both with the game. Everything is bounded in time.

    run_author_client.py ARENA_BINARY python|javascript SOURCE_DIR
Exit 0 pass, 1 fail, 77 skipped (node or its `ws` package is not installed).
"""

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time


def check_versions(db, kind):
    """Both players of the one game have the bot version their hello named."""
    with sqlite3.connect(db) as c:
        versions = dict(c.execute(
            "SELECT p.name, v.search || '/' || v.heuristic FROM bot_versions v "
            "JOIN players p ON p.id = v.player_id"))
        games = c.execute("SELECT first_version_id IS NOT NULL, second_version_id IS NOT NULL "
                          "FROM games").fetchall()
    print("bot versions:", versions, "games:", games)
    wanted = {"random/" + kind + "_heuristic", "greedy:eval=available_wins/available_wins"}
    if set(versions.values()) != wanted or len(versions) != 2:
        print("the bot versions are not the two the hellos named:", wanted)
        return False
    if games != [(1, 1)]:
        print("the game does not record both players' versions")
        return False
    return True


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
    scratch = tempfile.mkdtemp(prefix="arena_author_")
    db = os.path.join(scratch, "arena.db")
    server = subprocess.Popen([arena, "serve", "--port", "0", "--db", db],
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
                                           "--game", "tictactoe", "--timeout", "60",
                                           "--search", "random", "--heuristic",
                                           kind + "_heuristic"],
                                capture_output=True, text=True, timeout=90)
        print(client.stdout, client.stderr)
        if client.returncode != 0 or " ended " not in client.stdout:
            print("the %s client did not finish its game" % kind)
            return 1
        if opponent.wait(timeout=30) != 0:
            print("the Arena bot did not finish cleanly")
            return 1
        return 0 if check_versions(db, kind) else 1
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
