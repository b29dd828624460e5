"""Card names in double square brackets («[[Tarmogoyf]]», a convention of judges' chats) in a
pasted text: each one linked to its card page, beside the rule citations the linker finds.

A name is the card whose Italian or English name it is (case, accents and punctuation aside; a
multi-part card by its whole name, «[[Fire // Ice]]»), or the card it names with a small typo
(«[[Tarmogoif]]», marked as corrected). An Italian name that two cards share is never resolved to
one of them: both are offered, and the link goes to the page that offers them (as /carte does).
Otherwise the name stays as written, marked, with the nearest names.

A text is at most 20,000 characters (judge/web/linker.py), that is up to 200 names: a name is
looked up once however often it is written, and the typo search, the costly part, is done for
``MAX_FUZZY`` distinct names within ``FUZZY_SECONDS``; a name past them stays unknown without
suggestions (bench/collega_bench.py: a body full of unknown names).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from flask import url_for
from markupsafe import Markup, escape

from judge.cards import lookup
from judge.cards.names import name_key, slug
from judge.web import render

MENTION = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")
MAX_MENTIONS = 200
MAX_FUZZY = 24          # distinct unknown names looked for with typos, per text
FUZZY_SECONDS = 0.08    # ... and the time they may take together


@dataclass
class Mention:
    start: int
    end: int
    written: str
    match: lookup.Match | None = None
    choices: list[lookup.Match] = field(default_factory=list)  # an Italian name of several cards
    nearest: list[str] = field(default_factory=list)

    def url(self, external: bool = False) -> str | None:
        if self.match is not None:
            return url_for("cards.carta", nome=self.match.face.slug, _external=external)
        if self.choices:  # the page that offers every card of that name
            return url_for("cards.carta", nome=slug(self.written), _external=external)
        return None

    def as_json(self) -> dict:
        face = self.match.face if self.match else None
        return {"start": self.start, "end": self.end, "text": self.written,
                "name": face.name if face else None, "name_it": face.name_it if face else None,
                "exact": bool(self.match and self.match.exact), "url": self.url(external=True),
                "choices": [{"name": c.face.name, "name_it": c.face.name_it,
                             "url": url_for("cards.carta", nome=c.face.slug, _external=True)} for c in self.choices],
                "nearest": self.nearest}


@dataclass
class _Found:
    match: lookup.Match | None = None
    choices: list[lookup.Match] = field(default_factory=list)
    nearest: list[str] = field(default_factory=list)


class _Budget:
    """How much typo searching a text still may do."""

    def __init__(self) -> None:
        self.left, self.until = MAX_FUZZY, None  # the clock starts at the first typo search

    def take(self) -> bool:
        now = time.monotonic()
        if self.until is None:
            self.until = now + FUZZY_SECONDS
        if self.left <= 0 or now > self.until:
            return False
        self.left -= 1
        return True


def _look_up(written: str, budget: _Budget) -> _Found:
    exact = lookup.exact(written)
    if len(exact) == 1:
        return _Found(match=exact[0])
    if exact:
        return _Found(choices=exact)
    if not budget.take():
        return _Found()
    near = lookup.find(written, 5)
    named = lookup.close_names(name_key(written), near)
    if len(named) == 1:
        return _Found(match=named[0])
    return _Found(nearest=[m.name for m in near[:3]])


def mentions(text: str) -> list[Mention]:
    """The ``[[…]]`` of ``text``, each with the card it names (if any); [] without a table."""
    out: list[Mention] = []
    seen: dict[str, _Found] = {}
    budget = _Budget()
    try:
        for m in MENTION.finditer(text or ""):
            if len(out) >= MAX_MENTIONS:
                break
            written = m.group(1).strip()
            key = name_key(written)
            found = seen.get(key)
            if found is None:
                found = seen[key] = _look_up(written, budget) if key else _Found()
            out.append(Mention(m.start(), m.end(), written, found.match, list(found.choices), list(found.nearest)))
    except OSError:             # no card table: the text is linked for its rules only
        return []
    return out


def describe(m: Mention) -> str:
    """What a link's title says: the card, or the cards an Italian name stands for."""
    if m.choices:
        names = " o ".join(c.face.name for c in m.choices)
        return f"«{m.written}» è il nome italiano di {len(m.choices)} carte: {names}"
    face = m.match.face
    title = face.display_name + (f" ({face.english_aside})" if face.english_aside else "")
    if not m.match.exact:
        title += f" — nome corretto da «{m.written}»"
    return title


def _card_html(m: Mention) -> str:
    label = escape(f"[[{m.written}]]")
    if m.match is None and not m.choices:
        hint = f"Carta sconosciuta; le più vicine: {', '.join(m.nearest)}" if m.nearest else "Carta sconosciuta"
        return f'<span class="cit-ignota" title="{escape(hint)}">{label}</span>'
    css = "cit carta" + (" carta-ambigua" if m.choices else "")
    return f'<a class="{css}" href="{escape(m.url())}" title="{escape(describe(m))}">{label}</a>'


def link_text(text: str, corpus, edition=None, found: list[Mention] | None = None) -> Markup:
    """``render.link_text`` (every rule citation linked) with every ``[[card]]`` linked too."""
    found = mentions(text) if found is None else found
    if not found:
        return render.link_text(text, corpus, edition=edition)
    out, pos = [], 0
    for m in found:
        out.append(str(render.link_text(text[pos:m.start], corpus, edition=edition)))
        out.append(_card_html(m))
        pos = m.end
    out.append(str(render.link_text(text[pos:], corpus, edition=edition)))
    return Markup("".join(out))
