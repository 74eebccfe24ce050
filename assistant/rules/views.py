"""The rules assistant: search the rule entries of the three games, read one entry, browse a book.

JSON: GET /api/rules/search?q=&game=&prefer=&limit=  and  GET /api/rules/<id>  (api.md, "Rules").
`game` keeps to one game; `prefer` (the game of the page the player is on) puts that game first and
the other games below. Each result carries `score` (0..1) and `answers`; the reply `answered`.
Pages: /rules (search; results as you type with JS, on submit without; says so when the rulebooks do
not cover the question and shows the nearest sections as related), /rules/<id> (one entry, its
permalink, cited section, example and related entries) and /rules/<game> (contents by section).
Fragments for the search boxes: /rules/answer (the answer part of /rules) and /rules/suggest (the
header box's list); scripts swap them in and render nothing themselves.
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
               "icon": "Icon", "reading": "How Tablebot reads this", "fact": "Fact",
               "scope": "Not in this rulebook"}

# Validate every rules file and build the search index when the app is created: a broken data file
# stops the app at start-up instead of failing a player's question later.
rules.index()


# ---- input --------------------------------------------------------------------------------------

def _game_arg(*, api: bool, name: str = "game") -> str | None:
    game = (request.args.get(name) or "").strip()
    if game in ("", "all"):
        return None
    if game not in rules.GAMES:
        if api:
            raise bad_field(name, f"must be one of {', '.join(rules.GAMES)} (or left out for all games)")
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
    prefer = _game_arg(api=True, name="prefer")
    limit = _limit_arg()
    reply = rules.ask(q, game=game, prefer=prefer, limit=limit)
    return {"results": [_hit_json(h) for h in reply.hits], "q": q, "game": game, "prefer": reply.prefer,
            "answered": reply.answered, "unprinted": reply.unprinted, "unprinted_nearest": reply.unprinted_nearest,
            "off_the_board": reply.off_the_board, "asked_before": reply.asked_before}


def _hit_json(hit: rules.Hit) -> dict:
    body = hit.entry.to_json()
    body["score"] = round(hit.score, 3)
    body["answers"] = hit.answers
    return body


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
    """The game chosen (or passed by the header box of a game page) comes first; a game the question
    names takes its place; other games' answers follow, labelled with their game."""
    q = _q_arg(api=False)
    game = _game_arg(api=False)
    return render_template("rules/search.html", **_answer(q, game), games=_games())


@bp.get("/rules/answer")
def answer_fragment():
    """The answer alone (the inside of #rules-answer), for the search boxes of /rules and of a rulebook's
    contents page to swap in while the player types: the same HTML the page renders on submit."""
    return render_template("rules/_answer.html", **_answer(_q_arg(api=False), _game_arg(api=False)))


@bp.get("/rules/suggest")
def suggest_fragment():
    """The suggestions under the header's rules box: the page game's answers first (at most 5), or the
    nearest sections when no rulebook answers."""
    context = _answer(_q_arg(api=False), _game_arg(api=False))
    context["hits"] = context["answers"][:5] if context["reply"].answered else context["related"]
    return render_template("rules/_suggest.html", **context)


def _answer(q: str, game: str | None) -> dict:
    reply = rules.ask(q, prefer=game, limit=DEFAULT_LIMIT)
    answers = [h for h in reply.hits if h.answers]
    here = [h for h in answers if h.entry.game == reply.prefer] if reply.prefer else answers
    return {"q": q, "game": game, "reply": reply, "answers": answers, "answered_here": bool(here),
            "unprinted": reply.unprinted,
            # (a question about no point of play has no nearest rules: sections that share a word are noise there)
            "related": [] if reply.off_the_board else _nearest_sections(reply.hits, 3 if reply.answered else 5),
            "kind_labels": KIND_LABELS, "game_name": _game_name}


def _nearest_sections(hits: list[rules.Hit], n: int) -> list[rules.Hit]:
    """The best entry of each of the nearest sections among the results that do not answer."""
    seen: set[tuple[str, str]] = set()
    out = []
    for h in hits:
        key = (h.entry.game, h.entry.section_id)
        if h.answers or key in seen:
            continue
        seen.add(key)
        out.append(h)
    return out[:n]


@bp.app_template_global()
def rules_page_game(path: str, table: object = None) -> str:
    """The game of the page a player is on, for the header's rules box ("" when none): from the
    address (/raising-robots/..., /games/<game>, /rules/<game or entry>) or the table it shows."""
    parts = [p for p in path.split("/") if p]
    head = parts[0] if parts else ""
    if head in rules.GAMES:
        return head
    if head == "games" and len(parts) > 1 and parts[1] in rules.GAMES:
        return parts[1]
    if head == "rules":
        if len(parts) > 1:
            slug = parts[1]
            if slug in rules.GAMES:
                return slug
            e = rules.entry(slug)
            return e.game if e else ""
        game = request.args.get("game", "")
        return game if game in rules.GAMES else ""
    game = getattr(table, "game", None)
    return game if isinstance(game, str) and game in rules.GAMES else ""


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
