"""Reading a JSON request body for a public endpoint: whatever was sent, an Italian 4xx, never a 500.

The standard parser recurses once per level: ``[[[[…]]]]`` nested a thousand deep makes it raise
RecursionError, which used to reach the error handler as a 500 (on /collega, then on
/api/citazioni). Here it is a refusal, like a body nested deeper than the endpoint needs or one
holding a lone surrogate (which no text can be encoded from).
"""

from __future__ import annotations

import json
from typing import Any

from flask import request

from judge.engine.validation import json_depth
from judge.store.documents import lone_surrogate, surrogate_message
from judge.web.errors import error_response


def nested_message(limit: int) -> str:
    return f"JSON troppo annidato: il limite è {limit} livelli."


def read_json(max_depth: int, invalid: str, nested_status: int = 422):
    """``(data, None)``, or ``(None, an Italian error response)``: ``invalid`` (400) for a body
    that is not JSON, ``nested_status`` for one nested deeper than ``max_depth`` or holding a
    lone surrogate."""
    try:
        data: Any = json.loads(request.get_data(cache=True))
    except RecursionError:
        return None, error_response(nested_status, nested_message(max_depth))
    except ValueError:
        return None, error_response(400, invalid)
    if json_depth(data, stop_above=max_depth) > max_depth:
        return None, error_response(nested_status, nested_message(max_depth))
    bad = lone_surrogate(data)
    if bad is not None:
        return None, error_response(nested_status, surrogate_message(bad))
    return data, None
