"""The log's sentences, as a judge can paste them into a ruling.

Every event's text passes through here once, when it is emitted (judge/engine/context.py):

- a permanent whose name another permanent on the battlefield shares is named with its
  controller, «Orso Grizzly di Bruno» (and a number when one player has two: «Orso Grizzly (2) di
  Bruno»); a permanent that has just left keeps the name it had on the battlefield;
- Italian's euphonic «ad» before a word beginning with «a» («ad Angelo», «ad Alice») and «ed»
  before «e»;
- a preposition before a name beginning with an article becomes the articulated preposition
  («Capitolo III della Caduta del Re Stregone», not «di La Caduta»);
- the sentence begins with a capital («una fonte» inside a sentence, «Una fonte» at its start).

``ability`` names a triggered ability in a sentence without saying «abilità» twice.
"""

from __future__ import annotations

import re
from operator import attrgetter

_ARTICLES = {"Il": "il", "Lo": "lo", "La": "la", "I": "i", "Gli": "gli", "Le": "le"}
_JOINED = {
    "di": {"il": "del", "lo": "dello", "la": "della", "i": "dei", "gli": "degli", "le": "delle", "l'": "dell'"},
    "a": {"il": "al", "lo": "allo", "la": "alla", "i": "ai", "gli": "agli", "le": "alle", "l'": "all'"},
    "da": {"il": "dal", "lo": "dallo", "la": "dalla", "i": "dai", "gli": "dagli", "le": "dalle", "l'": "dall'"},
    "su": {"il": "sul", "lo": "sullo", "la": "sulla", "i": "sui", "gli": "sugli", "le": "sulle", "l'": "sull'"},
    "in": {"il": "nel", "lo": "nello", "la": "nella", "i": "nei", "gli": "negli", "le": "nelle", "l'": "nell'"},
}
_PREPOSITION_ARTICLE = re.compile(r"\b(di|a|ad|da|su|in) (Il|Lo|La|I|Gli|Le) (?=[A-ZÀ-Ý])|\b(di|a|ad|da|su|in) L['’](?=[A-ZÀ-Ý])")
_ID, _NAME, _CONTROLLER = attrgetter("id"), attrgetter("name"), attrgetter("controller")
_AD = re.compile(r"(?<![\w'’])a (?=[aAàÀ])")
_ED = re.compile(r"(?<![\w'’])e (?=[eEèÈéÉ])")


def _joined(m: re.Match) -> str:
    if m.group(3):
        prep = "a" if m.group(3) == "ad" else m.group(3)
        return _JOINED[prep]["l'"]
    prep = "a" if m.group(1) == "ad" else m.group(1)
    return _JOINED[prep][_ARTICLES[m.group(2)]] + " "


def tidy(text: str) -> str:
    """Articulated prepositions, euphonic «ad» and «ed», a capital to begin with."""
    text = _PREPOSITION_ARTICLE.sub(_joined, text)
    text = _ED.sub("ed ", _AD.sub("ad ", text))
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def ability(text: str) -> str:
    """A triggered ability as a sentence names it: «quando metti in moto questo intrigo» del Mondo
    Brucerà for «Abilità «quando metti in moto questo intrigo» di Il Mondo Brucerà» (the sentence
    says «L'abilità innescata» already), the ability's text in «…» otherwise."""
    text = text.rstrip().rstrip(".")
    if text.startswith("Abilità "):
        return text[len("Abilità "):]  # «di Il Mondo» is tidied with the whole sentence
    return f"«{text}»"


def triggered(text: str, controller: str) -> str:
    """The subject of a sentence about a triggered ability and its controller."""
    if text.rstrip().startswith("Abilità "):
        return f"L'abilità innescata {ability(text)}, controllata da {controller},"
    return f"L'abilità innescata {ability(text)} di {controller}"


# -- permanents that share a name ---------------------------------------------------------------

def battlefield_labels(st) -> dict[str, str]:
    """Every permanent's name as a sentence writes it: its controller beside a name other
    permanents share, and a number beside a name its controller has twice."""
    by_name: dict[str, dict[str, list]] = {}  # name -> controller -> permanents, in battlefield order
    for p in st.battlefield:
        by_name.setdefault(p.name, {}).setdefault(p.controller, []).append(p)
    out: dict[str, str] = {}
    for name, by_controller in by_name.items():
        if len(by_controller) == 1 and len(next(iter(by_controller.values()))) == 1:
            p = next(iter(by_controller.values()))[0]
            out[p.id] = name
            continue
        for controller, mine in by_controller.items():
            who = st.name_of(controller)
            for k, p in enumerate(mine, 1):
                out[p.id] = f"{name}{f' ({k})' if len(mine) > 1 else ''} di {who}"
    return out


class Namer:
    """The names an operation's sentences give permanents (one per game operation, context.py):
    the board's labels are computed again only when its permanents, their names or controllers
    change (three C-level passes tell; a step of a board of 800 permanents emits hundreds of events),
    and a permanent that leaves keeps the most precise name it had («Orso Grizzly (2) di Bruno» in the
    sentence that says it died with its namesakes)."""

    def __init__(self) -> None:
        self.kept: dict[str, str] = {}
        self._key: tuple | None = None

    def labels(self, st) -> dict[str, str]:
        bf = st.battlefield
        key = (tuple(map(_ID, bf)), tuple(map(_NAME, bf)), tuple(map(_CONTROLLER, bf)))
        if key != self._key:
            self._key = key
            for oid, label in battlefield_labels(st).items():
                if oid not in self.kept or " di " in label:
                    self.kept[oid] = label
        return self.kept


def with_labels(text: str, objects, labels: dict[str, str], st) -> str:
    """``text`` with the names of ``objects`` written as ``labels`` says, where they differ: the
    objects are in the order the sentence names them (one occurrence each), or one object is
    named however many times. Anything less clear is left as it is."""
    by_name: dict[str, list[str]] = {}
    for oid in dict.fromkeys(o for o in objects if isinstance(o, str)):
        label = labels.get(oid)
        name = st.name_of(oid)
        if label and label != name:
            by_name.setdefault(name, []).append(label)
    for name, wanted in by_name.items():
        pattern = re.compile(rf"(?<![\w«]){re.escape(name)}(?![\w»])(?! \(\d+\) di )(?! di )")
        found = list(pattern.finditer(text))
        if not found or (len(wanted) > 1 and len(found) != len(wanted)):
            continue
        out, pos = [], 0
        for i, m in enumerate(found):
            out += [text[pos:m.start()], wanted[i] if len(wanted) > 1 else wanted[0]]
            pos = m.end()
        text = "".join(out) + text[pos:]
    return text
