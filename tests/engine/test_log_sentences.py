"""The log a judge can paste (issue 37): two creatures with the same name are named with their
controller, «ad» before «a», articulated prepositions before a name with an article, an ability named
once, the lethal figure of deathtouch with its rule."""

from __future__ import annotations

from hypothesis import given, strategies as st

from judge.engine import Game, italian
from judge.engine.scenario.templates import new_scenario


def bears_combat() -> Game:
    d = new_scenario("two-player", title="Due orsi")
    d["players"][0]["name"], d["players"][1]["name"] = "Angelo", "Bruno"
    bear = {"types": ["creature"], "subtypes": ["Bear"], "power": 2, "toughness": 2}
    d["battlefield"] = [
        {"id": "a", "name": "Orso Grizzly", "controller": "p1", **bear},
        {"id": "b", "name": "Orso Grizzly", "controller": "p2", **bear},
        {"id": "c", "name": "Orso Grizzly", "controller": "p2", **bear},
        {"id": "s", "name": "Serpe", "types": ["creature"], "power": 1, "toughness": 1, "controller": "p1",
         "keywords": ["deathtouch"]},
        {"id": "f", "name": "Falco", "types": ["creature"], "power": 1, "toughness": 1, "controller": "p1",
         "keywords": ["flying"]},
    ]
    d["turn"] = {"number": 3, "active_player": "p1", "step": "beginning_of_combat"}
    g = Game.from_dict(d)
    g.step()
    g.decide({"attackers": [{"id": "a", "target": "p2"}, {"id": "s", "target": "p2"}, {"id": "f", "target": "p2"}]})
    g.step()
    return g


def texts(g: Game) -> list[str]:
    return [e.text for e in g.events]


def test_a_combat_of_two_bears_names_each_with_its_controller():
    g = bears_combat()
    pending = g.pending
    assert pending["kind"] == "declare_blockers"
    # The form shows who cannot block whom, and why, with the rules (702.9b, 509.1b).
    bear = next(c for c in pending["options"]["creatures"] if c["id"] == "b")
    (flier,) = bear["cannot_block"]
    assert flier["id"] == "f" and flier["rules"] == ["702.9b", "509.1b"] and "volare" in flier["reason"]
    g.decide({"blockers": [{"id": "b", "blocking": "a"}, {"id": "c", "blocking": "s"}]})
    while g.state.turn.step != "end_of_combat" and g.pending is None:
        g.step()
    log = texts(g)
    assert "Orso Grizzly (1) di Bruno (2/2) blocca Orso Grizzly di Angelo." in log
    assert "Orso Grizzly (2) di Bruno (2/2) blocca Serpe." in log
    assert "Creature bloccate: Orso Grizzly di Angelo, Serpe." in log
    assert "Orso Grizzly di Angelo assegna 2 danni a Orso Grizzly (1) di Bruno." in log
    assert any(t.startswith("Serpe assegna 1 danno a Orso Grizzly (2) di Bruno (1 danno è letale: Serpe ha tocco letale)")
               for t in log)
    assign = next(e for e in g.events if e.text.startswith("Serpe assegna"))
    assert "702.2c" in assign.rules
    assert "Orso Grizzly (1) di Bruno infligge 2 danni a Orso Grizzly di Angelo (danno segnato: 2)." in log
    # Destroyed together, each still named as it was on the battlefield.
    assert "La creatura Orso Grizzly di Angelo ha danno letale (2 su costituzione 2) ed è distrutta." in log
    assert any(t.startswith("La creatura Orso Grizzly (2) di Bruno ha subito danno da una fonte con tocco letale")
               for t in log)
    # A judge's damage with no source: «una fonte» inside the sentence, «Una fonte» at its start.
    events = g.act("deal_damage", target="p1", amount=2)
    assert [e.text for e in events] == ["Angelo perde 2 punti vita per il danno inflitto da una fonte: 20 → 18."]
    events = g.act("deal_damage", target="f", amount=1)
    assert events[0].text.startswith("Una fonte infligge 1 danno a Falco")
    # The judge's actions as sentences, «ad Angelo», a permanent with its controller.
    from judge.web.simulator.judge_sentences import sentence

    assert sentence("gain_life", {"player": "p1", "amount": 3}, g.state) == "Il giudice fa guadagnare 3 punti vita ad Angelo."
    assert sentence("tap", {"object": "f"}, g.state) == "Il giudice TAPpa Falco."
    assert sentence("add_counters", {"target": "a", "kind": "+1/+1", "count": 1}, g.state) == \
        "Il giudice mette 1 segnalino +1/+1 su Orso Grizzly."          # its namesakes died in combat


def test_a_single_bear_keeps_its_plain_name():
    d = new_scenario("two-player", title="Un orso")
    d["battlefield"] = [{"id": "a", "name": "Orso Grizzly", "types": ["creature"], "power": 2, "toughness": 2,
                         "controller": "p1"}]
    g = Game.from_dict(d)
    events = g.act("deal_damage", target="a", amount=1)
    assert events[0].text == "Una fonte infligge 1 danno a Orso Grizzly (danno segnato: 1)."


def test_tidy_writes_correct_italian():
    assert italian.tidy("Serpe assegna 2 danni a Angelo e a Alice.") == "Serpe assegna 2 danni ad Angelo e ad Alice."
    assert italian.tidy("Capitolo III di La Caduta del Re Stregone") == "Capitolo III della Caduta del Re Stregone"
    assert italian.tidy("l'abilità di Il Mondo Brucerà va su L'Arena") == "L'abilità del Mondo Brucerà va sull'Arena"
    assert italian.tidy("Muro e esiliato") == "Muro ed esiliato"
    assert italian.tidy("vai a casa, da Bruno") == "Vai a casa, da Bruno"   # nothing else changes
    assert italian.ability("Abilità «quando metti in moto questo intrigo» di Il Mondo Brucerà.") == \
        "«quando metti in moto questo intrigo» di Il Mondo Brucerà"
    assert italian.triggered("Abilità del monarca (pesca)", "Alice") == \
        "L'abilità innescata del monarca (pesca), controllata da Alice,"
    assert italian.triggered("Capitolo III", "Alice") == "L'abilità innescata «Capitolo III» di Alice"


@given(st.text(alphabet="aeiouAEIOU bcdlrstIL'àè,.", max_size=60))
def test_tidy_is_stable(text):
    """Tidying a tidied sentence changes nothing more (the log is tidied once, its copies not again)."""
    once = italian.tidy(text)
    assert italian.tidy(once) == once
