# SPDX-License-Identifier: GPL-3.0-or-later
# The relocatable bundle (scripts/bundle.sh): unpacked in a fresh folder it
# runs a shortened quickstart with an empty environment, loading only its
# own plugins, recipes and libraries (every library but the C library's
# resolves inside it); as root, also with the system's library folder
# replaced by one holding nothing but the C library, in a mount namespace.
. "$(dirname "$0")/lib.sh" || exit 99
: "${TMP:?lib.sh sets TMP}"

if ! out=$("$SRC/scripts/bundle.sh" -o "$TMP/dist" -w "$TMP/work" 2>"$TMP/bundle.err"); then
  fail "bundle.sh: $(tail -n 20 "$TMP/bundle.err")"
  finish
fi
[[ -f $out && $out == "$TMP"/dist/boostlab-*-x86_64.tar.gz ]] || fail "bundle.sh printed '$out'"
rm -rf "$TMP/work" # nothing of the build may be needed
mkdir -p "$TMP/node/run"
tar -C "$TMP/node" -xzf "$out" || fail "cannot unpack $out"
B=$(echo "$TMP"/node/boostlab-*-x86_64)
[[ -x $B/bin/boostlab ]] || { fail "no bin/boostlab in $(ls "$TMP/node")"; finish; }
ls "$B"/lib/boostlab/*.so >/dev/null 2>&1 || fail "no plugins in lib/boostlab"
[[ -f $B/share/boostlab/configs/mcboost-exp.ini ]] || fail "no recipes in share/boostlab/configs"

# ---- every library outside the C library resolves inside the bundle ------
for f in "$B/bin/boostlab" "$B"/lib/boostlab/*.so; do
  env -i PATH=/usr/bin:/bin ldd "$f" >"$TMP/ldd" 2>&1 || fail "ldd $f: $(cat "$TMP/ldd")"
  while read -r lib arrow path _; do
    [[ $arrow == "=>" ]] || continue
    case $lib in
      ld-linux*.so.* | libc.so.* | libm.so.* | libmvec.so.* | libpthread.so.* | libdl.so.* | \
        librt.so.* | libutil.so.* | libresolv.so.* | libanl.so.* | libnsl.so.*) continue ;;
    esac
    path=$(readlink -f "$path")
    [[ $path == "$B/lib/"* ]] || fail "${f#"$B"/}: $lib resolves to $path, outside the bundle"
  done <"$TMP/ldd"
done

# ---- a shortened quickstart in a clean folder, empty environment --------
sed "s/^iterations = .*/iterations = 20/;s/^repeats = .*/repeats = 2/;s#\.\./share/#$B/share/#" \
  "$B/experiments/quickstart.ini" >"$TMP/node/run/exp.ini"
E=(env -i PATH=/usr/bin:/bin HOME="$TMP/node")
(cd "$TMP/node/run" && "${E[@]}" "$B/bin/boostlab" run --quiet --output qs exp.ini) \
  >"$TMP/table" 2>"$TMP/err" || fail "quickstart from the bundle: $(cat "$TMP/err")"
rows=$(tail -n +2 "$TMP/node/run/qs/summary.csv" 2>/dev/null | wc -l)
[[ $rows -eq 10 ]] || fail "summary.csv has $rows rows, expected 10"
grep -qP "^stump\tweak\t[0-9a-f]{16}\t$B/lib/boostlab/" "$TMP/node/run/qs/plugins.tsv" ||
  fail "stump not from the bundle: $(cat "$TMP/node/run/qs/plugins.tsv")"
"${E[@]}" "$B/bin/boostlab" recipes mcboost-exp >"$TMP/out" 2>&1 || fail "recipes: $(cat "$TMP/out")"
grep -qF "$B/share/boostlab/configs/mcboost-exp.ini" "$TMP/out" || fail "recipe not from the bundle: $(head -3 "$TMP/out")"
# moved (through a symbolic link too): the same
mv "$B" "$TMP/node/moved"
ln -s "$TMP/node/moved/bin/boostlab" "$TMP/node/bl"
"${E[@]}" "$TMP/node/bl" plugins stump >"$TMP/out" 2>&1 || fail "moved bundle: $(cat "$TMP/out")"
grep -qF "file: $TMP/node/moved/lib/boostlab/" "$TMP/out" || fail "moved bundle's stump: $(cat "$TMP/out")"
mv "$TMP/node/moved" "$B"

# ---- the system's libraries out of reach ---------------------------------
# A mount namespace where the system library folder holds only the C
# library and the loader, and /usr/local/lib nothing.
sys=/usr/lib/x86_64-linux-gnu
if [[ $(id -u) -ne 0 ]] || ! unshare -m --propagation private true 2>/dev/null || [[ ! -d $sys ]]; then
  echo "SKIP (part): hiding $sys needs root and mount namespaces (unshare -m); checked with ldd only"
else
  mkdir -p "$TMP/libc"
  for l in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libmvec.so.1 libpthread.so.0 libdl.so.2 librt.so.1; do
    [[ ! -e $sys/$l ]] || cp -L "$sys/$l" "$TMP/libc/"
  done
  # shellcheck disable=SC2016
  (cd "$TMP/node/run" && unshare -m --propagation private bash -c '
      { [[ ! -d /usr/local/lib ]] || mount -t tmpfs none /usr/local/lib; } || exit 99
      mount --bind "$1" "$2" || exit 99 # the last program this shell starts but boostlab
      [[ ! -e $2/libgomp.so.1 ]] || exit 98
      shift 2
      exec "$@"' sh "$TMP/libc" "$sys" \
      "${E[@]}" "$B/bin/boostlab" run --quiet --output hidden exp.ini) >/dev/null 2>"$TMP/err"
  rc=$?
  case $rc in
    0) cmp -s <(cut -d, -f1-6 "$TMP/node/run/qs/summary.csv") <(cut -d, -f1-6 "$TMP/node/run/hidden/summary.csv") ||
         fail "the hidden-libraries run gave other numbers" ;;
    99) echo "SKIP (part): cannot mount in the namespace: $(cat "$TMP/err")" ;;
    *) fail "quickstart with $sys hidden exited $rc: $(cat "$TMP/err")" ;;
  esac
fi
finish
