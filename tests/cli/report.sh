# SPDX-License-Identifier: GPL-3.0-or-later
# `boostlab report`: the HTML page and its Markdown twin from an output
# folder: tables with the best value in bold and the paper's numbers, the
# statistical tests, plots (curves, CD diagram, decision boundaries of a
# 2-D data set), a report without gnuplot, odd stores, and the errors.
. "$(dirname "$0")/lib.sh"

# two interleaved half-moons: a 2-D problem with a curved boundary
python3 - "$TMP/moons.csv" <<'PY'
import math, random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    f.write("x1,x2,label\n")
    for i in range(120):
        c = i % 2
        t = math.pi * random.random()
        x, y = (math.cos(t), math.sin(t)) if c == 0 else (1 - math.cos(t), 0.5 - math.sin(t))
        f.write("%.4f,%.4f,%s\n" % (x + random.gauss(0, 0.1), y + random.gauss(0, 0.1),
                                    "upper" if c == 0 else "lower"))
PY

cat >"$TMP/paper.csv" <<'CSV'
# numbers "printed in the paper" (made up for the test)
table,data,algorithm,paper_mean,paper_std
t1,iris,exp,5.3,2.1
t1,"moons",log,12.5,3.25
t1,letter,exp,9.9,1.0
t2,iris,exp,77.7,7.7
CSV

cat >"$TMP/rep.ini" <<INI
[experiment]
name = report-test
repeats = 3
iterations = 30
paper = paper.csv
paper_table = t1
[data iris]
file = $SRC/data/iris.csv
test_ratio = 0.3
[data wine]
file = $SRC/data/wine.csv
test_ratio = 0.3
[data moons]
file = $TMP/moons.csv
test_ratio = 0.3
[algorithm exp]
recipe = mcboost-exp
[algorithm log]
recipe = mcboost-log
[algorithm samme]
recipe = samme
INI

"$BL" run --quiet --jobs 2 --output "$TMP/res" "$TMP/rep.ini" >"$TMP/run.out" 2>"$TMP/run.err" ||
  fail "run: $(cat "$TMP/run.err")"
# `results --summary` prints run's table: same columns, same order (that of
# experiment.ini: moons after wine), and filters with run's --algorithm
"$BL" results --summary "$TMP/res" >"$TMP/sum.out" || fail "results --summary"
diff "$TMP/run.out" "$TMP/sum.out" >"$TMP/sum.diff" || fail "results --summary is not run's table: $(cat "$TMP/sum.diff")"
head -1 "$TMP/sum.out" | grep -q "iters.*weak s.*coef s.*ms/iter" || fail "summary columns: $(head -1 "$TMP/sum.out")"
"$BL" results --summary --algorithm samme "$TMP/res" >"$TMP/sum1.out" || fail "results --algorithm"
[[ $(tail -n +2 "$TMP/sum1.out" | wc -l) -eq 3 && -z $(tail -n +2 "$TMP/sum1.out" | grep -v " samme ") ]] ||
  fail "results --algorithm samme: $(cat "$TMP/sum1.out")"
"$BL" results --summary --algo samme "$TMP/res" | cmp -s - "$TMP/sum1.out" || fail "--algo no longer works"
"$BL" results --help | grep -q -- "--algorithm GLOB" || fail "results --help does not name --algorithm"
"$BL" report "$TMP/res" >"$TMP/rep.out" 2>"$TMP/rep.err" || fail "report: $(cat "$TMP/rep.err")"
R=$TMP/res/report
[[ -s $R/report.html ]] || fail "no report.html"
[[ -s $R/report.md ]] || fail "no report.md"

# plots need gnuplot; without it only the tables and tests are checked
have_gp=0
command -v "${BOOSTLAB_GNUPLOT:-gnuplot}" >/dev/null 2>&1 && have_gp=1
((have_gp)) || echo "note: gnuplot not found, plot checks skipped"

