"""Per-client rate limits: no single client can fill the store or keep the search busy.

Three budgets per client address (the proxy's client with ``--trusted-proxy``, see serve_cli):

* ``scritture``: every request that saves a document (new scenario, import, builder, each
  action of a game, the JSON API's saves and actions);
* ``ricerche``: the expensive reads, search (``/cerca``, ``/api/cerca``), the citation
  linker (``/collega``, ``/api/collega``, ``/api/citazioni``) and the card look-up (``/carte``,
  ``/api/carte``);
* ``byte``: the bytes a client's requests add to the scenario store (a document may be
  512 KB: sixty saves a minute of big documents were 1.3 GB an hour). Counted after each
  request (judge/store/core.py tells what each write added); a client past it may not save
  until it has refilled, reads still work.

Each is a token bucket: ``N`` at once, then ``N`` per period (``60/min`` refills one a
second).  Over it: 429 with ``Retry-After`` and an Italian message; nothing is saved.
The buckets live in each process: behind a proxy that spreads clients over N processes a
client gets up to N times the budget, so the reverse proxy limits too (docs/deployment.md).

Configuration: ``JUDGE_LIMITE_SCRITTURE`` (default ``60/min``), ``JUDGE_LIMITE_RICERCHE``
(default ``300/min``), ``JUDGE_LIMITE_BYTE`` (default ``20MB/ora``), ``0`` turns one off,
``JUDGE_LIMITI=0`` all of them; or the app config ``RATE_LIMITS = {"scritture": "60/min", …}``
(False: off; apps made for tests have them off unless they set it).
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app, g, has_request_context, make_response, request

DEFAULTS = {"scritture": "60/min", "ricerche": "300/min", "byte": "20MB/ora"}
ENV = {"scritture": "JUDGE_LIMITE_SCRITTURE", "ricerche": "JUDGE_LIMITE_RICERCHE",
       "byte": "JUDGE_LIMITE_BYTE"}

# endpoint -> budget (methods: None = any)
LIMITED: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "scenario.nuovo": ("scritture", None),
    "scenario.importa": ("scritture", None),
    "scenario.modifica_salva": ("scritture", None),
    "scenario.partita_azione": ("scritture", ("POST",)),
    "scenario.partita_modifica": ("scritture", None),       # saves the state as a new draft
    "scenario.api_save": ("scritture", None),
    "scenario.api_action": ("scritture", None),
    "search.cerca": ("ricerche", None),
    "search.api_cerca": ("ricerche", None),
    "linker.collega": ("ricerche", None),
    "linker.collega_link": ("scritture", None),             # a shared text is a saved document
    "api.collega": ("ricerche", None),
    "embed.citazioni": ("ricerche", None),                 # the embed script links other sites' pages
    "cards.carte": ("ricerche", None),                     # the card look-up: a search among names
    "cards.api_carte": ("ricerche", None),
}

# What each budget counts: (one, many).
WHAT = {"scritture": ("salvataggio", "salvataggi"),
        "ricerche": ("ricerca o collegamento di citazioni", "ricerche e collegamenti di citazioni")}
MAX_CLIENTS = 50_000          # buckets kept per budget; the fullest (idle) ones go first
_PERIODS = {"s": 1, "sec": 1, "secondo": 1, "m": 60, "min": 60, "minuto": 60, "h": 3600,
            "ora": 3600}
_SIZES = {"": 1, "b": 1, "kb": 1024, "mb": 1024 ** 2, "gb": 1024 ** 3}


def plural(n: int, one: str, many: str) -> str:
    """«1 secondo», «2 secondi»: Italian agrees the noun with its count."""
    return f"{n} {one if n == 1 else many}"


def wait_words(seconds: float) -> str:
    """How long to wait, in words: «1 secondo», «40 secondi», «3 minuti», «1 ora»."""
    seconds = max(1, math.ceil(seconds))
    if seconds < 120:
        return plural(seconds, "secondo", "secondi")
    if seconds < 2 * 3600:
        return plural(math.ceil(seconds / 60), "minuto", "minuti")
    return plural(math.ceil(seconds / 3600), "ora", "ore")


def size_words(n: float) -> str:
    """Bytes in words: «20 MB», «512 KB», «1 byte»."""
    for unit, size in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("KB", 1024)):
        if n >= size and n % size == 0:
            return f"{int(n // size)} {unit}"
    return plural(int(n), "byte", "byte")


@dataclass(frozen=True)
class Rate:
    count: int          # burst, and how many per period
    period: float       # seconds

    @property
    def per_second(self) -> float:
        return self.count / self.period

    @property
    def unit(self) -> str:
        return {1: "al secondo", 60: "al minuto", 3600: "all'ora"}.get(int(self.period),
                                                                      f"ogni {self.period:g} s")

    def __str__(self) -> str:
        return f"{self.count} {self.unit}"

    def describe(self, budget: str) -> str:
        """«60 salvataggi al minuto», «1 salvataggio al secondo», «20 MB all'ora»."""
        if budget == "byte":
            return f"{size_words(self.count)} {self.unit}"
        return f"{plural(self.count, *WHAT[budget])} {self.unit}"


