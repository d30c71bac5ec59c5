#!/usr/bin/env python3
"""Runs the protocol README's first Python snippet exactly as printed against a real server.

The snippet is the first ```python block of protocol/README.md, un-indented. It is run by
Debian's /usr/bin/python3 (its python3-websockets, 10.4 on Debian 12) with the test server's
URL as its argument, and must print a welcome line for the guest it logged in as.

    readme_snippet_test.py ARENA_BINARY SOURCE_DIR
Exit 0 pass, 1 fail, 77 skipped (Debian's python3-websockets is not installed).
"""

import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time

PYTHON = "/usr/bin/python3"


def snippet(source_dir):
    with open(os.path.join(source_dir, "protocol", "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^( *)```python\n(.*?)^\1```", text, re.S | re.M)
    if not m:
        sys.exit("no ```python block in protocol/README.md")
    return textwrap.dedent(m.group(2))


def main():
    arena, source_dir = sys.argv[1], sys.argv[2]
    if subprocess.run([PYTHON, "-c", "import websockets"], capture_output=True).returncode:
        print("skipped: Debian's python3-websockets is not installed")
        return 77
    code = snippet(source_dir)
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "hello.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(code)
        server = subprocess.Popen([arena, "serve", "--host", "127.0.0.1", "--port", "0",
                                   "--db", ":memory:"], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        try:
            url, deadline, log = None, time.time() + 20, ""
            while time.time() < deadline and url is None:
                line = server.stdout.readline()
                if not line:
                    break
                log += line
                m = re.search(r"listening on http://([\d.]+:\d+)/", line)
                if m:
                    url = f"ws://{m.group(1)}/ws"
            if url is None:
                print("the server did not start:\n" + log)
                return 1
            run = subprocess.run([PYTHON, script, url], capture_output=True, text=True, timeout=20)
            print(run.stdout + run.stderr)
            # A guest is named NAME#ID by the server.
            if run.returncode != 0 or not re.match(r"welcome pybot(#\d+)? \d+", run.stdout):
                print("the snippet did not log in as printed")
                return 1
            return 0
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