# self-contained: SVG inlined, nothing fetched from elsewhere
((have_gp)) && ! grep -q "<svg" "$R/report.html" && fail "report.html has no inline SVG"
grep -Eiq "(src|href)[[:space:]]*=[[:space:]]*[\"']?[[:space:]]*(https?:|//)|url\([\"']?(https?:|//)" "$R/report.html" &&
  fail "report.html refers to something outside: $(grep -Eio "(src|href)=.{0,40}" "$R/report.html" | head -3)"
grep -Eiq "<(img|link|script)[[:space:]]" "$R/report.html" && fail "report.html loads images, styles or scripts"

# the bold value of each data set's row is the lowest mean test error
"$BL" results --format csv "$TMP/res" >"$TMP/all.csv" || fail "results csv"
python3 - "$TMP/all.csv" "$R/report.md" <<'PY' || fail "bold best values in report.md are wrong"
import csv, re, statistics, sys
runs = list(csv.DictReader(open(sys.argv[1])))
mean = {}
for r in runs:
    mean.setdefault((r["data"], r["algo"]), []).append(float(r["test_err"]))
mean = {k: 100 * statistics.mean(v) for k, v in mean.items()}
md = open(sys.argv[2]).read()
sec = md.split("### Test error", 1)[1].split("###", 1)[0]
rows = [l for l in sec.splitlines() if l.startswith("|")]
head = [c.strip() for c in rows[0].strip("|").split("|")]
assert head[1:] == ["exp", "log", "samme"], head
seen = 0
for line in rows[2:]:
    cells = [c.strip() for c in line.strip("|").split("|")]
    data = cells[0]
    best = min(mean[(data, a)] for a in head[1:])
    want = {a for a in head[1:] if round(mean[(data, a)], 2) == round(best, 2)}
    got = {head[j] for j, c in enumerate(cells) if j and c.startswith("**")}
    assert got == want, (data, got, want, cells)
    for j, c in enumerate(cells[1:], 1):
        m = re.match(r"\**([0-9.]+) \(", c)
        assert m and abs(float(m.group(1)) - mean[(data, head[j])]) < 0.006, (c, mean[(data, head[j])])
    seen += 1
assert seen == 3, seen
# the paper's numbers beside ours, in the right cells
assert re.search(r"^\| iris \|[^|]*· paper 5\.3 \(2\.1\) \|", sec, re.M), sec
assert re.search(r"^\| moons \|[^|]*\|[^|]*· paper 12\.5 \(3\.25\) \|", sec, re.M), sec
assert "9.9" not in sec
PY
grep -q "paper 5.3 (2.1)" "$R/report.html" || fail "report.html lacks the paper's numbers"
# (the paper's cells only: a time elsewhere on the page may read 77.7)
grep -q "paper 77\.7" "$R/report.md" && fail "a row of another paper table (paper_table) was used"

# the statistics
for f in "$R/report.md" "$R/report.html"; do
  for s in "Friedman test" "average rank" "Nemenyi critical difference" "Wilcoxon signed-rank" \
           "Paired t-test" "Two-proportion z-test" "boostlab report"; do
    grep -q "$s" "$f" || fail "$(basename "$f") lacks '$s'"
  done
done
grep -q "exp vs samme" "$R/report.md" || fail "no reference-vs-other rows"
grep -q "boostlab run -o" "$R/report.md" || fail "no command to rerun the experiment"

# plots: curves, CD diagram, and the decision boundaries of the 2-D set only
if ((have_gp)); then
for p in err-iris time-wine err-moons cd boundary-moons-exp boundary-moons-log boundary-moons-samme; do
  [[ -s $R/plots/$p.png && -s $R/plots/$p.svg ]] || fail "plot $p missing: $(ls "$R/plots" | tr '\n' ' ')"
