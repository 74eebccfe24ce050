"""Game areas. Each module here that defines a Blueprint named `bp` is registered; its optional
`TOOLS` list of (game id, title, endpoint, blurb) puts links to its pages on the game's hub page."""
from __future__ import annotations

import importlib
import pkgutil

from flask import Flask


def register_all(app: Flask) -> None:
    tools: dict[str, list[dict]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        bp = getattr(module, "bp", None)
        if bp is None:
            continue
        app.register_blueprint(bp)
        for game, title, endpoint, blurb in getattr(module, "TOOLS", []):
            tools.setdefault(game, []).append({"title": title, "endpoint": endpoint, "blurb": blurb})
    app.extensions["tablebot_tools"] = tools
