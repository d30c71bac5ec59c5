#!/usr/bin/env python3
"""`arena study` killed with SIGKILL while games are in play, then run again:

- the games finished before the kill are kept as they were (same ids, same results) and not
  played again; the game cut off is closed as "interrupted" and its pairing played again;
- the second run finishes the study: every pairing decided once, the tournament finished, and
  the report printed with the sheet's metrics.
Then the SQLite file passes PRAGMA integrity_check.

usage: study_kill_test.py ARENA_BINARY SHEETS_DIR
"""
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def finished_games(db):
    con = sqlite3.connect(db)
    try:
        return dict(con.execute(
            "select id, result from games where result is not null and result != '' "
            "and result != '*'").fetchall())
    except sqlite3.OperationalError:
        return {}
    finally:
        con.close()


def main():
    arena, sheets = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "study.db")
        # connectFour at 40 ms a move: about a second a game, 24 games in all.
        cmd = [arena, "study", "--gdl", os.path.join(sheets, "connectFour.kif"),
               "--players", "random,uct,fuzzy", "--movetime", "40", "--games-per-pair", "4",
               "--db", db, "-q"]
        first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while len(finished_games(db)) < 3 and time.time() < deadline and first.poll() is None:
            time.sleep(0.2)
        first.send_signal(signal.SIGKILL)
        first.wait()
        before = finished_games(db)
        check(3 <= len(before) < 24, f"killed mid-study ({len(before)} of 24 games finished)")
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        check(second.returncode == 0, f"second run exits 0 ({second.returncode}: {second.stderr})")
        check("24/24 games" in second.stdout, "the report shows 24/24 games:\n" + second.stdout)
        check("first role wins" in second.stdout, "the report has the game's metrics")
        after = finished_games(db)
        check(len(after) == 24, f"24 finished games after the second run ({len(after)})")
        check(all(after.get(k) == v for k, v in before.items()),
              "the games finished before the kill are kept as they were")
        con = sqlite3.connect(db)
        pairings = con.execute("select count(*), count(distinct game_id) from pairings").fetchone()
        check(pairings == (24, 24), f"24 pairings, each with its own game ({pairings})")
        interrupted = con.execute(
            "select count(*) from games where reason = 'interrupted'").fetchone()[0]
        check(interrupted <= 1, f"at most the game in flight was cut off ({interrupted})")
        check(con.execute("select finished_at from tournaments").fetchone()[0] is not None,
              "the tournament is finished")
        check(con.execute("pragma integrity_check").fetchone()[0] == "ok", "integrity_check ok")
        con.close()
    print("FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
