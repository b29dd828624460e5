"""Effects that add phases and steps to a turn (500.8, 500.9, 500.10, 500.10a) as JSON: a record
of the ``effects`` list with ``adds``, read and checked with Italian errors and written back.
docs/scenario-format.md («Fasi e sottofasi aggiuntive») documents it.

``adds`` says what is added (``{"phases": [...]}``, ``{"steps": [...]}``), ``after`` or
``before`` where: after this phase (``{"phase": "main"}``: the current one, which must be a main
phase), after the first such phase of the turn (``"first": true``: World at War), after this
step (``{"step": "upkeep"}``), before the next such step (``before``).  Steps added after a phase
come in the phase that normally holds them, created for them (500.10).  ``you_get``: the card
says «you get», so nothing is added in a turn other than its controller's (500.10a).  Such an
effect does its work once, as it resolves: ``mechanics.adding`` changes the turn with it.
"""

from __future__ import annotations

from typing import Any

from judge.engine.steps import PHASE_LABELS, step_def
from judge.engine.validation import Validator

KEYS = {"id", "text", "card", "source", "kind", "controller", "adds", "after", "before",
        "you_get"}
ADDED_PHASES = ("beginning", "combat", "postcombat_main", "ending")
# Steps that can be added (501.1, 512.1): a combat phase's steps depend on what happens in it
# (508.8, 510.4), more cleanup steps come from 514.3a, and a main phase has none (505.2).
ADDED_STEPS = ("untap", "upkeep", "draw", "end")
AFTER_PHASES = ("beginning", "precombat_main", "combat", "postcombat_main", "main")
AFTER_STEPS = ADDED_STEPS
BEFORE_STEPS = ("upkeep", "draw", "cleanup")      # not the first step of a phase
MAX_PARTS = 10


def is_addition(d: Any) -> bool:
    """A record of the ``effects`` list (or a judge action's) that adds phases or steps."""
    return isinstance(d, dict) and "adds" in d


def read(v: Validator, d: Any, path: str) -> dict | None:
    """One record, checked: a plain dict (``what``: "phases" or "steps", ``parts`` their
    names, ``after`` or ``before``), or None when it can't be used."""
    if not isinstance(d, dict):
        v.err(path, "atteso un oggetto (un effetto che aggiunge fasi o sottofasi)")
        return None
    v.unknown_keys(d, KEYS, path)
    start = len(v.errors)
    rec: dict[str, Any] = {
        "id": v.typed(d, "id", path, "str", required=True) or "?",
        "text": v.typed(d, "text", path, "str", "") or "",
        "card": v.typed(d, "card", path, "str", None, nullable=True),
        "source": v.typed(d, "source", path, "str", None, nullable=True),
        "controller": v.typed(d, "controller", path, "str", required=True),
        "you_get": v.typed(d, "you_get", path, "bool", False)}
    if d.get("kind", "resolved") != "resolved":
        v.err(f"{path}.kind", "un effetto che aggiunge fasi o sottofasi lo genera una magia o "
                              'un\'abilità che si risolve: "resolved" (o si omette)')
    rec["what"], rec["parts"] = _adds(v, d.get("adds"), f"{path}.adds")
    _where(v, d, rec, path)
    return rec if len(v.errors) == start else None


def _adds(v: Validator, a: Any, path: str) -> tuple[str, list[str]]:
    if not isinstance(a, dict) or len(a) != 1 or not set(a) <= {"phases", "steps"}:
        v.err(path, 'indica che cosa si aggiunge: {"phases": [...]} (fasi, 500.8) o '
                    '{"steps": [...]} (sottofasi, 500.9 e 500.10)')
        return "phases", []
    what = next(iter(a))
    names = a[what]
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_PARTS:
        v.err(f"{path}.{what}", f"attesa una lista da 1 a {MAX_PARTS} nomi, nell'ordine in cui "
                                "si svolgono")
        return what, []
    allowed = ADDED_PHASES if what == "phases" else ADDED_STEPS
    out = []
    for i, n in enumerate(names):
        p = f"{path}.{what}[{i}]"
        if n in allowed:
            out.append(n)
        elif what == "phases" and n == "precombat_main":
            v.err(p, "solo la prima fase principale del turno è pre-combattimento (505.1a): una "
                     'fase principale aggiunta è "postcombat_main"')
        elif what == "steps" and n in ("beginning_of_combat", "declare_attackers",
                                       "declare_blockers", "first_strike_damage",
                                       "combat_damage", "end_of_combat"):
            v.err(p, "le sottofasi di combattimento dipendono da chi attacca e blocca (508.8, "
                     "510.4): aggiungi una fase di combattimento intera (500.8)")
        elif what == "steps" and n == "cleanup":
            v.err(p, "le sottofasi di cancellazione in più le aggiunge la regola 514.3a")
        else:
            hint = (" (le fasi principali non hanno sottofasi, 505.2: aggiungi una fase)"
                    if what == "steps" and n in ("precombat_main", "postcombat_main") else "")
            v.err(p, f'{"fase" if what == "phases" else "sottofase"} sconosciuta '
                     f'"{str(n)[:40]}" (ammesse: {", ".join(allowed)}){hint}')
    if what == "steps" and len({step_def(n).phase for n in out}) > 1:
        v.err(f"{path}.steps", "le sottofasi che un effetto aggiunge insieme sono di una stessa "
                               "fase (500.9, 500.10)")
    return what, out


