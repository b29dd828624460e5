"""The builder fills in a card picked by name (without JavaScript: the «Compila dalla carta»
button, or «Aggiungi» with only the card typed), and what the judge changed stays theirs."""

from __future__ import annotations

import html as htmlmod
import json
import re


def field_value(html: str, name: str) -> str:
    m = re.search(rf'name="{re.escape(name)}"[^>]*? value="([^"]*)"', html)
    assert m, name
    return htmlmod.unescape(m.group(1))


def compile_card(sim, url: str, card: str, **fields) -> str:
    r = sim.post(url, {"nuovo.card": card, "azione": "compila", **fields})
    assert r.status_code == 200, r.get_data(as_text=True)[:2000]
    return r.get_data(as_text=True)


def test_the_button_fills_every_field_from_an_italian_name_with_a_typo(sim):
    url = sim.new()
    page = compile_card(sim, url, "orso grizly")
    assert field_value(page, "nuovo.name") == "Orso Grizzly"
    assert field_value(page, "nuovo.card") == "Grizzly Bears"
    assert field_value(page, "nuovo.types") == "creatura"
    assert field_value(page, "nuovo.subtypes") == "Bear"
    assert (field_value(page, "nuovo.power"), field_value(page, "nuovo.toughness")) == ("2", "2")
    assert field_value(page, "nuovo.colors") == "verde"
    assert field_value(page, "nuovo.mana_cost") == "{1}{G}"
    assert "Compilato da «Orso Grizzly»" in page
    # nothing saved yet: the judge checks the fields and adds
    assert sim.api(url)["documento"].get("battlefield") in (None, [])


def test_keywords_the_engine_knows_are_filled_the_others_named_as_not_automated(sim):
    url = sim.new()
    page = compile_card(sim, url, "Baneslayer Angel")
    assert field_value(page, "nuovo.keywords") == "volare, attacco improvviso, legame vitale"
    assert "parole chiave non automatizzate dal simulatore: protection from demons and from dragons" in page


def test_a_judge_override_is_kept_when_filling_and_when_saving(sim):
    url = sim.new()
    page = compile_card(sim, url, "Grizzly Bears", **{"nuovo.power": "3"})
    assert field_value(page, "nuovo.power") == "3"
    assert field_value(page, "nuovo.toughness") == "2"
    assert "mantenuti i tuoi valori: Forza (la carta: 2)" in page
    form = {k: field_value(page, k) for k in ("nuovo.card", "nuovo.auto", "nuovo.name", "nuovo.types",
                                              "nuovo.power", "nuovo.toughness", "nuovo.subtypes",
                                              "nuovo.colors", "nuovo.mana_cost")}
    # picking another card keeps the judge's power and replaces what came from the first card
    page = compile_card(sim, url, "Serra Angel", **{k: v for k, v in form.items() if k != "nuovo.card"})
    assert field_value(page, "nuovo.power") == "3" and field_value(page, "nuovo.toughness") == "4"
    assert field_value(page, "nuovo.name") == "Serra Angel"
    assert field_value(page, "nuovo.keywords") == "volare, cautela"
    saved = sim.save(url, {**{k: field_value(page, k) for k in form}, "nuovo.keywords": "volare",
                           "nuovo.controller": "p1", "azione": "aggiungi"})
    perm = sim.api(saved)["documento"]["battlefield"][0]
    assert perm["name"] == "Serra Angel"
    assert perm["card"] == "Serra Angel" and perm["power"] == 3 and perm["toughness"] == 4
    assert perm["keywords"] == ["flying"] and perm["colors"] == ["W"] and perm["mana_cost"] == "{3}{W}{W}"
    builder = sim.page(saved)
    assert "modificato dal giudice" in builder and "Forza (la carta: 4)" in builder
    assert "Abilità (la carta: volare, cautela)" in builder
    assert 'href="/carte/serra-angel"' in builder
    # saving the row unchanged keeps the judge's values; emptying the keywords keeps them empty
    resaved = sim.save(saved, {"battlefield[0].present": "1", "battlefield[0].name": "Serra Angel",
                               "battlefield[0].types": "creatura", "battlefield[0].power": "3",
                               "battlefield[0].toughness": "4", "battlefield[0].keywords": ""})
    perm = sim.api(resaved)["documento"]["battlefield"][0]
    assert perm["keywords"] == [] and perm["power"] == 3
    doc = sim.api(resaved)["documento"]
    from judge.engine.scenario import parse as sc
    assert sc.parse(doc).battlefield[0].keywords == []


