#!/usr/bin/env python3
"""Soak under faults: Arena's server plays tournaments of four game types between eight bot
processes while it is SIGKILLed at random (every 20-60 s) and started again, and while bots
are SIGKILLed and started again. Then the faults stop, the tournaments are played to their
end, the server is stopped with SIGTERM and the SQLite file is checked:

  - every game is finished (a result) or marked (cut off by a kill: "*", "interrupted");
  - every tournament is complete: finished, and each pairing has a decided game;
  - no acknowledged move is lost: every move a bot logged as acknowledged (arena bot
    --ack-log: game id, client id, move) is among the game's stored moves (as a multiset);
  - PRAGMA integrity_check is "ok";
  - the server's memory is flat: the largest resident size of its last lives is within
    1.5x (+ 16 MB) of that of its first lives.

New rounds of tournaments (one per game type) are created while the soak runs, so a long run
plays many games (at least 200 are required from 30 minutes on). Loopback only; every process
it starts is stopped before it returns.

usage: soak.py MINUTES --arena BINARY [--seed N] [--keep DIR] [--json FILE]
"""
import argparse
import collections
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

# Two bots per game type; each tournament is a round robin of its two bots. Presets are quick
# searches so that games are short and many of them are in play when a kill comes.
GAMES = [
    ("tictactoe", "", ["available_wins", "combined"]),
    ("isolation", "size=5", ["AB_Open", "AB_Center"]),
    ("othello", "", ["othello_greedy", "othello_ab_material"]),
    ("checkers", "", ["checkers_random", "checkers_greedy"]),
]
GAMES_PER_PAIRING = 10  # per tournament of a round: 10 games (five colour-swapped pairs)


