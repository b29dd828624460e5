"""The project's Italian translation of the tournament documents (``tornei_it/``), paragraph by
paragraph, each tied to the exact English it translates.

The same layer as the rules' translation (judge/corpus/translation.py), with its markers: every
translated unit ends with ``<!-- en AAAAMMGG hash12 -->``, the English edition and the first 12
hex digits of the SHA-256 of the English text (``english_hash``). One file per section,
``tornei_it/<documento>/<sezione>.md`` (``tornei_it/ipg/2.1.md``)::

    ---
    documento: "ipg"
    sezione: "2.1"
    ---

    # 2.1
    > Game Play Error — Missed Trigger
    Errore di gioco — Innesco dimenticato (Game Play Error — Missed Trigger)
    <!-- en 20240923 0123456789ab -->

    ## ¶1 · titoletto
    > Definition
    Definizione
    <!-- en 20240923 0123456789ab -->

    ## ¶2
    > A triggered ability triggers, but the player controlling the ability doesn’t …
    Un'abilità innescata si innesca, ma …
    <!-- en 20240923 0123456789ab -->

A unit is the section's title (``# 2.1``) or a paragraph (``## ¶N``, what follows the number
is a reminder for the translator: the paragraph's kind and list mark). Its ``>`` lines are the
English it translates, a copy for the translator (what counts is the marker); the other lines
are the Italian, empty while the paragraph is not translated yet. Skeletons
(``judge tornei bozza``) hold the English and the markers with every Italian slot empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus.frontmatter import SourceFormatError, dump, split
from judge.corpus.translation import Stamp, english_hash, marker, paragraph_blocks, take_stamp
from judge.tournament.model import DOCUMENTS, HEADING, ITEM, TABLE, DocEdition, Paragraph, Section
from judge.tournament.numbers import section_key

_TITLE = re.compile(r"^#\s+(?P<num>\S+)\s*$")
_PARAGRAPH = re.compile(r"^##\s+¶(?P<n>\d+)\b")
TITLE_ID = 0  # the unit number of a section's title


@dataclass(slots=True)
class Unit:
    """A translated (or still empty) unit: the title (``number`` 0) or paragraph ¶``number``."""

    number: int
    english: str  # the copy in the file (may be older than the English in force)
    italian: str  # "" while not translated
    stamp: Stamp | None
    line: int

    @property
    def label(self) -> str:
        return "titolo" if self.number == TITLE_ID else f"¶{self.number}"


@dataclass
class SectionTranslation:
    path: Path
    doc: str
    section: str
    meta: dict[str, object]
    units: list[Unit] = field(default_factory=list)

    def unit(self, number: int) -> Unit | None:
        return next((u for u in self.units if u.number == number), None)

    @property
    def title(self) -> Unit | None:
        return self.unit(TITLE_ID)


def parse_file(path: Path) -> SectionTranslation:
    path = Path(path)
    meta, body, first_line = split(path.read_text(encoding="utf-8"), path)
    doc = str(meta.get("documento", "")).strip()
    section = str(meta.get("sezione", "")).strip()
    if doc not in DOCUMENTS:
        raise SourceFormatError(path, 2, f"metadato 'documento' mancante o non valido: «{doc}» (mtr, ipg o jar)")
    if not section:
        raise SourceFormatError(path, 2, "metadato 'sezione' mancante")
    st = SectionTranslation(path, doc, section, meta)
    seen: set[int] = set()
    for line, block in paragraph_blocks(body, first_line):
        lines, stamp = take_stamp(block, path, line)
        head = lines[0].strip() if lines else ""
        if (t := _TITLE.match(head)):
            if t["num"] != section:
                raise SourceFormatError(path, line, f"titolo della sezione {t['num']} in un file della sezione {section}")
            number = TITLE_ID
        elif (p := _PARAGRAPH.match(head)):
            number = int(p["n"])
        else:
            raise SourceFormatError(path, line, f"atteso «# {section}» o «## ¶N», trovato «{head[:60]}»")
        if number in seen:
            raise SourceFormatError(path, line, f"{'il titolo' if number == TITLE_ID else f'il paragrafo ¶{number}'} compare due volte")
        seen.add(number)
        english = [s[1:].strip() for s in lines[1:] if s.startswith(">")]
        italian = [s.strip() for s in lines[1:] if not s.startswith(">")]
        st.units.append(Unit(number, "\n".join(english), "\n".join(italian), stamp, line))
    return st


def translation_paths(folder: Path, doc: str | None = None) -> list[Path]:
    """The translation files under ``folder`` (``tornei_it/``), by document then section order."""
    out = []
    for code in ([doc] if doc else DOCUMENTS):
        sub = Path(folder) / code
        if sub.is_dir():
            out += sorted(sub.glob("*.md"), key=lambda p: section_key(p.stem))
    return out


def load_translation(folder: Path) -> list[SectionTranslation]:
    return [parse_file(p) for p in translation_paths(folder)]


# -- writing ----------------------------------------------------------------------------------

def _reminder(p: Paragraph) -> str:
    if p.kind == HEADING:
        return " · titoletto"
    if p.kind == ITEM:
        return f" · voce {p.mark}"
    if p.kind == TABLE:
        return " · tabella (una riga per riga)"
    return ""


def render(st: SectionTranslation, edition: DocEdition | None = None) -> str:
    """The file's text; with ``edition``, each paragraph's header carries its reminder."""
    section = edition.section(st.section) if edition else None
    out = [dump(st.meta or {"documento": st.doc, "sezione": st.section})]
    for u in st.units:
        if u.number == TITLE_ID:
            head = f"# {st.section}"
        else:
            p = section.paragraph(u.number) if section else None
            head = f"## ¶{u.number}" + (_reminder(p) if p else "")
        block = [head, *(f"> {s}" for s in u.english.split("\n"))]
        if u.italian:
            block += u.italian.split("\n")
        if u.stamp:
            block.append(marker(u.stamp.edition, u.stamp.hash))
        out.append("\n".join(block) + "\n")
    return "\n".join(out)


def skeleton(edition: DocEdition, section: Section) -> SectionTranslation:
    """A section's file to translate: its English, unit by unit, with the markers and empty Italian."""
    st = SectionTranslation(Path(f"{section.number}.md"), edition.doc, section.number,
                            {"documento": edition.doc, "sezione": section.number})
    st.units.append(Unit(TITLE_ID, section.title, "", Stamp(edition.id, english_hash(section.title)), 0))
    for p in section.paragraphs:
        st.units.append(Unit(p.number, p.text, "", Stamp(edition.id, english_hash(p.text)), 0))
    return st


def refresh(st: SectionTranslation, edition: DocEdition, section: Section) -> list[str]:
    """Bring a file's untranslated units to ``edition``'s English (text and marker) and add the
    paragraphs it lacks; translated units are never touched (updating one is a deliberate edit).
    Returns what changed, as unit labels."""
    fresh = {u.number: u for u in skeleton(edition, section).units}
    done: list[str] = []
    kept = []
    for u in st.units:
        new = fresh.pop(u.number, None)
        if u.italian or new is None:
            kept.append(u)  # translated, or a paragraph the English no longer has: the check reports it
            continue
        if u.stamp != new.stamp or u.english != new.english:
            done.append(u.label)
        kept.append(new)
    for new in fresh.values():
        kept.append(new)
        done.append(new.label)
    st.units = sorted(kept, key=lambda u: u.number)
    return done