def parse_rate(text: str) -> Rate | None:
    """``"60/min"``, ``"5/s"``, ``"1000/ora"``, ``"20MB/ora"`` → Rate; ``"0"`` → None (no limit)."""
    text = str(text).strip().lower()
    if text in ("0", "off", "no"):
        return None
    m = re.fullmatch(r"(\d+)\s*(kb|mb|gb|b)?\s*/\s*([a-z]+)", text)
    if not m or m[3] not in _PERIODS or int(m[1]) <= 0:
        raise ValueError(f"limite non valido: «{text}» (esempi: 60/min, 5/s, 1000/ora, 20MB/ora, "
                         "0 = nessuno)")
    return Rate(int(m[1]) * _SIZES[m[2] or ""], float(_PERIODS[m[3]]))


class Buckets:
    """Token buckets per client for one budget.  Thread-safe; memory bounded."""

    def __init__(self, rate: Rate, clock=time.monotonic):
        self.rate, self.clock = rate, clock
        self.lock = threading.Lock()
        self.state: dict[str, tuple[float, float]] = {}     # client -> (tokens, at)

    def _level(self, client: str, now: float) -> float:
        tokens, at = self.state.get(client, (float(self.rate.count), now))
        return min(float(self.rate.count), tokens + (now - at) * self.rate.per_second)

    def take(self, client: str) -> float:
        """0 if the request may go, else the seconds until it could."""
        now = self.clock()
        with self.lock:
            tokens = self._level(client, now)
            if tokens >= 1:
                self._set(client, tokens - 1, now)
                return 0.0
            self.state[client] = (tokens, now)
            return (1 - tokens) / self.rate.per_second

    def wait(self, client: str) -> float:
        """0 while the client has something left, else the seconds until it has (nothing taken)."""
        now = self.clock()
        with self.lock:
            tokens = self._level(client, now)
        return 0.0 if tokens > 0 else (1 - tokens) / self.rate.per_second

    def charge(self, client: str, amount: float) -> None:
        """Take ``amount`` after the fact (the bucket may go below zero: the client then waits)."""
        now = self.clock()
        with self.lock:
            self._set(client, self._level(client, now) - amount, now)

    def _set(self, client: str, tokens: float, now: float) -> None:
        self.state[client] = (tokens, now)
        if len(self.state) > MAX_CLIENTS:
            self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop clients whose bucket has refilled (they lose nothing), then the oldest."""
        full = [c for c, (t, at) in self.state.items()
                if t + (now - at) * self.rate.per_second >= self.rate.count]
        for c in full:
            del self.state[c]
        if len(self.state) > MAX_CLIENTS:
            for c in sorted(self.state, key=lambda c: self.state[c][1])[:len(self.state) - MAX_CLIENTS]:
                del self.state[c]


def configured(app: Flask) -> dict[str, Rate]:
    """The budgets in force for an app (empty: no limits)."""
    conf = app.config.get("RATE_LIMITS")
    if conf is False or (conf is None and app.config.get("TESTING")):
        return {}
    if conf is None and os.environ.get("JUDGE_LIMITI", "1") == "0":
        return {}
    out = {}
    for name, default in DEFAULTS.items():
        text = (conf or {}).get(name) if isinstance(conf, dict) else None
        rate = parse_rate(text if text is not None else os.environ.get(ENV[name], default))
        if rate is not None:
            out[name] = rate
    return out


def _refuse(budget: str, rate: Rate, wait: float):
    from judge.web.errors import error_response

    seconds = max(1, math.ceil(wait))
    if budget == "byte":
        message = (f"Troppi dati salvati da questo indirizzo: il limite è di {rate.describe(budget)}. "
                   f"Puoi ancora aprire gli scenari e le partite salvati; riprova a salvare tra "
                   f"{wait_words(seconds)}.")
    else:
        message = (f"Troppe richieste da questo indirizzo: il limite è di {rate.describe(budget)}. "
                   f"Riprova tra {wait_words(seconds)}.")
    response = make_response(error_response(429, message, retry_after=seconds))
    response.headers["Retry-After"] = str(seconds)
    return response


def _check():
    limited = LIMITED.get(request.endpoint or "")
    if limited is None:
        return None
    budget, methods = limited
    if methods is not None and request.method not in methods:
        return None
    buckets = current_app.extensions["judge.limits"]
    client = request.remote_addr or "?"
    if budget == "scritture" and "byte" in buckets:
        wait = buckets["byte"].wait(client)
        if wait:
            return _refuse("byte", buckets["byte"].rate, wait)
    if budget not in buckets:
        return None
    wait = buckets[budget].take(client)
    return _refuse(budget, buckets[budget].rate, wait) if wait else None


def store_grew(nbytes: int) -> None:
    """The scenario store's ``on_growth``: the bytes a write of this request added."""
    if has_request_context():
        g.judge_store_bytes = g.get("judge_store_bytes", 0) + nbytes


def _charge(exc=None) -> None:
    # At the request's teardown: a write that committed counts even if the view failed after it.
    added = g.pop("judge_store_bytes", 0)
    buckets = current_app.extensions["judge.limits"].get("byte")
    if added and buckets is not None:
        buckets.charge(request.remote_addr or "?", added)


def init_app(app: Flask) -> None:
    app.extensions["judge.limits"] = {name: Buckets(rate) for name, rate in configured(app).items()}
    app.before_request(_check)
    app.teardown_request(_charge)
