"""Italian chapter and section titles, aligned with the English contents.

The wiki's navigation box numbers its sections as an older edition did: when a
section is inserted in the English rules (721 "Station Cards", 722 "Preparation
Cards"), every later Italian title sits on a number that now belongs to another
section. Titles are therefore aligned by content, chapter by chapter: a
monotonic alignment of the two title lists that maximises how many titles are
paired, then how alike the paired titles look (Italian and English rule titles
share many cognates: "Controllare un altro giocatore" / "Controlling Another
Player", "Carte prototipo" / "Prototype Cards"), then how many keep their
number. An English section left unpaired has no known Italian title: the
product says so instead of guessing.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class TitleMatch:
    section: int  # English (current) number
    title_it: str | None
    nav_number: int | None  # the number the navigation box gives it

    @property
    def renumbered(self) -> bool:
        return self.nav_number is not None and self.nav_number != self.section


def _norm(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in folded if ch.isalnum() or ch == " ")


def _grams(text: str) -> set[str]:
    grams: set[str] = set()
    for word in _norm(text).split():
        if len(word) < 4:
            continue  # articles and short words only add noise across languages
        padded = f" {word} "
        grams.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return grams


def similarity(a: str, b: str) -> float:
    ga, gb = _grams(a), _grams(b)
    if not ga or not gb:
        return 0.0
    return 2 * len(ga & gb) / (len(ga) + len(gb))


def align_chapter(
    nav: list[tuple[int, str]], english: list[tuple[int, str]], like=similarity
) -> list[TitleMatch]:
    """Align one chapter's navigation entries to its English sections (both in order)."""
    m, n = len(nav), len(english)
    # score[i][j]: best (pairs, likeness, same-number count) aligning nav[i:] with english[j:].
    best = [[(0, 0.0, 0)] * (n + 1) for _ in range(m + 1)]
    move = [[""] * (n + 1) for _ in range(m + 1)]
    for i in range(m, -1, -1):
        for j in range(n, -1, -1):
            if i == m or j == n:
                continue
            options = []
            p, s, k = best[i + 1][j + 1]
            same = 1 if nav[i][0] == english[j][0] else 0
            options.append(((p + 1, s + like(nav[i][1], english[j][1]), k + same), "pair"))
            options.append((best[i + 1][j], "skip_nav"))
            options.append((best[i][j + 1], "skip_en"))
            best[i][j], move[i][j] = max(options, key=lambda o: (o[0][0], round(o[0][1], 6), o[0][2]))
    matches: dict[int, TitleMatch] = {sec: TitleMatch(sec, None, None) for sec, _ in english}
    i = j = 0
    while i < m and j < n:
        step = move[i][j]
        if step == "pair":
            matches[english[j][0]] = TitleMatch(english[j][0], nav[i][1], nav[i][0])
            i, j = i + 1, j + 1
        elif step == "skip_nav":
            i += 1
        else:
            j += 1
    return [matches[sec] for sec, _ in english]


def _align(nav_sections: list[tuple[int, str]], english_sections: dict[int, str], like) -> dict[int, TitleMatch]:
    out: dict[int, TitleMatch] = {}
    for chapter in range(1, 10):
        nav = [(n, t) for n, t in nav_sections if n // 100 == chapter]
        eng = sorted((n, t) for n, t in english_sections.items() if n // 100 == chapter)
        if [n for n, _ in nav] == [n for n, _ in eng]:
            # Same numbering: nothing was inserted or removed in this chapter.
            out.update({n: TitleMatch(n, t, n) for n, t in nav})
        else:
            out.update({m.section: m for m in align_chapter(nav, eng, like)})
    return out


def _same(a: str, b: str) -> float:
    return 1.0 if a.strip().lower() == b.strip().lower() else 0.0


def align_titles(nav_sections: list[tuple[int, str]], editions: list[dict[int, str]]) -> dict[int, TitleMatch]:
    """Italian titles for the sections of the newest of ``editions`` (oldest first).

    The box is aligned with the oldest edition, the one nearest in time to the
    translation, where fewest sections have moved; each later edition is then
    aligned with the one before it by identical English titles, which is exact.
    """
    current = _align(nav_sections, editions[0], similarity)
    for older, newer in zip(editions, editions[1:]):
        step = _align(sorted(older.items()), newer, _same)
        carried: dict[int, TitleMatch] = {}
        for sec in newer:
            link = step.get(sec)
            prev = current.get(link.nav_number) if link and link.nav_number is not None else None
            carried[sec] = TitleMatch(sec, prev.title_it if prev else None, prev.nav_number if prev else None)
        current = carried
    return current
