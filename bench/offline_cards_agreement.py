"""How often the offline search answers a question that names a card as the site does: the offline
index built here (judge/search/offline_index.py), static/js/ricerca-offline.js run in Node over it, and
the server's engine on the same corpus; for each question set's questions with a ``card`` field, the
same first answer and the same cards shown (docs/telefono-e-offline.md). Needs ``node``.

    .venv/bin/python -m bench.offline_cards_agreement
"""

from __future__ import annotations

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
RUN = """
global.self = global;
const fs = require("fs");
require(process.argv[2]); require(process.argv[3]);
const ix = JSON.parse(fs.readFileSync(process.argv[4], "utf8"));
const S = self.judgeRicercaOffline;
const qs = JSON.parse(fs.readFileSync(process.argv[5], "utf8"));
console.log(JSON.stringify(qs.map(q => [S.search(ix, q).slice(0, 1), S.cards(ix, q).map(c => c.name)])));
"""


def main() -> None:
    corpus = load_corpus()
    with tempfile.TemporaryDirectory() as tmp:
        engine = get_engine(Path(tmp) / "istanza", corpus)
        files = {name: Path(tmp) / name for name in ("indice.json", "domande.json", "run.js")}
        files["indice.json"].write_text(json.dumps(build(corpus, engine), ensure_ascii=False), encoding="utf-8")
        files["run.js"].write_text(RUN, encoding="utf-8")
        for name in SETS:
            path = ROOT / name
            if not path.exists():
                continue
            questions = [q["q"] for q in json.loads(path.read_text(encoding="utf-8"))["questions"] if q.get("card")]
            files["domande.json"].write_text(json.dumps(questions), encoding="utf-8")
            offline = json.loads(subprocess.run(
                ["node", str(files["run.js"]), str(ROOT / "static/js/radici.js"), str(ROOT / "static/js/ricerca-offline.js"),
                 str(files["indice.json"]), str(files["domande.json"])], capture_output=True, text=True, check=True).stdout)
            first = cards = 0
            for q, (top, shown) in zip(questions, offline):
                online = engine.search(q, per_page=1)
                first += top == [h.number for h in online.hits[:1]]
                cards += shown == [m.face.display_name for m in online.cards]
            print(f"{name}: {len(questions)} domande con una carta; stessa prima risposta {first}, stesse carte {cards}")


if __name__ == "__main__":
    main()
