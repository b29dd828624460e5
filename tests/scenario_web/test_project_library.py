"""Every scenario of the project's library opens in the stepper and in the builder, and the
rule pages link to the scenarios that exercise them."""

from __future__ import annotations

import html as html_mod
import json
import re
from html.parser import HTMLParser

import pytest
from werkzeug.datastructures import MultiDict

from judge.engine import Game
from judge.engine.scenario import parse as sc
from judge.engine.scenario.scenario_json import to_dict
from judge.web import create_app
from judge.web.simulator import library, views

from .conftest import TOKEN_RE

ENTRIES = library.library()


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    app = create_app({"INSTANCE_PATH": str(tmp_path_factory.mktemp("lib")), "TESTING": True,
                      "SECRET_KEY": "t"})
    c = app.test_client()
    tok = TOKEN_RE.search(c.get("/simulatore").get_data(as_text=True)).group(1)
    return c, tok


@pytest.mark.skipif(not ENTRIES, reason="libreria vuota")
@pytest.mark.parametrize("slug", [e.slug for e in ENTRIES])
def test_library_scenario_runs_in_the_stepper(real, slug):
    c, tok = real
    r = c.get(f"/simulatore/libreria/{slug}/avvia")
    assert r.status_code == 303
    g = r.location
    for _ in range(4):                       # a few turns, taking every default decision
        html = c.get(g).get_data(as_text=True)
        if 'class="sc-result"' in html:
            break
        r = c.post(g, data={"csrf_token": tok,
                            "azione": "predefinita" if 'id="sc-dec-h"' in html else "turno"})
        assert r.status_code == 303, re.findall(r'id="sc-errore">(.*?)</div>', r.get_data(as_text=True), re.S)
        g = r.location
    html = c.get(g).get_data(as_text=True)
    assert 'class="sc-rule' in html                         # the log cites rules
    r = c.get(g + "/modifica")
    assert c.get(r.location).status_code == 200             # the state opens in the builder
    assert c.get(f"/simulatore/libreria/{slug}").status_code == 303


@pytest.mark.skipif(not ENTRIES, reason="libreria vuota")
def test_rule_page_lists_library_scenarios(real):
    c, _ = real
    entry = next(e for e in ENTRIES if e.rules)
    number = entry.rules[0]
    html = c.get(f"/regole/{number}").get_data(as_text=True)
    assert "Prova nel simulatore" in html
    assert f'href="/simulatore/libreria/{entry.slug}/avvia"' in html
    assert "Prova nel simulatore" not in c.get("/regole/100.1").get_data(as_text=True) or \
        library.scenarios_for_rule("100.1")


def test_every_library_file_is_an_entry_with_its_own_title_and_question():
    """Both sets of scenarios (the engine's and the simulator's) load: no file is skipped as
    unreadable, and no two share a slug, a title or a question."""
    files = sorted(library.LIBRARY_DIR.glob("*.json"))
    assert sorted(e.slug for e in ENTRIES) == sorted(p.stem for p in files)
    for key in ("title", "question"):
        values = [getattr(e, key) for e in ENTRIES]
        assert all(values) and len(set(values)) == len(values), key


def test_library_page_groups_by_section_with_questions_and_answers(real):
    c, _ = real
    html = c.get("/simulatore/libreria").get_data(as_text=True)
    sections = re.findall(r'<h2 id="sezione-(\d+)">', html)
    assert sections == sorted(sections, key=int) and len(sections) == len(set(sections)) >= 8
    assert "Azioni generate dallo stato" in html                     # the section's Italian title
    for e in ENTRIES:
        item = html.split(f'<li id="{e.slug}">', 1)[1].split("</li>", 1)[0]
        assert e.question in item.replace("&#39;", "'").replace("&#34;", '"')
        assert "<summary>Mostra la risposta</summary>" in item
        assert f'/simulatore/libreria/{e.slug}/avvia' in item
    # each entry sits under the section of its first rule
    block = html.split('<h2 id="sezione-704">', 1)[1].split("<h2 ", 1)[0]
    assert 'id="regola-delle-leggende"' in block
    assert 'href="/simulatore/libreria"' in c.get("/simulatore").get_data(as_text=True)


def test_stepper_asks_the_question_and_marks_the_answer(real):
    c, tok = real
    g = c.get("/simulatore/libreria/tocco-letale-e-travolgere/avvia").location
    html = c.get(g).get_data(as_text=True)
    lesson = html.split('class="sc-lesson', 1)[1].split("</section>", 1)[0]
    assert "Quanto danno può travolgere?" in lesson
    assert 'href="/regole/702.19b"' in lesson                          # the rules involved
    assert "<summary>Mostra la risposta</summary>" in lesson and "Punti vita di Bruno: 16" in lesson
    assert "Non più sul campo di battaglia: Muro di Pietra" in lesson
    assert "raggiunto l'esito atteso" not in lesson and "il tavolo non c'è ancora" in lesson
    g = c.post(g, data={"csrf_token": tok, "azione": "passo"}).location
    g = c.post(g, data={"csrf_token": tok, "azione": "predefinita"}).location
    lesson = c.get(g).get_data(as_text=True).split('class="sc-lesson', 1)[1].split("</section>", 1)[0]
    assert lesson.startswith(" sc-reached") and "✓ Il tavolo ha raggiunto l'esito atteso" in lesson
    # a different answer: no mark
    g2 = c.get("/simulatore/libreria/tocco-letale-e-travolgere/avvia").location
    g2 = c.post(g2, data={"csrf_token": tok, "azione": "passo"}).location
    g2 = c.post(g2, data={"csrf_token": tok, "azione": "decidi", "dmg-0-0": "5", "dmg-0-1": "0"}).location
    assert "raggiunto l'esito atteso" not in c.get(g2).get_data(as_text=True)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.slug for e in ENTRIES])
