"""gzip for the app's own answers (pages, JSON, the service worker): a 40 KB page is about 6 KB on
the wire, which is most of a phone's wait on a slow link. Static files come gzipped already
(static_files.py compresses them once at start)."""
from __future__ import annotations

import gzip

from flask import Flask, Response, request

COMPRESSIBLE = {"text/html", "application/json", "text/css", "text/javascript", "application/javascript",
                "image/svg+xml", "application/manifest+json", "text/plain"}
MIN_SIZE = 512  # smaller bodies (a 304, {"version": 7}) gain nothing
LEVEL = 6  # zlib's default: level 9 is a third slower for about 1 % less


def compress(response: Response) -> Response:
    if response.mimetype not in COMPRESSIBLE or response.direct_passthrough or response.is_streamed:
        return response
    response.vary.add("Accept-Encoding")  # a shared cache must keep the two forms apart
    if (response.status_code < 200 or response.status_code in (204, 304)
            or "Content-Encoding" in response.headers or not request.accept_encodings["gzip"]):
        return response
    body = response.get_data()
    if len(body) < MIN_SIZE:
        return response
    response.set_data(gzip.compress(body, compresslevel=LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:  # the gzipped bytes are another representation of the same content
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    """Register before every other after_request hook: Flask runs them in reverse, so this one runs
    last and compresses the final body."""
    app.after_request(compress)
