"""What the engine reports: one :class:`Event` per thing that happened."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Event:
    """Something that happened, with the rules that made it happen.

    ``rules`` are Comprehensive Rules numbers (most specific first), ``text``
    an Italian sentence naming players and objects, ``kind`` a short English
    tag (``draw``, ``destroy``, ``damage`` …), ``objects`` and ``players`` the
    ids affected, ``turn``/``step`` where it happened.
    """

    rules: list[str]
    text: str
    kind: str
    objects: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    turn: int = 0
    step: str = ""
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        d = {
            "rules": list(self.rules),
            "text": self.text,
            "kind": self.kind,
            "objects": list(self.objects),
            "players": list(self.players),
            "turn": self.turn,
            "step": self.step,
        }
        if self.data:
            d["data"] = dict(self.data)
        return d

    def __str__(self) -> str:
        return f"{', '.join(self.rules)} — {self.text}"
