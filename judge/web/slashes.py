"""A trailing slash redirects to the address without it (``/regole/704.5a/`` -> ``/regole/704.5a``).

Routes written with their slash (``/modifiche/``) are left alone; an address that means nothing
without the slash either keeps its normal answer (404). The query string is kept; GET and HEAD get a
301, other methods a 308 (same method, same body).
"""

from __future__ import annotations

from urllib.parse import quote

from flask import Flask, current_app, redirect, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect


def _redirect_trailing_slash():
    path = request.path
    if len(path) < 2 or not path.endswith("/"):
        return None
    rule = request.url_rule
    if rule is not None and rule.rule.endswith("/"):
        return None
    # One leading slash: "//example.org/" must never become a redirect to another host.
    target = "/" + path.strip("/")
    adapter = current_app.url_map.bind_to_environ(request.environ)
    try:
        adapter.match(target, method=request.method)
    except RequestRedirect:
        pass  # the router itself would redirect it further: still a known address
    except HTTPException:
        return None
    location = quote(target, safe="/:@!$&'()*+,;=-._~")
    if request.query_string:
        location += "?" + request.query_string.decode("latin-1")
    return redirect(location, code=301 if request.method in ("GET", "HEAD") else 308)


def init_app(app: Flask) -> None:
    app.before_request(_redirect_trailing_slash)
