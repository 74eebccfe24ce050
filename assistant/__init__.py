"""Tablebot: the Flask app factory."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
MAX_BODY = 64 * 1024


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY"),
        DATABASE_URL=os.environ.get("DATABASE_URL"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        CODE_LOOKUP_LIMIT=20,  # failed join-code look-ups per client per minute
    )
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # keep fields in the order the contract lists them
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))
    hops = int(os.environ.get("TABLEBOT_PROXY_HOPS", "0") or 0)
    if hops:  # behind a reverse proxy: rate limits must see the phone's address, not the proxy's
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
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


def _instance_secret(instance: Path) -> str:
    """A random key kept in the instance folder, so sessions survive restarts without a shipped secret."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()
