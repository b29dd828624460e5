"""Skipping a step, phase or turn (500.11, 614.1b, 614.10, 614.10a, 614.10b).

The turn structure (``play.procedure``) asks :func:`skipped` as it is about to begin each turn,
phase and step: the beginning is an event of the replacement path (a ``Happening`` of kind
``turn``, ``phase`` or ``step``), so the skip records (``skip_schema``) apply as 616 says — when
two «skip your next» effects apply, the affected player chooses which one is satisfied and the
other waits for the next occurrence (614.10a).  A skipped one does not happen at all: no
turn-based actions, nobody receives priority, nothing triggers «at the beginning of» it.  It is
only ever asked before the thing begins, so what has started can't be skipped (614.10).  A
skip that says «then …» (the record's ``then``, a judge action) leaves that action waiting in
``Turn.after_skip``: it is the first thing that happens in the next step, phase or turn that
actually occurs (614.10b; ``play.procedure`` does it).
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.context import Ctx
from judge.engine.mechanics import replacement
from judge.engine.mechanics.happening import Happening, part_label, to_json
from judge.engine.mechanics.skip_schema import TURN_EVENTS


def any_records(ctx: Ctx) -> bool:
    return any(e.event in TURN_EVENTS for e in ctx.s.effects)


def effect_words(card: str | None, text: str, key: str) -> str:
    """«l'effetto di Fatigue («Bruno salta …»)», for the log."""
    return ((f"l'effetto di {card}" if card else "l'effetto")
            + (f" («{text}»)" if text else f" [{key}]" if key else ""))


def skipped(ctx: Ctx, kind: str, player: str, part: str | None = None,
            extra_turn: bool = False) -> bool:
    """Is the ``kind`` (``turn``, ``phase``, ``step``) ``part`` of ``player``'s turn skipped
    (``extra_turn``: the turn is an extra one, 500.7)?  If so the log says what, for whom, by
    which effect and why."""
    st = ctx.s
    if not any_records(ctx):
        return False
    team = ([p.id for p in seats.teammates(st, player)] if seats.shared_team_turns(st.variant)
            else [player])
    h = Happening(kind, player=player, part=part, extra={"team": team})
    texts = {e.id: (e.text, e.card, e.uses, e.then) for e in st.effects if e.event == kind}
    start = len(ctx.events)
    if replacement.modify(ctx, [h]):
        return False
    steps = [ev.data.get("replacement", {}) for ev in ctx.events[start:]]
    info = next((r for r in reversed(steps) if r.get("step") == "apply"), {})
    key = info.get("effect") or ""
    text, card, uses, then = texts.get(key.split("@")[0], ("", None, None, None))
    used_up = any(r.get("step") == "used_up" for r in steps)
    rules = ["614.10", *(["614.10a"] if uses is not None else []),
             *(["500.7"] if extra_turn else [])]
    by = effect_words(card, text, key)
    whose = (f"il suo turno{' extra' if extra_turn else ''}" if kind == "turn" else
             "la sua " + part_label(h).removeprefix("la ") + f" (turno {st.turn.number})")
    name = st.name_of(player)
    if uses is None:
        tail = ""
    elif used_up:
        last, them, nxt, first, done = (
            ("l'ultimo", "quelli", "il prossimo", "il primo", "saltato") if kind == "turn" else
            ("l'ultima", "quelle", "la prossima", "la prima", "saltata"))
        tail = (f" È {last} di {them} che l'effetto faceva saltare: ciò che aspettava «{nxt}» "
                f"aspetta {first} che non viene {done} (614.10a).")
    else:
        tail = f" L'effetto ne farà saltare ancora {uses - 1} (614.10a)."
    nothing = ("nessuna sua fase o sottofase ha luogo" if kind == "turn" else
               "nessuna azione basata sul turno, nessuno riceve priorità e non si innesca "
               "nulla «all'inizio di» essa")
    ctx.emit(rules, f"{name} salta {whose} per {by}: si procede come se non esistesse "
             f"({nothing}).{tail}", "skip_step", players=[player],
             replacement={"seq": info.get("seq"), "step": "skipped", "effect": key, "card": card,
                          "text": text, "event": to_json(h), "skipped": kind, "part": part,
                          "player": player, "used_up": used_up})
    if then is not None:
        # 614.10b: the first thing that happens in the next step, phase or turn that occurs
        st.turn.after_skip.append({"act": then["act"], "params": {k: x for k, x in then.items()
                                                                   if k != "act"},
                                   "by": by, "skipped": whose, "player": player})
    return True
