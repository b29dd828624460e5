"""Protection's DEBT (702.16), targets (hexproof, shroud, ward), multiplayer attack options
(801.3, 802, 803.1a–b), the judge actions that obey the rules (701.3, 122.1d, 110.2a) and the
keywords of the scenario format, in English and Italian."""

from __future__ import annotations

import pytest

from engine_helpers import find, game, perm, scenario
from judge.engine import Game, IllegalAction, ScenarioError
from judge.engine.characteristics import keywords as kw

# --- protection: damage (702.16e, 615.6), enchant and equip (702.16c–d) -------------------------


def test_protection_from_red_prevents_a_red_sources_damage():
    g = game([perm("pro", controller="p2", p=2, t=2, keywords=["protezione dal rosso"]),
              perm("drago", p=4, t=4, colors=["R"], keywords=["lifelink"])],
             players=[{"id": "p1", "name": "Alice", "hand": [{"id": "fulmine", "name": "Fulmine",
                                                             "types": ["instant"], "colors": ["R"]}]},
                      {"id": "p2", "name": "Bruno"}])
    ev = g.act("deal_damage", target="pro", amount=3, source="fulmine")
    prevented = find(ev, "damage_prevented")
    assert prevented and prevented[0].rules == ["702.16e", "615.6"]
    assert g.state.perm("pro").damage == 0 and "protezione dal rosso" in prevented[0].text
    ev = g.act("deal_damage", target="pro", amount=3, source="drago")   # no lifelink either
    assert find(ev, "damage_prevented") and g.state.player("p1").life == 20


def test_protection_prevents_combat_damage_and_lifelink():
    g = Game.from_dict(scenario(
        [perm("drago", tapped=True, p=4, t=4, colors=["R"], keywords=["lifelink"]),
         perm("pro", controller="p2", p=1, t=1, keywords=["protection from red"])],
        step="declare_attackers", combat={"defending_players": ["p2"],
                                          "attackers": [{"id": "drago", "target": "p2"}]}))
    g.step()
    g.decide({"blockers": [{"id": "pro", "blocking": "drago"}]})
    ev = g.step_to("end_of_combat", defaults=True)
    assert find(ev, "damage_prevented")[0].rules == ["703.4m", "510.2", "702.16e", "615.6"]
    assert g.state.perm("pro") is not None and g.state.player("p1").life == 20
    assert g.state.perm("drago").damage == 1


def test_protection_from_everything_prevents_all_damage():
    g = game([perm("x", keywords=["protection from everything"]), perm("y", controller="p2")])
    ev = g.act("deal_damage", target="x", amount=2, source="y")
    assert find(ev, "damage_prevented")[0].rules == ["702.16e", "702.16j", "615.6"]


@pytest.mark.parametrize("attached,sba,rules", [
    ({"types": ("enchantment",), "subtypes": ["Aura"], "enchant": "creature", "colors": ["R"]},
     "graveyard", ["704.5m", "702.16c"]),
    ({"types": ("artifact",), "subtypes": ["Equipment"], "colors": ["R"]}, "unattach",
     ["704.5n", "702.16d"]),
])
def test_an_attachment_with_the_quality_falls_off(attached, sba, rules):
    g = game([perm("c", keywords=["protection from red"]),
              perm("att", **attached, attached_to="c")])
    ev = g.act("gain_life", player="p1", amount=1)             # any action: then SBAs (704.3)
    e = find(ev, sba)[0]
    assert e.rules == rules and "protezione dal rosso" in e.text


def test_attach_obeys_protection_and_says_the_rule():
    g = game([perm("c", keywords=["protection from artifacts"]),
              perm("spada", types=("artifact",), subtypes=["Equipment"])])
    ev = g.act("attach", object="spada", to="c")
    e = find(ev, "attach")[0]
    assert e.rules == ["701.3b", "301.5b", "702.16d"] and g.state.perm("spada").attached_to is None


# --- targets: hexproof, shroud, protection, ward (702.11, 702.18, 702.16b, 702.21) --------------

def casting(*bf, colors=("R",)):
    return game(list(bf), players=[
        {"id": "p1", "name": "Alice", "hand": [{"id": "s", "name": "Fulmine", "types": ["instant"],
                                                "colors": list(colors)}]},
        {"id": "p2", "name": "Bruno"}])


