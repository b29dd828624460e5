"""Exceptions raised by the engine (messages are Italian, for users)."""

from __future__ import annotations

from typing import Any

_STRUCTURES = {list: "lista", dict: "oggetto"}


def shown(value: Any, limit: int = 60) -> str:
    """A user-supplied value quoted in a message, cut short: a scalar as it is, a structure by
    its kind only (never rendered: it may be huge or deeply nested)."""
    if isinstance(value, (str, int, float, bool, type(None))):
        text = str(value)
    else:
        text = _STRUCTURES.get(type(value), type(value).__name__)
    return text if len(text) <= limit else text[:limit - 1] + "…"


class ScenarioError(ValueError):
    """A scenario file is invalid.

    ``errors`` lists every problem found as ``(path, message)`` pairs, e.g.
    ``("players[1].life", "atteso un intero")``; ``path`` and ``message`` are
    those of the first problem.  ``str(error)`` joins them one per line.
    """

    def __init__(self, errors: list[tuple[str, str]]):
        self.errors = list(errors) or [("", "scenario non valido")]
        self.path, self.message = self.errors[0]
        super().__init__("\n".join(_fmt(p, m) for p, m in self.errors))

    def to_dict(self) -> dict:
        return {"errors": [{"path": p, "message": m} for p, m in self.errors]}


def _fmt(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


class IllegalAction(ValueError):
    """An action or a decision that the rules do not allow; the state is unchanged.

    ``message`` is Italian and ``rules`` lists the rule numbers it cites.
    """

    def __init__(self, message: str, rules: list[str] | None = None):
        self.message = message
        self.rules = list(rules or [])
        cited = f" (regola {', '.join(self.rules)})" if self.rules else ""
        super().__init__(message + cited)

    def to_dict(self) -> dict:
        return {"message": self.message, "rules": self.rules}


def invalid_effect(errors: list[tuple[str, str]], rule: str) -> IllegalAction:
    """An effect record given by the judge is wrong: its first five errors, each with its field path."""
    return IllegalAction("effetto non valido: " + "; ".join(_fmt(p, m) for p, m in errors[:5]), [rule])


def effect_record(effect: object, example: str, rule: str) -> dict:
    """The effect record of a judge action: a JSON object as in the scenario format (``example`` shows one)."""
    if not isinstance(effect, dict):
        raise IllegalAction("l'effetto è un oggetto JSON come nel formato degli scenari (per esempio "
                            f"{example})", [rule])
    return effect
