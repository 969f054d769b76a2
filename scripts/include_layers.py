#!/usr/bin/env python3
"""The include graph between the top-level folders (docs/ARCHITECTURE.md: dependencies run one way).

For each top-level source folder, the other top-level folders its .h/.cpp files include
(`#include "folder/..."`); exits 1 naming the folders of every cycle, 0 when there is none.
Usage: scripts/include_layers.py [SOURCE_DIR]   (default: the repository holding this script)
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
not_sources = {"build", "docs", "cmake", "meshes", "scripts"}
folders = sorted(d for d in os.listdir(root)
                 if os.path.isdir(os.path.join(root, d)) and not d.startswith(".")
                 and d not in not_sources and not d.startswith("build"))
include = re.compile(r'^\s*#\s*include\s*"([^/"]+)/')
deps = {f: set() for f in folders}
for folder in folders:
    for directory, _, files in os.walk(os.path.join(root, folder)):
        for name in files:
            if name.endswith((".h", ".cpp")):
                with open(os.path.join(directory, name), errors="replace") as source:
                    for line in source:
                        m = include.match(line)
                        if m and m.group(1) in deps and m.group(1) != folder:
                            deps[folder].add(m.group(1))
for folder in folders:
    print(f"{folder:12s} -> {', '.join(sorted(deps[folder])) or '-'}")

# Cycles: the strongly connected components with more than one folder (Tarjan).
index, low, stack, on_stack, cycles = {}, {}, [], set(), []


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on_stack.add(v)
    for w in sorted(deps[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            cycles.append(sorted(component))


for folder in folders:
    if folder not in index:
        visit(folder)
if cycles:
    print("include cycles between top-level folders: " +
          "; ".join(" <-> ".join(c) for c in cycles))
    sys.exit(1)
print("no include cycle between top-level folders")
