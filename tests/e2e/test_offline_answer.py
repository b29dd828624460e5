"""The quick answer to a question's frame, offline, in Chromium: the server's (judge/search/answers.py
frame_answer: the rule, what the question asks, the sentence that answers with the question's words marked)
computed on the device (static/js/risposta-offline.js, ricerca-offline.js) and shown as the site shows it
(static/js/offline.js, templates/cerca.html), with nothing typed or read becoming markup.

Not ported: the server's quick answer from an analytic index entry (answers.py quick_answer, an answer with an
``entry``). Where the server gives one, the copy gives none: the test expects none there."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import expect

from judge.corpus import load_corpus
from judge.search.analysis import terms
from judge.search.answers import answering_sentence
from judge.search.frames import is_full_question
from tests.e2e.test_offline import copy_ready, visit_once
from tests.e2e.test_offline import server_engine  # noqa: F401 - the server's search, a fixture
from tests.search.test_questions import ISSUE_FRAMES

BLIND = Path(__file__).parents[1] / "search" / "questions_blind4.json"
ANSWER = "#risultati-offline section.risposta-rapida"
# What the copy computes for each question: its quick answer's rule, what it asks, its sentence and the words marked.
OFFLINE_ANSWERS = """async ([qs, lingua]) => {
    const app = document.getElementById("offline-app");
    const [ix, data] = await Promise.all([app.dataset.indice, app.dataset.dati].map(async u =>
        (await fetch(u)).json()));
    return qs.map(q => {
        const a = judgeRicercaOffline.answer(ix, q, { regole: data.regole, lingua: lingua }).quick;
        return a && [a.number, a.asks, a.sentence, a.parts.filter(p => p[1]).map(p => p[0])];
    });
}"""


def _questions() -> list[str]:
    """The full questions among the first 40 of the sixth blind set, and the frames of the issue."""
    blind = json.loads(BLIND.read_text(encoding="utf-8"))["questions"][:40]
    return [q["q"] for q in blind if is_full_question(q["q"])] + [q for q, _, _ in ISSUE_FRAMES]


def _servers(engine, q: str, lang: str = "tutte"):
    """The server's answer to ``q`` as the copy gives it: None where it has none from a frame (none at all, or
    one from an analytic index entry, not ported)."""
    a = engine.search(q, lang=lang).answer
    if a is None or a.entry:
        return None, a is not None
    marked = [html.unescape(m) for m in re.findall(r"<mark>(.*?)</mark>", a.sentence_html)]
    return (a.number, a.asks, a.sentence, marked), False


def test_the_offline_quick_answer_to_a_questions_frame_is_the_servers(page, server_engine):  # noqa: F811
    """On every question: the same rule, the same «La domanda chiede», the same sentence and marked words
    where the server answers the frame, none where it does not; in Italian first and in English only."""
    copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeRicercaOffline !== undefined && window.judgeRispostaOffline !== undefined")
    questions = _questions()
    counts = {}
    for lingua, asked in (("tutte", questions), ("en", [q for q, _, _ in ISSUE_FRAMES])):
        got = page.evaluate(OFFLINE_ANSWERS, [asked, lingua])
        wrong, frames, entries = [], 0, 0
        for q, have in zip(asked, got):
            want, from_entry = _servers(server_engine, q, lingua)
            frames += want is not None
            entries += from_entry
            if (tuple(have) if have else None) != want:
                wrong.append((q, want, have))
        assert not wrong, wrong[:3]
        counts[lingua] = (len(asked), frames, entries)
    # Not vacuous: many answers to frames, each issue's frame answered by its rule, and questions answered by none.
    n, frames, entries = counts["tutte"]
    assert n > 35 and 10 <= frames < n, counts
    issue = page.evaluate(OFFLINE_ANSWERS, [[q for q, _, _ in ISSUE_FRAMES], "tutte"])
    assert [a[0] for a in issue] == [rule for _, _, rule in ISSUE_FRAMES]
    assert counts["en"][1] == len(ISSUE_FRAMES)
    print(f"\nrisposta rapida offline = server: {counts}")  # questions, frame answers (all equal), entry answers


def test_the_browsers_answering_sentence_is_the_servers(page):
    """static/js/risposta-offline.js against answers.py answering_sentence (the sentences, the one sharing the
    most terms, snippets.py's window with its «…» and marks) on 600 rules' texts in both languages, long ones
    first, each with a few of its own terms and a word it lacks, drawn with a fixed seed."""
    corpus = load_corpus()
    rng = random.Random(20261129)
    texts = [(t.text, lang) for r in corpus.rules.values() for lang, t in (("it", r.italian), ("en", r.en))
             if t is not None and t.text.strip()]
    texts = sorted(texts, key=lambda x: -len(x[0]))[:300] + rng.sample(texts, 300)
    cases = [(text, lang, sorted(set(rng.sample(terms(text, lang), min(3, len(terms(text, lang))))) | {"zzz"}))
             for text, lang in texts]
    copy_ready(page)
    page.goto("/offline/cerca")
    page.wait_for_function("window.judgeRicercaOffline !== undefined && window.judgeRispostaOffline !== undefined")
    got = page.evaluate("""async (cases) => {
        const ix = await (await fetch(document.getElementById("offline-app").dataset.indice)).json();
        const S = judgeRicercaOffline, an = { terms: (x, lang) => S.terms(ix, x, lang),
            stem: (x, lang) => { const t = S.terms(ix, x, lang); return t.length ? t[0] : null; } };
        return cases.map(([text, lang, stems]) => {
            const s = judgeRispostaOffline.answeringSentence(ix, text, lang, new Set(stems), an);
            return [s.plain, s.parts.map(p => p[1] ? "<mark>" + p[0] + "</mark>" : p[0]).join("")];
        });
    }""", cases)
    wrong = []
    for (text, lang, stems), (plain, marked) in zip(cases, got):
        want = answering_sentence(text, lang, set(stems))
        if (plain, marked) != (want[0], html.unescape(want[1])):
            wrong.append((text[:60], want, (plain, marked)))
    assert not wrong, wrong[:3]
    # Not vacuous: long texts cut to a window, sentences chosen past the first, words marked.
    assert sum(1 for plain, _ in got if plain.startswith("… ") or plain.endswith(" …")) > 50
    starts = [" ".join(text.split())[:20] for text, _, _ in cases]
    assert sum(1 for start, (plain, _) in zip(starts, got) if not plain.startswith(start)) > 50
    assert sum(1 for _, marked in got if "<mark>" in marked) > 500


# What a quick answer shows: the section's label, then each element in it with its tag, class, language, link and
# text (``html``: a page's, or null for the page open; the spaces between the template's lines are not shown).
SIGNATURE = """html => {
    const root = html === null ? document : new DOMParser().parseFromString(html, "text/html");
    const s = root.querySelector("section.risposta-rapida");
    return [[s.className, s.getAttribute("aria-labelledby")], ...Array.from(s.querySelectorAll("*"), e =>
        [e.tagName, e.className, e.getAttribute("lang"), e.getAttribute("href"), e.textContent.replace(/\\s+/g, " ")])];
}"""


def test_the_offline_page_shows_the_quick_answer_as_the_site_does(page, server_engine):  # noqa: F811
    """The same section as cerca.html's, element for element, with the network cut."""
    q = ISSUE_FRAMES[3][0]  # «Chi controlla l'abilità innescata di una creatura che ho rubato?»
    # The site's page, fetched beside the browser (a search opened online is kept by the service worker).
    site = page.request.get("/cerca?q=" + quote(q, safe="")).text()
    visit_once(page)
    page.context.set_offline(True)
    try:
        page.goto("/cerca?q=" + quote(q, safe=""))
        expect(page.locator(ANSWER)).to_be_visible()
        online = page.evaluate(SIGNATURE, site)
        assert page.evaluate(SIGNATURE, None) == online and len(online) > 5, online
        a = server_engine.search(q).answer
        expect(page.locator(f"{ANSWER} h2 a")).to_have_attribute("href", f"/regole/{a.number}")
        expect(page.locator(f"{ANSWER} .cornice")).to_have_text(f"La domanda chiede: {a.asks} La regola che risponde:")
        expect(page.locator(f"{ANSWER} .frase-risposta mark").first).to_be_visible()
        # Above the results; none on the second page, as on the site.
        assert page.evaluate("""() => document.querySelector("section.risposta-rapida")
            .compareDocumentPosition(document.getElementById("risultati")) & Node.DOCUMENT_POSITION_FOLLOWING""")
        page.goto("/cerca?q=" + quote(q, safe="") + "&pagina=2")
        expect(page.locator("#risultati-offline .conteggio")).to_contain_text("pagina 2 di")
        expect(page.locator(ANSWER)).to_have_count(0)
        # A few words: no quick answer, also where the site gives one from the analytic index (not in the copy).
        assert server_engine.search("ETB").answer.entry
        for few in ("chi controlla", "ETB"):
            page.goto("/cerca?q=" + quote(few, safe=""))
            expect(page.locator("#risultati-offline .conteggio")).to_be_visible()
            expect(page.locator(ANSWER)).to_have_count(0)
        note = page.locator(".avviso-offline")
        expect(note).to_contain_text("la stessa risposta rapida alla sua cornice")
        expect(note).to_contain_text("senza la risposta rapida che viene dall'indice analitico")
    finally:
        page.context.set_offline(False)


def test_markup_in_a_question_stays_text_in_the_quick_answer(page, server_engine):  # noqa: F811
    """A question with markup in it: the server's answer, and no element made of what was typed."""
    q = ("<b>Chi controlla</b> l'abilità innescata di una creatura che ho rubato? "
         "<img src=x onerror=\"window.violato=1\"><script>window.violato=2</script>")
    want, _ = _servers(server_engine, q)
    assert want is not None
    visit_once(page)
    page.context.set_offline(True)
    try:
        page.goto("/cerca?q=" + quote(q, safe=""))
        expect(page.locator(ANSWER)).to_be_visible()
        expect(page.locator(f"{ANSWER} h2 a")).to_have_text(want[0])
        expect(page.locator(f"{ANSWER} .frase-risposta span[lang]")).to_have_text(want[2])
        assert page.locator(f"{ANSWER} mark").all_inner_texts() == want[3]
        for tag in ("b", "img", "script"):
            expect(page.locator(f"#risultati-offline {tag}")).to_have_count(0)
        assert page.evaluate("window.violato") is None
    finally:
        page.context.set_offline(False)