done
ls "$R/plots" | grep -q "boundary-iris" && fail "a boundary plot for a 4-D data set"
grep -q "(plots/boundary-moons-log.png)" "$R/report.md" || fail "report.md does not link the boundary plot"
n=$(grep -c "<svg" "$R/report.html")
[[ $n -eq $(ls "$R/plots"/*.svg | wc -l) ]] || fail "report.html inlines $n SVGs, plots/ holds $(ls "$R/plots"/*.svg | wc -l)"
fi

# plots at page width with the key below, and the paired difference plot
if ((have_gp)); then
  [[ -s $R/plots/diff-iris.svg ]] || fail "no difference plot: $(ls "$R/plots" | tr '\n' ' ')"
  grep -q 'width="1100"' "$R/plots/err-iris.svg" || fail "error plot is not page-wide"
  grep -q "minus exp's on the same splits" "$R/report.md" || fail "no caption of the difference plot"
fi

# step 4 is defined where the page first names it; one precision per time table
python3 - "$R/report.md" <<'PY' || fail "step 4 or the time table"
import re, sys
md = open(sys.argv[1]).read()
first = md.index("\u2463")
assert md[first - 6:first + 40].startswith("(step \u2463 of the papers' boosting"), md[first - 40:first + 60]
sec = md.split("### Time", 1)[1].split("###", 1)[0]
decs = set()
for line in sec.splitlines():
    if line.startswith("|") and not line.startswith("| :") and "data set" not in line:
        for c in line.strip("|").split("|")[1:]:
            for v in re.findall(r"[0-9]+\.([0-9]+)", c):
                decs.add(len(v))
assert len(decs) == 1, decs
PY

# the data sets, and the tests recomputed from the runs: Nadeau-Bengio
# corrected t (variance x (1/J + n_test/n_train)), Holm over the table,
# wins/ties/losses
grep -Eq '^\| iris \| 150 \| 105 \| 45 \| 4 \| 3 \| 3 \|$' "$R/report.md" || fail "no data set table row for iris"
grep -Eq '^\| moons \| 120 \| 84 \| 36 \| 2 \| 2 \| 3 \|$' "$R/report.md" || fail "no data set table row for moons"
python3 - "$TMP/all.csv" "$R/report.md" <<'PY' || fail "corrected t-test, Holm or wins/ties/losses wrong"
import csv, math, re, statistics, sys
runs = list(csv.DictReader(open(sys.argv[1])))
err = {(r["data"], r["algo"], int(r["rep"])): float(r["test_err"]) for r in runs}
ratio = {(r["data"], int(r["rep"])): int(r["m_test"]) / int(r["m_train"]) for r in runs}
md = open(sys.argv[2]).read()
sec = md.split("### Paired t-test", 1)[1].split("###", 1)[0]
rows = [[c.strip() for c in l.strip("|").split("|")] for l in sec.splitlines() if l.startswith("| ") and " vs " in l]
assert len(rows) == 6, rows
ps = []
for data, pair, n, md_, rt, t, p, holm, plain, sig in rows:
    ref, oth = pair.split(" vs ")
    d = [err[(data, ref, j)] - err[(data, oth, j)] for j in range(3)]
    rho = statistics.mean(ratio[(data, j)] for j in range(3))
    m, v = statistics.mean(d), statistics.variance(d)
    want_t = m / math.sqrt(v * (1 / 3 + rho)) if v > 0 else 0.0
    assert abs(float(t) - want_t) < 1.5e-3 * max(1, abs(want_t)), (data, pair, t, want_t)
    # the plain t is larger in size: its p is never above the corrected one
    assert float(plain) <= float(p) + 1e-4, (plain, p)
    ps.append(float(p))
# Holm from the printed p-values (4 decimals)
order = sorted(range(len(ps)), key=lambda i: ps[i])
adj, run = [0] * len(ps), 0
for j, i in enumerate(order):
    run = max(run, min(1, (len(ps) - j) * ps[i]))
    adj[i] = run
for r, a in zip(rows, adj):
    assert abs(float(r[7]) - a) < 1e-3, (r, a)
    assert (r[9] == "**yes**") == (float(r[7]) <= 0.05), r
# wins/ties/losses of exp against each other over the data sets
sec = md.split("### Wins, ties and losses", 1)[1].split("###", 1)[0]
for oth in ("log", "samme"):
    line = [l for l in sec.splitlines() if l.startswith("| exp vs %s " % oth)][0]
    w, t, l = [int(c) for c in line.strip("|").split("|")[1:4]]
    want = [0, 0, 0]
    for data in ("iris", "wine", "moons"):
        a = round(1e4 * statistics.mean(err[(data, "exp", j)] for j in range(3)))
        b = round(1e4 * statistics.mean(err[(data, oth, j)] for j in range(3)))
        want[0 if a < b else 2 if a > b else 1] += 1
    assert [w, t, l] == want, (oth, [w, t, l], want)
PY
for s in "Nadeau and Bengio" "Holm-adjusted" "Per data set:" "Per test set:" "Over data sets:" \
         "not the sum over the repeats"; do
  grep -q "$s" "$R/report.md" || fail "report.md does not say '$s'"
done

# provenance: version and commit, seed, split seeds, parameters, hosts,
# links to experiment.ini and summary.csv, the plugins the run recorded in
# plugins.tsv (then none recorded, then a made-up file)
for s in "## Provenance" "boostlab:\*\* [0-9.]*, commit [^ ]" "Experiment seed:\*\* " \
         "iris:\*\* 0: [0-9]*, 1: [0-9]*, 2: [0-9]*" "samme (recipe samme)" "loss = samme-exp" \
         "\[experiment.ini\](../experiment.ini)" "\[summary.csv\](../summary.csv)"; do
  grep -q "$s" "$R/report.md" || fail "report.md provenance lacks '$s'"
done
[[ -s $TMP/res/plugins.tsv ]] || fail "boostlab run wrote no plugins.tsv"
grep -Eq '^\| loss \| samme-exp \| /[^|]*\.so \| [0-9a-f]{16} \| [0-9T:Z-]+ \|$' "$R/report.md" ||
  fail "the run's plugins.tsv is not shown: $(grep -A6 '### Plugins' "$R/report.md")"
mv "$TMP/res/plugins.tsv" "$TMP/plugins.tsv.run"
"$BL" report -q --no-plots -o "$TMP/noprov" "$TMP/res" || fail "report without plugins.tsv"
grep -q "Plugin paths and hashes: not recorded" "$TMP/noprov/report.md" ||
  fail "a folder without plugins.tsv is not said to have none"
grep -q '<a href="../experiment.ini">experiment.ini</a>' "$R/report.html" || fail "report.html does not link experiment.ini"
grep -q '<a href="../summary.csv">summary.csv</a>' "$R/report.html" || fail "report.html does not link summary.csv"
printf 'plugin\trole\thash64\tfile\tsince\nmargin-exp\tloss\t%016d\t/usr/lib/boostlab/loss_margin_exp.so\t2026-01-02T03:04:05Z\n' 7 >"$TMP/res/plugins.tsv"
"$BL" report -q --no-plots -o "$TMP/prov" "$TMP/res" || fail "report with plugins.tsv"
grep -Eq '^\| loss \| margin-exp \| /usr/lib/boostlab/loss\\?_margin\\?_exp.so \| 0{15}7 \| 2026-01-02T03:04:05Z \|$' "$TMP/prov/report.md" ||
  fail "plugins.tsv not shown: $(grep -A4 '### Plugins' "$TMP/prov/report.md")"
# links from a report written elsewhere still find the files
grep -q "\[experiment.ini\](../res/experiment.ini)" "$TMP/prov/report.md" || fail "relative link from -o"
rm "$TMP/res/plugins.tsv"

# --reference, --alpha and --output
"$BL" report --reference samme --alpha 0.1 --output "$TMP/ref" --no-plots "$TMP/res" 2>"$TMP/e" ||
  fail "report --reference: $(cat "$TMP/e")"
grep -q "samme vs exp" "$TMP/ref/report.md" || fail "--reference samme not used"
grep -q "alpha = 0.1" "$TMP/ref/report.md" || fail "--alpha 0.1 not used"
grep -q "no-plots" "$TMP/ref/report.md" || fail "--no-plots not said"

# no gnuplot: a report without plots, saying so
BOOSTLAB_GNUPLOT=/nonexistent "$BL" report -o "$TMP/nogp" "$TMP/res" 2>"$TMP/e" ||
  fail "report without gnuplot: $(cat "$TMP/e")"
grep -q "<svg" "$TMP/nogp/report.html" && fail "plots without gnuplot"
grep -q "gnuplot-nox" "$TMP/nogp/report.html" || fail "report.html does not say how to get plots"
grep -q "gnuplot-nox" "$TMP/nogp/report.md" || fail "report.md does not say how to get plots"
[[ -e $TMP/nogp/plots ]] && [[ -n $(ls "$TMP/nogp/plots") ]] && fail "plot files without gnuplot"

# an odd store: no test errors on one data set (as without a test part),
# a repeat missing, and the experiment file gone
cp -r "$TMP/res" "$TMP/odd"
rm -rf "$TMP/odd/report" "$TMP/odd/experiment.ini"
python3 - "$TMP/odd/results.sqlite" <<'PY' || fail "could not edit the store copy"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA foreign_keys = ON")
ids = [r[0] for r in db.execute("SELECT id FROM runs WHERE data = 'wine'")]
db.execute("UPDATE runs SET test_err = NULL, test_err0 = NULL, m_test = 0 WHERE data = 'wine'")
db.execute("UPDATE curves SET test_err = NULL WHERE run_id IN (%s)" % ",".join(map(str, ids)))
db.execute("DELETE FROM runs WHERE data = 'iris' AND algo = 'log' AND rep = 2")
db.commit()
PY
"$BL" report "$TMP/odd" 2>"$TMP/e" || fail "report of an odd store: $(cat "$TMP/e")"
grep -q "n=2" "$TMP/odd/report/report.md" || fail "a cell with fewer repeats is not marked"
# an incomplete store says so, lists what is missing and compares only paired runs
O=$TMP/odd/report/report.md
grep -q "Runs:\*\* 26 of 27 planned: 1 missing, the store is incomplete" "$O" || fail "incomplete store not said"
grep -Eq '^\| iris \| log \| 2 of 3 \| 2 \|$' "$O" || fail "missing run not listed: $(grep -A6 '## Missing' "$O")"
grep -Eq '^\| iris \| [0-9]+ \| [0-9]+ \| [0-9]+ \| 4 \| 3 \| 2 \|$' "$O" || fail "iris has not 2 paired repeats"
"$BL" results --format csv "$TMP/odd" >"$TMP/odd.csv" || fail "results csv of the odd store"
python3 - "$TMP/odd.csv" "$O" <<'PY' || fail "incomplete store: bold or tests not over the paired runs"
import csv, re, statistics, sys
runs = [r for r in csv.DictReader(open(sys.argv[1])) if r["data"] == "iris"]
err = {(r["algo"], int(r["rep"])): float(r["test_err"]) for r in runs}
md = open(sys.argv[2]).read()
# bold by the means over repeats 0 and 1, which all three ran
pm = {a: round(1e4 * statistics.mean(err[(a, j)] for j in (0, 1))) for a in ("exp", "log", "samme")}
best = min(pm.values())
sec = md.split("### Test error", 1)[1].split("###", 1)[0]
cells = [c.strip() for c in [l for l in sec.splitlines() if l.startswith("| iris ")][0].strip("|").split("|")]
got = {a for a, c in zip(("exp", "log", "samme"), cells[1:]) if c.startswith("**")}
assert got == {a for a in pm if pm[a] == best}, (got, pm)
# t and z tests of exp vs log on iris use the 2 repeats both ran
for title in ("### Paired t-test", "### Two-proportion z-test"):
    sec = md.split(title, 1)[1].split("###", 1)[0]
    assert re.search(r"^\| iris \| exp vs log \| 2 \|", sec, re.M), (title, sec)
    assert re.search(r"^\| iris \| exp vs samme \| 3 \|", sec, re.M), (title, sec)
PY
grep -q "store order" "$TMP/odd/report/report.md" || fail "no note on the missing experiment.ini"
((have_gp)) && ! grep -q "decision boundaries skipped" "$TMP/odd/report/report.md" &&
  fail "no note on skipped boundaries"

# one data set, one algorithm, one repeat: tests omitted with a reason
cat >"$TMP/tiny.ini" <<INI
[experiment]
name = tiny
repeats = 1
iterations = 5
[data iris]
file = $SRC/data/iris.csv
[algorithm exp]
recipe = mcboost-exp
INI
"$BL" run --quiet --output "$TMP/tiny" "$TMP/tiny.ini" >/dev/null 2>&1 || fail "tiny run"
"$BL" report "$TMP/tiny" 2>"$TMP/e" || fail "report of one run: $(cat "$TMP/e")"
grep -q "Friedman test omitted" "$TMP/tiny/report/report.md" || fail "tiny: Friedman not omitted"
grep -q "omitted: there is only one algorithm" "$TMP/tiny/report/report.md" ||
  fail "tiny: pairwise tests not omitted"

# errors
expect_fail 1 "no results store \(results.sqlite\) here" -- "$BL" report "$TMP/nothing"
[[ ! -e $TMP/nothing ]] || fail "report created the missing folder"
mkdir "$TMP/empty"
expect_fail 1 "no results store" -- "$BL" report "$TMP/empty"
[[ -z $(ls "$TMP/empty") ]] || fail "report wrote into a folder without a store"
mkdir "$TMP/none" && cp "$TMP/res/results.sqlite" "$TMP/none/"
python3 - "$TMP/none/results.sqlite" <<'PY' || fail "could not empty the store copy"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA foreign_keys = ON")
db.execute("DELETE FROM runs")
db.commit()
PY
expect_fail 1 "results store holds no runs" -- "$BL" report "$TMP/none"
[[ ! -e $TMP/none/report ]] || fail "report of an empty store wrote a report"
expect_fail 1 "no such algorithm \(algorithms: exp, log, samme\)" -- \
  "$BL" report --reference nope "$TMP/res"
expect_fail 1 "no runs of experiment" -- "$BL" report --experiment nope "$TMP/res"
expect_fail 2 "--alpha expects" -- "$BL" report --alpha 1.5 "$TMP/res"
expect_fail 2 "unknown option" -- "$BL" report --bogus "$TMP/res"
expect_fail 2 "expects one output folder" -- "$BL" report
"$BL" report --help | grep -q "Usage: boostlab report" || fail "report --help"

# experiments/logitboost/curves-by-leaves.py: the J curves of one nu of a
# J x nu grid (the paper's Figs. 6 and 7), a table row per J; and
# grid-table.py: the grid's table beside the paper's (Tables 11, 12, 15)
cat >"$TMP/jnu.ini" <<INI
[experiment]
name = jnu
threads = 1
[data iris]
file = $SRC/data/iris.csv
test_ratio = 0.3
[algorithm aoso]
recipe = aoso-logitboost
weak.leaves = {4, 6}
shrinkage = {0.06, 0.1}
iterations = 12
[algorithm abc-worst]
recipe = abc-logitboost
weak.base = worst
weak.leaves = {4, 6}
shrinkage = {0.06, 0.1}
iterations = 3
[algorithm logitboost]
recipe = logitboost
iterations = 5
INI
CBL=$SRC/experiments/logitboost/curves-by-leaves.py
"$BL" run --quiet --output "$TMP/jnu" "$TMP/jnu.ini" >/dev/null 2>"$TMP/jnu.err" ||
  fail "J x nu run: $(cat "$TMP/jnu.err")"
"$CBL" --boostlab "$BL" "$TMP/jnu" iris 0.06 "$TMP/jnu.png" >"$TMP/jnu.md" 2>"$TMP/jnu.err" ||
  fail "curves-by-leaves.py: $(cat "$TMP/jnu.err")"
[[ $(grep -c '^| [0-9]' "$TMP/jnu.md") -eq 2 ]] || fail "curves-by-leaves.py: not 2 J rows: $(cat "$TMP/jnu.md")"
grep -qE '^\| 4 \| 12 \| [0-9.]+ \| [0-9.]+ \([0-9]+\) \|$' "$TMP/jnu.md" &&
  grep -qE '^\| 6 \| 12 \|' "$TMP/jnu.md" || fail "curves-by-leaves.py rows: $(cat "$TMP/jnu.md")"
[[ $(head -c 4 "$TMP/jnu.png" | od -An -c | tr -d ' ') == 211PNG ]] || fail "curves-by-leaves.py wrote no PNG"
expect_fail 1 "no runs of aoso with shrinkage 0.3" -- "$CBL" --boostlab "$BL" "$TMP/jnu" iris 0.3 "$TMP/x.png"
[[ ! -e $TMP/x.png ]] || fail "curves-by-leaves.py wrote a plot of no runs"
# an algorithm whose J and nu are not swept: read from its runs' parameters
"$CBL" --algo logitboost --boostlab "$BL" "$TMP/jnu" iris 0.1 "$TMP/lb.png" >"$TMP/lb.md" 2>"$TMP/jnu.err" ||
  fail "curves-by-leaves.py --algo logitboost: $(cat "$TMP/jnu.err")"
grep -qE '^\| 20 \| 5 \|' "$TMP/lb.md" && [[ $(grep -c '^| [0-9]' "$TMP/lb.md") -eq 1 ]] ||
  fail "curves-by-leaves.py --algo logitboost: $(cat "$TMP/lb.md")"
expect_fail 1 "no runs of nosuch" -- "$CBL" --algo nosuch --boostlab "$BL" "$TMP/jnu" iris 0.1 "$TMP/x.png"
expect_fail 1 "must be a .png" -- "$CBL" --boostlab "$BL" "$TMP/jnu" iris 0.1 "$TMP/x.svg"
GT=$SRC/experiments/logitboost/grid-table.py
printf '%s\n' '# made up for the test' 'table,data,algorithm,paper_mean,paper_std' \
  'grids,iris,"aoso{weak.leaves=4,shrinkage=0.1}",20,' 'grids,iris,"abc-worst{weak.leaves=4,shrinkage=0.1}",40,' \
  'grids,wine,"aoso{weak.leaves=6,shrinkage=0.1}",60,' >"$TMP/gpaper.csv"
"$GT" --boostlab "$BL" --paper "$TMP/gpaper.csv" "$TMP/jnu" iris >"$TMP/gt.md" 2>"$TMP/gt.err" ||
  fail "grid-table.py: $(cat "$TMP/gt.err")"
# 45 test rows: 20 % and 40 % of them are 9 and 18 errors; 3 iterations of
# ABC stop at the budget (*), cells not run are -
grep -qE '^\| 4 \| - / -, - / - \| [0-9]+\*? / -, [0-9]+\* / - \| - / -, - / - \| [0-9]+\*? / 9, [0-9]+\* / 18 \|$' "$TMP/gt.md" &&
  grep -qE '^\| 6 \| - / -, - / - \| [0-9]+\*? / -, [0-9]+\* / - \| - / -, - / - \| [0-9]+\*? / -, [0-9]+\* / - \|$' "$TMP/gt.md" &&
  grep -qE '^\| 20 \| - / -, - / - \| - / -, - / - \| - / -, - / - \| - / -, - / - \|$' "$TMP/gt.md" &&
  grep -qE '^AOSO ours minus the paper.s: mean [-+][0-9.]+ errors, from [-+][0-9]+ to [-+][0-9]+, over 1 cells$' "$TMP/gt.md" &&
  grep -qE '^AOSO below abc-worst \(ours\) in [0-4] of 4 cells$' "$TMP/gt.md" &&
  grep -qE '^the paper.s AOSO below its ABC in 1 of 1 cells$' "$TMP/gt.md" ||
  fail "grid-table.py: $(cat "$TMP/gt.md")"
expect_fail 1 "no grid cells of wine" -- "$GT" --boostlab "$BL" "$TMP/jnu" wine
expect_fail 1 "nosuch.csv: No such file" -- "$GT" --boostlab "$BL" --paper "$TMP/nosuch.csv" "$TMP/jnu" iris
expect_fail 1 "no results store" -- "$CBL" --boostlab "$BL" "$TMP/none-such" iris 0.1 "$TMP/x.png"
finish
