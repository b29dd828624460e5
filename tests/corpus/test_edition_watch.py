"""`judge edizione controlla`, the daily job: read the official rules page, download a file the
project does not have, report what it needs, never change the edition in force. Tested against a
local HTTP server serving a copy of the page and a file (no network here)."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge import ROOT
from judge.cli import main
from judge.corpus.edition_watch import WatchError, check_for_edition, find_txt_link
from tests.corpus.planted import FAKE, plant, project

PAGE = """<!doctype html><html><body><h1>Magic: The Gathering Comprehensive Rules</h1>
<p><a href="https://media.example/2026/downloads/MagicCompRules%2020260417.txt">Older TXT</a></p>
<p><a href="/downloads/MagicCompRules%20{ident}.txt">TXT</a> <a href="/downloads/MagicCompRules {ident}.pdf">PDF</a></p>
</body></html>"""


@pytest.fixture()
def site(tmp_path):
    """A local web server; returns (its folder, its address)."""
    root = tmp_path / "www"
    (root / "downloads").mkdir(parents=True)
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _publish(www: Path, ident: str, data: bytes) -> None:
    (www / "regole.html").write_text(PAGE.format(ident=ident), encoding="utf-8")
    (www / "downloads" / f"MagicCompRules {ident}.txt").write_bytes(data)


def test_the_txt_link_is_found_resolved_and_the_newest_wins():
    url, ident = find_txt_link(PAGE.format(ident="20260925"), "https://magic.example/en/rules")
    assert (url, ident) == ("https://magic.example/downloads/MagicCompRules%2020260925.txt", "20260925")
    with pytest.raises(WatchError, match="collegamento"):
        find_txt_link("<a href='/rules.pdf'>PDF</a>", "https://magic.example/")


def test_a_new_edition_is_staged_and_reported_never_put_in_force(site, tmp_path):
    www, base = site
    root = project(tmp_path)
    plant(root / "rules_en", www / "downloads")
    new = www / "downloads" / f"MagicCompRules-{FAKE}.txt"
    _publish(www, FAKE, new.read_bytes())
    result = CliRunner().invoke(main, ["edizione", "--progetto", str(root), "controlla", "--pagina", f"{base}/regole.html"])
    assert result.exit_code == 3, result.output
    staged = root / "rules_en" / "in-arrivo" / f"MagicCompRules-{FAKE}.txt"
    assert staged.read_bytes() == new.read_bytes()
    assert '"sha256"' in staged.with_suffix(".json").read_text(encoding="utf-8")
    out = result.output
    assert "Nuova edizione" in out and "L'edizione in vigore resta 20260925" in out
    assert f"Riferimenti che `judge edizione adotta {FAKE}` sposterebbe: 2" in out and "704.5z → 704.5aa" in out
    assert "Traduzione: 2 da spostare" in out
    assert not (root / "rules_en" / f"MagicCompRules-{FAKE}.txt").exists()      # not in force
    again = CliRunner().invoke(main, ["edizione", "--progetto", str(root), "controlla", "--pagina", f"{base}/regole.html"])
    assert again.exit_code == 3 and "scaricata" in again.output


def test_nothing_new_when_the_project_has_the_file(site, tmp_path):
    www, base = site
    root = project(tmp_path)
    _publish(www, "20260925", (ROOT / "rules_en" / "MagicCompRules-20260925.txt").read_bytes())
    result = CliRunner().invoke(main, ["edizione", "--progetto", str(root), "controlla", "--pagina", f"{base}/regole.html"])
    assert result.exit_code == 0 and "Nessuna novità" in result.output
    assert not (root / "rules_en" / "in-arrivo").exists()


def test_the_official_crlf_file_of_a_verified_copy_is_nothing_new(site, tmp_path):
    www, base = site
    root = project(tmp_path)
    published = (ROOT / "rules_en" / "MagicCompRules-20260619.txt").read_bytes().replace(b"\n", b"\r\n")
    _publish(www, "20260619", published)
    report = check_for_edition(root / "rules_en", f"{base}/regole.html", timeout=5)
    assert report.status == "nessuna novità" and report.size == len(published)


def test_an_error_page_instead_of_the_file_keeps_nothing(site, tmp_path):
    www, base = site
    root = project(tmp_path)
    _publish(www, FAKE, b"<html>Service unavailable</html>")
    result = CliRunner().invoke(main, ["edizione", "--progetto", str(root), "controlla", "--pagina", f"{base}/regole.html"])
    assert result.exit_code == 1 and "non è un'edizione leggibile" in result.output
    assert not list((root / "rules_en" / "in-arrivo").glob("*.txt"))


def test_an_unreachable_page_is_a_clear_error(tmp_path):
    root = project(tmp_path)
    result = CliRunner().invoke(main, ["edizione", "--progetto", str(root), "controlla", "--pagina",
                                       "http://127.0.0.1:9/regole.html", "--timeout", "2"])
    assert result.exit_code == 1 and "Controllo non riuscito" in result.output and "Traceback" not in result.output
