"""The reference deployment (scripts/deploy_local.py) runs here as a maintainer would run it:
PostgreSQL, two `judge serve` processes, nginx in front, a short load; every answer a 2xx, and a
client past each limit refused by nginx as the app would: in Italian, with Retry-After and the
security headers (issue 38: nginx answered its 429s in English, bare, with a write limit ten
times the app's, and the app's limits were off)."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess

import pytest

from judge import ROOT


def _deploy():
    spec = importlib.util.spec_from_file_location("deploy_local", ROOT / "scripts" / "deploy_local.py")
    deploy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(deploy)
    return deploy


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (scripts/test.sh installs it)")
def test_the_reference_deployment_starts_serves_and_stops(capsys):
    deploy = _deploy()
    assert deploy.main(["--server", "2", "--thread", "4", "--carico", "4"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["permalink_condiviso"] == report["permalink_dal_proxy"]
    assert report["carico"]["richieste"] > 0
    assert report["carico"]["non_2xx"] == 0 and report["carico"]["errori_socket"] == 0
    assert report["archivio"]["backend"] == "postgresql"
    for budget, words in (("scritture", "60 salvataggi al minuto"), ("ricerche", "300 ricerche")):
        refused = report["limiti"][budget]
        assert refused["da"] == "nginx" and refused["retry_after"] == "1", refused
        assert refused["intestazioni_di_sicurezza"] and words in refused["messaggio"], refused
        assert "Riprova tra 1 secondo." in refused["messaggio"]
    assert report["limiti"]["scritture"]["tipo"] == "application/json"


def test_the_reference_configuration_has_the_apps_limits_and_covers_the_costly_routes(tmp_path):
    deploy = _deploy()
    limits = deploy.proxy_limits()
    conf = deploy.nginx_conf(tmp_path, 8080, [9001, 9002], limits)
    assert "__" not in re.sub(r"#.*", "", conf)                      # every placeholder filled
    assert "rate=60r/m" in conf and "rate=300r/m" in conf             # the app's own budgets
    locations = re.findall(r"location ~ (\S+) \{", conf)
    for route in ("/api/citazioni", "/sw.js", "/carte", "/api/carte", "/cerca", "/api/scenari"):
        assert any(re.match(pattern, route) for pattern in locations), route
    assert conf.count("add_header Content-Security-Policy") >= 6 and "Retry-After 1 always" in conf
    assert "Troppe richieste da questo indirizzo: il limite è di 60 salvataggi al minuto." in conf
    assert "'" not in "".join(re.findall(r"return 4\d\d '(.*)';", conf))  # nothing closes the strings early
    nginx = deploy.nginx_binary()
    if nginx is None:
        pytest.skip("nginx not installed (scripts/test.sh installs it)")
    for name in ("body", "proxy", "fcgi", "uwsgi", "scgi"):
        (tmp_path / name).mkdir()
    (tmp_path / "nginx.conf").write_text(conf, encoding="utf-8")
    check = subprocess.run([nginx, "-t", "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
