"""What the checks report: one finding per problem, with where it is and an Italian message."""

from __future__ import annotations

from dataclasses import asdict, dataclass

ERROR = "errore"
WARNING = "avviso"


@dataclass(frozen=True)
class Finding:
    level: str  # ERROR or WARNING
    code: str  # stable identifier, e.g. "citazione-obsoleta"
    file: str
    line: int
    rule: str | None
    message: str  # Italian
    related: tuple[str, ...] = ()  # numbers the user may want to follow (e.g. the English citations)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["related"] = list(self.related)
        return d

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.level.upper()} {where}{rule} {self.code}: {self.message}"
