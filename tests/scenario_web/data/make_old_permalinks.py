"""Made once, with the code of commit ed93c5c (before snapshots of game histories existed):
writes ``permalinks-ed93c5c.sqlite3`` (the instance database as that code left it) and
``permalinks-ed93c5c.json`` (for each permalink: what its page showed then).
test_old_permalinks.py checks that today's code opens those permalinks and shows the same.
Re-running it with newer code would no longer prove anything: keep the committed files.

    .venv/bin/python tests/scenario_web/data/make_old_permalinks.py
"""

import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from judge.engine.scenario.templates import new_scenario  # noqa: E402
from judge.web import create_app  # noqa: E402


def log_entries(html: str) -> list[str]:
    body = html.split('class="sc-log-body"', 1)[1]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", x)).strip()
            for x in re.findall(r'<li class="sc-ev[^"]*">(.*?)</li>', body, re.S)]


def main() -> None:
    inst = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": str(inst), "TESTING": True, "SECRET_KEY": "old"})
    c = app.test_client()
    tok = re.search(r'name="csrf_token" value="([^"]+)"', c.get("/simulatore").get_data(as_text=True))[1]

    def post(url, **data):
        r = c.post(url, data={"csrf_token": tok, **data})
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        return r.location

    d = new_scenario("two-player", title="Orso, mano piena e grimori")
    d["battlefield"] = [{"id": "orso", "name": "Orso", "types": ["creature"], "power": 2,
                         "toughness": 2, "controller": "p1"}]
    d["players"][0]["hand"] = [{"id": f"h{i}", "name": f"Carta {i}", "types": []} for i in range(9)]
    for p in d["players"]:
        p["library"] = [{"id": f"{p['id']}-l{i}", "name": "Isola", "types": ["land"]} for i in range(5)]
    draft = post("/simulatore/importa", json=json.dumps(d))
    g = post("/simulatore/importa", json=json.dumps({"format": "judge-partita", "version": 1, "scenario": d}))
    games = {"inizio": g}
    g = post(g, azione="vai", fino_a="declare_attackers")
    g = post(g, **{"azione": "decidi", "att-0": "p2"})
    games["attacco"] = g
    g = post(g, azione="vai", fino_a="cleanup")
    g = post(g, azione="decidi", scarta=["h0", "h1"])
    games["scarto"] = g
    g = post(g, azione="turno")
    games["turno2"] = g
    games["annullato"] = post(g, azione="annulla")
    out = {"bozza": draft.split("?")[0], "partite": {}}
    for name, url in games.items():
        html = c.get(url).get_data(as_text=True)
        out["partite"][name] = {
            "url": url, "registro": log_entries(html),
            "stato": json.loads(c.get(url + "/scenario.json").data),
            "eventi": c.get("/api/scenari/" + url.rsplit("/", 1)[1]).get_json()["eventi"],
        }
    shutil.copy(inst / "scenari.sqlite3", HERE / "permalinks-ed93c5c.sqlite3")
    (HERE / "permalinks-ed93c5c.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n",
                                                  encoding="utf-8")
    shutil.rmtree(inst)


if __name__ == "__main__":
    main()
