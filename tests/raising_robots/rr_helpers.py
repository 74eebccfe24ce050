"""Helpers of the Raising Robots page tests: what a page's form posts back untouched, and the table's
Raising Robots state as every page reads it (schemas.RaisingRobotsState)."""
from __future__ import annotations

import html
import re

from werkzeug.datastructures import MultiDict

from assistant.raising_robots.schemas import RaisingRobotsState

FIELD = re.compile(r"<(?:input|select|textarea)\b([^>]*)>", re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
SELECT = re.compile(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', re.S)
FORM = re.compile(r'<form method="post"[^>]*>(.*?)</form>', re.S)


def form_of(page: str) -> MultiDict:
    """What the page's post form sends when nothing is touched: named fields, ticked boxes and radios, each
    select's chosen option (the add-robot fields and buttons left out)."""
    body = FORM.search(page)
    page = body.group(1) if body else page
    out = MultiDict()
    for attrs in FIELD.findall(page):
        a = dict(ATTR.findall(attrs))
        if "name" in a and a.get("type") != "submit" and (a.get("type") not in ("checkbox", "radio") or " checked" in attrs):
            out.add(html.unescape(a["name"]), html.unescape(a.get("value", "")))
    for name, options in SELECT.findall(page):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options) or re.search(r'<option value="([^"]*)"', options)
        out.setlist(html.unescape(name), [html.unescape(chosen.group(1))] if chosen else [])
    return out


def post_form(client, url: str, page_html: str, **changes) -> object:
    """Post a page's form back with some fields changed (like a phone that typed them)."""
    data = form_of(page_html)
    for name, value in changes.items():
        data.setlist(name, [str(value)])
    return client.post(url, data=data)


def rr_state(client, tid: str) -> RaisingRobotsState:
    return RaisingRobotsState.from_stored(client.get(f"/api/tables/{tid}").get_json()["state"])


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