def test_every_expected_outcome_is_shown_in_words(entry):
    """Each check of a scenario's ``expected.state`` (every kind the engine's library
    checks) becomes a line of the revealed answer, naming players and objects, not ids."""
    data = json.loads(entry.path.read_text(encoding="utf-8"))
    game = Game.from_dict(data)
    for key, value in data["expected"]["state"].items():
        lines = views.expected_lines(game.state, {key: value}, data)
        assert lines, (entry.slug, key)
        for oid in (value if isinstance(value, (dict, list)) else [value]):
            if isinstance(oid, str) and (game.state.has_player(oid) or game.state.perm(oid)):
                assert any(game.state.name_of(oid) in ln for ln in lines), (key, oid, lines)


@pytest.mark.parametrize("state", [{"life": 5}, {"life": {"p9": 3}}, {"zones": {"p1.life": []}},
                                   {"battlefield": [1, "a"]}, "tutto", [{"life": {"p2": 20}}]])
def test_an_imported_malformed_expected_state_is_left_out_not_a_server_error(real, state):
    """A file from anywhere may carry a question and a broken ``expected.state``: the stepper
    shows the question without the outcome (the page used to fail on ``{"life": 5}``)."""
    c, _ = real
    data = {**library.load("tocco-letale-e-travolgere"), "expected": {"state": state}}
    r = c.post("/api/scenari", json={"format": "judge-partita", "version": 1, "scenario": data})
    assert r.status_code == 201, r.get_data(as_text=True)[:500]
    html = c.get(r.get_json()["url"]).get_data(as_text=True)
    lesson = html.split('class="sc-lesson', 1)[1].split("</section>", 1)[0]
    assert "Quanto danno può travolgere?" in lesson and "raggiunto l'esito atteso" not in lesson


def decision_fields(pending: dict, answer) -> dict:
    """The stepper's form fields that give ``answer`` to ``pending`` (the inverse of
    play.answer_from_form), or the JSON field for a kind without a form."""
    kind, opts = pending["kind"], pending.get("options") or {}
    answer = pending["default"] if answer is None else answer
    if kind in ("choose_defending_player", "choose_protector"):
        return {"player": answer["player"]}
    if kind == "commander_zone":
        return {"comandante": answer["to_command_zone"]}
    if kind == "venture_room":
        return {"room": answer["room"]}
    if kind == "choose_sectors":
        return {f"sect-{i}": answer["sectors"][c["id"]] for i, c in enumerate(opts["creatures"])}
    if kind == "order_triggers":
        return {f"ord-{i}": str(answer["order"].index(a["id"]) + 1)
                for i, a in enumerate(opts["abilities"])}
    if kind == "declare_attackers":
        chosen = {a["id"]: a["target"] for a in answer["attackers"]}
        return {f"att-{i}": chosen.get(c["id"], "") for i, c in enumerate(opts["creatures"])}
    if kind == "declare_blockers":
        chosen = {b["id"]: b["blocking"] for b in answer["blockers"]}
        return {f"blk-{i}": chosen.get(c["id"], "") for i, c in enumerate(opts["creatures"])}
    if kind == "combat_damage_assignment":
        return {f"dmg-{i}-{j}": str(answer["assignments"].get(c["id"], {}).get(r, 0))
                for i, c in enumerate(opts["creatures"]) for j, r in enumerate(c["recipients"])}
    if kind == "legend_rule":
        return {"keep": answer["keep"]}
    if kind == "discard":
        return {"scarta": answer["cards"]}
    if kind == "choose_target":
        return {"target": answer["target"]}
    if kind in ("ward_payment", "may_apply"):
        key = "pay" if kind == "ward_payment" else "apply"
        return {key: "1" if answer[key] else "0"}
    if kind == "sacrifice_permanents":
        return {"sacrifica": answer["permanents"]}
    if kind == "replacement_order":
        return {"apply": answer["apply"]}
    if kind == "replacement_card":
        return {"card": answer["card"]}
    if kind == "myriad_tokens":
        return {f"myr-{i}": answer["attack"].get(o["player"]) or ""
                for i, o in enumerate(opts["opponents"])}
    return {"risposta_json": json.dumps(answer)}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.slug for e in ENTRIES])