def test_adding_after_filling_keeps_the_italian_name_and_the_judges_edits(sim):
    url = sim.new()
    page = compile_card(sim, url, "Orso Grizzly")
    form = {k: field_value(page, k) for k in ("nuovo.card", "nuovo.auto", "nuovo.name", "nuovo.types",
                                              "nuovo.power", "nuovo.toughness", "nuovo.subtypes")}
    saved = sim.save(url, {**form, "nuovo.subtypes": "Bear, Spirit", "nuovo.controller": "p1",
                           "azione": "aggiungi"})
    perm = sim.api(saved)["documento"]["battlefield"][0]
    assert (perm["name"], perm["card"], perm["subtypes"]) == ("Orso Grizzly", "Grizzly Bears", ["Bear", "Spirit"])


def test_add_with_only_the_card_typed(sim):
    url = sim.new()
    saved = sim.save(url, {"nuovo.card": "Tarmogoyf", "nuovo.power": "4", "nuovo.toughness": "5",
                           "nuovo.controller": "p2", "azione": "aggiungi"})
    perm = sim.api(saved)["documento"]["battlefield"][0]
    assert (perm["name"], perm["card"], perm["power"], perm["toughness"]) == ("Tarmogoyf", "Tarmogoyf", 4, 5)
    assert perm["subtypes"] == ["Lhurgoyf"] and perm["controller"] == "p2"


def test_a_star_power_must_be_given_and_says_why(sim):
    url = sim.new()
    page = compile_card(sim, url, "Tarmogoyf")
    assert field_value(page, "nuovo.power") == ""
    assert "da indicare a mano: forza «*», costituzione «1+*»" in page


def test_an_unknown_card_is_an_italian_error_with_the_nearest_names(sim):
    url = sim.new()
    r = sim.post(url, {"nuovo.card": "Xorso Grizzlyx Beras", "azione": "compila"})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "carta sconosciuta «Xorso Grizzlyx Beras»" in page
    r = sim.post(url, {"nuovo.card": "Abbattere", "azione": "aggiungi"})
    assert r.status_code == 422 and "è il nome italiano di più carte" in r.get_data(as_text=True)
    assert sim.api(url)["documento"].get("battlefield") in (None, [])


def test_a_library_scenario_naming_a_card_opens_with_its_values(sim):
    doc = {"format": "judge-scenario", "version": 1, "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
           "battlefield": [{"id": "o", "card": "Orso Grizzly", "controller": "p1", "power": 3}]}
    url = sim.upload(doc)
    page = sim.page(url)
    assert field_value(page, "battlefield[0].name") == "Orso Grizzly"
    assert field_value(page, "battlefield[0].toughness") == "2" and field_value(page, "battlefield[0].power") == "3"
    assert "Forza (la carta: 2)" in page
    json.dumps(doc)


from hypothesis import given, strategies as st  # noqa: E402

from judge.web.simulator.card_fill import FIELDS, refill  # noqa: E402

values = st.sampled_from(["", "2", "3", "creatura", "volare", "Bear", " 2 "])
forms_ = st.fixed_dictionaries({k: values for k in FIELDS})


@given(forms_, forms_, forms_)
def test_refill_never_overwrites_what_the_judge_changed(current, auto, new):
    out, kept = refill(current, auto, new)
    for k in FIELDS:
        cur = current[k].strip()
        if cur and cur != auto[k].strip():
            assert out[k] == cur                                    # the judge's value stays
            assert (k in kept) == (cur != new[k].strip())
        else:
            assert out[k] == new[k] and k not in kept               # the card's value fills it


def test_the_board_writes_type_lines_in_italian_with_the_english_beside(sim):
    from judge.engine.scenario.templates import new_scenario

    d = new_scenario("two-player", title="Tipi")
    d["battlefield"] = [{"id": "t", "card": "Thalia, Guardian of Thraben", "controller": "p1"},
                        {"id": "b", "card": "Bonesplitter", "controller": "p2"}]
    html = sim.page(sim.upload({"format": "judge-partita", "version": 1, "scenario": d}))
    types = [re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r'<span class="sc-ptype">(.*?)</span>\s*</', html, re.S)]
    assert any(t.startswith("Creatura Leggendaria — Umano Soldato (Legendary Creature — Human Soldier)") for t in types), types
    assert any(t.startswith("Artefatto — Equipaggiamento (Artifact — Equipment)") for t in types), types
