"""The index as the search reads it: every term's postings in flat numpy arrays, the documents'
stored fields and their BM25 length norms.

A server used to read all of this back from Whoosh as it started (25,000 terms one by one, six
seconds on a busy machine). Now it is captured while Whoosh writes the index (each posting as it
enters Whoosh's pool: the same documents, frequencies and positions, in the same order), saved
beside the index (``arrays.pickle``) and loaded in a fraction of a second when the index is
opened. ``from_reader`` reads the same thing from a Whoosh reader, for an index saved without it;
the tests check that both agree.
"""

from __future__ import annotations

import gc
import pickle
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
from whoosh.util.numeric import byte_to_length, length_to_byte

ARRAYS_FILE = "arrays.pickle"
B = 0.75
K1 = 1.2
POSITION_BITS = 24  # a position key is document << 24 | position (fields are far shorter than 16M words)


class Postings(NamedTuple):
    """A term's postings in one field: documents, term frequencies and, in positional fields, the
    sorted (document, position) keys that phrases are matched on."""

    docs: np.ndarray  # int32
    tf: np.ndarray  # float32
    keys: np.ndarray | None  # int64, None where the field keeps no positions


NO_POSTINGS = Postings(np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int64))


class FlatPostings:
    """Every term's postings in a few flat arrays per field (CSR), a term's own being slices of them,
    filled term by term (``add``, then ``done``) with no second copy: about 7 MB for the whole index,
    where one set of numpy arrays per term took 12."""

    def __init__(self):
        self.slot: dict[str, dict[str, int]] = {}
        self.arrays: dict[str, tuple] = {}

    def add(self, field: str, text: str, ids: list, tf: list, keys: list | None) -> None:
        if field not in self.arrays:
            self.slot[field] = {}
            self.arrays[field] = (array("q", [0]), array("i"), array("f"), array("q", [0]), array("q"))
        starts, docs, freqs, kstarts, allkeys = self.arrays[field]
        self.slot[field][text] = len(starts) - 1
        docs.extend(ids)
        freqs.extend(tf)
        starts.append(len(docs))
        if keys is not None:
            allkeys.extend(keys)
        kstarts.append(len(allkeys))

    def done(self) -> FlatPostings:
        """Turn the growing arrays into numpy arrays (sharing their memory: no copy)."""
        for field, (starts, docs, freqs, kstarts, keys) in self.arrays.items():
            self.arrays[field] = (
                np.frombuffer(starts, dtype=np.int64), np.frombuffer(docs, dtype=np.int32),
                np.frombuffer(freqs, dtype=np.float32), np.frombuffer(kstarts, dtype=np.int64),
                np.frombuffer(keys, dtype=np.int64) if len(keys) else None,
            )
        return self

    def __len__(self) -> int:
        return sum(len(s) for s in self.slot.values())

    def terms(self, field: str):
        return self.slot.get(field, {}).keys()

    def get(self, field: str, text: str) -> Postings:
        i = self.slot.get(field, {}).get(text)
        if i is None:
            return NO_POSTINGS
        starts, docs, tf, kstarts, keys = self.arrays[field]
        a, b = starts[i], starts[i + 1]
        return Postings(docs[a:b], tf[a:b], keys[kstarts[i]:kstarts[i + 1]] if keys is not None else None)


def norms(lengths: dict[str, np.ndarray], totals: dict[str, int], n: int) -> dict[str, np.ndarray]:
    """BM25's length normalisation per field and document: K1 * ((1 - B) + B * length / average),
    with Whoosh's lengths (kept in a byte each: approximate) and its exact average."""
    out = {}
    for f, lengths_f in lengths.items():
        avg = (totals[f] / n if n else 0.0) or 1.0
        out[f] = (K1 * ((1 - B) + B * lengths_f / avg)).astype(np.float32)
    return out


@dataclass
class IndexArrays:
    n: int
    stored: list[dict]  # every document's stored fields, by document number
    postings: FlatPostings
    norm: dict[str, np.ndarray]

    def save(self, folder: Path) -> None:
        with open(folder / ARRAYS_FILE, "wb") as fh:
            pickle.dump(self, fh, protocol=5)


def load(folder: Path) -> IndexArrays | None:
    """The arrays saved beside an index; None when there are none (or they cannot be read)."""
    enabled = gc.isenabled()
    gc.disable()  # many small objects (the stored fields): see build_cache._load
    try:
        with open(folder / ARRAYS_FILE, "rb") as fh:
            got = pickle.load(fh)
        return got if isinstance(got, IndexArrays) else None
    except Exception:
        return None
    finally:
        if enabled:
            gc.enable()


