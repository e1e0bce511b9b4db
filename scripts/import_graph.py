#!/usr/bin/env python3
"""The module import graph of each workspace crate: for every top-level module, the modules of the
same crate it names (`crate::m`, `super::m` from a child, `use m::` from the root), test modules
and doc comments excluded; prints the graph and every circle (strongly connected component of more
than one module). Exit 1 if any crate has a circle. Usage: scripts/import_graph.py [--quiet]"""
import os, re, sys

CRATES = {"accounting": "accounting/src", "theorems": "theorems/src", "empirical": "empirical/src",
          "core": "core/src", "papers": "papers/src", "render": "render/src", "dpclaims": "src"}

def strip(text):
    text = re.sub(r"#\[cfg\(test\)\]\s*mod tests \{.*", "", text, flags=re.S)  # test module at the end
    return "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("//"))

def top(rel):
    """The node of a file: its module path up to two levels (`privacy::pld` for
    privacy/pld/grid.rs, `privacy` for privacy/mod.rs), None for the crate root."""
    parts = [p for p in rel[:-3].split("/") if p != "mod"]
    if not parts or parts[0] in ("lib", "main"):
        return None
    return "::".join(parts[:2])

def graph(root):
    mods = set()
    for d, _, fs in os.walk(root):
        for f in fs:
            if f.endswith(".rs"):
                t = top(os.path.relpath(os.path.join(d, f), root))
                if t:
                    mods.add(t)
    g = {m: set() for m in mods}
    for d, _, fs in os.walk(root):
        for f in fs:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(d, f), root)
            m = top(rel)
            if m is None:
                continue
            text = strip(open(os.path.join(d, f)).read())
            parent = m.split("::")[0] if "::" in m else None
            names = []
            for a, b in re.findall(r"\bcrate::([a-z_0-9]+)(?:::([a-z_0-9]+))?", text):
                names.append(f"{a}::{b}" if f"{a}::{b}" in mods else a)
            depth = len([p for p in rel[:-3].split("/") if p != "mod"])
            for a in re.findall(r"\bsuper::([a-z_0-9]+)", text):
                if depth == 1:
                    names.append(a)  # a top-level file: super:: is the crate root
                elif depth == 2 and parent:
                    names.append(f"{parent}::{a}")  # a file of a folder: its siblings
            for n in names:
                if n in mods and n != m and not m.startswith(n + "::"):
                    g[m].add(n)
    return g

def sccs(g):
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out

bad = False
for name, root in CRATES.items():
    if not os.path.isdir(root):
        continue
    g = graph(root)
    circles = sccs(g)
    bad |= bool(circles)
    if "--quiet" not in sys.argv:
        print(f"## {name} ({root})")
        for m in sorted(g):
            print(f"  {m} -> {', '.join(sorted(g[m])) or '-'}")
    print(f"{name}: {len(g)} modules, circles: {circles or 'none'}")
sys.exit(1 if bad else 0)
