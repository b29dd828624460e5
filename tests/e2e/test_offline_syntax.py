"""The search's syntax offline, in Chromium: phrases in quotes, the operators and rule numbers inside a query give
the server's answers with the network cut, the filters apply and what the copy cannot do is said; the browser reads
the syntax as judge/search/syntax.py, scores a phrase as the server's scorer and finds rule references as
judge/corpus/citations.py (static/js/sintassi.js, frasi.js, citazioni.js)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import expect

from judge.corpus import load_corpus
from judge.corpus.citations import find_citations
from judge.search.analysis import terms
from judge.search.syntax import clean, parse, relaxed, truncate, with_rule_dots
from tests.e2e import test_offline as offline
from tests.e2e.test_offline import server_engine  # noqa: F401 - the server's search, a fixture

RESULTS = "#risultati-offline .risultato strong"
TESTS = Path(__file__).parents[1]


def _offline_answers(page, queries: list[str]) -> list[list]:
    """[the notes, the first three rules] the browser's search answers each query with, on the copy's index."""
    offline.copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeRicercaOffline !== undefined && window.judgeCitazioni !== undefined")
    return page.evaluate("""async qs => {
        const app = document.getElementById("offline-app");
        const ix = await (await fetch(app.dataset.indice)).json(), data = await (await fetch(app.dataset.dati)).json();
        return qs.map(q => { const a = judgeRicercaOffline.answer(ix, q, { regole: data.regole });
                             return [a.notes, a.rules.slice(0, 3)]; });
    }""", queries)


def _first(page, query: str, count: int = 3) -> list[str]:
    page.goto("/cerca?q=" + quote(query, safe=""))
    expect(page.locator("#risultati-offline .conteggio")).to_be_visible()
    return page.locator(RESULTS).all_inner_texts()[:count]


def test_phrases_and_operators_offline_give_the_servers_answers(page, server_engine):  # noqa: F811
    """With the network cut: a phrase in quotes, words excluded, required, alternatives give the server's first
    three answers (the copy before this read them as plain words: «"grimorio vuoto"» gave 121.4 first, the
    server 704.5b); a phrase found nowhere is searched loosely with the server's note; the filters apply."""
    offline.visit_once(page)
    page.context.set_offline(True)
    try:
        for query in ('"grimorio vuoto"', '"entra nel campo di battaglia"', "travolgere -volare", "ETB AND SBA",
                      '"mana value" -costo', "volare OR travolgere"):
            assert _first(page, query) == [h.number for h in server_engine.search(query, per_page=3).hits], query
        assert _first(page, '"grimorio vuoto"', 1) == ["704.5b"]
        # A phrase found nowhere: the same words, loosely, and the server's note.
        online = server_engine.search('"danno travolgere"', per_page=3)
        assert online.notes and _first(page, '"danno travolgere"') == [h.number for h in online.hits]
        expect(page.locator("#risultati-offline .avviso").first).to_have_text(online.notes[0])
        # The filters, applied on the device and said; an English-only search shows the English texts.
        page.goto("/cerca?q=travolgere&lingua=en&capitolo=7")
        expect(page.locator("#risultati-offline .filtri-offline")).to_have_text(
            "Filtri attivi: solo inglese, capitolo 7 (applicati anche senza rete).")
        want = server_engine.search("travolgere", lang="en", chapter="7", per_page=3).hits
        assert page.locator(RESULTS).all_inner_texts()[:3] == [h.number for h in want]
        assert page.locator("#risultati-offline .estratto").first.get_attribute("lang") == "en"
        # The second page, as the site pages them (ten a page).
        page.goto("/cerca?q=travolgere&pagina=2")
        expect(page.locator("#risultati-offline .conteggio")).to_contain_text("pagina 2 di")
        assert page.locator("#risultati").get_attribute("start") == "11"
        expect(page.locator("#risultati-offline .paginazione a[rel=prev]")).to_have_attribute("href", "/cerca?q=travolgere&pagina=1")
        # What the copy cannot do, said: one tournament document alone.
        page.goto("/cerca?q=gioco%20lento&documento=mtr")
        expect(page.locator("#risultati-offline")).to_contain_text("Senza rete la ricerca nel solo MTR non c'è")
        expect(page.locator(".avviso-offline")).to_contain_text("gli stessi operatori")
        # Rule numbers inside a longer query lead to their rules, as on the site (static/js/citazioni.js).
        for query in ("travolgere 702.19b", "vedi 506.4 e 510.1", "704,5a danno"):
            assert _first(page, query) == [h.number for h in server_engine.search(query, per_page=3).hits], query
        expect(page.locator("#risultati-offline .avviso")).to_have_count(0)
        expect(page.locator(".avviso-offline")).to_contain_text("anche con numeri di regola dentro la ricerca")
        # A query that is only a rule reference, with its keyword, opens the rule (as the site redirects).
        page.goto("/cerca?q=" + quote("regola 704.5a"))
        page.wait_for_url("**/regole/704.5a")
    finally:
        page.context.set_offline(False)


