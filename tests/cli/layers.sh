# SPDX-License-Identifier: GPL-3.0-or-later
# The framework's folders depend on each other one way: no folder includes
# a header of a folder that (directly or through others) includes its own.
# Reads every #include "..." of framework/ and fails naming each cycle
# with the includes between its folders; then shows on a made-up tree that
# the check sees a cycle (through three folders too) and no false one.
. "$(dirname "$0")/lib.sh"

# cycles ROOT: print one line per cycle between ROOT's folders (none: no
# output), exit 1 when there is one
cycles() {
  python3 - "$1" <<'PY'
import os, re, sys
root = sys.argv[1]
edges = {}   # folder -> {folder: "file -> header"}
for d, _, files in os.walk(root):
    for f in files:
        if not f.endswith((".c", ".h")):
            continue
        src = os.path.join(d, f)
        a = os.path.relpath(d, root).split(os.sep)[0]
        with open(src, errors="replace") as fh:
            for line in fh:
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                tgt = os.path.normpath(os.path.join(d, m.group(1)))
                rel = os.path.relpath(tgt, root)
                if rel.startswith("..") or not os.path.exists(tgt):
                    continue
                b = rel.split(os.sep)[0]
                if b != a and os.sep in rel:
                    edges.setdefault(a, {}).setdefault(b, os.path.relpath(src, root) + " -> " + rel)
# Tarjan's strongly connected components: a component of more than one
# folder is a cycle
index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in edges.get(v, {}):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v:
                break
        if len(c) > 1:
            comps.append(sorted(c))
for v in sorted(edges):
    if v not in index:
        visit(v)
for c in comps:
    inside = [edges[a][b] for a in c for b in sorted(edges.get(a, {})) if b in c]
    print("cycle between " + ", ".join(c) + ": " + "; ".join(inside))
sys.exit(1 if comps else 0)
PY
}

cycles "$SRC/framework" >"$TMP/out" || fail "include cycles between framework folders: $(cat "$TMP/out")"

# the check itself sees a cycle, also one through a third folder
mkdir -p "$TMP/fw/a" "$TMP/fw/b" "$TMP/fw/c"
printf '#include "../b/b.h"\n' >"$TMP/fw/a/a.h"
printf '#include "../c/c.h"\n' >"$TMP/fw/b/b.h"
printf '#include "../a/a.h"\n' >"$TMP/fw/c/c.c"
: >"$TMP/fw/c/c.h"
cycles "$TMP/fw" >"$TMP/out" && fail "a three-folder cycle was not seen"
grep -q '^cycle between a, b, c: ' "$TMP/out" || fail "cycle not named: $(cat "$TMP/out")"
rm "$TMP/fw/c/c.c"
cycles "$TMP/fw" >"$TMP/out" || fail "a one-way chain read as a cycle: $(cat "$TMP/out")"
finish
