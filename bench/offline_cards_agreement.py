"""How often the offline search answers as the site does: the offline index built here
(judge/search/offline_index.py), static/js/ricerca-offline.js (with radici.js and ortografia.js) run in Node
over it, and the server's engine on the same corpus. For each question set: its questions that name a card
(a ``card`` field: the same first answer, the same cards shown), and all its questions (the same first
answer, and the same «Forse cercavi» suggestion; those the server corrects or completes a word of counted
apart) (docs/telefono-e-offline.md). Needs ``node``.

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
from judge.search.offline_index import build

ROOT = Path(__file__).resolve().parents[1]
SETS = ("tests/search/questions_blind.json", "tests/search/questions_blind2.json", "tests/search/questions_blind3.json",
        "judge/search/domande.json")
SCRIPTS = ("radici.js", "ortografia.js", "ricerca-offline.js")  # ortografia.js: absent before typo correction
RUN = """
global.self = global;
const fs = require("fs");
process.argv.slice(4).forEach(f => require(f));
const ix = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const S = self.judgeRicercaOffline;
const qs = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
console.log(JSON.stringify(qs.map(q => {
  const a = S.answer ? S.answer(ix, q) : { rules: S.search(ix, q), suggestion: null };
  return [a.rules.slice(0, 1), S.cards(ix, q).map(c => c.name), a.suggestion];
})));
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--js", type=Path, default=ROOT / "static/js", help="the folder of the offline search's scripts")
    js = parser.parse_args().js
    corpus = load_corpus()
    with tempfile.TemporaryDirectory() as tmp:
        engine = get_engine(Path(tmp) / "istanza", corpus)
        files = {name: Path(tmp) / name for name in ("indice.json", "domande.json", "run.js")}
        files["indice.json"].write_text(json.dumps(build(corpus, engine), ensure_ascii=False), encoding="utf-8")
        files["run.js"].write_text(RUN, encoding="utf-8")
        scripts = [str(js / s) for s in SCRIPTS if (js / s).exists()]
        for name in SETS:
            path = ROOT / name
            if not path.exists():
                continue
            asked = json.loads(path.read_text(encoding="utf-8"))["questions"]
            questions = [q["q"] for q in asked]
            files["domande.json"].write_text(json.dumps(questions), encoding="utf-8")
            offline = json.loads(subprocess.run(
                ["node", str(files["run.js"]), str(files["indice.json"]), str(files["domande.json"]), *scripts],
                capture_output=True, text=True, check=True).stdout)
            n_cards = first_cards = cards = first = suggested = typos = typos_first = 0
            for q, (top, shown, suggestion) in zip(asked, offline):
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
            print(f"{name}: {n_cards} domande con una carta; stessa prima risposta {first_cards}, stesse carte {cards}")
            print(f"{name}: {len(asked)} domande; stessa prima risposta {first}, stesso «Forse cercavi» {suggested}; "
                  f"{typos} con una parola corretta o completata dal sito, stessa prima risposta {typos_first}")


if __name__ == "__main__":
    main()
