"""Game areas. Each module here that defines a Blueprint named `bp` is registered; a module-level
`TOOLS` list of (game id, title, endpoint, blurb), in any module here, puts links to pages on the
game's hub page and the table page, in the order listed."""
from __future__ import annotations

import importlib
import pkgutil

from flask import Flask


def register_all(app: Flask) -> None:
    tools: dict[str, list[dict]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        bp = getattr(module, "bp", None)
        if bp is not None:
            app.register_blueprint(bp)
        for game, title, endpoint, blurb in getattr(module, "TOOLS", []):
            tools.setdefault(game, []).append({"title": title, "endpoint": endpoint, "blurb": blurb})
    app.extensions["tablebot_tools"] = tools
