"""The register of the official English editions: where each file comes from and whether its
bytes are the published ones.

``rules_en/edizioni.tsv`` holds, for every edition the project knows of, the SHA-256 and size
of the file Wizards of the Coast published (CRLF line ends) and where the project's copy comes
from. A copy is *verified* when its bytes, as they are or with LF line ends turned back into
CRLF (the only change the copies here carry), hash to the published SHA-256. Replacing an
unverified copy with the official download (same name) makes it verified with no other change.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

REGISTER_FILE = "edizioni.tsv"  # in rules_en/

VERIFIED = "verificata"
UNVERIFIED = "non verificata"
UNKNOWN = "sconosciuta"


@dataclass(frozen=True)
class Known:
    """A register line: an edition and its published file."""

    id: str
    effective: dt.date | None
    size: int | None  # bytes of the published file
    sha256: str | None
    source: str  # where the project's copy comes from (Italian)

    def line(self) -> str:
        return "\t".join((self.id, self.effective.isoformat() if self.effective else "",
                          str(self.size or ""), self.sha256 or "", self.source))


@dataclass(frozen=True)
class Verification:
    """Whether a copy is the published file."""

    edition: str
    status: str  # VERIFIED, UNVERIFIED, UNKNOWN
    sha256: str  # of the copy as it is
    size: int
    known: Known | None

    @property
    def verified(self) -> bool:
        return self.status == VERIFIED

    @property
    def note(self) -> str:
        """One Italian sentence for users."""
        if self.status == VERIFIED:
            return "Testo verificato: identico al file ufficiale pubblicato (SHA-256)."
        if self.status == UNVERIFIED:
            return ("Testo non verificato: questa copia non corrisponde byte per byte al file ufficiale "
                    f"(SHA-256 atteso {self.known.sha256[:12]}…). {self.known.source}")
        return "Testo non verificato: l'impronta del file ufficiale di questa edizione non è nel registro."

    def to_dict(self) -> dict:
        return {"status": self.status, "verified": self.verified, "sha256": self.sha256, "size": self.size,
                "official_sha256": self.known.sha256 if self.known else None,
                "official_size": self.known.size if self.known else None,
                "source": self.known.source if self.known else None, "note": self.note}


_HEADER = """\
# Registro delle edizioni ufficiali inglesi del Regolamento: per ogni edizione, la data di entrata in vigore,
# dimensione e SHA-256 del file TXT pubblicato (fine riga CRLF) e da dove viene la copia in rules_en/.
# Una copia è verificata quando i suoi byte (o gli stessi con LF riportato a CRLF) hanno quell'impronta.
# edizione	in vigore dal	byte pubblicati	sha256 pubblicato	provenienza della copia
"""


def read_register(path: Path) -> dict[str, Known]:
    out: dict[str, Known] = {}
    if not path.exists():
        return out
    for i, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = raw.split("\t")
        if len(parts) != 5 or not re.fullmatch(r"\d{8}", parts[0]) or (
                parts[3] and not re.fullmatch(r"[0-9a-f]{64}", parts[3])):
            raise ValueError(f"{path.name}:{i}: riga non valida: «{raw[:60]}»")
        effective = dt.date.fromisoformat(parts[1]) if parts[1] else None
        out[parts[0]] = Known(parts[0], effective, int(parts[2]) if parts[2] else None, parts[3] or None, parts[4])
    return out


def write_register(path: Path, known: dict[str, Known]) -> None:
    path.write_text(_HEADER + "".join(known[k].line() + "\n" for k in sorted(known)), encoding="utf-8")


def verify_bytes(edition: str, data: bytes, known: Known | None) -> Verification:
    digest = hashlib.sha256(data).hexdigest()
    if known is None or not known.sha256:
        return Verification(edition, UNKNOWN, digest, len(data), known)
    if digest == known.sha256:
        return Verification(edition, VERIFIED, digest, len(data), known)
    # The copies here have LF line ends; the published file has CRLF.
    if b"\r\n" not in data and hashlib.sha256(data.replace(b"\n", b"\r\n")).hexdigest() == known.sha256:
        return Verification(edition, VERIFIED, digest, len(data), known)
    return Verification(edition, UNVERIFIED, digest, len(data), known)


def verify(path: Path, known: Known | None) -> Verification:
    return verify_bytes(path.name[len("MagicCompRules-"):-len(".txt")], path.read_bytes(), known)