def _where(v: Validator, d: dict, rec: dict, path: str) -> None:
    """``after`` or ``before``, coherent with what is added."""
    rec["after"] = rec["before"] = None
    if ("after" in d) == ("before" in d):
        v.err(path, 'indica dove, con uno solo fra after ({"phase": …} o {"step": …}) e before '
                    '({"step": …})')
        return
    key = "after" if "after" in d else "before"
    w, p = d[key], f"{path}.{key}"
    if not isinstance(w, dict) or not ({"phase"} <= set(w) <= {"phase", "first"}
                                       or set(w) == {"step"}):
        v.err(p, '{"phase": …} (con "first": true per la prima di quelle fasi del turno) o '
                 '{"step": …}')
        return
    if key == "before" and "phase" in w:
        v.err(p, "le fasi si aggiungono dopo una fase (500.8): after")
        return
    if "phase" in w:
        rec[key] = _phase_anchor(v, w, p)
    else:
        rec[key] = _step_anchor(v, w["step"], key, rec, p)
    if rec[key] is None:
        return
    if rec["what"] == "phases" and "step" in rec[key]:
        v.err(p, "le fasi si aggiungono dopo una fase (500.8): after con phase")


def _phase_anchor(v: Validator, w: dict, p: str) -> dict | None:
    name = w["phase"]
    if name == "ending":
        v.err(f"{p}.phase", "dopo la fase finale il turno finisce: un turno in più è un turno "
                            "extra (500.7)")
        return None
    if name not in AFTER_PHASES:
        v.err(f"{p}.phase", f'fase sconosciuta "{str(name)[:40]}" (ammesse: '
                            f'{", ".join(AFTER_PHASES)}; "main" è l\'una o l\'altra fase '
                            "principale)")
        return None
    first = v.typed(w, "first", p, "bool", False)
    return {"phase": name, **({"first": True} if first else {})}


def _step_anchor(v: Validator, name: Any, key: str, rec: dict, p: str) -> dict | None:
    allowed = AFTER_STEPS if key == "after" else BEFORE_STEPS
    if name not in allowed:
        why = (" (prima della sottofase che apre una fase: after con la fase precedente, "
               "500.10)" if key == "before" and name in ("untap", "end") else "")
        v.err(f"{p}.step", f'sottofase sconosciuta "{str(name)[:40]}" (ammesse: '
                           f'{", ".join(allowed)}){why}')
        return None
    phase = step_def(name).phase
    if rec["what"] == "steps" and any(step_def(n).phase != phase for n in rec["parts"]):
        v.err(p, f"una sottofase si aggiunge nella fase della sottofase indicata (500.9): qui la "
                 f"{PHASE_LABELS[phase]}; per una sottofase dopo una fase, after con phase "
                 "(500.10)")
    return {"step": name}


def check_refs(v: Validator, rec: dict, players: set[str], path: str) -> None:
    if rec["controller"] not in players:
        v.err(f"{path}.controller", f'giocatore sconosciuto "{str(rec["controller"])[:40]}"')


def to_json(rec: dict) -> dict:
    out: dict[str, Any] = {"id": rec["id"]}
    for k in ("text", "card", "source"):
        if rec[k]:
            out[k] = rec[k]
    out["controller"] = rec["controller"]
    out["adds"] = {rec["what"]: list(rec["parts"])}
    for k in ("after", "before"):
        if rec[k] is not None:
            out[k] = dict(rec[k])
    if rec["you_get"]:
        out["you_get"] = True
    return out


def parse_one(raw: Any, path: str = "effect") -> tuple[dict | None, list[tuple[str, str]]]:
    """A record given outside a scenario file (a judge action): (record, errors)."""
    v = Validator()
    if isinstance(raw, dict) and "id" not in raw:
        raw = {**raw, "id": "?"}
    return read(v, raw, path), v.errors


def label(rec: dict) -> str:
    """Who added it, for the turn's list and the log: the card, else its text, else its id."""
    text = rec["text"] if len(rec["text"]) <= 120 else rec["text"][:119] + "…"
    return rec["card"] or (f"«{text}»" if text else rec["id"])
