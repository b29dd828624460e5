"""Every area's blueprint, registered in one place."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    from judge.web.health import bp as health_bp
    from judge.web.pages import bp as pages_bp

    app.register_blueprint(pages_bp)
    app.register_blueprint(health_bp)
