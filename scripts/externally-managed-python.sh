#!/usr/bin/env bash
# scripts/externally-managed-python.sh DIR [PYTHON]: makes DIR a copy of PYTHON (default
# python3) whose global site-packages is marked EXTERNALLY-MANAGED (PEP 668), as Debian 12's
# and Ubuntu 24.04's python3 are: `DIR/bin/python3 -m pip install` (and DIR/bin/pip) refuse,
# while `DIR/bin/python3 -m venv` works. The interpreter binary is copied (Python finds its
# prefix from the executable's own location, after resolving symlinks); the standard library
# is linked entry by entry; site-packages is DIR's own, holding only a link to pip. .ci/run
# puts DIR/bin first on PATH and runs every leg with it, so that a leg that installs into
# the user's python3 (or imports a package only a global install would give it) fails CI.
# The script checks its own result: DIR's python must be a separate installation, and pip
# must refuse to install into it with pip's externally-managed-environment error.
set -euo pipefail
DIR=$1 SRC=${2:-python3}
read -r exe stdlib purelib ver < <("$SRC" -c 'import os, sys, sysconfig as s
print(os.path.realpath(sys.executable), s.get_path("stdlib"), s.get_path("purelib"), "python%d.%d" % sys.version_info[:2])')
pipdir=$("$SRC" -c 'import os, pip; print(os.path.dirname(pip.__file__))')
rm -rf "$DIR"
mkdir -p "$DIR/bin" "$DIR/lib/$ver/site-packages"
cp "$exe" "$DIR/bin/$ver"
ln -s "$ver" "$DIR/bin/python3"
ln -s "$ver" "$DIR/bin/python"
# Shared libraries beside the stdlib (libpython, for an $ORIGIN/../lib runpath).
for f in "$(dirname "$stdlib")"/*; do
    [ "$(basename "$f")" = "$ver" ] || ln -s "$f" "$DIR/lib/"
done
for f in "$stdlib"/*; do
    case $(basename "$f") in site-packages | dist-packages | EXTERNALLY-MANAGED) ;; *) ln -s "$f" "$DIR/lib/$ver/" ;; esac
done
ln -s "$pipdir" "$DIR/lib/$ver/site-packages/pip"
printf '[externally-managed]\nError=gcmkit test: this python3 refuses global installs (PEP 668); use a venv\n' \
    >"$DIR/lib/$ver/EXTERNALLY-MANAGED"
for p in pip pip3; do
    printf '#!/bin/sh\nexec "%s" -m pip "$@"\n' "$DIR/bin/python3" >"$DIR/bin/$p"
    chmod +x "$DIR/bin/$p"
done
# It is a separate interpreter with its own global site-packages ...
"$DIR/bin/python3" -c 'import sys; p = sys.argv[1]; assert sys.prefix == p, (sys.prefix, p); import pip, ssl, venv' "$(cd "$DIR" && pwd)"
# ... that refuses global installs.
if out=$("$DIR/bin/pip" install --no-index --no-deps "$DIR/none" 2>&1); then
    echo "FAIL: $DIR/bin/pip installed globally"; exit 1
fi
grep -q externally-managed-environment <<<"$out" || { echo "FAIL: pip failed, but not for PEP 668: $out"; exit 1; }
