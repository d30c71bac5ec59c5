#!/usr/bin/env python3
"""`arena league` through a server and bot processes, interrupted twice over:

1. its server is killed with SIGKILL twice while games are in play: arena league starts it
   again, the server continues the same tournament, and it finishes with every pairing decided
   once (a game cut off is closed as interrupted and its pairing played again);
2. arena league itself gets SIGTERM mid-way: it stops its server and bots and says how to
   continue; the same command again resumes the tournament and finishes it.
Then the SQLite file passes PRAGMA integrity_check.

usage: league_restart_test.py ARENA_BINARY
"""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


CONFIG = {
    # Iterative-deepening agents use a good part of their 100 ms, so games last long enough
    # (about a second) to be interrupted in the middle.
    "name": "restart-test", "game": "isolation", "format": "round-robin",
    "players": ["AB_Improved_ID", "AB_Custom", "AB_Custom_2"], "games_per_pairing": 6,
    "concurrency": 2, "movetime_ms": 100, "opening_plies": 2, "max_plies": 60, "seed": 3,
}
TOTAL = 18


def server_pids(db):
    """The `arena serve` processes started for `db`."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if b"serve" in args and db.encode() in args:
            pids.append(int(pid))
    return pids


def played(db):
    """Games played so far, from the server's API (the port is in the server's log)."""
    try:
        with open(db + ".logs/server.log") as f:
            lines = [l for l in f if "listening on http://" in l]
        url = lines[-1].split("listening on ")[1].split("/ ")[0]
        with urllib.request.urlopen(url + "/api/tournaments/1", timeout=2) as r:
            return json.load(r).get("games_played", 0)
    except (OSError, IndexError, ValueError):
        return -1


def wait_played(db, n, proc, deadline):
    while time.time() < deadline and proc.poll() is None:
        if played(db) >= n:
            return True
        time.sleep(0.1)
    return False


def check_store(db, label):
    con = sqlite3.connect(db)
    check(con.execute("PRAGMA integrity_check").fetchone()[0] == "ok", label + ": integrity_check")
    rows = con.execute(
        "SELECT p.id, g.result FROM pairings p LEFT JOIN games g ON g.id = p.game_id "
        "WHERE p.tournament_id = 1").fetchall()
    check(len(rows) == TOTAL, label + ": %d pairings (got %d)" % (TOTAL, len(rows)))
    check(all(r[1] in ("1-0", "0-1", "1/2-1/2") for r in rows),
          label + ": every pairing has a decided game: %s" % rows)
    games = con.execute("SELECT COUNT(*) FROM games WHERE tournament_id = 1 AND "
                        "(result IS NULL OR result = '')").fetchone()[0]
    check(games == 0, label + ": no game of the tournament is left unfinished")
    interrupted = con.execute("SELECT COUNT(*) FROM games WHERE reason = 'interrupted'").fetchone()[0]
    con.close()
    return interrupted


def server_killed_twice(arena, tmp, cfg):
    db = os.path.join(tmp, "kill.db")
    proc = subprocess.Popen([arena, "league", "--config", cfg, "--db", db, "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kills = 0
    for at in (4, 10):
        if wait_played(db, at, proc, time.time() + 120):
            for pid in server_pids(db):
                os.kill(pid, signal.SIGKILL)
                kills += 1
    check(kills == 2, "the server was killed twice mid-tournament (%d)" % kills)
    try:
        out, err = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        check(False, "arena league finishes within 240 s after two kills")
    check(proc.returncode == 0, "arena league exits 0 after the kills: " + err[-800:])
    check("restarted 2 times" in out, "it says the server was restarted twice:\n" + out[:400])
    check("BT Elo" in out, "it prints the final table")
    check_store(db, "after two kills")
    check(not server_pids(db), "no server is left running")


def league_stopped_and_rerun(arena, tmp, cfg):
    db = os.path.join(tmp, "stop.db")
    cmd = [arena, "league", "--config", cfg, "--db", db, "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(wait_played(db, 5, proc, time.time() + 120), "games are played before the stop")
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    check(proc.returncode == 1, "a stopped league exits 1 (got %s)" % proc.returncode)
    check("continues when you run the same command again" in err, "it says how to go on: " + err)
    check(not server_pids(db), "its server stopped with it")
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    check(again.returncode == 0, "the same command again exits 0: " + again.stderr[-800:])
    check("(resumed)" in again.stdout, "the second run resumes tournament 1:\n" + again.stdout[:300])
    check_store(db, "after a stop and a rerun")


def main():
    arena = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="arena-league-") as tmp:
        cfg = os.path.join(tmp, "league.json")
        with open(cfg, "w") as f:
            json.dump(CONFIG, f)
        server_killed_twice(arena, tmp, cfg)
        league_stopped_and_rerun(arena, tmp, cfg)
    print("league restart test:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
