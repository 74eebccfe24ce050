"""The README's JSON API table lists every endpoint the app has, and nothing it does not have."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def _expand(path: str) -> list[str]:
    m = re.search(r"\{([^}]*)\}", path)
    if not m:
        return [path]
    return [p for part in m.group(1).split(",") for p in _expand(path[:m.start()] + part + path[m.end():])]


def _normal(path: str) -> str:
    return re.sub(r"<[^>]*>", "<>", path)


def readme_endpoints() -> set[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## JSON API"):]
    section = section[:section.index("\n## ", 1)]
    found = set()
    for method, path in re.findall(r"`(GET|POST|PUT|DELETE|PATCH) (/api/[^`?\s]*(?: or [^`?\s]*)?)[^`]*`", section):
        path = path.replace("<id or code>", "<id>")
        found.update((method, _normal(p)) for p in _expand(path))
    return found


def test_the_readme_lists_every_api_endpoint(app):
    built = {(method, _normal(rule.rule)) for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
             for method in rule.methods - {"HEAD", "OPTIONS"}}
    listed = readme_endpoints()
    assert built - listed == set(), "endpoints missing from the README's JSON API table"
    assert listed - built == set(), "the README lists endpoints the app does not have"
