#!/usr/bin/env python3
"""Checks docker/compose.yml's structure, then runs the exact command each service gives its
container as a local process (no Docker engine here): the server on a free loopback port, each
bot service as many times as its replicas with the token of the player named like its preset
read from a secret file through docker/entrypoint.sh, and the league runner with
LEAGUE=compose-smoke, which creates the tournament on the server and follows it; the server
plays it with those bots, and it must finish; the server must stop on SIGTERM within its grace
period.

usage: compose_test.py ARENA_BINARY SOURCE_DIR
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def structure(compose):
    services = compose.get("services", {})
    check({"server", "league"} <= set(services), "services server and league exist")
    bots = [n for n in services if n.startswith("bot-")]
    check(len(bots) >= 2, "at least two bot services")
    server = services["server"]
    hc = server.get("healthcheck", {}).get("test", [])
    check(any("/healthz" in str(t) for t in hc), "server healthcheck on /healthz")
    check(server.get("stop_signal") == "SIGTERM", "server stops with SIGTERM")
    check("stop_grace_period" in server, "server has a stop_grace_period")
    check(any(str(v).startswith("arena-data:/data") for v in server.get("volumes", [])),
          "server keeps /data on the named volume")
    check("arena-data" in compose.get("volumes", {}), "named volume arena-data declared")
    nets = compose.get("networks", {})
    check(nets.get("arena", {}).get("internal") is True, "network arena is internal")
    for b in bots:
        s = services[b]
        check(s.get("read_only") is True, b + " is read_only")
        check(s.get("deploy", {}).get("replicas", 0) >= 1, b + " has deploy.replicas")
        check("limits" in s.get("deploy", {}).get("resources", {}), b + " has resource limits")
        check(s.get("networks") == ["arena"], b + " is only on the internal network")
        for sec in s.get("secrets", []):
            check(sec in compose.get("secrets", {}), b + " secret " + sec + " declared")
        check(s.get("environment", {}).get("ARENA_TOKEN_FILE", "").startswith("/run/secrets/"),
              b + " reads its token from a secret")
        check(s["command"][0] == "bot" and "--preset" in s["command"], b + " runs a preset bot")
    check(services["league"].get("restart") == "on-failure", "league restarts on failure")
    check("--server" in services["league"]["command"],
          "the league runner creates the tournament on the server")
    check(services["league"].get("environment", {}).get("ARENA_TOKEN_FILE", "")
          .startswith("/run/secrets/"), "the league runner reads its token from a secret")
    check(max((s.get("deploy", {}).get("replicas", 1) for s in services.values())) >= 2,
          "some service has replicas >= 2")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def localise(args, mapping, env=os.environ):
    """The container's command with its paths and addresses mapped to this machine; ${VAR:-x}
    is taken from `env`, as Compose takes it from the environment it runs in."""
    out = []
    for a in args:
        a = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: env.get(m.group(1), m.group(2)), a)
        for k, v in mapping.items():
            a = a.replace(k, v)
        out.append(a)
    return out


def wait_healthy(port, deadline):
    while time.time() < deadline:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port, timeout=1) as r:
                if r.status == 200:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


def run(arena, src, compose):
    services = compose["services"]
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="arena-compose-")
    mapping = {"/opt/arena/web": os.path.join(src, "web"),
               "/opt/arena/leagues": os.path.join(src, "leagues"),
               "/opt/arena/data": os.path.join(src, "tests/data"),
               "/run/secrets": os.path.join(tmp, "secrets"),
               "/data": tmp,
               "ws://server:8080": "ws://127.0.0.1:%d" % port,
               "http://server:8080": "http://127.0.0.1:%d" % port}
    os.makedirs(os.path.join(tmp, "secrets"))
    entry = [os.path.join(src, "docker/entrypoint.sh")]
    env = dict(os.environ, ARENA_BIN=arena, LEAGUE="compose-smoke")
    # Tokens, as the README tells the operator to create them: for each bot service the player
    # named like its preset, for the runner "league-runner"; written where the secret points.
    owners = {}
    for name, s in services.items():
        for sec in s.get("secrets", []):
            cmd = s["command"]
            owners[sec] = cmd[cmd.index("--preset") + 1] if "--preset" in cmd else "league-runner"
    for sec, spec in compose.get("secrets", {}).items():
        player = owners.get(sec, sec)
        check(os.path.basename(spec["file"]) == player + ".token",
              "secret " + sec + " is the file of player " + player)
        tok = subprocess.run([arena, "token", "create", player, "--db",
                              os.path.join(tmp, "arena.db")],
                             capture_output=True, text=True, timeout=60)
        check(tok.returncode == 0, "token create " + player + ": " + tok.stderr.strip())
        token = tok.stdout.strip().split()[-1] if tok.stdout.strip() else ""
        with open(os.path.join(tmp, "secrets", sec), "w") as f:
            f.write(token)
    server_cmd = localise(services["server"]["command"], mapping)
    server_cmd[server_cmd.index("--port") + 1] = str(port)
    server_cmd[server_cmd.index("--host") + 1] = "127.0.0.1"
    procs = []
    server = subprocess.Popen(entry + server_cmd, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        check(wait_healthy(port, time.time() + 60), "server answers /healthz")
        for name, s in services.items():
            if not name.startswith("bot-"):
                continue
            benv = dict(env, ARENA_TOKEN_FILE=localise([s["environment"]["ARENA_TOKEN_FILE"]],
                                                       mapping)[0])
            for _ in range(s.get("deploy", {}).get("replicas", 1)):
                procs.append((name, subprocess.Popen(entry + localise(s["command"], mapping),
                                                     env=benv, stdout=subprocess.DEVNULL,
                                                     stderr=subprocess.PIPE, text=True)))
        lenv = dict(env, ARENA_TOKEN_FILE=localise(
            [services["league"]["environment"]["ARENA_TOKEN_FILE"]], mapping)[0])
        league = subprocess.run(entry + localise(services["league"]["command"], mapping, env),
                                env=lenv, capture_output=True, text=True, timeout=240)
        check(league.returncode == 0, "league runner exits 0: " + league.stderr[-500:])
        check("BT Elo" in league.stdout and "6 games played" in league.stdout,
              "league prints its table after 6 games:\n" + league.stdout)
        for name, p in procs:
            check(p.poll() is None, name + " still running (connected to the server)")
    finally:
        for _, p in procs:
            p.send_signal(signal.SIGTERM)
        for _, p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=30)
            check(code == 0, "server exits 0 after SIGTERM (got %d)" % code)
        except subprocess.TimeoutExpired:
            server.kill()
            check(False, "server stops within its 30 s grace period")
        if failures:
            print("compose test: files kept in", tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    arena, src = sys.argv[1], sys.argv[2]
    with open(os.path.join(src, "docker/compose.yml")) as f:
        compose = yaml.safe_load(f)
    structure(compose)
    run(arena, src, compose)
    print("compose test:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
