#!/usr/bin/env bash
# One command for the whole test suite on a fresh machine: venv, test extras,
# Debian's chromium for the browser tests (when missing), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install -q -e '.[test]'
# Debian packages the tests drive: chromium (browser tests), wrk (load test), postgresql (the
# store's suite and the many-servers tests start their own cluster with initdb/pg_ctl) and
# nginx (the reference deployment's proxy). Services are not started by the install.
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || missing="$missing postgresql"
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing="$missing nginx-light"
if [ -n "$missing" ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  # policy-rc.d: the packages' own services (a cluster on 5432, nginx on 80) stay stopped
  rcd=/usr/sbin/policy-rc.d; placed=""
  if [ ! -e "$rcd" ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee "$rcd" >/dev/null && $sudo chmod +x "$rcd" && placed=1; fi
  ($sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null
  [ -z "$placed" ] || $sudo rm -f "$rcd"
fi
exec .venv/bin/python -m pytest "$@"