class Capture:
    """What Whoosh writes, taken as it writes it: install on a writer before adding documents
    (``Capture(writer)``), call ``document`` with each document's fields after adding it, then
    ``arrays`` after the commit."""

    def __init__(self, writer):
        self.schema = writer.schema
        self.stored_names = [name for name, f in self.schema.items() if f.stored]
        self.scorable = {name for name, f in self.schema.items() if f.scorable}
        self.positional = {name for name, f in self.schema.items() if f.format and f.format.supports("positions")}
        self.formats = {name: f.format for name, f in self.schema.items() if f.format}
        self.terms: dict[tuple[str, str], tuple[list, list, list | None]] = {}
        self.lengths: dict[tuple[str, int], int] = {}
        self.stored: list[dict] = []
        add = writer.pool.add

        def capture(item):
            self._posting(*item)
            add(item)

        writer.pool.add = capture

    def _posting(self, field: str, tbytes: bytes, doc: int, weight: float, vbytes: bytes | None) -> None:
        key = (field, tbytes.decode("utf-8"))
        got = self.terms.get(key)
        positional = field in self.positional
        if got is None:
            got = self.terms[key] = ([], [], [] if positional else None)
        ids, tf, keys = got
        ids.append(doc)
        fmt = self.formats[field]
        if positional:
            positions = fmt.decode_positions(vbytes)
            tf.append(len(positions))
            keys.extend((doc << POSITION_BITS) | p for p in positions)
        else:
            tf.append(weight)
        if field in self.scorable:
            self.lengths[(field, doc)] = self.lengths.get((field, doc), 0) + fmt.decode_frequency(vbytes)

    def document(self, fields: dict) -> None:
        self.stored.append({name: fields[name] for name in self.stored_names if fields.get(name) is not None})

    def arrays(self) -> IndexArrays:
        n = len(self.stored)
        flat = FlatPostings()
        for (field, text), (ids, tf, keys) in sorted(self.terms.items()):
            flat.add(field, text, ids, tf, keys)
        lengths = {f: np.zeros(n, dtype=np.float32) for f in self.scorable}
        totals = dict.fromkeys(self.scorable, 0)
        for (field, doc), length in self.lengths.items():
            lengths[field][doc] = byte_to_length(length_to_byte(length))
            totals[field] += length
        return IndexArrays(n, self.stored, flat.done(), norms(lengths, totals, n))


def read_lists(reader, positional: set[str], field: str, text: str) -> tuple[list, list, list | None]:
    """One term's documents, frequencies and position keys, read from Whoosh."""
    ids: list[int] = []
    tf: list[int] = []
    if (field, text) not in reader:
        return ids, tf, [] if field in positional else None
    m = reader.postings(field, text)
    if field in positional:
        keys: list[int] = []
        for doc, positions in m.items_as("positions"):
            ids.append(doc)
            tf.append(len(positions))
            keys.extend((doc << POSITION_BITS) | p for p in positions)
        return ids, tf, keys
    while m.is_active():
        ids.append(m.id())
        tf.append(m.weight())
        m.next()
    return ids, tf, None


def stored_and_norms(reader, schema) -> tuple[list[dict], dict[str, np.ndarray]]:
    """Every document's stored fields and the length norms, read from Whoosh."""
    n = reader.doc_count_all()
    stored = [reader.stored_fields(d) for d in range(n)]
    scorable = [name for name, f in schema.items() if f.scorable]
    lengths = {f: np.array([reader.doc_field_length(d, f, 0) or 0 for d in range(n)], dtype=np.float32)
               for f in scorable}
    # Whoosh's average: the exact total over the documents (the lengths above are kept in a byte each).
    totals = {f: reader.field_length(f) for f in scorable}
    return stored, norms(lengths, totals, reader.doc_count())


def postings_from_reader(reader, schema) -> FlatPostings:
    """Every term's postings, read from Whoosh term by term."""
    positional = {name for name, f in schema.items() if f.format and f.format.supports("positions")}
    flat = FlatPostings()
    for field, text in reader.all_terms():
        text = text.decode("utf-8") if isinstance(text, bytes) else text
        flat.add(field, text, *read_lists(reader, positional, field, text))
    return flat.done()


def from_reader(reader, schema) -> IndexArrays:
    """Everything, read from Whoosh (an index saved without its arrays)."""
    stored, norm = stored_and_norms(reader, schema)
    return IndexArrays(len(stored), stored, postings_from_reader(reader, schema), norm)
