"""The reference deployment (scripts/deploy_local.py) runs here as a maintainer would run it:
PostgreSQL, two `judge serve` processes, nginx in front, a short load; every answer a 2xx."""

from __future__ import annotations

import importlib.util
import json
import shutil

import pytest

from judge import ROOT

pytestmark = pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (scripts/test.sh installs it)")


def test_the_reference_deployment_starts_serves_and_stops(capsys):
    spec = importlib.util.spec_from_file_location("deploy_local", ROOT / "scripts" / "deploy_local.py")
    deploy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(deploy)
    assert deploy.main(["--server", "2", "--thread", "4", "--carico", "4"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["permalink_condiviso"] == report["permalink_dal_proxy"]
    assert report["carico"]["richieste"] > 0
    assert report["carico"]["non_2xx"] == 0 and report["carico"]["errori_socket"] == 0
    assert report["archivio"]["backend"] == "postgresql" and report["archivio"]["partite"] == 1
