#!/usr/bin/env python3
"""The floors of ARCHITECTURE.md hold in the tree.

Reads the ```floors block of ARCHITECTURE.md (module ... : allowed ...), derives the include
graph of every .h/.cpp under the project's modules, and fails on an include from one module into
another that its line does not allow, or on a source file that belongs to no module. It also
derives the folder graph (each folder -> the folders its files include from; a folder and its
own subfolder are different folders) and fails on any cycle in it, naming the cycle and one
include of each of its steps. Then the ```io block (the folders under games/ that may do file
and process I/O): a file elsewhere under games/ that includes a header of files, processes or
the terminal fails. Before that, it checks itself on small trees made here: one with
one violation of each kind, one with one folder cycle.

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
    for rel in files_under(root, IO_ROOT):
        if any(rel.startswith(f + "/") for f in io_folders):
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for header in SYSTEM_INCLUDE.findall(text):
            if header in IO_HEADERS:
                out.append(f"{rel} includes <{header}>: I/O outside the ```io folders")
    return out


def files_under(root, top):
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


def source_files(root, tops):
    """Each .h/.cpp under the folders `tops` of `root`, with the project's files it includes:
    (path, [included paths]), paths relative to root, in a stable order."""
    for top in sorted(tops):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                if not name.endswith((".h", ".cpp")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                # An include that names no file of the project is beside the file, generated,
                # or a system header.
                yield rel, [inc for inc in INCLUDE.findall(text)
                            if os.path.exists(os.path.join(root, inc))]


def violations(root, rules):
    modules = list(rules)
    tops = {m.split("/")[0] for m in modules}
    out = []
    for rel, includes in source_files(root, tops):
        mine = module_of(rel, modules)
        if mine is None:
            out.append(f"{rel}: in no module of the floors")
            continue
        for inc in includes:
            theirs = module_of(inc, modules)
            if theirs is None:
                out.append(f"{rel}: includes {inc}, which is in no module of the floors")
            elif theirs != mine and not allowed(theirs, rules[mine]):
                out.append(f"{rel} ({mine}) includes {inc} ({theirs}): not on its floor")
    return out


def folder_graph(root, tops):
    """{folder: {folder it includes from: the first include that makes the edge}}."""
    graph = {}
    for rel, includes in source_files(root, tops):
        mine = os.path.dirname(rel)
        for inc in includes:
            theirs = os.path.dirname(inc)
            if theirs != mine:
                graph.setdefault(mine, {}).setdefault(theirs, f"{rel} includes {inc}")
    return graph


def strongly_connected(graph):
    """The strongly connected components of `graph` (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    nodes = sorted(set(graph) | {t for edges in graph.values() for t in edges})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, {})))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def shortest_cycle(graph, members, start):
    """The shortest path from `start` back to itself through the folders `members`."""
    parent = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph.get(node, {})):
                if succ not in members:
                    continue
                if succ == start:
                    path = [node]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return path[::-1] + [start]
                if succ not in parent:
                    parent[succ] = node
                    following.append(succ)
        frontier = following
    raise AssertionError(f"{start} is on no cycle of its group")


def folder_cycles(root, tops):
    """One line per strongly connected group of folders: the shortest cycle through its first
    folder, and an include that makes each step of it."""
    graph = folder_graph(root, tops)
    out = []
    for group in sorted(c for c in strongly_connected(graph) if len(c) > 1):
        cycle = shortest_cycle(graph, set(group), group[0])
        steps = "; ".join(graph[a][b] for a, b in zip(cycle, cycle[1:]))
        more = f", in a group of {len(group)} folders" if len(group) > len(cycle) - 1 else ""
        out.append(f"folder cycle: {' -> '.join(cycle)} ({steps}){more}")
    return out


def write_tree(root, files):
    for rel, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)


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
        write_tree(root, files)
        found = violations(root, rules) + io_violations(root, ["games/core/disk"])
    expected = [
        "games/core/a.h (games/core) includes server/hub.h (server): not on its floor",
        "games/other/b.h: in no module of the floors",
        "games/core/io.cpp includes <fstream>: I/O outside the ```io folders",
    ]
    if sorted(found) != sorted(expected):
        raise SystemExit("the floors checker is wrong on its own example:\n  " +
                         "\n  ".join(found))


def self_check_folders():
    """The checker finds the one folder cycle of a small tree (a folder and its subfolder
    include each other), and no other."""
    with tempfile.TemporaryDirectory() as root:
        write_tree(root, {
            "server/hub.h": '#include "server/lobby/lobby.h"\n#include "server/core/conn.h"\n',
            "server/lobby/lobby.h": '#include "server/hub.h"\n',   # back up: the cycle
            "server/lobby/lobby.cpp": '#include "server/lobby/lobby.h"\n',  # its own folder
            "server/net/net.h": '#include "server/core/conn.h"\n#include "games/core/a.h"\n',
            "server/core/conn.h": '#include "games/core/a.h"\n#include "vector"\n',
            "games/core/a.h": "",
        })
        found = folder_cycles(root, {"games", "server"})
    expected = [
        "folder cycle: server -> server/lobby -> server (server/hub.h includes "
        "server/lobby/lobby.h; server/lobby/lobby.h includes server/hub.h)",
    ]
    if found != expected:
        raise SystemExit("the folder cycle checker is wrong on its own example:\n  " +
                         "\n  ".join(found))


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    root = sys.argv[1]
    self_check()
    self_check_folders()
    with open(os.path.join(root, "ARCHITECTURE.md"), encoding="utf-8") as f:
        text = f.read()
    rules = read_floors(text)
    found = violations(root, rules) + io_violations(root, read_io_folders(text))
    for v in found:
        print(v)
    print(f"{len(rules)} modules in the floors; {len(found)} includes or files against them")
    tops = {m.split("/")[0] for m in rules}
    cycles = folder_cycles(root, tops)
    for c in cycles:
        print(c)
    print(f"{len(folder_graph(root, tops))} folders include from others; "
          f"{len(cycles)} folder cycles")
    return 1 if found or cycles else 0


if __name__ == "__main__":
    sys.exit(main())
