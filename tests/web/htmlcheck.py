"""A small structural HTML checker for the tests: balanced tags, unique ids, labelled
form fields, lang="it", one h1, no inline script or style (the CSP forbids them)."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements whose end tag HTML lets us omit; we never omit them, so they are checked like the others.


class _Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: dict[str, int] = {}
        self.labels_for: set[str] = set()
        self.fields: list[tuple[str, dict]] = []
        self.h1 = 0
        self.lang = None
        self.headings: list[int] = []
        self.label_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if "id" in a:
            self.ids[a["id"]] = self.ids.get(a["id"], 0) + 1
        if tag == "label" and a.get("for"):
            self.labels_for.add(a["for"])
        if tag == "label":
            self.label_depth += 1
        if tag in ("input", "textarea", "select") and a.get("type") not in ("hidden", "submit", "button"):
            self.fields.append((tag, a | {"_in_label": self.label_depth > 0}))
        if tag == "script" and not a.get("src"):
            self.errors.append("inline <script>")
        for k in a:
            if k.startswith("on"):
                self.errors.append(f"inline handler {k} on <{tag}>")
            if k == "style":
                self.errors.append(f"inline style on <{tag}>")
        if tag == "h1":
            self.h1 += 1
        if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
            self.headings.append(int(tag[1]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if tag == "label":
            self.label_depth -= 1
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}>, open: {self.stack[-3:]}")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()


def check_html(html: str) -> list[str]:
    c = _Checker()
    c.feed(html)
    c.close()
    errors = list(c.errors)
    if c.stack:
        errors.append(f"unclosed tags: {c.stack}")
    if c.lang != "it":
        errors.append(f'<html lang="{c.lang}">, expected "it"')
    dup = [i for i, n in c.ids.items() if n > 1]
    if dup:
        errors.append(f"duplicate ids: {dup[:5]}")
    for tag, a in c.fields:
        if not (a.get("id") in c.labels_for or a["_in_label"] or a.get("aria-label")):
            errors.append(f"<{tag} name={a.get('name')}> without a label")
    if c.h1 != 1:
        errors.append(f"{c.h1} <h1> elements")
    prev = 1
    for level in c.headings[1:]:
        if level > prev + 1:
            errors.append(f"heading level jumps from h{prev} to h{level}")
        prev = level
    return errors


def page(client, url: str, status: int = 200) -> str:
    """GET ``url``, check the status and the HTML, return the body."""
    r = client.get(url)
    assert r.status_code == status, (url, r.status_code)
    body = r.get_data(as_text=True)
    assert check_html(body) == [], url
    return body


def letter_links(body: str) -> list[str]:
    """The letters' pages a letter navigation (judge/web/parts.py) links to, in its order."""
    import re
    from html import unescape

    nav = re.search(r'<nav class="lettere"[^>]*>(.*?)</nav>', body, re.S)
    assert nav, "no letter navigation"
    return [unescape(h) for h in re.findall(r'href="([^"#]*lettera=[^"]*)"', nav.group(1))]


def every_letter(client, url: str) -> str:
    """The pages of every letter of an alphabetical page, checked and joined in the navigation's order."""
    return "\n".join(page(client, link) for link in letter_links(page(client, url)))
