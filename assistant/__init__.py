"""Tablebot: the Flask app factory."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

from solvers.robotariat import games_helper

ROOT = Path(__file__).resolve().parent.parent
MAX_BODY = 64 * 1024


def create_app(config: dict | None = None) -> Flask:
    # TABLEBOT_INSTANCE moves the instance folder (the SQLite file, the secret key) out of the checkout
    instance = os.environ.get("TABLEBOT_INSTANCE")
    app = Flask(__name__, instance_relative_config=True, instance_path=str(Path(instance).resolve()) if instance else None,
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY"),
        DATABASE_URL=os.environ.get("DATABASE_URL"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        CODE_LOOKUP_LIMIT=20,  # failed join-code look-ups per client per minute
        SESSION_COOKIE_SAMESITE="Lax",  # the session cookie (flash messages) never rides on another site's request
        # a second process plays half of a Robotariat forecast's games (solvers/robotariat/games_helper.py)
        ROBOTARIAT_GAMES_HELPER=games_helper.cores() >= 2,
    )
    from .tables.limits import DEFAULTS as LIMITS

    helper = os.environ.get("TABLEBOT_GAMES_HELPER", "")
    if helper in ("off", "on", "always"):  # the forecast's second process: off, on, on even when busy
        app.config["ROBOTARIAT_GAMES_HELPER"] = {"off": False, "on": True}.get(helper, helper)
    for name in LIMITS:  # a rate limit may be set from the environment (a load test raises them)
        if os.environ.get(f"TABLEBOT_{name}", "").isdecimal():
            app.config[name] = int(os.environ[f"TABLEBOT_{name}"])
    if config:
        app.config.update(config)
        if config.get("TESTING") and "ROBOTARIAT_GAMES_HELPER" not in config:
            app.config["ROBOTARIAT_GAMES_HELPER"] = False  # a test starts one only when it asks for it
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

    from . import api, compression, db, pages, raising_robots, robotariat, security, static_files, two_robots
    from .raising_robots import activations, competitions_setup, planner, round_end, round_page, score, search
    from .raising_robots import api as raising_robots_api
    from .raising_robots import friendship as rr_friendship
    from .robotariat import api as robotariat_api
    from .robotariat import editor as robotariat_board
    from .robotariat import facts as robotariat_facts
    from .robotariat import forecast_store as robotariat_forecasts
    from .robotariat import pages as robotariat_pages
    from .rules import views as rules
    from .tables import live as tables_live
    from .tables import retention, seat_views
    from .tables import views as tables
    from .two_robots import api as two_robots_api
    from .two_robots import pages as two_robots_pages
    from .web import private

    compression.init_app(app)  # first after_request hook, so it runs last, on the final body
    db.init_app(app)
    api.install_error_handlers(app)
    pages.install_error_pages(app)  # HTML error pages outside /api
    security.init_app(app)
    private.init_app(app)  # before the views read request.values
    static_files.init_app(app)
    retention.init_app(app)  # storage budget per address, idle tables expire, PostgreSQL's VACUUM
    app.extensions["tablebot_expiring"] = [robotariat_forecasts.expire_idle]  # kept apart from tables, idle as long
    for bp in (api.bp, pages.bp, tables.bp, seat_views.bp, tables_live.bp, rules.bp,
               raising_robots_api.bp, competitions_setup.bp, round_page.bp, planner.bp, search.bp, round_end.bp,
               score.bp, activations.bp, rr_friendship.bp,
               robotariat_api.bp, robotariat_pages.bp, robotariat_board.bp, robotariat_facts.bp,
               two_robots_api.bp, two_robots_pages.bp):
        app.register_blueprint(bp)
    # each game's pages, in the order its hub and the table page list them
    app.extensions["tablebot_tools"] = {
        game: [{"title": title, "endpoint": endpoint, "blurb": blurb}
               for _, title, endpoint, blurb in package.TOOLS]
        for game, package in (("raising-robots", raising_robots), ("robotariat", robotariat),
                              ("two-robots", two_robots))}
    return app


def _instance_secret(instance: Path) -> str:
    """A random key kept in the instance folder, so sessions survive restarts without a shipped secret."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()