def log(*args):
    print("[soak %s]" % time.strftime("%H:%M:%S"), *args, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Soak:
    def __init__(self, arena, tmp, minutes, rng):
        self.arena, self.tmp, self.minutes, self.rng = arena, tmp, minutes, rng
        self.db = os.path.join(tmp, "soak.db")
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.server = None
        self.server_log = open(os.path.join(tmp, "server.log"), "a")
        self.lives = []  # per server life: largest resident size seen (kB)
        self.bots = {}   # name -> {"proc", "token", "log", "acks"}
        self.tournaments = []  # ids
        self.failures = []
        self.server_kills = self.bot_kills = 0

    def check(self, cond, what):
        if not cond:
            self.failures.append(what)
            log("FAIL:", what)
        return cond

    # --- processes
    def token(self, name):
        out = subprocess.run([self.arena, "token", "create", name, "--db", self.db],
                             capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise RuntimeError("token create %s: %s" % (name, out.stderr.strip()))
        return out.stdout.strip().split()[-1]

    def start_server(self):
        self.server = subprocess.Popen(
            [self.arena, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db",
             self.db, "--grace-ms", "2000"],
            stdout=self.server_log, stderr=self.server_log)
        self.lives.append(0)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.server.poll() is not None:
                raise RuntimeError("the server exited at start (code %s); see %s/server.log"
                                   % (self.server.returncode, self.tmp))
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not answer /healthz within 60 s")

    def sample_memory(self):
        if self.server is not None and self.server.poll() is None:
            self.lives[-1] = max(self.lives[-1], rss_kb(self.server.pid))

    def kill_server(self):
        self.sample_memory()
        self.server.send_signal(signal.SIGKILL)
        self.server.wait()
        self.server_kills += 1

    def start_bot(self, name):
        b = self.bots[name]
        env = dict(os.environ, ARENA_TOKEN=b["token"])
        b["proc"] = subprocess.Popen(
            [self.arena, "bot", "--server", "ws://127.0.0.1:%d/ws" % self.port, "--preset", name,
             "--name", name, "--threads", "1", "--ack-log", b["acks"]],
            env=env, stdout=b["log"], stderr=b["log"])

    def kill_bot(self, name):
        p = self.bots[name]["proc"]
        p.send_signal(signal.SIGKILL)
        p.wait()
        self.bot_kills += 1

    def stop_all(self):
        for b in self.bots.values():
            p = b.get("proc")
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for b in self.bots.values():
            p = b.get("proc")
            if p is None:
                continue
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self.server is not None and self.server.poll() is None:
            self.sample_memory()
            self.server.send_signal(signal.SIGTERM)
            try:
                code = self.server.wait(timeout=60)
                self.check(code == 0, "the server exits 0 on SIGTERM (got %d)" % code)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
                self.check(False, "the server stops within 60 s of SIGTERM")

    # --- HTTP
    def api(self, path, body=None, token=None):
        req = urllib.request.Request(self.base + path, data=None if body is None else
                                     json.dumps(body).encode())
        if token:
            req.add_header("Authorization", "Bearer " + token)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def create_round(self, n):
        token = next(iter(self.bots.values()))["token"]
        for game, options, players in GAMES:
            config = {"name": "soak-%d-%s" % (n, game), "game": game, "options": options,
                      "format": "round-robin", "players": players,
                      "games_per_pairing": GAMES_PER_PAIRING, "concurrency": 2,
                      "movetime_ms": 50, "opening_plies": 1, "max_plies": 120,
                      "forfeit_after_ms": 5000, "seed": 1000 * n + len(self.tournaments)}
            for attempt in range(100):  # the server may be down for a moment (a kill)
                try:
                    made = self.api("/api/tournaments", config, token)
                    if made["id"] not in self.tournaments:
                        self.tournaments.append(made["id"])
                    break
                except (OSError, urllib.error.HTTPError, ValueError) as e:
                    if isinstance(e, urllib.error.HTTPError) and e.code in (400, 401, 404):
                        raise RuntimeError("POST /api/tournaments refused: %s" % e.read())
                    time.sleep(0.2)
                    self.ensure_server()

    def unfinished(self):
        """Ids of tournaments not finished yet, from the server (None: server unreachable)."""
        left = []
        try:
            for t in self.tournaments:
                if self.api("/api/tournaments/%d" % t).get("status") != "finished":
                    left.append(t)
        except (OSError, ValueError):
            return None
        return left

    def ensure_server(self):
        if self.server is None or self.server.poll() is not None:
            self.start_server()

    # --- the run
    def run(self):
        names = [p for _, _, players in GAMES for p in players]
        # Tokens before the first start: `arena token create` opens the database itself.
        for name in names:
            self.bots[name] = {"token": self.token(name), "proc": None,
                               "log": open(os.path.join(self.tmp, "bot-%s.log" % name), "a"),
                               "acks": os.path.join(self.tmp, "acks-%s.tsv" % name)}
        self.start_server()
        for name in names:
            self.start_bot(name)
        start = time.time()
        end = start + self.minutes * 60
        rounds = 0
        next_server_kill = start + self.rng.uniform(20, 60)
        next_bot_kill = start + self.rng.uniform(15, 45)
        restart_bot = {}  # name -> time to start it again
        while time.time() < end:
            self.sample_memory()
            left = self.unfinished()
            if left is not None and len(left) < len(GAMES):  # keep a round ahead
                rounds += 1
                self.create_round(rounds)
                if rounds % 10 == 1:
                    log("round %d created (%d tournaments)" % (rounds, len(self.tournaments)))
            now = time.time()
            if now >= next_server_kill:
                self.kill_server()
                log("server killed (%d); starting it again" % self.server_kills)
                time.sleep(self.rng.uniform(0.1, 1.0))
                self.start_server()
                next_server_kill = time.time() + self.rng.uniform(20, 60)
            if now >= next_bot_kill:
                name = self.rng.choice(names)
                if self.bots[name]["proc"].poll() is None:
                    self.kill_bot(name)
                    log("bot %s killed" % name)
                    restart_bot[name] = now + self.rng.uniform(1, 3)
                next_bot_kill = now + self.rng.uniform(15, 45)
            for name, at in list(restart_bot.items()):
                if time.time() >= at:
                    self.start_bot(name)
                    del restart_bot[name]
            for name in names:  # a bot that exited by itself is a failure, but keep playing
                p = self.bots[name]["proc"]
                if name not in restart_bot and p.poll() is not None:
                    self.check(False, "bot %s exited by itself (code %s)" % (name, p.returncode))
                    self.start_bot(name)
            time.sleep(0.5)
        for name in list(restart_bot):
            self.start_bot(name)
        log("faults stop after %.0f s: %d server kills, %d bot kills; finishing %d tournaments"
            % (time.time() - start, self.server_kills, self.bot_kills, len(self.tournaments)))
        deadline = time.time() + max(300, self.minutes * 30)
        left = self.unfinished()
        while (left is None or left) and time.time() < deadline:
            self.sample_memory()
            self.ensure_server()
            time.sleep(1)
            left = self.unfinished()
        self.check(left == [], "every tournament finishes within the final wait (left: %s)" % left)
        self.stop_all()

    # --- the checks, on the database the server left
    def verify(self):
        con = sqlite3.connect(self.db)
        figures = {"minutes": self.minutes, "server_kills": self.server_kills,
                   "bot_kills": self.bot_kills, "tournaments": len(self.tournaments)}
        figures["integrity_check"] = con.execute("PRAGMA integrity_check").fetchone()[0]
        self.check(figures["integrity_check"] == "ok", "PRAGMA integrity_check is ok")
        games = con.execute("SELECT id, result, reason FROM games").fetchall()
        figures["games"] = len(games)
        figures["interrupted"] = sum(1 for g in games if g[2] == "interrupted")
        figures["decided"] = sum(1 for g in games if g[1] in ("1-0", "0-1", "1/2-1/2"))
        bad = [g for g in games if not g[1] or (g[1] == "*" and not g[2])]
        self.check(not bad, "every game is finished or marked (not: %s)" % bad[:10])
        for t in self.tournaments:
            row = con.execute("SELECT finished_at FROM tournaments WHERE id = ?", (t,)).fetchone()
            self.check(row is not None and row[0] is not None, "tournament %d is finished" % t)
            rows = con.execute(
                "SELECT p.id, g.result FROM pairings p LEFT JOIN games g ON g.id = p.game_id "
                "WHERE p.tournament_id = ?", (t,)).fetchall()
            self.check(len(rows) == GAMES_PER_PAIRING, "tournament %d has its %d pairings (%d)"
                       % (t, GAMES_PER_PAIRING, len(rows)))
            undecided = [r for r in rows if r[1] not in ("1-0", "0-1", "1/2-1/2")]
            self.check(not undecided, "tournament %d: every pairing decided (not: %s)"
                       % (t, undecided[:5]))
        stored = collections.defaultdict(collections.Counter)
        for gid, move in con.execute("SELECT game_id, move FROM moves"):
            stored[gid][move] += 1
        figures["moves_stored"] = sum(sum(c.values()) for c in stored.values())
        con.close()
        acked = collections.defaultdict(collections.Counter)
        seen = set()
        for b in self.bots.values():
            if not os.path.exists(b["acks"]):
                continue
            with open(b["acks"]) as f:
                for line in f:
                    parts = line.rstrip("\n").split("\t")
                    if len(parts) != 3 or (parts[0], parts[1]) in seen:
                        continue  # a line cut by a kill, or the same move acknowledged twice
                    seen.add((parts[0], parts[1]))
                    acked[int(parts[0])][parts[2]] += 1
        figures["moves_acknowledged"] = sum(sum(c.values()) for c in acked.values())
        lost = []
        for gid, moves in acked.items():
            for move, n in moves.items():
                if stored[gid][move] < n:
                    lost.append((gid, move, n, stored[gid][move]))
        figures["acknowledged_moves_lost"] = len(lost)
        self.check(figures["moves_acknowledged"] > 0, "the bots logged acknowledged moves")
        self.check(not lost, "no acknowledged move is lost (game, move, acked, stored): %s"
                   % lost[:10])
        lives = [kb for kb in self.lives if kb > 0]
        figures["server_lives"] = len(self.lives)
        figures["rss_kb_per_life"] = lives
        if len(lives) >= 2:
            q = max(1, len(lives) // 4)
            first, last = max(lives[:q]), max(lives[-q:])
            figures["rss_first_kb"], figures["rss_last_kb"] = first, last
            self.check(last <= 1.5 * first + 16 * 1024,
                       "the server's memory is flat: %d kB at the end, %d kB at the start"
                       % (last, first))
        if self.minutes >= 30:
            self.check(len(games) >= 200, "at least 200 games in a 30-minute soak (%d)"
                       % len(games))
        return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("minutes", type=float)
    ap.add_argument("--arena", required=True, help="the arena binary")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--keep", help="keep the database and logs in this folder")
    ap.add_argument("--json", help="write the figures to this file")
    a = ap.parse_args()
    if a.minutes <= 0:
        ap.error("MINUTES must be positive")
    tmp = a.keep or tempfile.mkdtemp(prefix="arena-soak-")
    os.makedirs(tmp, exist_ok=True)
    log("seed %d, %.1f minutes, files in %s" % (a.seed, a.minutes, tmp))
    soak = Soak(os.path.abspath(a.arena), tmp, a.minutes, random.Random(a.seed))
    try:
        soak.run()
    except (RuntimeError, OSError) as e:
        soak.check(False, str(e))
    finally:
        soak.stop_all()
    figures = soak.verify() if os.path.exists(soak.db) else {}
    figures["failures"] = soak.failures
    print(json.dumps(figures, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(figures, f, indent=1)
    if not a.keep and not soak.failures:
        shutil.rmtree(tmp, ignore_errors=True)
    log("soak:", "FAILED (files kept in %s)" % tmp if soak.failures else "ok")
    return 1 if soak.failures else 0


if __name__ == "__main__":
    sys.exit(main())
