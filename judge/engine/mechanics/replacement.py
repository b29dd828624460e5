"""The one path every primitive event takes before it happens: replacement and prevention
effects (614, 615) applied as 616 says.

``modify(ctx, events)`` takes the events an operation of ``ops`` is about to perform (a batch of
simultaneous ones: the choices are asked in APNAP order, 616.1, 101.4) and returns what happens
instead.  For each event: a "can't" effect stops it (614.17); otherwise, while any effect that
has not yet applied to it applies (614.5; the commander's option may apply again, 903.9b), the
affected object's controller — its owner if it has none — or the affected player chooses one
(616.1): a self-replacement effect first (616.1a, 614.15), then one that decides under whose
control an object enters (616.1b), then a copy effect (616.1c), then any (616.1e); the chosen
one modifies the event (614.6, 615.6) and the others are looked at again (616.1f): some no
longer apply, some now do (616.2).

The log says, for each modified event, the event that would have happened with the effects
that apply, who chose and what, what each effect did with its rules, and the result
(``data.replacement`` carries the same for the JSON).  A choice halfway through an operation
is asked with ``replay``: the step starts again once it is answered (``Ctx.rollback``).
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.context import Ctx
from judge.engine.mechanics import replacement_find as finder
from judge.engine.mechanics import replacement_ops
from judge.engine.mechanics.happening import Happening, chooser, result, to_json, would
from judge.engine.mechanics.replacement_find import CATEGORY_RULES, Candidate
from judge.engine.registry import decision, one_of
from judge.engine.state import State

SEQ_KEY = "replacement_seq"        # in State.answers: events modified so far in this step
MAX_ROUNDS = 50
CATEGORY_IT = {"616.1a": "è un effetto di autosostituzione, che si applica prima degli altri",
               "616.1b": "decide sotto il controllo di chi entra l'oggetto, e va scelto prima "
                         "degli altri",
               "616.1c": "fa entrare l'oggetto come copia, e va scelto prima degli altri"}


def modify(ctx: Ctx, events: list[Happening]) -> list[Happening]:
    """What happens instead of ``events`` (simultaneous), in their order."""
    st = ctx.s
    if not finder.may_choose(st) and all(h.kind != "damage" for h in events):
        return events                                   # nothing could apply: the quick way
    order = _apnap(st, events)
    done: dict[int, list[Happening]] = {}
    for i in order:
        done[i] = _Run(ctx, events[i]).go()
    return [f for i in range(len(events)) for f in done[i]]


def _apnap(st: State, events: list[Happening]) -> list[int]:
    """616.1: players choose in APNAP order (101.4) when several events happen at once."""
    seat = {p.id: i for i, p in enumerate(seats.apnap(st))}
    return sorted(range(len(events)),
                  key=lambda i: seat.get(chooser(st, events[i])[0] or "", len(seat)))


def _next_seq(st: State) -> int:
    n = st.answers.get(SEQ_KEY, 0) + 1
    st.answers[SEQ_KEY] = n
    return n


class _Run:
    """One event through 616."""

    def __init__(self, ctx: Ctx, h: Happening):
        self.ctx = ctx
        self.st = ctx.s
        self.original = h
        self.seq = _next_seq(ctx.s)
        self.started = False
        self.round = 0

    # --- the log ----------------------------------------------------------------------------
    def emit(self, step: str, rules: list[str], text: str, kind: str, h: Happening,
             **info) -> None:
        objects = [x for x in (h.obj, h.source) if x]
        players = [h.player] if h.player else []
        self.ctx.emit(rules, text, kind, objects=objects, players=players,
                      replacement={"seq": self.seq, "step": step, **info})

    def _start(self, h: Happening, cands: list[Candidate]) -> None:
        if self.started:
            return
        self.started = True
        prevention = [c for c in cands if c.prevention]
        rules = (["614.1"] if len(prevention) < len(cands) else []) + (["615.1"] if prevention else [])
        names = "; ".join(c.label + (f" («{c.effect.text}»)" if c.effect is not None
                                      and c.effect.text else "") for c in cands)
        self.emit("event", rules, f"{_cap(would(self.st, h))}. "
                  f"{'Effetti che si applicano' if len(cands) > 1 else 'Si applica'}: {names}.",
                  "replacement_event", h, event=to_json(h),
                  effects=[_cand_json(c) for c in cands])

    # --- the process --------------------------------------------------------------------------
    def go(self) -> list[Happening]:
        out: list[Happening] = []
        queue = [self.original]
        while queue:
            cur = queue.pop(0)
            forbid = finder.forbidding(self.st, cur)
            if forbid:
                self.started = True
                self.emit("cant", ["614.17", "101.2"], f"{_cap(would(self.st, cur))}: non può "
                          f"succedere ({forbid[0].label}), e nessun altro effetto lo sostituisce "
                          "(614.17c).", "cant", cur, event=to_json(cur),
                          effects=[_cand_json(c) for c in forbid])
                continue
            final = self.settle(cur, queue)
            if final is not None:
                out.append(final)
        if self.started:
            parts = [result(self.st, h) for h in out]
            prevented = self.original.kind == "damage" and not any(h.kind == "damage" for h in out)
            if prevented:
                parts.insert(0, "il danno non viene inflitto")
            text = "; ".join(parts) or "non succede nulla"
            rules = ["614.6"] + (["615.6"] if prevented else [])
            self.emit("result", rules, f"Risultato: {text}.", "replacement_result",
                      self.original, result=[to_json(h) for h in out])
        return out

    def settle(self, cur: Happening, queue: list[Happening]) -> Happening | None:
        seen: dict[str, Candidate] | None = None
        noted: set[str] = set()
        once: dict[str, Candidate] = {}         # applied, and would apply again but for 614.5
        declined: set[str] = set()              # optional ones its player chose not to apply
        derived = cur is not self.original
        for _ in range(MAX_ROUNDS):
            cands = finder.applicable(self.st, cur)
            for c in cands:
                if c.blocked and c.key not in noted:
                    noted.add(c.key)
                    self.emit("blocked", ["701.19c"], f"{c.label} non si applica: {c.blocked} "
                              "dice che non può essere rigenerato.", "replacement_note", cur,
                              effect=c.key)
            cands = [c for c in cands if not c.blocked]
            fresh = [c for c in cands if c.key not in cur.applied
                     or c.repeatable and c.key not in declined]
            once.update({c.key: c for c in cands if c not in fresh and c.key not in declined})
            if seen is None:
                seen = {c.key: c for c in fresh}
                if derived and self.started:
                    for c in fresh:           # 616.2: the event that happens instead
                        self.emit("now_applies", ["616.2"], f"{_cap(would(self.st, cur))}: ora "
                                  f"si applica {c.label}.", "replacement_note", cur, effect=c.key)
            else:
                for c in fresh:
                    if c.key not in seen:
                        seen[c.key] = c
                        self.emit("now_applies", ["616.2"], f"{_cap(c.label)} ora si applica "
                                  "all'evento modificato.", "replacement_note", cur, effect=c.key)
            if not fresh:
                break
            self._start(cur, fresh)
            chosen = self.choose(cur, fresh)
            cur.applied.append(chosen.key)
            if chosen.optional and not self.accepts(cur, chosen):
                declined.add(chosen.key)
                continue
            done = replacement_ops.apply(self.ctx, cur, chosen, f"{self.seq}:{self.round}")
            kind = "damage_prevented" if chosen.prevention and done.prevented else "replacement_applied"
            self.emit("apply", done.rules, f"{_cap(chosen.label)}: {done.text}.", kind, cur,
                      effect=chosen.key, amount=done.prevented, event=to_json(done.main))
            self.use_up(chosen, done)
            queue.extend(done.extra)
            if done.main is None:
                cur = None
                break
            cur = done.main
        if once and self.started:
            names = ", ".join(c.label for c in once.values())
            self.emit("once", ["614.5"], f"Un effetto di sostituzione si applica una sola volta a "
                      f"un evento: {names} non si {'applica' if len(once) == 1 else 'applicano'} "
                      "di nuovo all'evento modificato.", "replacement_note",
                      cur if cur is not None else self.original, effects=list(once))
        self.no_longer(seen or {}, cur)
        return cur

    def no_longer(self, seen: dict[str, Candidate], cur: Happening | None) -> None:
        """616.1f: the effects that applied to the event as it was and not to what it became."""
        applied = set(cur.applied) if cur is not None else set()
        now = {c.key for c in finder.applicable(self.st, cur)} if cur is not None else set()
        for key, c in seen.items():
            if key in applied or key in now:
                continue
            if cur is not None and self.started:
                if finder.holder_lost_it(self.st, cur, c):
                    why, rules = ("l'oggetto, come entrerà, non ha più l'abilità che lo genera",
                                  ["616.1f", "614.12"])
                else:
                    why, rules = "l'evento modificato non è quello che guarda", ["616.1f"]
                self.emit("no_longer", rules, f"{_cap(c.label)} non si applica più: {why}.",
                          "replacement_note", cur, effect=key)

    # --- choices --------------------------------------------------------------------------------
    def choose(self, cur: Happening, fresh: list[Candidate]) -> Candidate:
        cat = next(c for c in ("616.1a", "616.1b", "616.1c", "616.1e")
                   if any(x.category == c for x in fresh))
        pool = [c for c in fresh if c.category == cat]
        who, why = chooser(self.st, cur)
        self.round += 1
        if len(pool) == 1:
            if cat != "616.1e" and len(fresh) > 1:
                self.emit("choice", ["616.1", *CATEGORY_RULES[cat]], f"{pool[0].label} "
                          f"{CATEGORY_IT[cat]}.", "replacement_choice", cur, effect=pool[0].key,
                          chooser=None, category=cat)
            return pool[0]
        name = self.st.name_of(who) if who else "?"
        options = {"event": would(self.st, cur), "category": cat,
                   "effects": [_cand_json(c) for c in pool],
                   "applied": list(cur.applied)}
        default = {"apply": pool[0].key}
        rules = ["616.1", *CATEGORY_RULES[cat]]
        answer = default
        if who is not None and self.ctx.replay_ok:
            answer = self.ctx.ask({
                "id": f"replace:{self.seq}:{self.round}", "kind": "replacement_order",
                "player": who, "rules": rules,
                "prompt": f"{name} ({why}) sceglie quale effetto applicare per primo: "
                          f"{would(self.st, cur)}.",
                "options": options, "default": default}, replay=True)
        chosen = next(c for c in pool if c.key == answer["apply"])
        self.emit("choice", rules, f"{name} ({why}) sceglie di applicare per primo: "
                  f"{chosen.label}" + ("" if who is not None and self.ctx.replay_ok else
                                       " (la scelta predefinita)") + ".",
                  "replacement_choice", cur, effect=chosen.key, chooser=who, category=cat,
                  offered=[c.key for c in pool])
        return chosen

    def accepts(self, cur: Happening, c: Candidate) -> bool:
        """An optional effect ("may", 903.9b): its player says whether it applies."""
        who = c.decider or chooser(self.st, cur)[0]
        answer = {"apply": True}
        if who is not None and self.ctx.replay_ok:
            answer = self.ctx.ask({
                "id": f"replace:{self.seq}:{self.round}:may", "kind": "may_apply",
                "player": who, "rules": [*c.rules, "616.1"],
                "prompt": f"{self.st.name_of(who)} sceglie se applicare: {c.label} "
                          f"({would(self.st, cur)}).",
                "options": {"text": c.label}, "default": {"apply": True}}, replay=True)
        self.emit("accepted" if answer["apply"] else "declined", [*c.rules, "616.1"],
                  f"{self.st.name_of(who)} sceglie di {'' if answer['apply'] else 'non '}"
                  f"applicare {c.label}.", "replacement_choice", cur, effect=c.key, chooser=who)
        return answer["apply"]

    def use_up(self, c: Candidate, done: replacement_ops.Applied) -> None:
        """615.7, 615.8, 701.19a: a shield or a "next time" effect is used up; one that did
        nothing is not (609.7b)."""
        e = c.effect
        if e is None or not done.did_something or (e.uses is None and e.shield is None):
            return
        if e.uses is not None:
            e.uses -= 1
        if e.shield is not None:
            e.shield -= done.prevented
        self.st.touch()
        if (e.uses is not None and e.uses <= 0) or (e.shield is not None and e.shield <= 0):
            self.st.effects = [x for x in self.st.effects if x is not e]
            rules = (["615.7"] if e.shield is not None else
                     ["615.3"] if c.prevention else ["614.3"])
            self.emit("used_up", rules, f"{_cap(c.label)} è esaurito e finisce.", "replacement_note",
                      self.original, effect=c.key)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cand_json(c: Candidate) -> dict:
    e = c.effect
    return {"id": c.key, "label": c.label, "effect": e.id if e is not None else None,
            "card": e.card if e is not None else None, "text": e.text if e is not None else "",
            "category": c.category, "optional": c.optional,
            "rules": list(c.rules) or ["614.1"]}


@decision("replacement_order")
def _validate_order(st: State, pending: dict, answer) -> dict:
    return one_of(answer, "apply", [c["id"] for c in pending["options"]["effects"]],
                  "l'effetto da applicare per primo", list(pending.get("rules") or ["616.1"]))
