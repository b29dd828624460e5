"""Which text is which: the same three labels, with Italian dates, on pages, in the API and from
`judge regola`; the home page's coverage; rule titles with the rule's name; one set of phase and
step names for the pages, the simulator and the engine's log."""

from __future__ import annotations

import dataclasses
import html
import re

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.corpus import italian_date
from judge.corpus.model import LAYER_NAMES
from judge.corpus.turn_names import SECTION_TERMS, section_name, turn_name


def text_of(body: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def test_labels_say_the_text_and_its_date(corpus):
    r = corpus.get("702.19b")
    assert r.en.label == f"Inglese ufficiale · {italian_date(corpus.in_force.date)}"
    # A translation of the English in force says so, with the date in force, whichever edition it was
    # written for (702.19b's was 19 June); one of an English since changed keeps its own date.
    in_force = italian_date(corpus.in_force.date)
    assert r.tr.current and r.tr.date != corpus.in_force.date
    assert r.tr.label == f"Traduzione del progetto · traduce il testo in vigore, {in_force}"
    outdated = dataclasses.replace(r.tr, current=False, in_force=None)
    assert outdated.label == f"Traduzione del progetto · {italian_date(r.tr.date)}"
    community = next(corpus.rules[n].it for n in corpus.numbers if corpus.rules[n].it and corpus.rules[n].kind == "regola")
    assert community.label == f"Testo della comunità · {italian_date(community.date)}"
    assert not re.search(r"\d{8}|\d{4}-\d\d-\d\d|[A-Z][a-z]+ 20\d\d", r.en.label + r.tr.label + community.label)


def test_rule_page_labels_each_text_and_names_the_rule(client, corpus):
    body = client.get("/regole/702.19b").get_data(as_text=True)
    assert re.search(r"<h1><span class=\"numero-titolo\">702\.19b</span> Travolgere</h1>", body)
    assert "<title>702.19b Travolgere · judge</title>" in body
    r = corpus.get("702.19b")
    for t in (r.tr, r.en):
        assert f">{t.label}</span>" in body
    # The text comes before the permalink tools.
    assert body.index(r.tr.text[:40]) < body.index('id="permalink"')
    # No "beside" that points nowhere on a phone.
    assert "qui accanto" not in body


def test_section_lists_label_every_block_for_phones(client, corpus):
    body = client.get("/regole/702.19").get_data(as_text=True)
    item = body[body.index('id="r-702.19a"'):body.index('id="r-702.19b"')]
    assert item.count("etichetta-blocco") == 2 and "Inglese ufficiale ·" in item and "Traduzione del progetto ·" in item


def test_one_legend_in_every_page_footer(client):
    for path in ("/", "/regole/704.5a", "/glossario", "/turno", "/collega", "/cerca?q=travolgere"):
        body = client.get(path).get_data(as_text=True)
        footer = body[body.index('<footer class="site">'):]
        assert footer.count('id="legenda"') == 1, path
        for name in LAYER_NAMES.values():
            assert name in footer, (path, name)


def test_home_states_coverage_truthfully(client, corpus):
    page = text_of(client.get("/").get_data(as_text=True))
    cov = corpus.coverage
    assert f"Traduzione del progetto per {cov.translated} regole su {cov.rules}" in page
    assert f"Testo della comunità per {cov.community_sections} sezioni" in page
    assert "sezioni su 147" not in page and "Testo italiano disponibile per" not in page
    assert cov.translated > cov.rules * 0.9 and cov.community_sections == len(corpus.italian_sections)


def test_api_texts_carry_layer_and_label(client, corpus):
    data = client.get("/api/regole/121.8").get_json()
    r = corpus.get("121.8")
    assert data["it"]["layer"] == "comunità" and data["it"]["label"] == r.it.label
    assert data["en"]["layer"] == "ufficiale" and data["en"]["label"] == r.en.label
    assert data["translation"]["layer"] == "traduzione" and data["translation"]["label"] == r.tr.label
    hits = client.get("/api/cerca?q=travolgere").get_json()["results"]
    assert hits and all(h["label"].startswith(("Inglese ufficiale ·", "Traduzione del progetto ·", "Testo della comunità ·"))
                        for h in hits)


def test_search_results_have_one_short_label_not_a_notice_each(client):
    body = client.get("/cerca?q=travolgere").get_data(as_text=True)
    results = body[body.index('id="risultati"'):]
    assert "Traduzione non ufficiale del progetto judge dall" not in text_of(results)  # only in title attributes
    assert results.count('class="strato ') >= 5


@pytest.mark.parametrize("which, layer", [("comunita", "comunità"), ("comunità", "comunità"),
                                          ("progetto", "traduzione"), ("inglese", "ufficiale")])
def test_judge_regola_prints_the_text_asked_for_and_says_which(corpus, which, layer):
    rule = corpus.get("121.8")
    text = {"comunità": rule.it, "traduzione": rule.tr, "ufficiale": rule.en}[layer]
    res = CliRunner().invoke(main, ["regola", "121.8", "--testo", which])
    assert res.exit_code == 0, res.output
    assert text.text in res.output and text.label in res.output
    others = [t for t in (rule.it, rule.tr, rule.en) if t is not text]
    assert all(t.text not in res.output for t in others)


def test_judge_regola_default_says_which_text_and_how_to_get_the_others(corpus):
    res = CliRunner().invoke(main, ["regola", "121.8"])
    assert corpus.get("121.8").tr.label in res.output
    assert "--testo inglese" in res.output and "--testo comunita" in res.output


def test_judge_regola_without_community_text_says_where_it_exists(corpus):
    res = CliRunner().invoke(main, ["regola", "702.19b", "--testo", "comunita"])
    assert res.exit_code == 1 and "non ha un testo della comunità" in res.output
    assert all(s in res.output for s in corpus.italian_sections)
    res = CliRunner().invoke(main, ["regola", "702.19b", "--testo", "wiki"])
    assert res.exit_code == 2 and "non valido" in res.output


def test_phase_and_step_names_are_one_set(client, corpus):
    """The home page, the section titles, /turno, the simulator's pickers and the engine's log name the
    phases and steps the same way: the terminology table's terms."""
    from judge.engine.steps import STEPS
    from judge.web.simulator.forms import STEPS_IT
    from judge.web.turn import PHASES

    names = {section: section_name(section) for section in SECTION_TERMS}
    home = client.get("/").get_data(as_text=True)
    turno = client.get("/turno").get_data(as_text=True)
    for section, name in names.items():
        assert f"{section}. {html.escape(name, quote=False)}</a>" in home.replace("&#39;", "'"), section
        assert f"<h1>{section}. {name}</h1>" in client.get(f"/regole/{section}").get_data(as_text=True), section
    known = {n.lower() for n in names.values()} | {turn_name("precombat main phase").lower(),
                                                   turn_name("postcombat main phase").lower()}
    for phase in PHASES:
        assert phase.name in turno and phase.name.lower() in known
        assert all(step.name.lower() in known for step in phase.steps), phase.name
    for s in STEPS:
        assert STEPS_IT[s.name] == s.label
        assert s.label.removesuffix(" di attacco improvviso").lower() in known, s.name


def test_changes_page_shows_italian_names_and_the_translation(client, corpus):
    a, b = corpus.editions[-2], corpus.editions[-1]
    body = client.get(f"/modifiche/{a.id}..{b.id}").get_data(as_text=True)
    assert 'class="nome-modifica"' in body and 'class="traduzione-modifica"' in body
    assert "Traduzione del progetto ·" in body
    assert f"dal {italian_date(a.date)} al {italian_date(b.date)}" in text_of(body) or len(corpus.editions) == 2


def test_rule_titles_name_the_rule():
    from judge.corpus import load_corpus
    from judge.web.render import rule_heading

    corpus = load_corpus()
    assert rule_heading(corpus.get("702.19"), corpus) == "702.19 Travolgere"
    assert rule_heading(corpus.get("702.19b"), corpus) == "702.19b Travolgere"
    assert rule_heading(corpus.get("508"), corpus) == f"508. {section_name('508')}"
    # A rule with no name of its own nor above it takes its section's.
    heading = rule_heading(corpus.get("704.5a"), corpus)
    assert heading.startswith("704.5a ") and heading.removeprefix("704.5a ") == section_name("704") or \
        heading == f"704.5a {corpus.get('704').best.text}"
