"""The judge actions on continuous effects: a spell or ability that resolved and created one
(``add_effect``, a record as in the scenario format), and an effect that ends (``end_effect``).
What the effect does is the layers' business (characteristics.layers); the log says what changed.
"""

from __future__ import annotations

from judge.engine.characteristics import continuous, derived, layers
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction, effect_record, shown
from judge.engine.registry import action


def _summary(ctx: Ctx, before: dict, after: layers.Board) -> str:
    changed = []
    for p in ctx.s.battlefield:
        was = before.get(p.id)
        now = after.chars.get(p.id)
        if was is None or now is None or was == now:
            continue
        pt = f" {now.power}/{now.toughness}" if "creature" in now.types else ""
        changed.append(f"{p.name}{pt}")
    return ", ".join(changed)


@action("add_effect", cites=("611.1", "611.2a", "611.2c", "613.7b"),
        summary="Un effetto continuo creato da una magia o un'abilità che si è risolta (o "
                "un'abilità statica): si applica nei livelli (613)")
def add_effect(ctx: Ctx, effect: dict) -> None:
    effect = effect_record(effect, '{"affects": {"objects": ["orso"]}, "does": [{"op": "modify_pt", "power": 3, '
                                   '"toughness": 3}], "kind": "resolved", "duration": "end_of_turn"}', "611.1")
    before = dict(layers.board(ctx.s).chars)
    e = continuous.add_effect(ctx.s, {"kind": "resolved", **effect})
    changed = _summary(ctx, before, layers.board(ctx.s))
    rules = ["611.2a", "611.2c", "613.7b"] if e.kind == "resolved" else ["611.3a", "613.7a"]
    what = f"«{e.text}»" if e.text else e.id
    ctx.emit(rules, f"Nuovo effetto continuo {what}" + (f" (timestamp {e.timestamp})"
                                                        if e.timestamp else "")
             + (f": ora {changed}." if changed else "."), "effect",
             objects=derived_objects(ctx, e.id), effect=e.id)


def derived_objects(ctx: Ctx, effect_id: str) -> list[str]:
    return layers.board(ctx.s).affected_by(effect_id)


@action("end_effect", cites=("611.2a",),
        summary="Finisce un effetto continuo (la sua durata è terminata)")
def end_effect(ctx: Ctx, which: str) -> None:
    if not any(e.id == which for e in ctx.s.effects):
        known = ", ".join(e.id for e in ctx.s.effects) or "nessuno"
        raise IllegalAction(f'effetto sconosciuto "{shown(which)}" (effetti: {known})')
    objects = derived_objects(ctx, which)
    gone = continuous.end_effects(ctx.s, lambda e: e.id == which)[0]
    what = f"«{gone.text}»" if gone.text else gone.id
    now = ", ".join(f"{p.name} {derived.describe_pt(ctx.s, p)}" for p in ctx.s.battlefield
                    if p.id in objects and derived.is_creature(ctx.s, p))
    ctx.emit(["611.2a"], f"Finisce l'effetto {what}" + (f": ora {now}." if now else "."),
             "effect", objects=objects, effect=gone.id)
