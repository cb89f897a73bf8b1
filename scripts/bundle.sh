#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A relocatable boostlab: one tarball, boostlab-VERSION-x86_64.tar.gz, that
# runs from any folder of an x86-64 Linux without the Debian packages and
# without root (cluster nodes):
#
#   tar xf boostlab-*.tar.gz && boostlab-*/bin/boostlab run exp.ini
#
#   bin/boostlab              the program
#   lib/boostlab/*.so         the plugins
#   lib/*.so.*                every shared library the program and the
#                             plugins load, except the C library's own
#   share/boostlab/configs    the recipes
#   share/boostlab/data       the vendored data sets
#   experiments/quickstart.ini  the quickstart, reading share/boostlab/data
#
# boostlab finds lib/boostlab and share/boostlab/configs from its own
# location; the program and the plugins carry an RPATH relative to
# themselves ($ORIGIN), so no LD_LIBRARY_PATH is needed.  The C library,
# libm, libpthread, libdl, librt and the dynamic loader stay the system's:
# they must match the kernel interface and each other, and every Linux has
# them (glibc as new as the build machine's, or newer).  The bundle is
# built without MPI: an MPI library belongs to the cluster's launcher.
#
#   scripts/bundle.sh [-o OUT_DIR] [-w WORK_DIR]
#
# OUT_DIR (default: the current folder) receives the tarball; WORK_DIR
# (default: a temporary folder, removed at the end) holds the dedicated
# build, configured with --prefix=/opt/boostlab-VERSION-x86_64, so the
# tarball unpacked in /opt is also an ordinary install.  The source tree's
# own build is left alone.
set -euo pipefail

usage() {
  echo "usage: $0 [-o OUT_DIR] [-w WORK_DIR]" >&2
  exit 2
}
src=$(cd "$(dirname "$0")/.." && pwd)
out=$PWD
work=
while getopts o:w:h opt; do
  case $opt in
    o) out=$OPTARG ;;
    w) work=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 0 ]] || usage
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [[ -z $work ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/boostlab-bundle.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
[[ $(uname -m) == x86_64 ]] || { echo "$0: builds x86_64 bundles only (this is $(uname -m))" >&2; exit 1; }
for tool in ldd tar autoreconf; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is needed" >&2; exit 1; }
done

version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[[ -n $version ]] || { echo "$0: no version in $src/configure.ac" >&2; exit 1; }
name=boostlab-$version-x86_64
prefix=/opt/$name

# ---- a dedicated build of a copy of the sources -------------------------
# A copy, because a tree configured in place cannot also host a VPATH build.
echo "bundle: building in $work/src" >&2
rm -rf "$work/src" "$work/stage"
mkdir -p "$work/src"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # the tracked files and the new ones not ignored: what the checkout builds from
  (cd "$src" && git ls-files -z -c -o --exclude-standard | xargs -0 cp --parents -t "$work/src" 2>/dev/null) || true
else
  cp -a "$src/." "$work/src/"
  [[ ! -f $work/src/Makefile ]] || make -C "$work/src" -s distclean >/dev/null
fi
cd "$work/src"
# a make running this script (make check) must not pass on its variables
unset MAKEFLAGS MFLAGS MAKELEVEL
# --disable-new-dtags: an RPATH (not a RUNPATH) also serves the libraries'
# own dependencies (libgsl's libgslcblas, libglpk's libamd, ...), which a
# RUNPATH of the program would not.  The program wants $ORIGIN/../lib, a
# plugin in lib/boostlab wants $ORIGIN/..; each gets both, and the other
# names a folder that does not exist.  $$ survives make, \$ the shell.
rpath='-Wl,--disable-new-dtags -Wl,-rpath,\$$ORIGIN/../lib -Wl,-rpath,\$$ORIGIN/..'
{
  autoreconf -fi
  ./configure -q --prefix="$prefix" --libdir="$prefix/lib" --with-mpi=no
  make -j"$(nproc)" LDFLAGS="$rpath"
  make install DESTDIR="$work/stage"
} >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; echo "$0: the build failed (log: $work/build.log)" >&2; exit 1; }

root=$work/$name
rm -rf "$root"
mv "$work/stage$prefix" "$root"
rm -rf "$root/lib/pkgconfig" "$root/include" # building plugins wants a real install
find "$root" -name '*.la' -delete

# ---- the shared libraries -----------------------------------------------
# Everything ldd resolves for the program and the plugins, transitively,
# but the C library's own and the loader.
is_system() {
  case $1 in
    linux-vdso.so.* | ld-linux*.so.* | libc.so.* | libm.so.* | libmvec.so.* | libpthread.so.* | \
      libdl.so.* | librt.so.* | libutil.so.* | libresolv.so.* | libanl.so.* | libnsl.so.*) return 0 ;;
  esac
  return 1
}
elves=("$root/bin/boostlab" "$root"/lib/boostlab/*.so)
for f in "${elves[@]}"; do
  while read -r lib arrow path _; do
    [[ $arrow == "=>" ]] || continue
    is_system "$lib" && continue
    [[ $path == /* ]] || { echo "$0: $f: $lib not found" >&2; exit 1; }
    [[ -e $root/lib/$lib ]] || cp -L "$path" "$root/lib/$lib"
  done < <(ldd "$f")
done

# ---- the quickstart, reading the installed data ---------------------------
mkdir -p "$root/experiments"
sed 's#\.\./data/#../share/boostlab/data/#' "$src/experiments/quickstart.ini" \
  >"$root/experiments/quickstart.ini"
cat >"$root/README" <<EOF
boostlab $version for x86-64 Linux (glibc $(ldd --version | sed -n '1s/.* //p') or newer).

  bin/boostlab run experiments/quickstart.ini

runs from any folder, without LD_LIBRARY_PATH: the program finds its plugins
(lib/boostlab), recipes (share/boostlab/configs) and libraries (lib) beside
itself.  Data sets: share/boostlab/data.  Manual: share/man (man -M share/man
boostlab).  Licence: GPL-3.0-or-later; the libraries in lib/ keep their own.
EOF

tar -C "$work" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"
