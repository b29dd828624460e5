"""The rules offline, in Chromium with the network cut: after one visit, a rule never opened, a search,
the glossary, the analytic indexes and /turno; the browser's Italian stems are the server's; the copy
updates itself when a new edition comes into force, and the page says so."""

from __future__ import annotations

import random
import re
import shutil
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from judge.corpus import load_corpus
from judge.search.analysis import ALL_STOPS, terms
from judge.web.render import rule_heading

WAIT_MS = 240_000  # the copy's files are built once per edition, in another process: on a loaded machine, minutes


def copy_ready(page) -> None:
    """Wait until the server has the offline copy's files (the first call starts building them)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not page.request.get("/offline/stato").json()["pronta"]:
        assert time.monotonic() < deadline, "copia offline non pronta"
        page.wait_for_timeout(500)


def visit_once(page) -> None:
    copy_ready(page)
    page.goto("/")
    expect(page.locator("[data-stato-offline]")).to_contain_text("Disponibile anche senza rete", timeout=WAIT_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def test_after_one_visit_the_edition_reads_and_searches_with_no_network(screen, screenshots):
    corpus = load_corpus()
    visit_once(screen)
    screen.context.set_offline(True)
    try:
        # A rule never opened, in Italian and English, with its labels.
        rule = corpus.get("613.1b")
        screen.goto("/regole/613.1b")
        app = screen.locator("#offline-app")
        expect(app.locator("h1")).to_have_text(rule_heading(rule, corpus))
        expect(app.locator(".lingua-it .strato")).to_have_text(rule.italian.label)
        expect(app.locator(".lingua-en .testo")).to_contain_text(rule.en.text[:50])
        expect(app.locator(".avviso-offline")).to_contain_text("Senza rete")
        screen.screenshot(path=str(screenshots / f"offline-regola-{screen.size}.png"))
        # A section: its rules listed.
        screen.goto("/regole/702")
        expect(screen.locator("#offline-app #r-702\\.19b")).to_be_visible()
        # A preview, from the copy.
        screen.goto("/regole/702.19a")
        link = screen.locator("#offline-app .lingua-it a.cit").first
        number = link.inner_text()
        if screen.phone:
            link.tap()
        else:
            link.hover()
        expect(screen.locator("#judge-anteprima .anteprima-titolo")).to_contain_text(number)
        # A search on the device, with the same stems.
        screen.goto("/cerca?q=travolgere danno in eccesso")
        results = screen.locator("#risultati-offline .risultato strong")
        expect(results.first).to_be_visible()
        assert "702.19b" in results.all_inner_texts()[:10]
        expect(screen.locator(".avviso-offline")).to_contain_text("le stesse prime risposte")
        screen.screenshot(path=str(screenshots / f"offline-cerca-{screen.size}.png"))
        # The glossary, both analytic indexes and /turno, kept on install.
        for path, heading in (("/glossario", "Glossario"), ("/indice-analitico", "Indice analitico"),
                              ("/indice-analitico?lingua=en", "Indice analitico inglese"),
                              ("/turno", "Il turno in breve")):
            screen.goto(path)
            expect(screen.locator("h1")).to_have_text(heading)
    finally:
        screen.context.set_offline(False)


@pytest.fixture(scope="module")
def server_engine(tmp_path_factory):
    """The server's search, to compare the offline answers with (the same corpus and index), reading its
    memory by words only, as the copy does: a browser cannot run the model of a question's meaning
    (judge/search/meaning.py)."""
    from judge.search.engines import get_engine
    from judge.search.learned import get_memory

    engine = get_engine(tmp_path_factory.mktemp("motore"))
    engine.memory = get_memory(engine.corpus, by_meaning=False)
    return engine


def test_offline_answers_as_the_site_does(browser, base_url, server_engine, screenshots):
    """With the network cut: the same labels as online (a section's title is not community text, a
    section's preview shows its first rule), «layer», «livelli», «ETB», «SBA» give the server's first
    answers, the glossary's own search answers as online, and the pages that need the network say
    what they are and what works without it."""
    from judge.search.glossary import get_glossary
    from judge.web.glossary_search import search_entries
    from judge.web.rules import glossary_entries

    corpus = load_corpus()
    context = browser.new_context(base_url=base_url, locale="it-IT", viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        visit_once(page)
        context.set_offline(True)
        # Search: the server's first three answers, computed here, not written down.
        for query in ("layer", "livelli", "ETB", "SBA"):
            page.goto(f"/cerca?q={query}")
            results = page.locator("#risultati-offline .risultato strong")
            expect(results.first).to_be_visible()
            want = [h.number for h in server_engine.search(query, per_page=3).hits]
            assert results.all_inner_texts()[:3] == want, query
        page.goto("/cerca?q=layer")
        expect(page.locator("#risultati-offline .risultato strong").first).to_have_text("613.1b")
        page.screenshot(path=str(screenshots / "offline-layer-telefono.png"))
        # A section found by its title: «Sezione», not a label of community text (711 itself, not 711.1).
        page.goto("/cerca?q=carte livellatori")
        section = page.locator("#risultati-offline .risultato", has=page.locator("strong", has_text=re.compile(r"^711$"))).first
        expect(section.locator(".sezione")).to_have_text("Sezione")
        expect(section.locator(".strato")).to_have_count(0)
        # A rule never opened: its labels are the online ones (the translation of the English in force).
        rule = corpus.get("702.19c")
        page.goto("/regole/702.19c")
        expect(page.locator("#offline-app .lingua-it .versione .strato")).to_have_text(rule.italian.label)
        expect(page.locator("#offline-app .lingua-it .versione .strato")).to_have_attribute("title", rule.italian.version)
        expect(page.locator("#offline-app .lingua-en .versione")).to_contain_text("testo non verificato")
        # The glossary's own search, as the server's.
        entries = glossary_entries(corpus)
        for query in ("travolgere", "SBA", "pila", "combat damage"):
            page.goto(f"/glossario?q={query}")
            expect(page.locator("#risultati-offline .conteggio")).to_be_visible()
            want = [e["anchor"] for e in search_entries(entries, query, get_glossary(corpus=corpus))]
            got = page.locator("#risultati-offline dl.glossario dt").evaluate_all("ds => ds.map(d => d.id)")
            assert got == want and want, query
        page.goto("/glossario?q=SBA")
        expect(page.locator("#risultati-offline .gergo")).to_contain_text("«SBA» è gergo")
        page.screenshot(path=str(screenshots / "offline-glossario-telefono.png"))
        # Pages that need the network: titled for what they are, saying what works.
        for path, title in (("/carte/orso-grizzly", "Carte"), ("/simulatore", "Simulatore"), ("/collega", "Collega le citazioni")):
            page.goto(path)
            expect(page.locator("h1")).to_have_text(f"{title}: serve la rete")
            expect(page).to_have_title(f"{title} (senza rete) · judge")
            expect(page.locator("main")).to_contain_text("Che cosa funziona senza rete")
        page.screenshot(path=str(screenshots / "offline-carte-telefono.png"))
    finally:
        context.close()


def test_a_sections_preview_offline_is_its_first_rule(page):
    """The service worker's preview of a section, with the network cut: its first rule and that rule's
    label, as /api/anteprima answers online."""
    online = page.request.get("/api/anteprima/702").json()
    visit_once(page)
    page.context.set_offline(True)
    try:
        got = page.evaluate("async () => (await fetch('/api/anteprima/702')).json()")
        assert (got["text"], got["label"], got["layer"]) == (online["text"], online["label"], online["layer"])
        assert got["text"].startswith("702.1 ") and "comunità" not in got["label"]
        chapter = page.evaluate("async () => (await fetch('/api/anteprima/7')).json()")
        assert chapter["label"] is None and chapter["text"].startswith("Sezioni: 700.")
    finally:
        page.context.set_offline(False)


def test_the_offline_search_reads_a_question_as_the_server(page, server_engine):
    """The frames and the learned questions in the browser: the rule answering the frame among the first
    three, and the first answer the server's (judge/search/frames.py, learned.py, static/js/ricerca-offline.js)."""
    copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeRicercaOffline !== undefined && window.judgeRadici !== undefined")
    questions = {"Chi controlla l'abilità innescata di una creatura che ho rubato?": "603.3a",
                 "Se lancio una magia con due bersagli e uno diventa illegale, la magia ha effetto sull'altro?": "608.2b",
                 "abilità innescata con 'puoi': posso decidere di non farla quando si risolve?": "603.5"}
    # «se» is a glossary form whose concept is only stop words: no unit, or it would weigh in the coverage.
    also = ["lottare: se la mia creatura viene rimossa in risposta, la creatura avversaria prende danno?"]
    got = page.evaluate("""async (qs) => {
        const ix = await (await fetch(document.getElementById("offline-app").dataset.indice)).json();
        return qs.map(q => judgeRicercaOffline.search(ix, q).slice(0, 3));
    }""", [*questions, *also])
    for q, top in zip([*questions, *also], got):
        assert questions.get(q, top[0]) in top, (q, top)
        assert top[0] == server_engine.search(q, per_page=1).hits[0].number, (q, top)


def test_the_offline_search_reads_the_cards_a_question_names_as_the_server(page, server_engine):
    """A question naming a card, in the browser: the card found as the server finds it (every name of the
    copy folded as the server folds it), its rules brought (614.1a for Rest in Peace, whose text replaces
    «dies» with «instead»), the server's first answer; and the page, with the network cut, shows the card."""
    import json
    from pathlib import Path

    from judge.cards.names import name_key

    copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeRicercaOffline !== undefined && window.judgeRadici !== undefined")
    blind = json.loads((Path(__file__).parents[1] / "search" / "questions_blind.json").read_text(encoding="utf-8"))
    questions = ["con Rest in Peace le creature muoiono?", *[q["q"] for q in blind["questions"] if q.get("card")][:8],
                 # a phrase no rule says, in lower case; a word the rules write only as a name; «degli»
                 "forza di volontà posso pagare il costo alternativo durante il mio turno?",
                 "Fog previene anche il danno da combattimento delle creature con travolgere?",
                 "se lancio Volere degli Dei scegliendo il bianco l'Aura cade?",
                 # the frame's subject said by what the card is (replacement effects; a planeswalker)
                 "con Hardened Scales e Doubling Season in che ordine si applicano ai segnalini?",
                 "posso attivare Jace, the Mind Sculptor durante il turno del mio avversario?"]
    # Card names read as words, as the server reads them: the rules say «prende l'iniziativa».
    words = ["posso prendere l'iniziativa se ce l'ho già?", "Brawl starting life total"]
    got = page.evaluate("""async (qs) => {
        const app = document.getElementById("offline-app");
        const ix = await (await fetch(app.dataset.indice)).json(), data = await (await fetch(app.dataset.dati)).json();
        const S = judgeRicercaOffline;
        const names = ix.carte.schede.split("\\n").flatMap(l => l.slice(1).split("|").map(n => n.slice(1)));
        return {answers: qs.map(q => { const a = S.answer(ix, q, { regole: data.regole });
                                       return [a.rules.slice(0, 5), S.cards(ix, q), a.quick && a.quick.number]; }),
                names: names, keys: names.map(n => S.nameKey(n))};
    }""", questions + words)
    wrong = [(n, k) for n, k in zip(got["names"], got["keys"]) if k != name_key(n)]
    assert len(got["names"]) > 30_000 and not wrong, wrong[:5]
    for q, (top, cards, quick) in zip(questions + words, got["answers"]):
        online = server_engine.search(q, per_page=5)
        assert [c["name"] for c in cards] == [m.face.display_name for m in online.cards], q
        assert bool(cards) == (q in questions), q
        assert top[0] == online.hits[0].number, (q, top)
        if "Hardened Scales" in q or "Jace" in q:
            assert quick == online.answer.number == ("616.1" if "Hardened" in q else "606.3"), (q, quick)
    top, cards, _ = got["answers"][0]
    assert "614.1a" in top and cards == [{"name": "Riposa in Pace", "english": "Rest in Peace"}], top
    visit_once(page)
    page.context.set_offline(True)
    try:
        page.goto("/cerca?q=con Rest in Peace le creature muoiono?")
        expect(page.locator("#risultati-offline .carta-nominata")).to_have_text("Carta: Riposa in Pace (Rest in Peace)")
        expect(page.locator("#risultati-offline .risultato strong").first).to_have_text(top[0])
        expect(page.locator(".avviso-offline")).to_contain_text("le carte che nomina")
    finally:
        page.context.set_offline(False)


def test_the_browsers_italian_stems_are_the_servers(page):
    """static/js/radici.js against judge/search/analysis.py on every Italian text of chapters 1 to 7."""
    corpus = load_corpus()
    texts = [corpus.rules[n].italian.text for n in corpus.numbers
             if corpus.rules[n].italian and corpus.rules[n].chapter in "1234567"]
    texts += ["dichiarazione degli attaccanti", "prevenzione del danno", "cosa succede se pesco dal grimorio vuoto",
              "TAPpare e STAPpare", "perché non si può", "quantità", "+1/+1 e -1/-1 {T} {W/P}"]
    page.goto("/offline/regola")
    page.wait_for_function("window.judgeRadici !== undefined")
    got = page.evaluate("([texts, stops]) => { const s = new Set(stops); return texts.map(t => judgeRadici.italianTerms(t, s)); }",
                        [texts, sorted(ALL_STOPS)])
    wrong = [(t[:60], a, b) for t, a, b in zip(texts, got, [terms(t, "it") for t in texts]) if a != b]
    assert len(texts) > 1500 and not wrong, wrong[:5]


def typos(vocabulary: list[str], seed: int = 20261129) -> list[str]:
    """Misspellings of vocabulary words, the same every run: a letter left out, two swapped, one doubled,
    one changed, a word typed halfway, an Italianised English verb («blinkare»), accents typed and dropped."""
    rng = random.Random(seed)
    out = []
    for w in rng.sample([w for w in vocabulary if len(w) >= 4 and w.isalpha()], 500):
        i = rng.randrange(len(w) - 1)
        out += [w[:i] + w[i + 1:], w[:i] + w[i + 1] + w[i] + w[i + 2:], w[:i] + w[i] + w[i:],
                w[:i] + rng.choice("aeioustrnl") + w[i + 1:], w[:rng.randrange(4, len(w) + 1)]]
    out += [w + rng.choice(("are", "ato", "ando")) for w in rng.sample([w for w in vocabulary if w.isascii()], 50)]
    accented = {"a": "à", "e": "è", "i": "ì", "o": "ò", "u": "ù"}
    out += [w[:-2] + accented.get(w[-2], w[-2]) + w[-1] for w in out[:200:4]]  # «sacrifìcio»: folded as the server folds
    return sorted(set(out))


def test_the_browsers_typo_corrections_are_the_servers(page, server_engine):
    """static/js/ortografia.js against judge/search/spelling.py and Engine.fix on generated misspellings: the
    same corrections and completions in the same order, the same words searched and the same suggestion; and
    the browser's English stems (radici.js) are Whoosh's, on the rules' English words and their inflections."""
    from whoosh.lang import stemmer_for_language

    from judge.search.analysis import words
    from judge.search.spelling import english_forms

    speller = server_engine.speller
    typed = typos(sorted(speller.freq))
    copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeOrtografia !== undefined && window.judgeRicercaOffline !== undefined")
    english = sorted({w + end for w in words(" ".join(r.en.text for r in load_corpus().rules.values() if r.en))
                      for end in ("", "s", "ed", "ing", "ly", "ness", "ational", "iveness")})
    got = page.evaluate("""async ([typed, english]) => {
        const ix = await (await fetch(document.getElementById("offline-app").dataset.indice)).json();
        const S = judgeRicercaOffline, O = judgeOrtografia, R = judgeRadici;
        const stem = (x, lang) => { const t = S.terms(ix, x, lang); return t.length ? t[0] : null; };
        return {fixes: typed.map(t => { const w = R.words(t)[0], f = O.fix(ix, w, stem);
                                        return [w, O.correct(ix, w), O.complete(ix, w), f.alts, f.suggestion]; }),
                english: english.map(w => R.stemEnglish(w))};
    }""", [typed, english])
    wrong = []
    for t, (w, corrected, completed, alts, suggestion) in zip(typed, got["fixes"]):
        assert w == words(t)[0]
        want = (speller.correct(w), speller.complete(w), *server_engine.fix(w))
        if want != (corrected, completed, alts, suggestion):
            wrong.append((t, want, (corrected, completed, alts, suggestion)))
    assert len(typed) > 2000 and not wrong, wrong[:5]
    # Not vacuous: most are corrected, many completed, some read as English.
    assert sum(1 for f in got["fixes"] if f[4]) > 800 and sum(1 for f in got["fixes"] if f[2]) > 300
    assert sum(1 for f in got["fixes"] if any(e in speller for e in english_forms(f[0])) and f[3] != [f[0]]) > 10
    stem_en = stemmer_for_language("en")
    wrong = [(w, a, stem_en(w)) for w, a in zip(english, got["english"]) if a != stem_en(w)]
    assert len(english) > 10_000 and not wrong, wrong[:5]


def test_a_misspelled_search_offline_gets_the_servers_answer_and_suggestion(page, server_engine):
    """With the network cut, a misspelled query gets the server's first answers and its «Forse cercavi»."""
    visit_once(page)
    page.context.set_offline(True)
    try:
        for query in ("travolgre", "sacrifcio una creatura", "ragnetti", "blinko", "counterare", "sacrifico"):
            online = server_engine.search(query, per_page=3)
            page.goto(f"/cerca?q={query}")
            expect(page.locator("#risultati-offline .conteggio")).to_be_visible()
            got = page.locator("#risultati-offline .risultato strong").all_inner_texts()[:3]
            assert got == [h.number for h in online.hits], query
            forse = page.locator("#risultati-offline .forse")
            if online.suggestion:
                expect(forse).to_have_text(f"Forse cercavi: {online.suggestion} (risultati mostrati con la correzione)"
                                           if online.hits else f"Forse cercavi: {online.suggestion}")
                assert forse.locator("a").get_attribute("href") == "/cerca?q=" + quote(online.suggestion, safe="")
            else:
                expect(forse).to_have_count(0)
        assert server_engine.search("travolgre").suggestion == "travolgere"  # the case above that shows one
        page.goto("/cerca?q=travolgre")
        expect(page.locator("#risultati-offline .risultato strong").first).to_have_text("702.19a")
        # What is typed is text, never markup.
        page.goto("/cerca?q=" + quote("<b>travolgre</b>"))
        assert server_engine.search("<b>travolgre</b>").suggestion == "b travolgere b"
        expect(page.locator("#risultati-offline .forse a")).to_have_text("b travolgere b")
        expect(page.locator("#risultati-offline .forse b")).to_have_count(0)
    finally:
        page.context.set_offline(False)


@pytest.fixture()
def new_edition(tmp_path):
    """A newer edition comes into force while the server runs: rules_en/ plus a copy of the edition in
    force dated 20 November 2026 (what `judge edizione adotta` would put there)."""
    from judge import RULES_EN_DIR
    from judge.corpus import loading as model

    folder = tmp_path / "rules_en"
    shutil.copytree(RULES_EN_DIR, folder)
    current = load_corpus().in_force.path
    text = current.read_text(encoding="utf-8-sig").replace("effective as of September 25, 2026",
                                                            "effective as of November 20, 2026")
    (folder / "MagicCompRules-20261120.txt").write_text(text, encoding="utf-8")
    mp = pytest.MonkeyPatch()

    def bring_in():
        mp.setattr(model, "RULES_EN_DIR", folder)

    try:
        yield bring_in
    finally:
        mp.undo()


def test_the_copy_updates_itself_when_a_new_edition_is_in_force(browser, base_url, new_edition, screenshots):
    context = browser.new_context(base_url=base_url, locale="it-IT", viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        visit_once(page)
        expect(page.locator("[data-stato-offline]")).to_contain_text("25 settembre 2026")
        new_edition()
        assert load_corpus(max_age=0).in_force.id == "20261120"
        copy_ready(page)
        # One visit finds the new worker; the page says so when it takes over, with no reload. Reloading
        # in a loop instead can land a navigation in the instant the old worker hands over, which
        # Chromium may hold for minutes (a CI run waited 180 s on one).
        page.reload()
        notice = page.locator(".copia-aggiornata")
        expect(notice).to_contain_text("Copia offline aggiornata: ora è l'edizione del 20 novembre 2026 "
                                       "(prima: 25 settembre 2026).", timeout=WAIT_MS)
        page.screenshot(path=str(screenshots / "offline-aggiornata-telefono.png"))
        # It stays on the next pages until the reader closes it.
        page.goto("/turno")
        expect(notice).to_be_visible()
        notice.get_by_role("button", name="Ho capito").click()
        expect(notice).to_have_count(0)
        page.goto("/")
        expect(notice).to_have_count(0)
        expect(page.locator("[data-stato-offline]")).to_contain_text("20 novembre 2026")
        # And offline, the new copy answers.
        context.set_offline(True)
        page.goto("/regole/702.19b")
        expect(page.locator("#offline-app .avviso-offline")).to_contain_text("20 novembre 2026")
    finally:
        context.close()
        load_corpus(max_age=0)
