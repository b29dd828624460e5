"""The keywords the engine knows: one registry for the scenario format, the engine, the builder
and any other code (the card table marks the keywords "the engine knows" from ``REGISTRY``).

A keyword is written as cards print it, in English ("flying", "protection from red", "bushido 2",
"islandwalk", "ward {2}") or with its official Italian name («volare», «protezione dal rosso»,
«bushido 2», «passa-isole», «egida {2}»): :func:`parse` reads either and returns the canonical
English text that scenarios store.  Italian names come from the terminology table through
``terms``.  Besides the keyword abilities of rule 702, the engine knows some abilities that are
not keywords but restrictions or requirements on attacking and blocking (508.1c–d, 509.1a–c),
written and stored the same way ("can't block", …; ``keyword=False`` in the registry).

Banding and the other combat keywords of 702 the engine does not apply are refused with their
reason (unsupported.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from judge.engine import terms
from judge.engine.characteristics import unsupported
from judge.engine.characteristics.unsupported import REFUSED_COMBAT  # noqa: F401  (public)
from judge.engine.state import MANA_COLORS

# --- the registry ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    name: str               # English name, the terminology table's term ("flying", "protection")
    rule: str               # the rule that defines it (702.N) or, for abilities, governs it
    group: str              # "combat", "evasion", "protection", "targets", "trigger", "other"
    param: str = ""         # "" · "n" (bushido 2) · "quality" (protection from red) · "cost"
                            # (ward {2}) · "land" (islandwalk: the kinds in LANDWALKS)
    counter: bool = False   # a keyword counter can be this keyword (122.1b)
    keyword: bool = True    # False: an ability that is not a keyword ("can't block")
    it: str = ""            # Italian wording of an ability that is not a keyword

    @property
    def italian(self) -> str:
        """The official Italian name (the terminology table's) or the ability's wording."""
        return self.it or terms.italian(self.name)

    def to_dict(self) -> dict:
        return {"name": self.name, "italian": self.italian, "rule": self.rule, "group": self.group,
                "param": self.param or None, "counter": self.counter, "keyword": self.keyword,
                "examples": list(examples(self))}


_K = Spec
REGISTRY: tuple[Spec, ...] = (
    # combat damage and attacking (the keywords the engine knew first)
    _K("deathtouch", "702.2", "combat", counter=True),
    _K("first strike", "702.7", "combat", counter=True),
    _K("double strike", "702.4", "combat", counter=True),
    _K("trample", "702.19", "combat", counter=True),
    _K("trample over planeswalkers", "702.19c", "combat"),
    _K("toxic", "702.164", "combat", param="n"),
    _K("lifelink", "702.15", "combat", counter=True),
    _K("vigilance", "702.20", "combat", counter=True),
    _K("indestructible", "702.12", "other", counter=True),
    _K("haste", "702.10", "combat", counter=True),
    _K("defender", "702.3", "combat"),
    _K("infect", "702.90", "combat"),
    _K("wither", "702.80", "combat"),
    _K("phasing", "702.26", "other"),
    _K("space sculptor", "702.158", "other"),
    _K("start your engines!", "702.179", "other"),
    _K("changeling", "702.73", "other"),        # every creature type (layer 4, 613.3)
    # who may block: evasion abilities (509.1b)
    _K("flying", "702.9", "evasion", counter=True),
    _K("reach", "702.17", "evasion", counter=True),
    _K("menace", "702.111", "evasion", counter=True),
    _K("intimidate", "702.13", "evasion"),
    _K("fear", "702.36", "evasion"),
    _K("shadow", "702.28", "evasion", counter=True),
    _K("horsemanship", "702.31", "evasion"),
    _K("skulk", "702.118", "evasion"),
    _K("landwalk", "702.14", "evasion", param="land"),
    # protection and targets
    _K("protection", "702.16", "protection", param="quality"),
    _K("hexproof", "702.11", "targets", param="quality?", counter=True),
    _K("shroud", "702.18", "targets"),
    _K("ward", "702.21", "targets", param="cost"),
    # triggered abilities of combat
    _K("exalted", "702.83", "trigger", counter=True),
    _K("flanking", "702.25", "trigger"),
    _K("bushido", "702.45", "trigger", param="n"),
    _K("rampage", "702.23", "trigger", param="n"),
    _K("afflict", "702.130", "trigger", param="n"),
    _K("annihilator", "702.86", "trigger", param="n"),
    _K("battle cry", "702.91", "trigger"),
    _K("melee", "702.121", "trigger"),
    _K("myriad", "702.116", "trigger"),
    _K("training", "702.149", "trigger"),
    _K("dethrone", "702.105", "trigger"),
    _K("mentor", "702.134", "trigger"),
    _K("provoke", "702.39", "trigger"),
    _K("decayed", "702.147", "trigger", counter=True),
    # abilities that are not keywords: restrictions and requirements of 508.1 and 509.1
    _K("can't attack", "508.1c", "restriction", keyword=False, it="non può attaccare"),
    _K("can't block", "509.1b", "restriction", keyword=False, it="non può bloccare"),
    _K("can't be blocked", "509.1b", "restriction", keyword=False, it="non può essere bloccata"),
    _K("can block only creatures with flying", "509.1b", "restriction", keyword=False,
       it=f"può bloccare solo creature con {terms.italian('flying')}"),
    _K("can block an additional creature each combat", "509.1a", "restriction", keyword=False,
       it="può bloccare una creatura addizionale in ogni combattimento"),
    _K("can block any number of creatures", "509.1a", "restriction", keyword=False,
       it="può bloccare un qualsiasi numero di creature"),
    _K("attacks each combat if able", "508.1d", "requirement", keyword=False,
       it="attacca in ogni combattimento se può"),
    _K("blocks each combat if able", "509.1c", "requirement", keyword=False,
       it="blocca in ogni combattimento se può"),
)
SPECS: dict[str, Spec] = {s.name: s for s in REGISTRY}
NAMES: tuple[str, ...] = tuple(s.name for s in REGISTRY if s.keyword)     # keyword abilities
ABILITIES: tuple[str, ...] = tuple(s.name for s in REGISTRY if not s.keyword)
# 122.1b: "The keywords that a keyword counter can be": those of them the engine knows.
COUNTER_KEYWORDS: frozenset[str] = frozenset(s.name for s in REGISTRY if s.counter)
KEYWORD_IT: dict[str, str] = {s.name: s.italian for s in REGISTRY}

# --- landwalk (702.14a, c): each kind the terminology table names -----------------------------
# kind → (land subtype required, supertype required, card type required, supertype excluded)
LANDWALKS: dict[str, tuple[str | None, str | None, str | None, str | None]] = {
    "plainswalk": ("Plains", None, None, None),
    "islandwalk": ("Island", None, None, None),
    "swampwalk": ("Swamp", None, None, None),
    "mountainwalk": ("Mountain", None, None, None),
    "forestwalk": ("Forest", None, None, None),
    "snow plainswalk": ("Plains", "snow", None, None),
    "snow islandwalk": ("Island", "snow", None, None),
    "snow swampwalk": ("Swamp", "snow", None, None),
    "snow mountainwalk": ("Mountain", "snow", None, None),
    "snow forestwalk": ("Forest", "snow", None, None),
    "desertwalk": ("Desert", None, None, None),
    "snow landwalk": (None, "snow", None, None),
    "nonbasic landwalk": (None, None, None, "basic"),
    "legendary landwalk": (None, "legendary", None, None),
    "artifact landwalk": (None, None, "artifact", None),
}

# --- protection and "hexproof from" qualities (702.16a, 702.11d) ------------------------------
COLOR_TERMS = {c: terms.MANA_TERMS[c] for c in MANA_COLORS}        # "R" → "red"
COLOR_NAMES = tuple(COLOR_TERMS.values())
# Card types a quality can name, in the plural the cards print ("protection from creatures").
TYPE_PLURALS = {t: ("sorceries" if t == "sorcery" else t + "s")
                for t in ("creature", "artifact", "enchantment", "planeswalker", "land", "battle",
                          "instant", "sorcery")}
ALL_COLORS = "all colors"           # 702.16h: "each color" is the same shorthand
MULTICOLORED = "multicolored"       # 105.2b: two or more colours
MONOCOLORED = "monocolored"         # 105.2a: exactly one colour
COLOR_COUNTS = (MULTICOLORED, MONOCOLORED)
EVERYTHING = "everything"           # 702.16j
PLAYER = "player "                  # 702.16k: "player p2"


class KeywordError(ValueError):
    """A keyword the engine does not know, or a known one written wrongly (Italian message)."""

    def __init__(self, message: str, rules: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.rules = list(rules or [])


@dataclass(frozen=True)
class Instance:
    """One instance of a keyword on an object: its name and parameter, and its canonical text."""

    name: str
    text: str
    n: int = 0                  # bushido N, rampage N, afflict N, annihilator N
    quality: str = ""           # protection / hexproof from: "red", "creatures", "player p2", …
    cost: str = ""              # ward
    land: str = ""              # landwalk kind ("islandwalk")

    @property
    def spec(self) -> Spec:
        return SPECS[self.name]

    @property
    def rule(self) -> str:
        return SPECS[self.name].rule


def examples(spec: Spec) -> tuple[str, ...]:
    """Canonical texts that show how to write a keyword (all of them when they are few)."""
    if spec.param == "n":
        return (f"{spec.name} 1", f"{spec.name} 2")
    if spec.param == "cost":
        return (f"{spec.name} {{2}}", f"{spec.name}—pay 3 life")
    if spec.param == "land":
        return tuple(LANDWALKS)
    if spec.param.startswith("quality"):
        plain = (spec.name,) if spec.param.endswith("?") else ()
        return plain + tuple(f"{spec.name} from {q}" for q in
                             (*COLOR_NAMES, ALL_COLORS, *COLOR_COUNTS, EVERYTHING, "creatures",
                              "artifacts",
                              "player p2", "Goblins"))
    return (spec.name,)


# --- reading ---------------------------------------------------------------------------------

def _norm(text: str) -> str:
    t = text.strip().replace("’", "'").replace("–", "—").replace(" - ", "—")
    return re.sub(r"\s+", " ", t)


def _italian_lookup() -> dict[str, str]:
    """Italian name (lower case) → English name, for keywords, abilities and landwalk kinds;
    plus the English names themselves and a few spellings judges type."""
    out = {}
    for s in REGISTRY:
        out[s.name.lower()] = s.name
        out[s.italian.lower()] = s.name
    for kind in LANDWALKS:
        out[kind] = kind
        out[terms.italian(kind).lower()] = kind
    for en, alt in (("first strike", "attacco iniziale"), ("lifelink", "legame-vitale"),
                    ("haste", "rapidita"), ("hexproof", "antimalocchio"),
                    ("start your engines!", "accendete i motori"),
                    ("can't be blocked", "non può essere bloccato"),
                    ("can't be blocked", "inbloccabile")):
        out[alt] = en
    for kind in LANDWALKS:                       # «passaisole», «passa isole»
        it = terms.italian(kind).lower()
        out[it.replace("-", "")] = out[it.replace("-", " ")] = kind
    return out


_LOOKUP = _italian_lookup()
_QUALITY_PREFIX = re.compile(
    r"^(protection|protezione|hexproof|anti-malocchio|antimalocchio)\s+"
    r"(from|dall'|dallo|dalla|dalle|dagli|dai|dal|da)\s*(.+)$", re.I)
_N_PARAM = re.compile(r"^(.+?)\s+(\d{1,3})$")
_WARD = re.compile(r"^(ward|egida)\s*(?:—\s*)?(.+)$", re.I)


def parse(text: str) -> tuple[Instance, ...]:
    """The instances a keyword text stands for (two for "protection from red and from white",
    702.16g), English or Italian; KeywordError (Italian) if unknown or malformed."""
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise KeywordError("parola chiave vuota o troppo lunga")
    return _parse(_norm(text))


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[Instance, ...]:
    low = text.lower()
    refused = unsupported.refusal(low)
    if refused is not None:
        why, rules = refused
        raise KeywordError(f"«{text}»: {why}", rules)
    name = _LOOKUP.get(low)
    if name in LANDWALKS:
        return (Instance("landwalk", name, land=name),)
    if name is not None:
        spec = SPECS[name]
        if spec.param in ("", "quality?"):
            return (Instance(name, name),)
        raise KeywordError(f"«{text}»: {_needs(spec)}", [spec.rule])
    m = _QUALITY_PREFIX.match(text)
    if m:
        base = "protection" if m.group(1).lower().startswith("prot") else "hexproof"
        rest = m.group(2).lower() + " " + m.group(3) if m.group(2).lower().startswith("da") else m.group(3)
        return tuple(Instance(base, f"{base} from {q}", quality=q) for q in _qualities(rest, base))
    m = _WARD.match(text)
    if m and m.group(2).strip():
        cost = m.group(2).strip()
        sep = "—" if not cost.startswith("{") else " "
        return (Instance("ward", f"ward{sep}{cost}", cost=cost),)
    m = _N_PARAM.match(text)
    if m:
        name = _LOOKUP.get(m.group(1).lower())
        if name is not None and SPECS[name].param == "n":
            n = int(m.group(2))
            if n < 1:
                raise KeywordError(f"«{text}»: N dev'essere almeno 1", [SPECS[name].rule])
            return (Instance(name, f"{name} {n}", n=n),)
        if name is not None:
            raise KeywordError(f"«{text}»: {name} non ha un numero", [SPECS[name].rule])
    raise KeywordError(f'parola chiave sconosciuta "{text}" (quelle che il motore conosce, in '
                       "inglese o in italiano, sono elencate nel costruttore e in "
                       "docs/scenario-format.md)")


def _needs(spec: Spec) -> str:
    if spec.param == "n":
        return f"indica il numero (per esempio «{spec.italian} 2», regola {spec.rule})"
    if spec.param == "cost":
        return f"indica il costo (per esempio «{spec.italian} {{2}}», regola {spec.rule})"
    if spec.param == "quality":
        return (f"indica la qualità (per esempio «{spec.italian} dal rosso», «{spec.italian} da "
                f"tutto», regola {spec.rule})")
    return f"indica il tipo (per esempio «{terms.italian('islandwalk')}», regola {spec.rule})"


def _qualities(rest: str, base: str) -> list[str]:
    """"red and from white" → ["red", "white"] (702.16g); Italian words to English."""
    parts = re.split(r"\s+(?:and from|and|e da|e dal|e dall'|e dai|e dagli|e dalle|e dalla|e)\s+",
                     rest.strip())
    out = []
    for p in parts:
        q = _quality(p.strip())
        if q not in out:
            out.append(q)
    return out


_IT_ARTICLES = re.compile(r"^(dall'|dallo|dalla|dalle|dagli|dai|dal|da|il|lo|la|l'|i|gli|le)(\s+|(?<=')\s*)", re.I)


def _quality(word: str) -> str:
    w = _IT_ARTICLES.sub("", word).strip()
    low = w.lower()
    for en in COLOR_NAMES:
        if low in (en, terms.italian(en).lower()):
            return en
    if low in (EVERYTHING, "tutto"):
        return EVERYTHING
    if low in (ALL_COLORS, "each color", "all colours", "tutti i colori", "ogni colore"):
        return ALL_COLORS
    for q in COLOR_COUNTS:                   # «dai multicolore», «multicolori», "multicolor"
        if low in (q, q[:-2], q.replace("color", "colour"), terms.italian(q).lower(),
                   terms.italian(q).lower()[:-1] + "i"):
            return q
    for t, plural in TYPE_PLURALS.items():
        if low in (plural, t, _plural_it(terms.italian(t)).lower(), terms.italian(t).lower()):
            return plural
    m = re.fullmatch(r"(?:player|giocatore)\s+(\S+)", w, re.I)
    if m:
        return PLAYER + m.group(1)
    if re.fullmatch(r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)*", w):
        return w                                     # a subtype, as cards print it ("Goblins")
    raise KeywordError(f"qualità sconosciuta «{w}»: un colore (rosso, blu…), «tutto», «tutti i "
                       "colori», «multicolore», «monocolore», un tipo di carta (creature, artefatti…), «giocatore ID» o un "
                       "sottotipo con la maiuscola (Goblin)", ["702.16a"])


def known(text: str) -> bool:
    """Does the engine know this keyword as written (English or Italian, with its parameter:
    "protection from red", "islandwalk", "bushido 2")?  For code that marks the keywords of a
    card the engine knows."""
    try:
        parse(text)
    except KeywordError:
        return False
    return True


def registry() -> list[dict]:
    """The registry as plain data (name, italian, rule, group, param, counter, keyword,
    examples), for JSON and for code outside the engine."""
    return [s.to_dict() for s in REGISTRY]


def canonical(texts: list[str]) -> list[str]:
    """Keyword texts as scenarios store them (English, one per instance); KeywordError at the
    first one that is wrong."""
    out = []
    for t in texts:
        out += [i.text for i in parse(t)]
    return out


@lru_cache(maxsize=4096)
def instance(text: str) -> Instance | None:
    """The instance of a stored (canonical) keyword text; None if it is not one the engine knows."""
    try:
        found = _parse(_norm(text))
    except KeywordError:
        return None
    return found[0] if len(found) == 1 else None


# --- writing in Italian ------------------------------------------------------------------------

def _plural_it(word: str) -> str:
    """Regular Italian plural of a card type's name: creatura → creature, artefatto → artefatti."""
    if word.endswith("a"):
        return word[:-1] + "e"
    if word.endswith("o"):
        return word[:-1] + "i"
    return word


def _from_it(noun: str, plural: bool, feminine: bool) -> str:
    """«da» joined to the article of ``noun``: dal rosso, dagli artefatti, dalle creature."""
    first = noun.lower()
    vowel = first[:1] in "aeiou"
    impure = bool(re.match(r"(s[^aeiou]|z|gn|ps|x|y)", first))
    if feminine:
        return "dalle " + noun if plural else ("dall'" if vowel else "dalla ") + noun
    if plural:
        return ("dagli " if vowel or impure else "dai ") + noun
    return ("dall'" if vowel else "dallo " if impure else "dal ") + noun


def quality_it(quality: str, name_of=None) -> str:
    """«dal rosso», «da tutto», «dalle creature», «da Bruno» (``name_of`` names players)."""
    if quality in COLOR_NAMES:
        return _from_it(terms.italian(quality), False, False)
    if quality == EVERYTHING:
        return "da tutto"
    if quality == ALL_COLORS:
        return "da tutti i colori"
    if quality in COLOR_COUNTS:
        return "dai " + terms.italian(quality)         # as printed: «protezione dai multicolore»
    for t, plural in TYPE_PLURALS.items():
        if quality == plural:
            it = terms.italian(t)
            return _from_it(_plural_it(it), True, it.endswith("a"))
    if quality.startswith(PLAYER):
        pid = quality[len(PLAYER):]
        return "da " + (name_of(pid) if name_of else f"giocatore {pid}")
    return "da " + quality


def quality_noun(quality: str, name_of=None) -> str:
    """A quality by itself, in Italian: «rosso», «creature», «tutto», «Bruno»."""
    if quality in COLOR_NAMES:
        return terms.italian(quality)
    if quality == EVERYTHING:
        return "tutto"
    if quality == ALL_COLORS:
        return "tutti i colori"
    if quality in COLOR_COUNTS:
        return terms.italian(quality)
    for t, plural in TYPE_PLURALS.items():
        if quality == plural:
            return _plural_it(terms.italian(t))
    if quality.startswith(PLAYER):
        pid = quality[len(PLAYER):]
        return name_of(pid) if name_of else f"giocatore {pid}"
    return quality


def italian(text: str, name_of=None) -> str:
    """The Italian of a stored keyword text: «protezione dal rosso», «bushido 2», «passa-isole»."""
    inst = instance(text)
    if inst is None:
        return text
    spec = inst.spec
    if inst.land:
        return terms.italian(inst.land)
    if inst.quality:
        return f"{spec.italian} {quality_it(inst.quality, name_of)}"
    if inst.n:
        return f"{spec.italian} {inst.n}"
    if inst.cost:
        return f"{spec.italian}{' ' if inst.cost.startswith('{') else '—'}{inst.cost}"
    return spec.italian


def italian_list(texts: list[str], name_of=None) -> str:
    return ", ".join(italian(t, name_of) for t in texts)


def color_symbol(name: str) -> str | None:
    """"R", "red", «rosso» → "R"; None if it is not a colour."""
    if not isinstance(name, str):
        return None
    low = name.strip().lower()
    for sym, en in COLOR_TERMS.items():
        if low in (sym.lower(), en, terms.italian(en).lower()):
            return sym
    return None


def counter_keyword(kind: str) -> str | None:
    """The keyword a counter kind names, if a keyword counter can be it (122.1b): «volare» →
    "flying"; None otherwise."""
    try:
        found = _parse(_norm(kind)) if kind.strip() else ()
    except KeywordError:
        return None
    if len(found) == 1 and found[0].spec.counter:
        return found[0].text
    return None