def _typed(rng: random.Random) -> str:
    """A query as anyone may type it: words, quotes, operators (and look-alikes), signs before words, numbers
    and symbols, dashes, invisible characters, no spaces where spaces would be."""
    pool = ["travolgere", "danno", "Rest", "città", "perché", "ETB", "AND", "OR", "NOT", "&&", "||", "and", "Or", '"',
            '"danno da', 'combattimento"', '""', "-volare", "+cautela", "-1/-1", "+2/+2", "-{T}", "−1/−1", "–2", "-", "+",
            "--x", "-X/X", "+ù", "-ß", "«costo", "di", "mana»", ",", "?", "(", ")", "\u200b", "\t", "704.5a", "3", "'",
            "l'abilità", "+\"frase\"", "NOT\"a b\"", "x/x", "{W/P}"]
    parts = [rng.choice(pool) for _ in range(rng.randint(0, 12))]
    return "".join(p + rng.choice(("", " ", " ", " ", "  ")) for p in parts)


def _items(clauses) -> list:
    return [[{"words": it.words, "phrase": it.phrase, "mode": it.mode} for it in c] for c in clauses]


def test_the_browser_reads_the_syntax_and_scores_phrases_as_the_server(page, server_engine):  # noqa: F811
    """judge/search/syntax.py (clean, parse, relaxed, truncate) against static/js/sintassi.js on 3,000 queries
    made at random with a fixed seed; and static/js/frasi.js's scores of phrases and single terms in the rule
    texts against the server's scorer, in every document."""
    rng = random.Random(20261129)
    typed = [_typed(rng) for _ in range(3000)] + ["x " * 200, '"' + "parola " * 60]
    offline.copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeSintassi !== undefined && window.judgeFrasi !== undefined")
    sc = server_engine.scorer
    phrases = [("it", "costo di mana"), ("it", "carta carta"), ("en", "mana value"), ("en", "enters the battlefield"),
               ("it", "danno da combattimento"), ("it", "travolgere"), ("en", "creature creature"), ("it", "pila")]
    seqs = [(lang, terms(text, lang)) for lang, text in phrases]
    got = page.evaluate("""async ([typed, seqs]) => {
        const app = document.getElementById("offline-app");
        const ix = await (await fetch(app.dataset.indice)).json(), data = await (await fetch(app.dataset.dati)).json();
        const Y = judgeSintassi;
        return {read: typed.map(q => { const c = Y.clean(q), p = Y.parse(c[0]); return [c, p, Y.relaxed(p), Y.truncate(p, 5)]; }),
                scores: seqs.map(([lang, seq]) => Object.fromEntries(judgeFrasi.strict(ix, data.regole, lang, seq)))};
    }""", [typed, seqs])
    wrong = []
    for q, (cleaned, parsed, loose, cut) in zip(typed, got["read"]):
        c = clean(q)
        clauses = parse(c[0])
        want = [list(c), _items(clauses), _items(relaxed(clauses)), _items(truncate(clauses, 5))]
        if want != [cleaned, parsed, loose, cut]:
            wrong.append((q, want, [cleaned, parsed, loose, cut]))
    assert not wrong, wrong[:3]
    # Not vacuous: phrases, requirements, exclusions, several clauses, a long query cut.
    modes = [it["mode"] for r in got["read"] for c in r[1] for it in c]
    assert {"should", "must", "not"} <= set(modes) and any(it["phrase"] for r in got["read"] for c in r[1] for it in c)
    assert sum(1 for r in got["read"] if len(r[1]) > 1) > 100 and got["read"][-2][0][1]
    # The phrase scores: the same documents, the same scores (the browser's documents: 2 × rule position + language).
    position = {n: i for i, n in enumerate(load_corpus().numbers)}
    for (lang, seq), scores in zip(seqs, got["scores"]):
        docs, values = sc._phrase(f"body_{lang}", tuple(seq)) if len(seq) > 1 else sc._term(f"body_{lang}", seq[0])
        want = {2 * position[sc.stored[d]["number"]] + (lang == "en"): float(v) for d, v in zip(docs, values)}
        assert want and {int(d) for d in scores} == set(want), seq
        assert all(abs(scores[str(d)] - v) <= 1e-4 * v for d, v in want.items()), seq


