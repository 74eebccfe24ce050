"""Static files under content-hashed names, cached by phones for a year.

`url_for('static', filename='js/tablebot.js')` gives `/static/js/tablebot.<hash>.js`: the name changes
whenever the content does, so a phone may keep the file forever (`immutable`: no revalidation on
reload) and still never runs an old script against a new page. The plain name keeps working with
`no-cache` (the manifest, the README, old bookmarks). Text files are gzipped once at start, not per
request.
"""
from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, abort, current_app, request

HASH_LENGTH = 12
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESSIBLE_SUFFIXES = {".css", ".js", ".svg", ".json", ".webmanifest", ".txt", ".html", ".map"}
MIN_COMPRESS = 512  # below about this, gzip's header costs more than it saves
MIMETYPES = {".js": "text/javascript", ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml"}


@dataclass(frozen=True)
class StaticFile:
    name: str  # the path under static/, as templates name it
    hashed: str  # the same path with the content hash before the suffix
    digest: str
    mimetype: str
    body: bytes
    gzipped: bytes | None  # None when gzip would not make it smaller
    mtime_ns: int


def _mimetype(path: Path) -> str:
    return MIMETYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def _hashed_name(name: str, digest: str) -> str:
    stem, dot, suffix = name.rpartition(".")
    if not dot or "/" in suffix:
        return f"{name}.{digest}"
    return f"{stem}.{digest}.{suffix}"


def load_file(folder: Path, name: str) -> StaticFile:
    path = folder / name
    body = path.read_bytes()
    digest = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
    gzipped = None
    if path.suffix in COMPRESSIBLE_SUFFIXES and len(body) >= MIN_COMPRESS:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        gzipped = packed if len(packed) < len(body) else None
    return StaticFile(name=name, hashed=_hashed_name(name, digest), digest=digest, mimetype=_mimetype(path),
                      body=body, gzipped=gzipped, mtime_ns=path.stat().st_mtime_ns)


class StaticFiles:
    """Every file of the static folder, read once. With `watch` (the development server), a file that
    changed on disk is read again, so an edited script shows on the next reload."""

    def __init__(self, folder: Path, watch: bool = False):
        self.folder = folder
        self.watch = watch
        self.files: dict[str, StaticFile] = {}
        self.by_hashed: dict[str, StaticFile] = {}
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            self._add(load_file(folder, path.relative_to(folder).as_posix()))

    def _add(self, file: StaticFile) -> None:
        self.files[file.name] = file
        self.by_hashed[file.hashed] = file

    def get(self, name: str) -> StaticFile | None:
        file = self.files.get(name)
        if file is not None and self.watch:
            try:
                if (self.folder / name).stat().st_mtime_ns != file.mtime_ns:
                    file = load_file(self.folder, name)
                    self._add(file)
            except OSError:
                return None
        return file

    def url_name(self, name: str) -> str:
        """The name `url_for('static', ...)` puts in the page: hashed when the file exists."""
        file = self.get(name)
        return file.hashed if file else name

    def version(self) -> str:
        """One hash of every file: changes when any of them does (the service worker's cache name)."""
        h = hashlib.sha256()
        for name in sorted(self.files):
            h.update(f"{name}:{self.files[name].digest};".encode())
        return h.hexdigest()[:HASH_LENGTH]

    def rewrite_urls(self, text: str) -> str:
        """Put the hashed names in a text that lists "/static/..." URLs (the service worker, the manifest)."""
        return re.sub(r'"/static/([^"]+)"', lambda m: f'"/static/{self.url_name(m.group(1))}"', text)


def files() -> StaticFiles:
    return current_app.extensions["tablebot_static"]


def _serve(filename: str):
    registry = files()
    file = registry.by_hashed.get(filename)
    cache = IMMUTABLE
    if file is None or (registry.watch and registry.get(file.name) is not file):
        file, cache = registry.get(filename), REVALIDATE
    if file is None:
        abort(404)
    etag = f'"{file.digest}"'
    headers = {"Cache-Control": cache, "ETag": etag, "Vary": "Accept-Encoding"}
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers=headers)
    body = file.body
    if file.gzipped is not None and request.accept_encodings["gzip"]:
        body = file.gzipped
        headers["Content-Encoding"] = "gzip"
    return Response(body, mimetype=file.mimetype, headers=headers)


def init_app(app: Flask) -> None:
    registry = StaticFiles(Path(app.static_folder), watch=app.debug)
    app.extensions["tablebot_static"] = registry
    app.view_functions["static"] = _serve

    @app.url_defaults
    def _hashed(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values:
            values["filename"] = registry.url_name(values["filename"])
