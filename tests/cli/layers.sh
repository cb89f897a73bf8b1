# SPDX-License-Identifier: GPL-3.0-or-later
# The source folders depend on each other one way: the framework core
# (framework/*) never includes an application (apps/*), and no folder of
# either includes a header of a folder that (directly or through others)
# includes its own.  Reads every #include "..." of framework/ and apps/,
# resolved as the build does (beside the file, else against framework/, the
# core's include path, or apps/), and fails naming each offending include
# and each cycle with the includes between its folders; then shows on a
# made-up tree that the check sees each kind of fault and no false one.
. "$(dirname "$0")/lib.sh"

# layers TOP: print one line per fault among TOP's framework/ and apps/
# folders (none: no output), exit 1 when there is one
layers() {
  python3 - "$1" <<'PY'
import os, re, sys
top = sys.argv[1]
roots = ("framework", "apps")
edges = {}   # folder -> {folder: "file -> header"}, folders as "framework/x"
faults = []
def folder(rel):
    parts = rel.split(os.sep)
    return parts[0] + "/" + parts[1] if len(parts) > 2 and parts[0] in roots else None
for r in roots:
    for d, _, files in os.walk(os.path.join(top, r)):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            src = os.path.join(d, f)
            rsrc = os.path.relpath(src, top)
            a = folder(rsrc)
            with open(src, errors="replace") as fh:
                for line in fh:
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    tgt = None
                    for base in (d,) + tuple(os.path.join(top, x) for x in roots):
                        t = os.path.normpath(os.path.join(base, m.group(1)))
                        if os.path.exists(t):
                            tgt = t
                            break
                    if tgt is None:
                        continue
                    rel = os.path.relpath(tgt, top)
                    b = folder(rel)
                    if a is None or b is None or b == a:
                        continue
                    if a.startswith("framework/") and b.startswith("apps/"):
                        faults.append("framework includes an application: %s -> %s" % (rsrc, rel))
                    edges.setdefault(a, {}).setdefault(b, rsrc + " -> " + rel)
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
    faults.append("cycle between " + ", ".join(c) + ": " + "; ".join(inside))
for f in faults:
    print(f)
sys.exit(1 if faults else 0)
PY
}

layers "$SRC" >"$TMP/out" || fail "source folders out of layer: $(cat "$TMP/out")"

# the check itself sees a cycle, also one through a third folder ...
T="$TMP/top"
mkdir -p "$T/framework/a" "$T/framework/b" "$T/framework/c" "$T/apps/p" "$T/apps/q"
printf '#include "../b/b.h"\n' >"$T/framework/a/a.h"
printf '#include "c/c.h"\n' >"$T/framework/b/b.h"   # through the include path
printf '#include "../a/a.h"\n' >"$T/framework/c/c.c"
: >"$T/framework/c/c.h"
layers "$T" >"$TMP/out" && fail "a three-folder cycle was not seen"
grep -q '^cycle between framework/a, framework/b, framework/c: ' "$TMP/out" ||
  fail "cycle not named: $(cat "$TMP/out")"
rm "$T/framework/c/c.c"
layers "$T" >"$TMP/out" || fail "a one-way chain read as a cycle: $(cat "$TMP/out")"
# ... one between applications, and the core including an application
printf '#include "../q/q.h"\n#include "a/a.h"\n' >"$T/apps/p/p.h"
printf '#include "../p/p.h"\n' >"$T/apps/q/q.c"
: >"$T/apps/q/q.h"
layers "$T" >"$TMP/out" && fail "a cycle between applications was not seen"
grep -q '^cycle between apps/p, apps/q: ' "$TMP/out" || fail "apps cycle not named: $(cat "$TMP/out")"
rm "$T/apps/q/q.c"
layers "$T" >"$TMP/out" || fail "apps on the core read as a fault: $(cat "$TMP/out")"
printf '#include "../../apps/q/q.h"\n' >"$T/framework/c/c.c"
layers "$T" >"$TMP/out" && fail "the core including an application was not seen"
grep -q '^framework includes an application: framework/c/c.c -> apps/q/q.h$' "$TMP/out" ||
  fail "core -> apps include not named: $(cat "$TMP/out")"
printf '#include "p/p.h"\n' >"$T/framework/c/c.c"   # through apps/ as an include path
layers "$T" >"$TMP/out" && fail "the core including an application by path was not seen"
grep -q '^framework includes an application: framework/c/c.c -> apps/p/p.h$' "$TMP/out" ||
  fail "core -> apps include not named: $(cat "$TMP/out")"
finish
