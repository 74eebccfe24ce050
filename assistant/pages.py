"""The shell: home page, game hubs, the web app manifest and the service worker."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, send_from_directory

from .catalog import GAMES

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    return render_template("home.html", games=GAMES.values())


@bp.get("/games/<game>")
def game(game: str):
    g = GAMES.get(game)
    if g is None:
        abort(404)
    tools = current_app.extensions.get("tablebot_tools", {}).get(game, [])
    return render_template("game.html", game=g, tools=tools)


@bp.get("/offline")
def offline():
    return render_template("offline.html")


@bp.get("/manifest.webmanifest")
def manifest():
    response = send_from_directory(current_app.static_folder, "manifest.webmanifest",
                                   mimetype="application/manifest+json")
    return response


@bp.get("/sw.js")
def service_worker():
    # served from the root so that its scope covers every page
    response = send_from_directory(current_app.static_folder, "js/sw.js", mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response