# Pieces of rule references and of what resembles one: keywords, numbers, ranges, lists, letters that continue a rule
# or are words, chapters, sections in parentheses, addresses, versions, prices, other documents, Markdown.
REFERENCE_PIECES = [
    "regola", "regole", "Regola", "rule", "rules", "CR", "cr", "C.R.", "reg.", "sezione", "sez.", "section", "capitolo", "cap.",
    "chapter", "vedi", "see", "cfr.", "la", "nella", "della", "alla", "704.5a", "704.5A", "704.5", "704", "702.19", "702.19b",
    "601.2a–d", "601.2a-d", "601.2a — d", "119.7–8", "903.6–903.7", "704.5a–704.5c", "704.5l", "704.5o", "999.9", "8", "5", "4",
    "e", "ed", "and", "or", "o", "oppure", "&", ",", "/", "a", "b", "i", "m", "z", "(712)", "(999)", "https://x.it/704.5a",
    "www.judge.it/r/702.19", "Firefox", "v", "€", "euro", "MTR", "delle MTR", "of the IPG", "(", ")", ".", ":", "travolgere",
    "giocatori", "_704.5a_", "__regola 704.5a__", "CR704.5a", "704,5a", "704.5 a", "3.14.159", "100.000", "104.99",
    "é704.5a", "704.5aé", "704.5ab-ac", "101.1-60", "702.1–702.9", "702-704", "702.1a–702.2c"]


def _reference(rng: random.Random) -> str:
    return "".join(rng.choice(REFERENCE_PIECES) + rng.choice((" ", " ", "", ", ", " e ", "/", "-", "–"))
                   for _ in range(rng.randint(1, 8))).strip()


def test_the_browser_finds_rule_references_as_the_server(page):
    """judge/corpus/citations.py find_citations and syntax.py with_rule_dots against static/js/citazioni.js, on the
    citation parser's own measured snippets (tests/data/citazioni.json) and 3,000 queries made at random with a fixed
    seed from pieces of references: the same spans, numbers and keywords."""
    snippets = json.loads((TESTS / "data" / "citazioni.json").read_text(encoding="utf-8"))["snippets"]
    rng = random.Random(20261129)
    texts = [clean(t)[0] for t in [s["text"] for s in snippets] + [_reference(rng) for _ in range(3000)]]
    offline.copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeCitazioni !== undefined")
    got = page.evaluate("""texts => texts.map(t => { const r = judgeCitazioni.withRuleDots(t);
        return [r, judgeCitazioni.findCitations(r).map(c => [c.start, c.end, c.numbers, c.keyword])]; })""", texts)
    want = [[r, [[c.start, c.end, list(c.numbers), c.keyword] for c in find_citations(r)]]
            for r in (with_rule_dots(t) for t in texts)]
    wrong = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert not wrong, wrong[:3]
    # Not vacuous: most texts cite, with keywords, ranges, lists and letters; decimal commas read as dots.
    cites = [c for _, cs in want for c in cs]
    assert sum(1 for _, cs in want if cs) > 2000 and sum(1 for c in cites if c[3]) > 400
    assert sum(1 for c in cites if len(c[2]) > 1) > 100 and sum(1 for t, (r, _) in zip(texts, want) if r != t) > 50