@pytest.mark.parametrize("keywords,controller,rules", [
    (["hexproof"], "p2", ["601.2c", "702.11b"]),
    (["anti-malocchio dal rosso"], "p2", ["601.2c", "702.11d"]),
    (["shroud"], "p1", ["601.2c", "702.18a"]),
    (["velo"], "p2", ["601.2c", "702.18a"]),
    (["protection from red"], "p1", ["601.2c", "702.16b"]),
])
def test_a_spell_cannot_target_what_forbids_it(keywords, controller, rules):
    g = casting(perm("x", controller=controller, keywords=keywords))
    with pytest.raises(IllegalAction) as ei:
        g.act("cast_spell", player="p1", card="s", target="x")
    assert ei.value.rules == rules
    assert [c.id for c in g.state.player("p1").hand] == ["s"]       # nothing moved


def test_hexproof_allows_its_controllers_spells():
    g = casting(perm("x", controller="p1", keywords=["hexproof", "anti-malocchio dal blu"]),
                colors=("U",))
    ev = g.act("cast_spell", player="p1", card="s", target="x")
    assert find(ev, "cast")[0].rules == ["601.2a", "601.2c"] and g.state.stack[0].targets == ["x"]


def test_ward_counters_the_spell_unless_paid():
    g = casting(perm("x", controller="p2", keywords=["ward {2}"]))
    ev = g.act("cast_spell", player="p1", card="s", target="x")
    assert find(ev, "trigger")[0].rules == ["702.21a", "603.3"]
    g.step()
    assert g.pending["kind"] == "ward_payment"
    ev = g.decide({"pay": True})
    assert [i.id for i in g.state.stack] == ["s"] and find(ev, "resolve")
    g2 = casting(perm("x", controller="p2", keywords=["egida—pay 3 life"]))
    g2.act("cast_spell", player="p1", card="s", target="x")
    g2.step()
    ev = g2.decide({"pay": False})
    assert find(ev, "counter")[0].rules == ["702.21a", "701.6a"] and not g2.state.stack
    assert [c.id for c in g2.state.player("p1").graveyard] == ["s"]


def test_damage_from_a_judge_action_notes_that_targets_are_not_modelled():
    g = casting(perm("x", controller="p2", keywords=["hexproof"]))
    ev = g.act("deal_damage", target="x", amount=1, source="s")
    note = find(ev, "note")[0]
    assert note.rules == ["702.11b"] and "non modella i bersagli" in note.text
    assert g.state.perm("x").damage == 1                          # the damage is dealt


# --- multiplayer attack options --------------------------------------------------------------------

def four(attack, teams=None, **opts):
    players = [{"id": f"p{i}", "name": n} for i, n in enumerate(["Alice", "Bruno", "Carla", "Dario"], 1)]
    for p, t in zip(players, teams or []):
        p["team"] = t
    return Game.from_dict(scenario([perm("a")], step="precombat_main", players=players,
                                   variant="free-for-all", options={"attack": attack, **opts}))


def test_attack_left_is_the_player_immediately_to_the_left():
    g = four("left")
    ev = g.step() + g.step()                  # beginning of combat (703.4h), declare attackers
    d = find(ev, "defending_player")[0]
    assert d.rules == ["703.4h", "507.1", "803.1a"] and d.players == ["p2"]
    with pytest.raises(IllegalAction) as ei:
        g.decide({"attackers": [{"id": "a", "target": "p3"}]})
    assert ei.value.rules == ["508.1b", "506.3"]


def test_attack_left_with_a_teammate_on_the_left_means_no_attack():
    """803.1a: the nearest opponent to the left is two seats away: Alice can't attack."""
    g = four("left", teams=["A", "A", "B", "B"])
    ev = g.step()
    d = find(ev, "defending_player")[0]
    assert d.rules == ["803.1a"] and "non può attaccare" in d.text
    ev = g.step()
    assert g.pending is None and g.state.combat.defending_players == []
    assert find(ev, "attack")[0].rules == ["703.4i", "508.1"]


def test_attack_right():
    g = four("right")
    ev = g.step()
    assert find(ev, "defending_player")[0].players == ["p4"]
    assert find(ev, "defending_player")[0].rules == ["703.4h", "507.1", "803.1b"]


