"""Tablebot: the Flask app factory."""
from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
MAX_BODY = 64 * 1024


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY", "dev-only-change-me"),
        DATABASE_URL=os.environ.get("DATABASE_URL"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        CODE_LOOKUP_LIMIT=20,  # failed join-code look-ups per client per minute
    )
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # keep fields in the order the contract lists them
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config["DATABASE_URL"]:
        app.config["DATABASE_URL"] = f"sqlite:///{Path(app.instance_path) / 'tablebot.sqlite3'}"

    from . import api, db, games, pages, security, tables

    db.init_app(app)
    api.install_error_handlers(app)
    security.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(tables.bp)
    games.register_all(app)
    return app
