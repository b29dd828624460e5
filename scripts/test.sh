#!/usr/bin/env bash
# One command for the whole test suite on a fresh machine: venv, test extras,
# Debian's chromium for the browser tests (when missing), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install -q -e '.[test]'
# Debian packages the tests drive: chromium (browser tests) and wrk (load test).
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
if [ -n "$missing" ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  ($sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null
fi
exec .venv/bin/python -m pytest "$@"
