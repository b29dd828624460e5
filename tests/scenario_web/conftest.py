"""Fixtures for the simulator's web tests: an app on a temporary instance folder."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge.engine.scenario.templates import new_scenario
from judge.web import create_app

TOKEN_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


def bear(pid: str = "p1", ident: str = "orso", name: str = "Orso", **kw) -> dict:
    return {"id": ident, "name": name, "types": ["creature"], "power": 2, "toughness": 2,
            "controller": pid, **kw}


@pytest.fixture()
def library_dir(tmp_path: Path) -> Path:
    lib = tmp_path / "libreria"
    lib.mkdir()
    legend = new_scenario("two-player", title="Due leggende con lo stesso nome")
    legend["description"] = "La regola delle leggende."
    legend["rules"] = ["704.5j", "704.3"]
    legend["turn"]["step"] = "precombat_main"
    legend["battlefield"] = [
        {"id": "l1", "name": "Isamaru", "types": ["creature"], "supertypes": ["legendary"],
         "power": 2, "toughness": 2, "controller": "p1"},
        {"id": "l2", "name": "Isamaru", "types": ["creature"], "supertypes": ["legendary"],
         "power": 2, "toughness": 2, "controller": "p1"},
    ]
    (lib / "leggende.json").write_text(json.dumps(legend), encoding="utf-8")
    hand = new_scenario("two-player", title="Mano piena")
    hand["rules"] = ["514.1"]
    hand["players"][0]["hand"] = [{"id": f"h{i}", "name": f"Carta {i}", "types": ["land"]} for i in range(9)]
    (lib / "mano-piena.json").write_text(json.dumps(hand), encoding="utf-8")
    return lib


@pytest.fixture()
def app(tmp_path: Path, library_dir: Path):
    return create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "TESTING": True,
                       "SECRET_KEY": "test", "SCENARIO_LIBRARY": str(library_dir)})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture()
def token(client) -> str:
    r = client.get("/simulatore")
    return TOKEN_RE.search(r.get_data(as_text=True)).group(1)


class Sim:
    """Small helpers over the test client, in the words of the UI."""

    def __init__(self, client, token):
        self.c, self.token = client, token

    def post(self, url, data=None, **kw):
        return self.c.post(url, data={"csrf_token": self.token, **(data or {})}, **kw)

    def new(self, variant="two-player", players="") -> str:
        r = self.post("/simulatore/nuovo", {"variant": variant, "players": players})
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        return r.location.split("?")[0]

    def save(self, url, data) -> str:
        r = self.post(url, data)
        assert r.status_code == 303, r.get_data(as_text=True)[:3000]
        return r.location.split("?")[0]

    def upload(self, doc) -> str:
        r = self.post("/simulatore/importa", {"json": json.dumps(doc)})
        assert r.status_code == 303, r.get_data(as_text=True)[:3000]
        return r.location

    def act(self, url, **data) -> str:
        r = self.post(url, data)
        assert r.status_code == 303, r.get_data(as_text=True)[:3000]
        return r.location

    def page(self, url) -> str:
        r = self.c.get(url)
        assert r.status_code == 200, (url, r.status_code, r.get_data(as_text=True)[:2000])
        return r.get_data(as_text=True)

    def api(self, url) -> dict:
        r = self.c.get("/api/scenari/" + url.rstrip("/").rsplit("/", 1)[1])
        assert r.status_code == 200
        return r.get_json()


@pytest.fixture()
def sim(client, token) -> Sim:
    return Sim(client, token)