def test_rule_numbers_inside_a_query_give_the_servers_answers(page, server_engine):  # noqa: F811
    """A longer query citing rules (a number before or after the words, «vedi …», a list, a range, a section, a
    chapter, a decimal comma, a number no rule has): the server's first three answers, in the browser, on 300
    queries made from questions.json with a fixed seed, but for near ties."""
    corpus = load_corpus()
    rng = random.Random(36)
    rules = [n for n in corpus.numbers if "." in n]
    sections = [n for n in corpus.numbers if len(n) == 3]
    asked = [q["q"] for q in json.loads((TESTS / "search" / "questions.json").read_text(
        encoding="utf-8"))["questions"]]
    forms = [lambda n, q: f"{n} {q}", lambda n, q: f"{q} {n}", lambda n, q: f"vedi {n} {q}",
             lambda n, q: f"regola {n} e {rng.choice(rules)} {q}", lambda n, q: f"{q} (regole {n}–b)",
             lambda n, q: f"sezione {rng.choice(sections)} {q}", lambda n, q: f"{q} ({rng.choice(sections)})",
             lambda n, q: f"{n.replace('.', ',')} {q}", lambda n, q: f"999.9 {q}", lambda n, q: f"capitolo {n[0]} {q}"]
    queries = [rng.choice(forms)(rng.choice(rules), rng.choice(asked)) for _ in range(300)]
    got = [rules for _, rules in _offline_answers(page, queries)]
    want = [[h.number for h in server_engine.search(q, per_page=3).hits] for q in queries]
    # Near ties may swap (the offline index keeps scores to 1%): 292 of 300 the same three, 298 the same first on
    # 29 November 2026 (before citazioni.js, a number searched as words: 156 and 242).
    same, first = sum(1 for w, g in zip(want, got) if w == g), sum(1 for w, g in zip(want, got) if w[:1] == g[:1])
    assert same >= 0.95 * len(queries) and first >= len(queries) - 6, \
        [(q, w, g) for q, w, g in zip(queries, want, got) if w != g][:5]
    # Not vacuous: a cited rule among the first three where the server has one there (47 queries; among many words
    # a rule matching only its number falls behind, as on the site).
    cited = [{n for c in find_citations(with_rule_dots(q)) for n in c.numbers} for q in queries]
    assert sum(1 for ns, g in zip(cited, got) if ns & set(g)) >= 40


def test_a_cited_number_of_no_rule_is_said_so_offline_as_on_the_server(page, server_engine):  # noqa: F811
    """«travolgere 704.5o/p»: 704.5o names no rule (the rules skip «o»), so both say «La regola 704.5o non
    esiste.» and neither searches its letters as words («o/p» read as power/toughness found 302.4 first)."""
    queries = ["travolgere 704.5o/p", "704.5o/p", "704.5l e m", "999.9", "vedi 704.5o",
               "702.19 e 999.1 travolgere", "regole 704.5f/g danno letale"]
    got = _offline_answers(page, queries)
    for q, (notes, rules) in zip(queries, got):
        online = server_engine.search(q, per_page=3)
        assert notes == online.notes, q
        assert rules == [h.number for h in online.hits], q
    said = dict(zip(queries, got))
    assert said["travolgere 704.5o/p"][0] == ["La regola 704.5o non esiste."]
    assert said["travolgere 704.5o/p"][1][0].startswith("702.19")
    assert said["704.5l e m"] == [["La regola 704.5l non esiste."], []]
    assert said["regole 704.5f/g danno letale"][0] == []


def test_a_rule_of_no_edition_lists_the_nearest_rules_offline_as_the_server(page, server_engine):  # noqa: F811
    """With the network cut: the page of a rule that does not exist lists the existing rules nearest to it, as
    the server's 404 does (judge/web/rules.py nearest_rules: «704.5o» between 704.5n and 704.5p, the rules
    skipping «o»), and a search citing one lists the server's «Regole vicine»."""
    from judge.web.rules import nearest_rules

    corpus = load_corpus()
    offline.visit_once(page)
    page.context.set_offline(True)
    try:
        shown = {}
        for number in ("704.5o", "704.5l", "999.9", "100.1z", "702.999"):
            page.goto("/regole/" + number)
            expect(page.locator("#offline-app h2")).to_have_text("Regole esistenti più vicine")
            shown[number] = page.locator("#offline-app ul.vicine li a").all_inner_texts()
            assert shown[number] == [r.number for r in nearest_rules(corpus, number)], number
        assert {"704.5n", "704.5p"} <= set(shown["704.5o"]) and {"704.5k", "704.5m"} <= set(shown["704.5l"])
        for query in ("travolgere 704.5o/p", "999.9"):
            online = server_engine.search(query)
            page.goto("/cerca?q=" + quote(query, safe=""))
            expect(page.locator("#risultati-offline .avviso").first).to_have_text(online.notes[0])
            near = page.locator("#risultati-offline p", has_text="Regole vicine").locator("a").all_inner_texts()
            assert near == online.nearest and near, query
    finally:
        page.context.set_offline(False)
