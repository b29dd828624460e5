"""Property-based checks of the JSON API against its OpenAPI document (schemathesis):
generated inputs never cause a 500, and every response matches the documented schema."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip("schemathesis")

from judge.web import create_app  # noqa: E402

_app = create_app({"INSTANCE_PATH": "/tmp/judge-schemathesis-instance", "TESTING": True, "SECRET_KEY": "schema"})
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", _app)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_openapi(case):
    # The WSGI transport hands back the body as sent and does not decode it: ask for it uncompressed
    # (compressed JSON is checked in tests/web/test_transfer.py).
    response = case.call(headers={"Accept-Encoding": "identity"})
    assert response.status_code < 500
    # A text over the linker's limit is refused with 413 (documented), which the generic
    # "negative data must be rejected with 400/422" check does not list.
    excluded = [schemathesis.checks.negative_data_rejection] if response.status_code == 413 else []
    if case.path.startswith("/api/scenari"):
        # A scenario is validated by the engine (ids, references, limits: docs/scenario-format.md),
        # far beyond what the OpenAPI schema states: a schema-valid document may still get a 422.
        excluded.append(schemathesis.checks.positive_data_acceptance)
    case.validate_response(response, excluded_checks=excluded)
