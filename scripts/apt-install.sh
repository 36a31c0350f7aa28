#!/usr/bin/env bash
# scripts/apt-install.sh PACKAGE...: installs Debian packages a leg needs (root and apt-get
# required). Exits non-zero, saying why, when they cannot be installed: the caller then
# fails, or skips through scripts/leg-skip.sh (which fails under CI); it never goes on as
# if the tool were there.
set -uo pipefail
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "cannot install $*: needs root and apt-get" >&2
    exit 1
fi
echo "== installing $* (apt-get)"
if ! apt-get update -qq; then
    echo "apt-get update failed: cannot install $*" >&2
    exit 1
fi
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; then
    echo "apt-get install $* failed" >&2
    exit 1
fi
