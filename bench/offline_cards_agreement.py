"""How often the offline search answers as the site does: the offline index built here
(judge/search/offline_index.py), static/js/ricerca-offline.js (with radici.js and ortografia.js) run in Node
over it, and the server's engine on the same corpus. For each question set: its questions that name a card
(a ``card`` field: the same first answer, the same cards shown), and all its questions (the same first
answer, and the same «Forse cercavi» suggestion; those the server corrects or completes a word of counted
apart); and queries in the search's syntax made from their words (bench/syntax_queries.py: phrases in quotes,
AND/OR/NOT, -word, +word), form by form: the same first answer, the same notes; and the quick answer
(static/js/risposta-offline.js: to a question's frame or from an analytic index entry, the same rule, entry,
text, what it asks and sentence, none where the server has none), counted apart where the first three results
are the same (docs/telefono-e-offline.md).
Needs ``node``.

    .venv/bin/python -m bench.offline_cards_agreement
    .venv/bin/python -m bench.offline_cards_agreement --js DIR   # another copy of static/js (an older commit's)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

from judge.corpus import load_corpus
from judge.search.engines import get_engine
from judge.search.learned import get_memory
from judge.search.offline_index import build
from judge.web.offline_data import edition_data

from bench.syntax_queries import syntax_queries

ROOT = Path(__file__).resolve().parents[1]
SETS = ("tests/search/questions_blind.json", "tests/search/questions_blind2.json", "tests/search/questions_blind3.json",
        "tests/search/questions_blind4.json", "tests/search/questions_blind5.json", "tests/search/questions_blind6.json",
        "judge/search/domande.json", "tests/search/questions_blind7.json", "tests/search/questions_fresh.json",
        "tests/search/questions.json", "tests/search/questions_tornei.json")
SYNTAX_SETS = SETS[:7]  # the syntax queries are drawn from these (a fixed sample: the figures in the docs)
# ortografia.js: absent before typo correction; sintassi.js, frasi.js: before the syntax; citazioni.js: before the
# rule numbers inside a query.
SCRIPTS = ("radici.js", "ortografia.js", "sintassi.js", "frasi.js", "citazioni.js", "risposta-offline.js", "ricerca-offline.js")
RUN = """
global.self = global;
const fs = require("fs");
process.argv.slice(5).forEach(f => require(f));
const ix = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const rules = JSON.parse(fs.readFileSync(process.argv[3], "utf8")).regole;
const S = self.judgeRicercaOffline;
const qs = JSON.parse(fs.readFileSync(process.argv[4], "utf8"));
console.log(JSON.stringify(qs.map(q => {
  const a = S.answer ? S.answer(ix, q, { regole: rules }) : { rules: S.search(ix, q), suggestion: null };
  const k = a.quick, quick = k ? [k.number, k.entry || null, k.entryLang || null, k.text || null, k.asks || null, k.sentence || null] : null;
  return [a.rules.slice(0, 1), S.cards(ix, q).map(c => c.name), a.suggestion, a.notes || [], quick, a.rules.slice(0, 3)];
})));
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--js", type=Path, default=ROOT / "static/js", help="the folder of the offline search's scripts")
    js = parser.parse_args().js
    corpus = load_corpus()
    with tempfile.TemporaryDirectory() as tmp:
        engine = get_engine(Path(tmp) / "istanza", corpus)
        engine.memory = get_memory(corpus, by_meaning=False)  # as the copy reads it (judge/search/meaning.py)
        files = {name: Path(tmp) / name for name in ("indice.json", "dati.json", "domande.json", "run.js")}
        files["indice.json"].write_text(json.dumps(build(corpus, engine), ensure_ascii=False), encoding="utf-8")
        files["dati.json"].write_text(json.dumps(edition_data(corpus, corpus.content_hash), ensure_ascii=False),
                                      encoding="utf-8")
        files["run.js"].write_text(RUN, encoding="utf-8")
        scripts = [str(js / s) for s in SCRIPTS if (js / s).exists()]

        def offline(questions: list[str]) -> list:
            files["domande.json"].write_text(json.dumps(questions), encoding="utf-8")
            return json.loads(subprocess.run(
                ["node", str(files["run.js"]), str(files["indice.json"]), str(files["dati.json"]),
                 str(files["domande.json"]), *scripts], capture_output=True, text=True, check=True).stdout)

        every: list[str] = []
        for name in SETS:
            path = ROOT / name
            if not path.exists():
                continue
            asked = json.loads(path.read_text(encoding="utf-8"))["questions"]
            if name in SYNTAX_SETS:
                every += [q["q"] for q in asked]
            n_cards = first_cards = cards = first = suggested = typos = typos_first = 0
            # The server's answers to a frame and from an entry; the copy's the same (or none where the server has
            # none); the queries whose first three results are the same, and among them the same answers.
            quick = [0, 0, 0, 0, 0]
            for q, (top, shown, suggestion, _, answer, top3) in zip(asked, offline([q["q"] for q in asked])):
                online = engine.search(q["q"], per_page=1)
                same = top == [h.number for h in online.hits[:1]]
                first += same
                suggested += suggestion == online.suggestion
                if online.corrections:
                    typos += 1
                    typos_first += same
                if q.get("card"):
                    n_cards += 1
                    first_cards += same
                    cards += shown == [m.face.display_name for m in online.cards]
                page = engine.search(q["q"])  # a page's ten results: the answer looks at the first three
                a = page.answer
                want = [a.number, a.entry or None, a.entry_lang or None, a.text, a.asks or None, a.sentence or None] if a else None
                quick[0] += a is not None and not a.entry
                quick[1] += a is not None and bool(a.entry)
                quick[2] += answer == want
                if top3 == [h.number for h in page.hits[:3]]:
                    quick[3] += 1
                    quick[4] += answer == want
            print(f"{name}: {n_cards} domande con una carta; stessa prima risposta {first_cards}, stesse carte {cards}")
            print(f"{name}: {len(asked)} domande; stessa prima risposta {first}, stesso «Forse cercavi» {suggested}; "
                  f"{typos} con una parola corretta o completata dal sito, stessa prima risposta {typos_first}")
            print(f"{name}: risposte rapide sul sito {quick[0]} alla cornice, {quick[1]} dall'indice analitico; stessa "
                  f"risposta rapida (o nessuna) {quick[2]} su {len(asked)}; stessi primi tre risultati {quick[3]}, e tra "
                  f"questi stessa risposta rapida {quick[4]}")
        syntax(engine, offline, syntax_queries(every))


def syntax(engine, offline, queries: list[tuple[str, str]]) -> None:
    """The queries in the search's syntax, form by form: the same first answer, the same notes."""
    by_form: dict[str, list[int]] = {}
    for (form, q), (top, _, _, notes, *_) in zip(queries, offline([q for _, q in queries])):
        online = engine.search(q, per_page=1)
        counts = by_form.setdefault(form, [0, 0, 0])
        counts[0] += 1
        counts[1] += top == [h.number for h in online.hits[:1]]
        counts[2] += notes == online.notes
    total = [sum(c[i] for c in by_form.values()) for i in range(3)]
    print(f"sintassi (bench/syntax_queries.py): {total[0]} ricerche; stessa prima risposta {total[1]}, stessi avvisi {total[2]}")
    for form, (n, first, notes) in by_form.items():
        print(f"  {form}: {n}; stessa prima risposta {first}, stessi avvisi {notes}")


if __name__ == "__main__":
    main()
