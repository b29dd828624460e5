"""The store's size quota and what is removed first when it is reached (docs/simulatore.md).

Only two things are ever removed, in this order:

1. rows of the history cache that no document links to (the history of removed documents,
   the intermediate states of replayed games): a cache, recomputed when a game needs it;
2. documents **never opened since they were saved** (an open is a visit arriving more than
   ``OPEN_GRACE`` seconds after the save: not the redirect that follows it), oldest first.

A document someone opened after saving it is never removed, whatever the quota.  Two rules:

* *age*: documents never opened and saved more than ``keep_days`` ago go, with the history
  rows nobody links to that are as old (``judge archivio pulisci``, e.g. once a day);
* *quota*: when a save would take the store past ``quota`` bytes, the same kinds of rows go,
  oldest first, down to ``target`` of the quota, but only those older than ``min_age``
  seconds (a game being played is not taken from under its player).  If that is not enough,
  the save is refused (507, «archivio pieno») and nothing else is touched.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

OPEN_GRACE = 60.0            # seconds after a save during which a visit is the saver's own redirect
BATCH = 500

_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "m": 1024 ** 2, "mb": 1024 ** 2,
          "g": 1024 ** 3, "gb": 1024 ** 3, "t": 1024 ** 4, "tb": 1024 ** 4}
_DURATIONS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "ora": 3600, "ore": 3600,
              "d": 86400, "g": 86400, "giorni": 86400, "giorno": 86400}


def parse_size(text: str) -> int:
    """"500MB", "2GB", "1048576" → bytes (0: no quota).  ValueError with an Italian message."""
    m = re.fullmatch(r"\s*(\d+(?:[.,]\d+)?)\s*([a-zA-Z]*)\s*", str(text))
    if not m or m[2].lower() not in _UNITS:
        raise ValueError(f"dimensione non valida: «{text}» (esempi: 500MB, 2GB, 0 per nessun limite)")
    return int(float(m[1].replace(",", ".")) * _UNITS[m[2].lower()])


def parse_duration(text: str) -> float:
    """"30d", "1h", "90min", "3600" → seconds."""
    m = re.fullmatch(r"\s*(\d+(?:[.,]\d+)?)\s*([a-zA-Z]*)\s*", str(text))
    unit = (m[2].lower() or "s") if m else ""
    if not m or unit not in _DURATIONS:
        raise ValueError(f"durata non valida: «{text}» (esempi: 30d, 12h, 90min)")
    return float(m[1].replace(",", ".")) * _DURATIONS[unit]


@dataclass
class Policy:
    quota: int = 1024 ** 3              # bytes counted by the store (0: no quota)
    keep_days: float = 30.0             # age rule
    min_age: float = 3600.0             # quota rule: nothing younger is removed
    target: float = 0.9                 # the quota rule prunes down to this share of the quota

    @classmethod
    def from_env(cls, env=os.environ) -> "Policy":
        p = cls()
        if env.get("JUDGE_ARCHIVIO_QUOTA"):
            p.quota = parse_size(env["JUDGE_ARCHIVIO_QUOTA"])
        if env.get("JUDGE_ARCHIVIO_GIORNI"):
            p.keep_days = parse_duration(env["JUDGE_ARCHIVIO_GIORNI"] + "d"
                                         if env["JUDGE_ARCHIVIO_GIORNI"].strip().isdigit()
                                         else env["JUDGE_ARCHIVIO_GIORNI"]) / 86400
        if env.get("JUDGE_ARCHIVIO_ETA_MINIMA"):
            p.min_age = parse_duration(env["JUDGE_ARCHIVIO_ETA_MINIMA"])
        return p


@dataclass
class Report:
    """What a pruning removed."""

    documents: int = 0
    games: int = 0
    history_rows: int = 0
    bytes_freed: int = 0
    size_before: int = 0
    size_after: int = 0
    removed_ids: list[str] = field(default_factory=list)

    def add(self, other: "Report") -> None:
        self.documents += other.documents
        self.games += other.games
        self.history_rows += other.history_rows
        self.bytes_freed += other.bytes_freed
        self.removed_ids += other.removed_ids


def prune(store, policy: Policy, now: float, by_age: bool = True) -> Report:
    """Apply the policy to ``store``.  Its primitives ``_prune_history``/``_prune_documents``
    remove one batch each, oldest first (stopping once ``need`` bytes are freed, when given),
    and say what they removed."""
    report = Report(size_before=store.totals()["byte"])
    if by_age:
        cutoff = now - policy.keep_days * 86400
        _drain(lambda: store._prune_history(cutoff, BATCH), report)
        _drain(lambda: store._prune_documents(cutoff, BATCH), report)
        _drain(lambda: store._prune_history(cutoff, BATCH), report)
    if policy.quota:
        goal = int(policy.quota * policy.target)
        cutoff = now - policy.min_age
        while (need := store.totals()["byte"] - goal) > 0:
            got = store._prune_history(cutoff, BATCH, need)
            report.add(got)
            if got.history_rows:
                continue
            got = store._prune_documents(cutoff, BATCH, need)
            report.add(got)
            if not got.documents:
                break           # nothing more may go: the next saves are refused
    report.size_after = store.totals()["byte"]
    return report


def _drain(step, report: Report) -> None:
    while True:
        got = step()
        report.add(got)
        if not (got.documents or got.history_rows):
            return
