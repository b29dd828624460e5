"""`judge edizione controlla`, the daily job: read the official rules page, download a file the
project does not have, report what it needs, never change the edition in force. Tested against a
local HTTP server serving a copy of the page and a file (no network here)."""

from __future__ import annotations

import functools
import http.server
import threading
import time
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


# -- an unattended job on what a web page says (issue 38) ------------------------------------------

class _Hostile(http.server.BaseHTTPRequestHandler):
    """Pages that try the job: a trickle, a huge file, links and redirects elsewhere."""

    routes: dict = {}

    def log_message(self, *args):
        pass

    def do_GET(self):
        kind, payload = self.routes.get(self.path, ("404", b""))
        if kind == "404":
            self.send_error(404)
            return
        if kind == "redirect":
            self.send_response(302)
            self.send_header("Location", payload)
            self.end_headers()
            return
        self.send_response(200)
        if kind == "huge":
            self.send_header("Content-Length", str(50 * 1024 * 1024))
            self.end_headers()
            self.wfile.write(b"x" * 1024)
            return
        if kind == "endless":           # no length, more than any edition
            self.end_headers()
            try:
                for _ in range(20_000):
                    self.wfile.write(b"x" * 1024)
            except OSError:
                pass
            return
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if kind == "trickle":
            try:
                for byte in payload:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
            except OSError:
                pass
            return
        self.wfile.write(payload)


@pytest.fixture()
def hostile():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield _Hostile.routes, server.server_address[1]
    _Hostile.routes.clear()
    server.shutdown()
    server.server_close()


def _link(url: str) -> bytes:
    return f'<a href="{url}">TXT</a>'.encode()


def test_a_page_sent_a_byte_a_second_stops_at_the_deadline(hostile, tmp_path):
    routes, port = hostile
    routes["/regole.html"] = ("trickle", b"<html>" + b" " * 200 + b"</html>")
    root = project(tmp_path)
    started = time.monotonic()
    result = CliRunner().invoke(main, ["edizione", "--progetto", str(root), "controlla", "--pagina",
                                       f"http://127.0.0.1:{port}/regole.html", "--timeout", "3", "--scadenza", "4"])
    took = time.monotonic() - started
    assert result.exit_code == 1 and "tempo massimo" in result.output and "Traceback" not in result.output
    assert took < 10, took           # it ran past 45 s with --timeout 3


@pytest.mark.parametrize("kind", ["huge", "endless"])
def test_a_file_larger_than_any_edition_is_refused_without_reading_it_all(hostile, tmp_path, kind):
    routes, port = hostile
    routes["/regole.html"] = ("page", _link(f"/MagicCompRules%20{FAKE}.txt"))
    routes[f"/MagicCompRules%20{FAKE}.txt"] = (kind, b"")
    root = project(tmp_path)
    with pytest.raises(WatchError, match="byte"):
        check_for_edition(root / "rules_en", f"http://127.0.0.1:{port}/regole.html", timeout=5, deadline=30)
    assert not list((root / "rules_en").glob("in-arrivo/*.txt"))


@pytest.mark.parametrize("link", ["file:///tmp/MagicCompRules%2020991231.txt",
                                  "ftp://127.0.0.1/MagicCompRules%2020991231.txt",
                                  "http://localhost:{port}/MagicCompRules%2020991231.txt"])
def test_only_http_links_on_the_pages_host_are_followed(hostile, tmp_path, link):
    routes, port = hostile
    routes["/regole.html"] = ("page", _link(link.format(port=port)))
    root = project(tmp_path)
    with pytest.raises(WatchError, match="--host"):
        check_for_edition(root / "rules_en", f"http://127.0.0.1:{port}/regole.html", timeout=5)


def test_another_host_is_followed_when_given(hostile, tmp_path):
    routes, port = hostile
    data = (ROOT / "rules_en" / "MagicCompRules-20260925.txt").read_bytes()
    routes["/regole.html"] = ("page", _link(f"http://localhost:{port}/MagicCompRules%2020260925.txt"))
    routes["/MagicCompRules%2020260925.txt"] = ("page", data)
    root = project(tmp_path)
    report = check_for_edition(root / "rules_en", f"http://127.0.0.1:{port}/regole.html", timeout=5,
                               hosts=["localhost"])
    assert report.status == "nessuna novità" and report.size == len(data)


@pytest.mark.parametrize("target", ["file:///etc/passwd", "http://localhost:{port}/MagicCompRules%2020260925.txt"])
def test_a_redirect_elsewhere_is_not_followed(hostile, tmp_path, target):
    routes, port = hostile
    routes["/regole.html"] = ("page", _link("/MagicCompRules%2020260925.txt"))
    routes["/MagicCompRules%2020260925.txt"] = ("redirect", target.format(port=port))
    root = project(tmp_path)
    with pytest.raises(WatchError, match="rimanda"):
        check_for_edition(root / "rules_en", f"http://127.0.0.1:{port}/regole.html", timeout=5)


def test_the_official_page_may_link_its_media_host():
    from judge.corpus.edition_watch import DEFAULT_PAGE, allowed_hosts

    url, ident = find_txt_link('<a href="https://media.wizards.com/2026/downloads/MagicCompRules%2020260925.txt">x</a>',
                               DEFAULT_PAGE, allowed_hosts(DEFAULT_PAGE))
    assert ident == "20260925" and url.startswith("https://media.wizards.com/")
