"""The keywords of rule 702 that act in combat and that the engine does not apply: each is
refused with its rule, why, and what the judge does instead, rather than as an unknown word
(a card of the table with one of them keeps it among the keywords not automated).
"""

from __future__ import annotations

from judge.engine import terms

REFUSED_RULES = ["702.22c", "702.22h", "702.22j", "702.22k"]
REFUSED = ("banding", "bands with other")
REFUSED_WHY = ("il motore non gestisce il branco (regola 702.22): cambia la dichiarazione degli "
               "attaccanti (702.22c), chi resta bloccato (702.22h) e chi assegna il danno da "
               "combattimento (702.22j, 702.22k); descrivi il combattimento senza branco e applica "
               "l'assegnazione del danno con le azioni del giudice")

# The keywords of 702 that act in combat and that the engine does not apply: each is refused with
# its rule and why, and what the judge does instead (a card of the table with one keeps it among
# those not automated).  English name → (rule, why).
_TRIGGER = ("è un'abilità innescata che il motore non mette in pila da sé: quando si innesca, "
            "mettila in pila con l'azione «trigger» e applicane l'effetto con le azioni del giudice")
_PUT_ATTACKING = ("mette sul campo di battaglia una creatura attaccante al posto di una non "
                  "bloccata, che il motore non fa: usa «move» e, per il combattimento, descrivilo "
                  "nello scenario")
_ACTIVATED = ("è un'abilità attivata e il motore non ha abilità attivate: applicane costo ed "
              "effetto con le azioni del giudice (TAPpa, fino alla fine del turno…)")
REFUSED_COMBAT: dict[str, tuple[str, str]] = {
    "frenzy": ("702.68a", _TRIGGER), "poisonous": ("702.70a", _TRIGGER),
    "renown": ("702.112a", _TRIGGER), "ingest": ("702.115a", _TRIGGER),
    "mobilize": ("702.181a", _TRIGGER), "firebending": ("702.189a", _TRIGGER),
    "enlist": ("702.154a", "TAPpare una creatura mentre questa attacca è una scelta che il motore "
                           "non chiede: TAPpala con «tap» e applica il bonus con «until_end_of_turn»"),
    "ninjutsu": ("702.49a", _PUT_ATTACKING), "sneak": ("702.190a", _PUT_ATTACKING),
    "crew": ("702.122a", _ACTIVATED), "saddle": ("702.171a", _ACTIVATED),
    "boast": ("702.142a", _ACTIVATED),
}


def refusal(low: str) -> tuple[str, list[str]] | None:
    """(Italian reason, rules) if the keyword written ``low`` (lower case, with its N or cost)
    is one the engine refuses; None otherwise."""
    if low in REFUSED or low.startswith("bands with other") or low in ("branco", "branco con altri") \
            or low.startswith("branco con altr"):
        return REFUSED_WHY, REFUSED_RULES
    for name, (rule, why) in REFUSED_COMBAT.items():
        names = {name, (terms.TABLE.italian(name) or name).lower()}
        if any(low == n or low.startswith(n + " ") or low.startswith(n + "—") for n in names):
            it = terms.TABLE.italian(name) or name
            return f"il motore non applica {it} (regola {rule}): {why}", [rule]
    return None
