"""Per-client rate limits: no single client can fill the store or keep the search busy.

Two budgets per client address (the proxy's client with ``--trusted-proxy``, see serve_cli):

* ``scritture``: every request that saves a document (new scenario, import, builder, each
  action of a game, the JSON API's saves and actions);
* ``ricerche``: the expensive reads, search (``/cerca``, ``/api/cerca``) and the citation
  linker (``/collega``, ``/api/collega``).

Each is a token bucket: ``N`` requests at once, then ``N`` per period (``60/min`` refills one
a second).  Over it: 429 with ``Retry-After`` and an Italian message; nothing is saved.
The buckets live in each process: behind a proxy that spreads clients over N processes a
client gets up to N times the budget, so the reverse proxy limits too (docs/deployment.md).

Configuration: ``JUDGE_LIMITE_SCRITTURE`` (default ``60/min``), ``JUDGE_LIMITE_RICERCHE``
(default ``300/min``), ``0`` turns one off, ``JUDGE_LIMITI=0`` all of them; or the app
config ``RATE_LIMITS = {"scritture": "60/min", …}`` (False: off; apps made for tests have
them off unless they set it).
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app, make_response, request

DEFAULTS = {"scritture": "60/min", "ricerche": "300/min"}
ENV = {"scritture": "JUDGE_LIMITE_SCRITTURE", "ricerche": "JUDGE_LIMITE_RICERCHE"}

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
}

WHAT = {"scritture": "salvataggi", "ricerche": "ricerche e collegamenti di citazioni"}
MAX_CLIENTS = 50_000          # buckets kept per budget; the fullest (idle) ones go first
_PERIODS = {"s": 1, "sec": 1, "secondo": 1, "m": 60, "min": 60, "minuto": 60, "h": 3600,
            "ora": 3600}


@dataclass(frozen=True)
class Rate:
    count: int          # burst, and how many per period
    period: float       # seconds

    @property
    def per_second(self) -> float:
        return self.count / self.period

    def __str__(self) -> str:
        unit = {1: "al secondo", 60: "al minuto", 3600: "all'ora"}.get(int(self.period),
                                                                        f"ogni {self.period:g} s")
        return f"{self.count} {unit}"


def parse_rate(text: str) -> Rate | None:
    """``"60/min"``, ``"5/s"``, ``"1000/ora"`` → Rate; ``"0"`` → None (no limit)."""
    text = str(text).strip().lower()
    if text in ("0", "off", "no"):
        return None
    m = re.fullmatch(r"(\d+)\s*/\s*([a-z]+)", text)
    if not m or m[2] not in _PERIODS or int(m[1]) <= 0:
        raise ValueError(f"limite non valido: «{text}» (esempi: 60/min, 5/s, 1000/ora, 0 = nessuno)")
    return Rate(int(m[1]), float(_PERIODS[m[2]]))


class Buckets:
    """Token buckets per client for one budget.  Thread-safe; memory bounded."""

    def __init__(self, rate: Rate, clock=time.monotonic):
        self.rate, self.clock = rate, clock
        self.lock = threading.Lock()
        self.state: dict[str, tuple[float, float]] = {}     # client -> (tokens, at)

    def take(self, client: str) -> float:
        """0 if the request may go, else the seconds until it could."""
        now = self.clock()
        with self.lock:
            tokens, at = self.state.get(client, (float(self.rate.count), now))
            tokens = min(float(self.rate.count), tokens + (now - at) * self.rate.per_second)
            if tokens >= 1:
                self.state[client] = (tokens - 1, now)
                if len(self.state) > MAX_CLIENTS:
                    self._forget(now)
                return 0.0
            self.state[client] = (tokens, now)
            return (1 - tokens) / self.rate.per_second

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


def _check():
    limited = LIMITED.get(request.endpoint or "")
    if limited is None:
        return None
    budget, methods = limited
    if methods is not None and request.method not in methods:
        return None
    buckets = current_app.extensions["judge.limits"].get(budget)
    if buckets is None:
        return None
    wait = buckets.take(request.remote_addr or "?")
    if not wait:
        return None
    from judge.web.errors import error_response

    seconds = max(1, math.ceil(wait))
    message = (f"Troppe richieste da questo indirizzo: il limite è di {buckets.rate} "
               f"{WHAT[budget]}. Riprova tra {seconds} secondi.")
    response = make_response(error_response(429, message, retry_after=seconds))
    response.headers["Retry-After"] = str(seconds)
    return response


def init_app(app: Flask) -> None:
    app.extensions["judge.limits"] = {name: Buckets(rate) for name, rate in configured(app).items()}
    app.before_request(_check)
