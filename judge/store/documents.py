"""What the scenario store keeps, whatever the backend: canonical JSON, content-addressed ids,
the limits on a saved document, and the errors the web layer turns into Italian answers.

Every document (a scenario being built, or a game: starting scenario plus the actions taken)
is saved under an id derived from its content, so

* the same state always gets the same id (saving twice stores one row, on any server);
* two people saving at the same time can never overwrite each other: a row is only ever
  inserted, never updated, and identical ids mean identical content;
* a permalink never changes meaning.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from judge.engine.validation import json_depth  # one walker for the engine and the store

# Limits (the messages are shown to users; see also judge.web.simulator.forms for limits on content).
MAX_DOCUMENT_BYTES = 512 * 1024       # canonical JSON of one saved document
MAX_JSON_DEPTH = 24

ID_LEN = 20                           # base32 characters: 100 bits of SHA-256
ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"

KINDS = ("scenario", "partita")


@dataclass
class HistoryRow:
    """One prefix of a game history (see the ``storia`` table)."""

    key: str
    parent: str | None
    n: int
    events: list[dict]
    snapshot: bytes | None = None


class StoreError(ValueError):
    """A document that cannot be saved (too big, too deep, not JSON); ``message`` is Italian,
    ``status`` the HTTP answer (413 too big, 422 not valid)."""

    def __init__(self, message: str, status: int = 413):
        self.message, self.status = message, status
        super().__init__(message)


class CorruptDocument(RuntimeError):
    """A stored row whose content no longer matches its hash."""


class StoreUnavailable(RuntimeError):
    """The store cannot do what was asked right now; ``message`` is Italian, ``status`` the
    HTTP answer: 503 (read-only, unreachable) or 507 (full)."""

    status = 503

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class StoreReadOnly(StoreUnavailable):
    """Writes are refused (a read-only folder, file or database); reads still work."""


class StoreFull(StoreUnavailable):
    """The store is over its quota and nothing more may be removed under the policy."""

    status = 507


def canonical(doc: Any) -> bytes:
    """The bytes the id is computed from: sorted keys, no spaces, UTF-8."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def document_id(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:ID_LEN]


def valid_id(ident: str) -> bool:
    return len(ident) == ID_LEN and all(c in ID_ALPHABET for c in ident)


def lone_surrogate(value: Any) -> str | None:
    """The path of the first string holding a lone surrogate (``"\\ud800"`` in JSON decodes to
    one, and no UTF-8 text can carry it), or None.  Walked without recursion."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        cur, path = stack.pop()
        if isinstance(cur, str):
            if not _encodable(cur):
                return path or "(radice)"
        elif isinstance(cur, dict):
            for k, v in cur.items():
                if isinstance(k, str) and not _encodable(k):
                    return (path + "." if path else "") + "(chiave)"
                stack.append((v, f"{path}.{k}" if path else str(k)))
        elif isinstance(cur, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(cur))
    return None


def _encodable(s: str) -> bool:
    try:
        s.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def surrogate_message(path: str) -> str:
    return (f"Testo non valido in «{path[:200]}»: contiene un carattere che non esiste in Unicode "
            "(un surrogato isolato, come \\ud800 nel JSON). Correggi o togli quel carattere.")


def check_document(doc: Any, depth_checked: bool = False) -> bytes:
    """Refuse documents that are too deep, too big or not encodable; return their canonical
    bytes.  ``depth_checked``: the caller knows the depth is within the limit (a saved document
    with one action more, whose depth it checked), so the walk is skipped."""
    depth = 0 if depth_checked else json_depth(doc)
    if depth > MAX_JSON_DEPTH:
        raise StoreError(f"JSON troppo annidato: profondità {depth}, il limite è {MAX_JSON_DEPTH}.", 422)
    try:
        data = canonical(doc)
    except UnicodeEncodeError:
        raise StoreError(surrogate_message(lone_surrogate(doc) or "(documento)"), 422) from None
    except (TypeError, ValueError) as e:
        raise StoreError(f"Documento non salvabile come JSON: {e}", 422) from None
    return check_size(data)


def check_size(data: bytes) -> bytes:
    if len(data) > MAX_DOCUMENT_BYTES:
        raise StoreError(f"Scenario troppo grande: {len(data) // 1024} KB, il limite è "
                         f"{MAX_DOCUMENT_BYTES // 1024} KB.")
    return data


GAME_KEYS = {"actions", "format", "redo", "scenario", "version"}


def canonical_edited(old: bytes, doc: dict, redo: list, append: Any = None,
                     drop_last: bool = False) -> bytes | None:
    """The canonical JSON of ``doc`` with its last action dropped and/or one appended and
    ``redo`` as its redo list, made from ``old`` (= canonical(doc)) without encoding the
    actions again: a step, undo or redo after 1,000 actions costs what one after a single
    action does.  None when ``doc`` is not a plain game document."""
    if set(doc) != GAME_KEYS or not isinstance(doc["actions"], list) or \
            (drop_last and not doc["actions"]):
        return None
    head = b'{"actions":'
    fmt, scenario = canonical(doc["format"]), canonical(doc["scenario"])

    def rest(redo_list: list) -> bytes:
        return (b',"format":' + fmt + b',"redo":' + canonical(redo_list) + b',"scenario":'
                + scenario + b',"version":' + canonical(doc["version"]) + b"}")

    tail = rest(doc["redo"])
    if not (old.startswith(head + b"[") and old.endswith(b"]" + tail)):
        return None
    inner = old[len(head) + 1:len(old) - len(tail) - 1]       # the actions, encoded
    if drop_last:
        last = canonical(doc["actions"][-1])
        if not inner.endswith(last):
            return None
        inner = inner[:len(inner) - len(last)].removesuffix(b",")
    if append is not None:
        inner += (b"," if inner else b"") + canonical(append)
    return head + b"[" + inner + b"]" + rest(redo)
