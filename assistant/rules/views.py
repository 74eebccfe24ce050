"""The rules assistant: search the rule entries of the three games, read one entry, browse a book.

JSON: GET /api/rules/search?q=&game=&limit=  and  GET /api/rules/<id>  (api.md, "Rules").
Pages: /rules (search; results as you type with JS, on submit without), /rules/<id> (one entry,
its permalink, cited section, example and related entries) and /rules/<game> (contents by section).
"""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from .. import rules
from ..api import ApiError, bad_field
from ..catalog import GAMES as CATALOG
from .render import blocks

bp = Blueprint("rules", __name__)

DEFAULT_LIMIT = 10
MAX_LIMIT = 50
MAX_Q = 200
KIND_LABELS = {"important": "Important", "example": "Worked example", "clarification": "Clarification",
               "card": "Card", "inventor": "Inventor", "character": "Character", "objective": "Secret objective",
               "icon": "Icon", "reading": "How Tablebot reads this", "fact": "Fact"}

# Validate every rules file and build the search index when the app is created: a broken data file
# stops the app at start-up instead of failing a player's question later.
rules.index()


# ---- input --------------------------------------------------------------------------------------

def _game_arg(*, api: bool) -> str | None:
    game = (request.args.get("game") or "").strip()
    if game in ("", "all"):
        return None
    if game not in rules.GAMES:
        if api:
            raise bad_field("game", f"must be one of {', '.join(rules.GAMES)} (or left out for all games)")
        return None
    return game


def _limit_arg() -> int:
    raw = request.args.get("limit")
    if raw is None or raw == "":
        return DEFAULT_LIMIT
    try:
        limit = int(raw)
    except ValueError:
        raise bad_field("limit", f"must be a whole number from 1 to {MAX_LIMIT}") from None
    if not 1 <= limit <= MAX_LIMIT:
        raise bad_field("limit", f"must be a whole number from 1 to {MAX_LIMIT}")
    return limit


def _q_arg(*, api: bool) -> str:
    q = request.args.get("q") or ""
    if len(q) > MAX_Q:
        if api:
            raise bad_field("q", f"is too long (at most {MAX_Q} characters)")
        q = q[:MAX_Q]
    return q.strip()


# ---- JSON ---------------------------------------------------------------------------------------

@bp.get("/api/rules/search")
def api_search():
    q = _q_arg(api=True)
    game = _game_arg(api=True)
    limit = _limit_arg()
    results = rules.search(q, game, limit) if q else []
    return {"results": [e.to_json() for e in results], "q": q, "game": game}


@bp.get("/api/rules/<path:entry_id>")
def api_entry(entry_id: str):
    e = rules.entry(entry_id)
    if e is None:
        raise ApiError(404, "not_found", f"No rule entry has the id {entry_id[:80]!r}.",
                       [{"path": "id", "message": "unknown rule entry id"}])
    body = e.to_json()
    body["section_path"] = [s.name for s in rules.section_path(e)]
    body["related_entries"] = [_brief(rules.entry(r)) for r in e.related if rules.entry(r)]
    return body


def _brief(e: rules.Entry) -> dict:
    return {"id": e.id, "game": e.game, "section": e.section, "title": e.title}


# ---- pages --------------------------------------------------------------------------------------

def _game_name(game: str) -> str:
    g = CATALOG.get(game)
    return g.name if g else rules.GAMES[game].name


@bp.app_template_filter("rule_blocks")
def _rule_blocks(text: str):
    return blocks(text)


@bp.get("/rules")
def search_page():
    q = _q_arg(api=False)
    game = _game_arg(api=False)
    results = rules.search(q, game, DEFAULT_LIMIT) if q else []
    return render_template("rules/search.html", q=q, game=game, results=results, games=_games(),
                           kind_labels=KIND_LABELS, game_name=_game_name)


def _games() -> list[dict]:
    return [{"id": g, "name": _game_name(g), "entries": len(b.entries)} for g, b in rules.books().items()]


@bp.get("/rules/<slug>")
def entry_or_contents(slug: str):
    if slug in rules.GAMES:
        return _contents(slug)
    e = rules.entry(slug)
    if e is None:
        abort(404)
    path = rules.section_path(e)
    related = [rules.entry(r) for r in e.related if rules.entry(r)]
    same_section = [x for x in rules.books()[e.game].entries if x.section_id == e.section_id and x.id != e.id]
    return render_template("rules/entry.html", e=e, path=path, related=related, same_section=same_section,
                           kind_labels=KIND_LABELS, game_name=_game_name,
                           permalink=request.url_root.rstrip("/") + f"/rules/{e.id}")


def _contents(game: str):
    book = rules.books().get(game)
    if book is None:  # the game's file is not written yet
        abort(404)
    tree = _section_tree(book)
    return render_template("rules/contents.html", game=game, book=book, tree=tree, kind_labels=KIND_LABELS,
                           game_name=_game_name)


def _section_tree(book: rules.Book) -> list[dict]:
    """Sections nested under their parents, each with its entries (main entry first)."""
    nodes = {s.main_id: {"section": s, "entries": book.entries_in(s), "children": []} for s in book.sections}
    roots: list[dict] = []
    for s in book.sections:
        node = nodes[s.main_id]
        node["entries"].sort(key=lambda e: (not e.is_main, e.order))
        if s.parent is None:
            roots.append(node)
            continue
        parent = next(p for p in reversed(book.sections[:s.order]) if p.name == s.parent)
        nodes[parent.main_id]["children"].append(node)
    for s in reversed(book.sections):  # children come after their parent: count bottom-up
        node = nodes[s.main_id]
        node["total"] = len(node["entries"]) + sum(c["total"] for c in node["children"])
    return roots