def test_range_of_influence_limits_the_defending_players():
    players = [{"id": f"p{i}", "name": f"G{i}"} for i in range(1, 6)]
    g = Game.from_dict(scenario([perm("a")], step="precombat_main", players=players,
                                variant="free-for-all",
                                options={"attack": "multiple", "range_of_influence": 1}))
    ev = g.step() + g.step()
    assert find(ev, "defending_player")[0].rules == ["801.3"]
    assert g.state.combat.defending_players == ["p2", "p5"]
    with pytest.raises(IllegalAction):
        g.decide({"attackers": [{"id": "a", "target": "p3"}]})
    g.decide({"attackers": [{"id": "a", "target": "p5"}]})


def test_a_spell_cannot_target_outside_the_range_of_influence():
    players = [{"id": "p1", "name": "Alice", "hand": [{"id": "s", "name": "Fulmine", "types": ["instant"]}]},
               *[{"id": f"p{i}", "name": f"G{i}"} for i in range(2, 6)]]
    g = Game.from_dict(scenario([perm("far", controller="p3")], players=players,
                                variant="free-for-all", options={"range_of_influence": 1}))
    with pytest.raises(IllegalAction) as ei:
        g.act("cast_spell", player="p1", card="s", target="far")
    assert ei.value.rules == ["601.2c", "801.4"]


# --- judge actions (item 4) ------------------------------------------------------------------------

def aura(**kw):
    return perm("aura", name="Volo", types=("enchantment",), subtypes=["Aura"], enchant="creature", **kw)


def test_attach_an_aura_to_an_illegal_object_does_not_move_it():
    g = game([aura(attached_to="orso"), perm("orso"), perm("isola", types=("land",))])
    ev = g.act("attach", object="aura", to="isola")
    e = find(ev, "attach")[0]
    assert e.rules == ["701.3b", "303.4j"] and "non si sposta" in e.text
    assert g.state.perm("aura").attached_to == "orso" and not find(ev, "graveyard")


def test_attach_to_what_it_is_attached_to_does_nothing():
    g = game([aura(attached_to="orso"), perm("orso")])
    e = find(g.act("attach", object="aura", to="orso"), "attach")[0]
    assert e.rules == ["701.3b"] and "non fa nulla" in e.text


def test_attach_to_another_object_gives_a_new_timestamp():
    g = game([aura(attached_to="orso"), perm("orso"), perm("lupo")])
    e = find(g.act("attach", object="aura", to="lupo"), "attach")[0]
    assert e.rules == ["701.3a", "701.3c"] and g.state.perm("aura").attached_to == "lupo"
    assert g.state.battlefield[-1].id == "aura"                # battlefield order = timestamps


def test_attach_something_that_is_not_an_attachment_does_nothing():
    g = game([perm("orso"), perm("lupo")])
    e = find(g.act("attach", object="orso", to="lupo"), "attach")[0]
    assert e.rules == ["701.3b"] and g.state.perm("orso").attached_to is None


def test_untap_with_a_stun_counter_removes_the_counter():
    g = game([perm("x", tapped=True, counters={"stun": 2})])
    e = find(g.act("untap", object="x"), "stun")[0]
    assert e.rules == ["701.26b", "122.1d"]
    assert g.state.perm("x").tapped and g.state.perm("x").counters == {"stun": 1}
    ev = g.act("set_tapped", object="x", tapped=False)             # the raw edit, named so
    e = find(ev, "edit")[0]
    assert e.rules == [] and e.text.startswith("Modifica diretta del giudice")
    assert not g.state.perm("x").tapped and g.state.perm("x").counters == {"stun": 1}


def test_untap_without_stun_untaps():
    g = game([perm("x", tapped=True)])
    assert find(g.act("untap", object="x"), "untap")[0].rules == ["701.26b"]
    assert not g.state.perm("x").tapped


def test_a_card_moved_onto_the_battlefield_is_its_owners_by_default():
    g = game(players=[{"id": "p1", "name": "Alice"},
                      {"id": "p2", "name": "Bruno", "graveyard": [{"id": "g", "name": "Orso",
                                                                 "types": ["creature"], "power": 2,
                                                                 "toughness": 2}]}])
    ev = g.act("move", object="g", zone="battlefield")
    e = find(ev, "move")[0]
    assert g.state.perm("g").controller == "p2" and e.rules == ["400.7", "110.2", "110.2a"]
    assert "del suo proprietario, Bruno" in e.text
    g2 = game(players=[{"id": "p1", "name": "Alice"},
                       {"id": "p2", "name": "Bruno", "graveyard": [{"id": "g", "name": "Orso",
                                                                  "types": ["artifact"]}]}])
    ev = g2.act("move", object="g", zone="battlefield", controller="p1")
    assert g2.state.perm("g").controller == "p1" and "che ce lo mette" in find(ev, "move")[0].text
    with pytest.raises(IllegalAction):
        g2.act("move", object="g", zone="hand", controller="p1")


