"""The search's syntax offline, in Chromium: phrases in quotes and the operators give the server's answers with
the network cut, the filters apply and what the copy cannot do is said; the browser reads the syntax as
judge/search/syntax.py and scores a phrase as the server's scorer (static/js/sintassi.js, frasi.js)."""

from __future__ import annotations

import random
from urllib.parse import quote

from playwright.sync_api import expect

from judge.corpus import load_corpus
from judge.search.analysis import terms
from judge.search.syntax import clean, parse, relaxed, truncate
from tests.e2e import test_offline as offline
from tests.e2e.test_offline import server_engine  # noqa: F401 - the server's search, a fixture

RESULTS = "#risultati-offline .risultato strong"


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
        # What the copy cannot do, said: one tournament document alone, a rule number inside the query.
        page.goto("/cerca?q=gioco%20lento&documento=mtr")
        expect(page.locator("#risultati-offline")).to_contain_text("Senza rete la ricerca nel solo MTR non c'è")
        page.goto("/cerca?q=travolgere%20702.19b")
        note = page.locator("#risultati-offline .avviso", has_text="numero di regola")
        expect(note).to_contain_text("si cerca come parole")
        expect(note.locator("a")).to_have_attribute("href", "/regole/702.19b")
        expect(page.locator(".avviso-offline")).to_contain_text("gli stessi operatori")
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
