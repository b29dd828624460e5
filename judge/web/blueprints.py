"""Every area's blueprint, registered in one place."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    from judge.web.health import bp as health_bp
    from judge.web.pages import bp as pages_bp

    app.register_blueprint(pages_bp)

    from judge.web.analytic_index import bp as index_bp
    from judge.web.editions import bp as editions_bp
    from judge.web.api import bp as api_bp
    from judge.web.linker import bp as linker_bp
    from judge.web.rules import bp as rules_bp
    from judge.web.previews import bp as previews_bp
    from judge.web.offline import bp as offline_bp
    from judge.web.embed import bp as embed_bp
    from judge.web.tournament import bp as tornei_bp

    app.register_blueprint(rules_bp)
    app.register_blueprint(index_bp)
    app.register_blueprint(editions_bp)
    app.register_blueprint(linker_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(health_bp)
    app.register_blueprint(previews_bp)
    app.register_blueprint(offline_bp)
    app.register_blueprint(embed_bp)
    app.register_blueprint(tornei_bp)

    from judge.web.simulator import bp as scenario_bp

    app.register_blueprint(scenario_bp)

    from judge.web.search import bp as search_bp

    app.register_blueprint(search_bp)

    from judge.web.cards import bp as cards_bp

    app.register_blueprint(cards_bp)