def test_the_stepper_reaches_each_library_answer_with_its_own_forms(real, entry):
    """A library scenario played in the browser (judge actions and steps through the API,
    decisions through the stepper's own form fields) reaches its expected outcome, and the
    stepper says so."""
    c, tok = real
    data = json.loads(entry.path.read_text(encoding="utf-8"))
    ident = c.get(f"/simulatore/libreria/{entry.slug}/avvia").location.rsplit("/", 1)[1]
    # it opens with its question, the rules involved and the answer behind «Mostra la risposta»
    lesson = html_mod.unescape(c.get(f"/s/{ident}").get_data(as_text=True)
                               .split('class="sc-lesson', 1)[1].split("</section>", 1)[0])
    assert data["question"] in lesson and "<summary>Mostra la risposta</summary>" in lesson
    assert all(f'href="/regole/{n}"' in lesson for n in data["rules"]), entry.slug
    assert re.sub(r"<[^>]+>", "", data["answer"])[:40] in re.sub(r"<[^>]+>", "", lesson)

    def api(body: dict) -> dict:
        nonlocal ident
        r = c.post(f"/api/scenari/{ident}/azioni", json=body)
        assert r.status_code == 201, (body, r.get_json())
        out = r.get_json()
        ident = out["id"]
        return out

    for action in data["expected"]["actions"]:
        if "decide" in action:
            state = c.get(f"/api/scenari/{ident}").get_json()
            fields = decision_fields(state["in_attesa"], action["decide"])
            html = c.get(f"/s/{ident}").get_data(as_text=True)
            for name in fields:
                assert f'name="{name}"' in html, (name, state["in_attesa"]["kind"])
            r = c.post(f"/s/{ident}", data={"csrf_token": tok, "azione": "decidi", **fields})
            assert r.status_code == 303, r.get_data(as_text=True)[-3000:]
            ident = r.location.rsplit("/", 1)[1]
        elif "act" in action:
            params = {k: v for k, v in action.items() if k != "act"}
            api({"type": "act", "name": action["act"], "params": params})
        elif "step" in action:
            for _ in range(action["step"]):
                api({"type": "step"})
        else:                                   # step_to, taking defaults as the engine does
            out = api({"type": "step_to", "step": action["step_to"]})
            while action.get("defaults") and out["in_attesa"] and not out["risultato"]:
                out = api({"type": "decide", "answer": None})
                s = out["stato"]
                if not out["in_attesa"] and s["turn"]["step"] != action["step_to"] or s["stack"]:
                    out = api({"type": "step_to", "step": action["step_to"]})
    html = c.get(f"/s/{ident}").get_data(as_text=True)
    assert "✓ Il tavolo ha raggiunto l&#39;esito atteso" in html or \
        "✓ Il tavolo ha raggiunto l'esito atteso" in html, entry.slug


class _FormFields(HTMLParser):
    """The fields a browser submits for the first ``<form class="sc-builder">``, as it renders
    (text inputs, checked boxes, selected options, textareas), without pressing any button."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self._in_form = self._done = False
        self._select: str | None = None
        self._select_value: str | None = None
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "sc-builder" in (a.get("class") or "") and not self._done:
            self._in_form = True
        if not self._in_form or "name" not in a and tag not in ("option",):
            return
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((a["name"], a.get("value") or "on"))
                return
            self.fields.append((a["name"], a.get("value") or ""))
        elif tag == "select":
            self._select, self._select_value = a["name"], None
        elif tag == "option" and self._select is not None:
            if self._select_value is None or "selected" in a:
                self._select_value = a.get("value", "")
        elif tag == "textarea":
            self._textarea, self._text = a["name"], []

    def handle_data(self, data):
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            self.fields.append((self._select, self._select_value or ""))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            text = "".join(self._text)
            self.fields.append((self._textarea, text[1:] if text.startswith("\n") else text))
            self._textarea = None
        elif tag == "form" and self._in_form:
            self._in_form, self._done = False, True


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.slug for e in ENTRIES])
def test_a_library_scenario_saved_unchanged_in_the_builder_keeps_its_board(real, entry):
    """«Modifica» on the library page, then «Salva» without touching anything: the form shows the
    values the rules give to what the file leaves out (starting life, 119.1; maximum hand size,
    402.2), so saving neither fails nor changes the board the engine plays."""
    c, tok = real
    url = c.get(f"/simulatore/libreria/{entry.slug}").location.split("?")[0]
    parser = _FormFields()
    parser.feed(c.get(url).get_data(as_text=True))
    data = MultiDict([(k, v) for k, v in parser.fields if k != "csrf_token"])
    data.add("csrf_token", tok)
    data.add("azione", "salva")
    r = c.post(url, data=data)
    assert r.status_code == 303, re.findall(r'class="sc-field-error[^"]*" id="([^"]+)"[^>]*>(.*?)<',
                                            r.get_data(as_text=True))
    before = json.loads(entry.path.read_text(encoding="utf-8"))
    after = json.loads(c.get(r.location.split("?")[0] + "/scenario.json").data)
    assert to_dict(sc.parse(after)) == to_dict(sc.parse(before))
