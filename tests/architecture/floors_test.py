#!/usr/bin/env python3
"""The floors of ARCHITECTURE.md hold in the tree.

Reads the ```floors block of ARCHITECTURE.md (module ... : allowed ...), derives the include
graph of every .h/.cpp under the project's modules, and fails on an include from one module into
another that its line does not allow, or on a source file that belongs to no module. Then the
```io block (the folders under games/ that may do file and process I/O): a file elsewhere under
games/ that includes a header of files, processes or the terminal fails. Before that, it checks
itself on a small tree made here with one violation of each kind.

usage: floors_test.py PROJECT_ROOT
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SKIP_DIRS = {"build", "node_modules", ".git"}
# Headers of files, processes and the terminal: only the ```io folders under games/ include them.
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.M)
IO_HEADERS = {"fstream", "filesystem", "iostream", "unistd.h", "fcntl.h", "poll.h", "signal.h",
              "csignal", "spawn.h", "dirent.h", "sys/wait.h", "sys/resource.h", "sys/socket.h",
              "sys/stat.h", "sys/types.h"}
IO_ROOT = "games"


def read_floors(text):
    block = re.search(r"^```floors\n(.*?)^```", text, re.M | re.S)
    if not block:
        raise SystemExit("ARCHITECTURE.md has no ```floors block")
    rules = {}
    for n, line in enumerate(block.group(1).splitlines(), 1):
        if not line.strip():
            continue
        if ":" not in line:
            raise SystemExit(f"floors line {n} has no ':': {line!r}")
        left, right = line.split(":", 1)
        for module in left.split():
            if module in rules:
                raise SystemExit(f"floors line {n}: module {module} is listed twice")
            rules[module] = right.split()
    return rules


def read_io_folders(text):
    block = re.search(r"^```io\n(.*?)^```", text, re.M | re.S)
    if not block:
        raise SystemExit("ARCHITECTURE.md has no ```io block")
    return block.group(1).split()


def io_violations(root, io_folders):
    """Files under games/ outside the io folders that include an I/O header."""
    out = []
    for rel in source_files(root, IO_ROOT):
        if any(rel.startswith(f + "/") for f in io_folders):
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for header in SYSTEM_INCLUDE.findall(text):
            if header in IO_HEADERS:
                out.append(f"{rel} includes <{header}>: I/O outside the ```io folders")
    return out


def source_files(root, top):
    """The .h and .cpp files under root/top, as paths relative to root, in a stable order."""
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith((".h", ".cpp")):
                yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")


def module_of(path, modules):
    """The longest module that is the path or a folder holding it."""
    best = None
    for m in modules:
        if (path == m or path.startswith(m + "/")) and (best is None or len(m) > len(best)):
            best = m
    return best


def allowed(target, allow):
    for a in allow:
        if a == "*" or a == target or (a.endswith("/*") and target.startswith(a[:-1])):
            return True
    return False


def violations(root, rules):
    modules = list(rules)
    tops = {m.split("/")[0] for m in modules}
    out = []
    for top in sorted(tops):
        for rel in source_files(root, top):
            mine = module_of(rel, modules)
            if mine is None:
                out.append(f"{rel}: in no module of the floors")
                continue
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                if not os.path.exists(os.path.join(root, inc)):
                    continue  # beside the file, generated, or a system header
                theirs = module_of(inc, modules)
                if theirs is None:
                    out.append(f"{rel}: includes {inc}, which is in no module of the floors")
                elif theirs != mine and not allowed(theirs, rules[mine]):
                    out.append(f"{rel} ({mine}) includes {inc} ({theirs}): not on its floor")
    return out


def self_check():
    """The checker finds an upward include, a file in no module and an unknown target."""
    rules = read_floors("```floors\ngames/core :\nserver : games/*\ncli : *\n```\n")
    with tempfile.TemporaryDirectory() as root:
        files = {
            "games/core/a.h": '#include "server/hub.h"\n',     # upward: must be found
            "server/hub.h": '#include "games/core/a.h"\n',     # allowed
            "server/x.cpp": '#include "server/hub.h"\n#include "vector"\n',  # own module
            "cli/main.cpp": '#include "server/hub.h"\n#include "games/core/a.h"\n',
            "games/other/b.h": "",                             # games/other is no module
            "games/core/io.cpp": "#include <fstream>\n",      # I/O outside the io folders
            "games/core/disk/d.cpp": "#include <fstream>\n",  # an io folder: allowed
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        found = violations(root, rules) + io_violations(root, ["games/core/disk"])
    expected = [
        "games/core/a.h (games/core) includes server/hub.h (server): not on its floor",
        "games/other/b.h: in no module of the floors",
        "games/core/io.cpp includes <fstream>: I/O outside the ```io folders",
    ]
    if sorted(found) != sorted(expected):
        raise SystemExit("the floors checker is wrong on its own example:\n  " +
                         "\n  ".join(found))


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    root = sys.argv[1]
    self_check()
    with open(os.path.join(root, "ARCHITECTURE.md"), encoding="utf-8") as f:
        text = f.read()
    rules = read_floors(text)
    found = violations(root, rules) + io_violations(root, read_io_folders(text))
    for v in found:
        print(v)
    print(f"{len(rules)} modules in the floors; {len(found)} includes or files against them")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
