#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Serial sections from `perf script -F comm,pid,tid,time,ip,sym,dso` (on
stdin) of one boostlab run sampled at FREQ Hz (bench/profile.sh --serial).

A main-thread sample taken inside the engine's iteration (`iterate` on its
stack) is serial when the main thread is working (its innermost user frame
is not in libgomp, where a thread waits) and no other thread of the run has
a working sample within +-0.6 sampling periods of it: then only one thread
works, whatever the code's OpenMP pragmas say (a region with a false `if`
clause, or one whose other threads finished early, is serial time too).
Each serial sample counts under the innermost frame of its stack that lies
in boostlab's code (an object outside the system's /usr and /lib, or a
function inlined into one).
Prints a markdown table of the shares of the main thread's samples inside
iterations.
    serial_share.py FREQ < perf-script-output
"""
import bisect
import collections
import sys


def samples(lines):
    """(tid, pid, time, frames) per sample; frames innermost first, each
    (symbol, dso), an inlined frame given the dso of the frame it is in."""
    head, frames = None, []
    for line in lines:
        if not line.strip():
            if head:
                yield head + (resolve(frames),)
            head, frames = None, []
            continue
        if not line[0].isspace():
            f = line.split()
            pid, tid = f[1].split("/")
            head = (int(tid), int(pid), float(f[2].rstrip(":")))
            continue
        f = line.split(None, 1)
        if len(f) < 2:
            continue
        rest = f[1].rstrip()
        sym, _, dso = rest.rpartition(" (")
        frames.append((sym.split("+0x")[0], dso.rstrip(")")))
    if head:
        yield head + (resolve(frames),)


def resolve(frames):
    out, below = [], ""
    for sym, dso in reversed(frames):
        if dso == "inlined":
            dso = below
        below = dso
        out.append((sym, dso))
    return out[::-1]


def working(frames):
    """False when the innermost user-space frame is libgomp's (a wait)."""
    for sym, dso in frames:
        if dso != "[kernel.kallsyms]":
            return "libgomp" not in dso
    return False


def ours(dso):
    return not dso.startswith(("/usr/", "/lib", "[")) and dso != "inlined"


def main():
    freq = float(sys.argv[1])
    win = 0.6 / freq
    main_s, others = [], collections.defaultdict(list)
    for tid, pid, t, frames in samples(sys.stdin):
        if tid == pid:
            main_s.append((t, frames))
        elif working(frames):
            others[pid].append(t)
    busy = sorted(t for ts in others.values() for t in ts)
    total, serial = 0, collections.Counter()
    for t, frames in main_s:
        if not any(sym == "iterate" for sym, _ in frames):
            continue
        total += 1
        if not working(frames):
            continue
        j = bisect.bisect_left(busy, t - win)
        if j < len(busy) and busy[j] <= t + win:
            continue
        key = next((sym for sym, dso in frames if ours(dso)), "(outside boostlab)")
        serial[key] += 1
    if not total:
        sys.exit("serial_share.py: no main-thread sample inside an iteration")
    print("| serial section (innermost boostlab function) | main-thread samples | share of the iteration |")
    print("|---|---|---|")
    for key, n in serial.most_common(12):
        print(f"| `{key}` | {n} | {100 * n / total:.1f} % |")
    ns = sum(serial.values())
    print(f"| all serial time | {ns} | {100 * ns / total:.1f} % |")
    top = serial.most_common(1)
    name, n = top[0] if top else ("none", 0)
    print(f"\nmain-thread samples inside iterations: {total}; largest serial section: "
          f"`{name}`, {100 * n / total:.1f} % (bar: at most 5 %)")


if __name__ == "__main__":
    main()
