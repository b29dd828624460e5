"""The simulator and combat (issue 25): the builder offers every keyword the engine knows with
its Italian name and protection's quality as its own field; the stepper shows the new
decisions (several blocks, targets, ward, annihilator, myriad) and the judge actions say what
an empty choice means (the owner controls a card moved onto the battlefield, 110.2a)."""

from __future__ import annotations

import html as htmllib
import re

from judge.engine.characteristics import keywords as kw
from judge.engine.scenario.templates import new_scenario

from .conftest import bear


def test_the_builder_lists_every_keyword_in_italian_with_its_rule(sim):
    page = htmllib.unescape(sim.page(sim.new()))
    listing = page.split('id="sc-parole-chiave-elenco"', 1)[1].split("</details>", 1)[0]
    for spec in kw.REGISTRY:
        assert spec.italian in listing, spec.name
        assert f">{spec.rule}</a>" in listing, spec.name
    assert "passa-isole" in listing and "bushido N" in listing and "protezione da" in listing
    assert "branco" in listing                                        # refused, and said so
    datalist = page.split('id="sc-parole-chiave"', 1)[1].split("</datalist>", 1)[0]
    assert 'value="minacciare"' in datalist and 'value="protezione dal rosso"' in datalist


def test_italian_keywords_and_the_protection_field_are_saved_in_english(sim):
    url = sim.new()
    url = sim.save(url, {"nuovo.name": "Cavaliere", "nuovo.types": "creatura", "nuovo.power": "2",
                         "nuovo.toughness": "2", "nuovo.controller": "p1",
                         "nuovo.keywords": "minacciare, bushido 2, passa-isole, egida {1}",
                         "nuovo.protection": "rosso, creature, Bruno", "nuovo.colors": "bianco, R",
                         "azione": "aggiungi"})
    perm = sim.api(url)["documento"]["battlefield"][0]
    assert perm["keywords"] == ["menace", "bushido 2", "islandwalk", "ward {1}",
                                "protection from red", "protection from creatures",
                                "protection from player p2"]
    assert perm["colors"] == ["W", "R"]
    page = htmllib.unescape(sim.page(url))
    assert 'value="bianco, rosso"' in page
    assert 'value="minacciare, bushido 2, passa-isole, egida {1}"' in page
    assert 'value="rosso, creature, Bruno"' in page                  # the quality, its own field
    # edit: the protection field alone changes the protections, the other keywords stay
    url = sim.save(url, {"battlefield[0].present": "1", "battlefield[0].name": "Cavaliere",
                         "battlefield[0].types": "creatura", "battlefield[0].power": "2",
                         "battlefield[0].toughness": "2",
                         "battlefield[0].keywords": "minacciare, bushido 2",
                         "battlefield[0].protection": "tutto"})
    perm = sim.api(url)["documento"]["battlefield"][0]
    assert perm["keywords"] == ["menace", "bushido 2", "protection from everything"]


def test_a_wrong_keyword_or_quality_is_an_italian_error_beside_its_field(sim):
    url = sim.new()
    r = sim.post(url, {"nuovo.name": "X", "nuovo.types": "creatura", "nuovo.power": "1",
                       "nuovo.toughness": "1", "nuovo.keywords": "branco",
                       "nuovo.protection": "fucsia", "azione": "aggiungi"})
    page = htmllib.unescape(r.get_data(as_text=True))
    assert r.status_code == 422
    assert "il motore non gestisce il branco" in page and "qualità sconosciuta «fucsia»" in page
    assert 'id="f-nuovo-keywords" name="nuovo.keywords" aria-invalid="true"' in page


def game(sim, bf, step="precombat_main", **top) -> str:
    d = new_scenario("two-player", title="Combattimento")
    d["battlefield"] = bf
    d["turn"]["step"] = step
    d.update(top)
    return sim.upload({"format": "judge-partita", "version": 1, "scenario": d})


def test_a_creature_that_can_block_two_blocks_two_from_the_form(sim):
    bf = [bear("p1", "x1", "Lupo", tapped=True), bear("p1", "x2", "Orso", tapped=True),
          bear("p2", "muro", "Muro", keywords=["can block an additional creature each combat"])]
    g = game(sim, bf, step="declare_attackers",
             combat={"defending_players": ["p2"], "attackers": [{"id": "x1", "target": "p2"},
                                                               {"id": "x2", "target": "p2"}]})
    g = sim.act(g, azione="passo")
    page = sim.page(g)
    assert 'type="checkbox" name="blk-0" value="x1"' in page and "fino a 2 creature" in page
    g = sim.act(g.split("?")[0], azione="decidi", **{"blk-0": ["x1", "x2"]})
    state = sim.api(g)["stato"]
    assert state["combat"]["blockers"] == [{"id": "muro", "blocking": ["x1", "x2"]}]


def test_the_target_decision_shows_what_hexproof_forbids(sim):
    bf = [bear("p1", "prov", "Provocatore", keywords=["provoke"]),
          bear("p2", "hex", "Orso Velato", keywords=["hexproof"]),
          bear("p2", "lupo", "Lupo", tapped=True)]
    g = game(sim, bf, step="beginning_of_combat")
    g = sim.act(g, azione="passo")
    g = sim.act(g.split("?")[0], azione="decidi", **{"att-0": "p2"})
    page = htmllib.unescape(sim.page(g))
    assert 'name="target" value="lupo"' in page and 'value="hex"' not in page
    assert "anti-malocchio" in page and "702.11b" in page


def test_moving_an_opponents_card_onto_the_battlefield_defaults_to_its_owner(sim):
    d = new_scenario("two-player", title="Sposta")
    d["players"][1]["graveyard"] = [{"id": "g1", "name": "Cadavere", "types": ["creature"],
                                     "power": 1, "toughness": 1}]
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    page = htmllib.unescape(sim.page(f"{g.split('?')[0]}?giudice=move"))
    form = page.split("data-sc-judge", 1)[1].split("</form>", 1)[0]
    select = re.search(r'<select id="sc-j-p-controller".*?</select>', form, re.S).group(0)
    assert '<option value="">il proprietario' in select and "110.2a" in select
    assert "selected" not in select.split('<option value="">', 1)[1].split("</option>", 1)[1]
    g2 = sim.act(g.split("?")[0], azione="giudice", nome="move", **{"p.object": "g1",
                                                                      "p.zone": "battlefield",
                                                                      "p.controller": ""})
    perm = sim.api(g2)["stato"]["battlefield"][0]
    assert perm["controller"] == "p2"
    page = htmllib.unescape(sim.page(g2))
    assert "sotto il controllo del suo proprietario, Bruno" in page and "110.2a" in page


def test_judge_actions_are_logged_with_named_values(sim):
    d = new_scenario("two-player", title="Registro")
    d["battlefield"] = [bear("p2", "lupo", "Lupo")]
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    g2 = sim.act(g.split("?")[0], azione="giudice", nome="deal_damage",
                 **{"p.target": "lupo", "p.amount": "1"})
    page = htmllib.unescape(sim.page(g2))
    assert "Azione del giudice: Infliggi danno (bersaglio: Lupo, danni: 1)" in page
