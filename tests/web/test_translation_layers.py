"""The three text layers on pages, the API and the CLI, on a corpus built for the test: the
repository's rules_it/ with a small translation (tests/data/traduzione) and the English editions
plus a synthetic later edition that rewords 704.5a. So: 704.5a has an outdated translation,
704.5b a current one, 703.4q an outdated community text with a current translation, 703.4d a
current community text and no translation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import judge.corpus.loading as model
from judge import RULES_EN_DIR, RULES_IT_DIR
from judge.cli import main
from judge.corpus.rules_en import edition_paths
from judge.web import create_app

DATA = Path(__file__).parents[1] / "data" / "traduzione"
NEW_704_5A = "704.5a If a player has 0 or less life, that player loses the game the next time a player would receive priority."


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    it = root / "rules_it"
    shutil.copytree(RULES_IT_DIR, it, ignore=shutil.ignore_patterns("traduzione"))
    shutil.copytree(DATA, it / "traduzione")
    en = root / "rules_en"
    en.mkdir()
    for p in edition_paths(RULES_EN_DIR):
        shutil.copy(p, en / p.name)
    text = edition_paths(RULES_EN_DIR)[-1].read_bytes().decode("utf-8-sig")
    old = "704.5a If a player has 0 or less life, that player loses the game."
    assert old in text
    (en / "MagicCompRules-20991231.txt").write_bytes(b"\xef\xbb\xbf" + text.replace(old, NEW_704_5A).encode("utf-8"))
    return it, en


@pytest.fixture(scope="module")
def patched(folders):
    mp = pytest.MonkeyPatch()
    mp.setattr(model, "RULES_IT_DIR", folders[0])
    mp.setattr(model, "RULES_EN_DIR", folders[1])
    yield model.load_corpus(max_age=0)
    mp.undo()


@pytest.fixture(scope="module")
def client(patched, tmp_path_factory):
    app = create_app({"INSTANCE_PATH": str(tmp_path_factory.mktemp("instance")), "TESTING": True,
                      "SECRET_KEY": "test", "PAGE_CACHE": False})
    return app.test_client()


def html(client, url: str) -> str:
    r = client.get(url)
    assert r.status_code == 200, url
    return r.get_data(as_text=True)


def test_model_layers(patched):
    assert patched.in_force.id == "20991231"
    a, b = patched.get("704.5a"), patched.get("704.5b")
    assert a.tr.layer == "traduzione" and a.tr.edition == "20260619" and not a.tr.current
    assert b.tr.current and b.italian is b.tr
    q, d = patched.get("703.4q"), patched.get("703.4d")
    assert [o.code for o in q.community_outdated] == ["citazione-obsoleta"]
    assert q.italian is q.tr  # the outdated community text gives way to the translation
    assert d.italian is d.it and d.tr is None


def test_outdated_translation_is_flagged_with_english_beside(client):
    body = html(client, "/regole/704.5a")
    assert "Traduzione da aggiornare" in body
    assert "Se un giocatore ha 0 o meno punti vita" in body
    assert "the next time a player would receive priority" in body  # the English in force, beside
    assert "Inglese ufficiale ·" in body and "Traduzione del progetto · 19 giugno 2026" in body
    assert "traduce il testo in vigore" not in body.split("Inglese ufficiale ·")[0]


def test_current_translation_is_labelled_unofficial(client):
    body = html(client, "/regole/704.5b")
    # The label says it translates the English in force (nothing to alarm a reader); the note, that it
    # is not official; the full wording (on hover), which edition it was written for.
    assert "Traduzione del progetto · traduce il testo in vigore, 31 dicembre 2099" in body  # the patched edition
    assert "Traduzione del progetto · 19 giugno 2026" not in body and "non ufficiale: prevale l'inglese" in body
    assert "Traduzione da aggiornare" not in body
    assert "Traduzione non ufficiale del progetto judge dall&#39;edizione inglese del 19 giugno 2026" in body


def test_community_first_translation_one_click_away(client, patched):
    # 703.4q: community text outdated (cites 500.4): translation first, community text still shown.
    body = html(client, "/regole/703.4q")
    translation, community = "il mana non speso rimasto", "il mana inutilizzato rimasto"
    assert body.index(translation) < body.index("Testo della comunità (non più allineato") < body.index(community)
    # 703.4d: current community text, no translation: no translation block.
    body = html(client, "/regole/703.4d")
    assert "Testo della comunità ·" in body and "altro-strato" not in body
    assert "Traduzione del progetto" in html(client, "/regole/704.5b")


def test_section_page_marks_translated_rules(client):
    body = html(client, "/regole/704")
    item = body[body.index('id="r-704.5a"'):body.index('id="r-704.5b"')]
    assert "da aggiornare" in item and "perde la partita" in item


def test_api_translation_field(client):
    data = client.get("/api/regole/704.5a").get_json()
    assert data["translation"]["edition"] == "20260619" and data["translation"]["current"] is False
    assert set(data["translation"]) >= {"lang", "text", "examples", "edition", "current"}
    assert data["translation_available"] is True
    data = client.get("/api/regole/704.5b").get_json()
    assert data["translation"]["current"] is True and data["translation"]["lang"] == "it"
    assert client.get("/api/regole/704.5d").get_json()["translation"] is None


def test_cli_verifica_lists_the_translation_to_update(patched):
    result = CliRunner().invoke(main, ["verifica"])
    line = next(ln for ln in result.output.splitlines() if "[704.5a] traduzione-da-aggiornare" in ln)
    assert "{+the next time a player would receive priority.+}" in line or "{+" in line
    assert re.search(r"Traduzione del progetto: \d+/\d+ regole", result.output)


def test_rule_with_no_italian_at_all_says_so(client, patched):
    """704.5d has neither a community text nor a translation in this corpus: English, with a banner."""
    assert patched.get("704.5d").italian is None
    body = html(client, "/regole/704.5d")
    assert "Traduzione italiana non disponibile: testo ufficiale inglese, edizione del" in body
    assert patched.get("704.5d").en.text.split("’")[0][:30] in body
    assert "Traduzione italiana non disponibile" in html(client, "/regole/705")
    assert client.get("/api/regole/704.5d").get_json()["translation_available"] is False
    out = CliRunner().invoke(main, ["regola", "704.5d"]).output
    assert "Traduzione italiana non disponibile" in out


def test_cli_regola_italian_by_default(patched):
    out = CliRunner().invoke(main, ["regola", "704.5b"]).output
    assert "Traduzione non ufficiale del progetto" in out and "perde la partita" in out
    out = CliRunner().invoke(main, ["regola", "704.5b", "--en"]).output
    assert "loses the game" in out and "Traduzione" not in out
    out = CliRunner().invoke(main, ["regola", "704.5a"]).output
    assert "DA AGGIORNARE" in out


def test_current_community_text_comes_first_with_translation_one_click_away(tmp_path, folders):
    """A rule with a current community text and a translation: community first, translation in a
    collapsed block below it."""
    it = tmp_path / "rules_it"
    shutil.copytree(folders[0], it)
    (it / "traduzione" / "101.md").write_text(
        '---\nsezione: "101"\n---\n\n**101.4a** Se un effetto fa scegliere a ogni giocatore una carta in una zona '
        "nascosta, come la sua mano o il suo grimorio, quelle carte possono restare a faccia in giù mentre vengono "
        "scelte. Tuttavia, ogni giocatore deve indicare chiaramente quale carta a faccia in giù sta scegliendo.\n",
        encoding="utf-8")
    CliRunner().invoke(main, ["traduzione", "timbra", str(it / "traduzione" / "101.md")])
    mp = pytest.MonkeyPatch()
    mp.setattr(model, "RULES_IT_DIR", it)
    mp.setattr(model, "RULES_EN_DIR", RULES_EN_DIR)
    try:
        rule = model.load_corpus(max_age=0).get("101.4a")
        assert rule.italian is rule.it and rule.tr is not None and rule.tr.current
        app = create_app({"INSTANCE_PATH": str(tmp_path / "inst"), "TESTING": True, "SECRET_KEY": "t", "PAGE_CACHE": False})
        body = html(app.test_client(), "/regole/101.4a")
    finally:
        mp.undo()
    community = body.index("Testo della comunità ·")
    details = body.index('<details class="altro-strato">')
    assert community < details < body.rindex("deve indicare chiaramente")