# --- the format: keywords in English and Italian ------------------------------------------------------

def test_italian_keywords_are_stored_in_english():
    g = game([perm("x", keywords=["volare", "Minacciare", "protezione dal rosso e dal bianco",
                                  "passa-isole", "bushido 2", "egida {1}", "non può bloccare"],
                   colors=["rosso", "G"])])
    x = g.state.perm("x")
    assert x.keywords == ["flying", "menace", "protection from red", "protection from white",
                          "islandwalk", "bushido 2", "ward {1}", "can't block"]
    assert x.colors == ("R", "G")
    assert Game.from_dict(g.to_dict()).state.perm("x").keywords == x.keywords     # round trip
    assert kw.italian_list(x.keywords) == ("volare, minacciare, protezione dal rosso, protezione "
                                           "dal bianco, passa-isole, bushido 2, egida {1}, non "
                                           "può bloccare")


@pytest.mark.parametrize("text,msg,rules", [
    ("banding", "il motore non gestisce il branco", "702.22"),
    ("branco con altri Leggende", "il motore non gestisce il branco", "702.22"),
    ("bushido", "indica il numero", "702.45"),
    ("protezione", "indica la qualità", "702.16"),
    ("passa-terre", "indica il tipo", "702.14"),
    ("volo", 'parola chiave sconosciuta "volo"', None),
    ("protezione dal fucsia", "qualità sconosciuta", "702.16a"),
])
def test_keyword_errors_say_what_is_wrong(text, msg, rules):
    with pytest.raises(ScenarioError) as ei:
        game([perm("x", keywords=[text])])
    path, message = ei.value.errors[0]
    assert path == "battlefield[0].keywords[0]" and msg in message
    if rules:
        assert rules in message


def test_protection_from_an_unknown_player_is_an_error():
    with pytest.raises(ScenarioError) as ei:
        game([perm("x", keywords=["protection from player p9"])])
    assert "p9" in str(ei.value)


def test_the_registry_lists_every_keyword_with_its_italian_name_and_rule():
    from judge.engine.characteristics.keywords import REGISTRY
    names = {s.name for s in REGISTRY}
    assert {"menace", "intimidate", "fear", "shadow", "horsemanship", "skulk", "landwalk",
            "protection", "hexproof", "shroud", "ward", "exalted", "bushido", "flanking",
            "rampage", "afflict", "annihilator", "battle cry", "melee", "myriad", "training",
            "dethrone", "mentor", "provoke"} <= names
    rows = {s.name: s.to_dict() for s in REGISTRY}
    assert rows["battle cry"]["italian"] == "grido di guerra" and rows["battle cry"]["rule"] == "702.91"
    assert rows["protection"]["param"] == "quality" and "protection from red" in rows["protection"]["examples"]
    assert rows["landwalk"]["param"] == "land" and "snow swampwalk" in rows["landwalk"]["examples"]
    assert rows["can't block"]["keyword"] is False
    assert kw.registry() == [s.to_dict() for s in REGISTRY]
    assert kw.known("protezione dal rosso") and kw.known("Islandwalk") and kw.known("bushido 2")
    assert not kw.known("banding") and not kw.known("bushido") and not kw.known("cycling {2}")
    # 122.1b: the keyword counters the engine knows are those of the rule's list
    assert kw.COUNTER_KEYWORDS == {"flying", "first strike", "double strike", "deathtouch",
                                   "decayed", "exalted", "haste", "hexproof", "indestructible",
                                   "lifelink", "menace", "reach", "shadow", "trample", "vigilance"}


@pytest.mark.parametrize("name", sorted(kw.COUNTER_KEYWORDS))
def test_each_keyword_counter_grants_its_keyword(name):
    """122.1b: a keyword counter, written in English or Italian, gives the keyword."""
    from judge.engine.characteristics import derived
    g = game([perm("x", counters={name: 1}), perm("y", counters={kw.KEYWORD_IT[name]: 1})])
    for oid in ("x", "y"):
        p = g.state.perm(oid)
        assert p.counters == {name: 1} and derived.has_kw(g.state, p, name)
    z = game([perm("z", counters={"defender": 1})]).state
    assert not derived.has_kw(z, z.perm("z"), "defender")
