"""``judge archivio migra``: copy a store into another (SQLite into PostgreSQL) row by row.

Rows are copied as they are (same ids, same compressed bytes, same timestamps), so every
permalink opens on the new store exactly as on the old one; a copy interrupted halfway can
be run again (rows already there are left alone).  Each document is then read back from the
new store and its content hash checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.store.core import Store


@dataclass
class MigrationReport:
    copied: dict[str, int] = field(default_factory=dict)
    present: dict[str, int] = field(default_factory=dict)
    verified: int = 0
    missing: list[str] = field(default_factory=list)


def copy_store(source: Store, target: Store, progress=None) -> MigrationReport:
    report = MigrationReport()
    for table in ("documenti", "storia", "partite_storia"):
        report.copied[table] = report.present[table] = 0
        for rows in source.export_rows(table):
            added = target.import_rows(table, rows)
            report.copied[table] += added
            report.present[table] += len(rows) - added
            if progress:
                progress(table, report.copied[table] + report.present[table])
    for rows in source.export_rows("documenti"):
        for row in rows:
            found = target.load_raw(row[0])
            if found is None or found[0] != row[1]:
                report.missing.append(row[0])
            else:
                report.verified += 1
    return report
