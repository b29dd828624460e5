"""Card names in double square brackets («[[Tarmogoyf]]», a convention of judges' chats) in a
pasted text: each one linked to its card page, beside the rule citations the linker finds.

A name is the card whose Italian or English name it is (case and accents aside), or the card it
names with a small typo («[[Tarmogoif]]», marked as corrected); otherwise it stays as written,
marked, with the nearest names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from flask import url_for
from markupsafe import Markup, escape

from judge.cards import lookup
from judge.web import render

MENTION = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")
MAX_MENTIONS = 200


@dataclass
class Mention:
    start: int
    end: int
    written: str
    match: lookup.Match | None = None
    nearest: list[str] = field(default_factory=list)

    def url(self, external: bool = False) -> str | None:
        if self.match is None:
            return None
        return url_for("cards.carta", nome=self.match.face.slug, _external=external)

    def as_json(self) -> dict:
        face = self.match.face if self.match else None
        return {"start": self.start, "end": self.end, "text": self.written,
                "name": face.name if face else None, "name_it": face.name_it if face else None,
                "exact": bool(self.match and self.match.exact), "url": self.url(external=True),
                "nearest": self.nearest}


def mentions(text: str) -> list[Mention]:
    """The ``[[…]]`` of ``text``, each with the card it names (if any); [] without a table."""
    out: list[Mention] = []
    try:
        for m in MENTION.finditer(text or ""):
            if len(out) >= MAX_MENTIONS:
                break
            written = m.group(1).strip()
            found = lookup.exact(written) or lookup.named(written)
            mention = Mention(m.start(), m.end(), written)
            if len(found) == 1 or (found and found[0].exact):
                mention.match = found[0]
            else:
                mention.nearest = lookup.nearest(written, 3)
            out.append(mention)
    except OSError:             # no card table: the text is linked for its rules only
        return []
    return out


def _card_html(m: Mention) -> str:
    label = escape(f"[[{m.written}]]")
    if m.match is None:
        hint = f"Carta sconosciuta; le più vicine: {', '.join(m.nearest)}" if m.nearest else "Carta sconosciuta"
        return f'<span class="cit-ignota" title="{escape(hint)}">{label}</span>'
    face = m.match.face
    title = face.display_name + (f" ({face.english_aside})" if face.english_aside else "")
    if not m.match.exact:
        title += f" — nome corretto da «{m.written}»"
    return f'<a class="cit carta" href="{escape(m.url())}" title="{escape(title)}">{label}</a>'


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
