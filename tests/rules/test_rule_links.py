"""Every rule id a solver, page or script links to is an entry of the rules assistant (no dead links)."""
from __future__ import annotations

import re
from pathlib import Path

from assistant.rules import books

ROOT = Path(__file__).resolve().parents[2]
_ID = r"(?:rr|rb|tr)-[a-z0-9]+(?:-[a-z0-9]+)*"
# Python: any quoted id (solvers list the rules they rely on); pages and scripts: links to /rules/<id>
# (their other rr-/rb-/tr- strings are CSS class names)
PATTERNS = {
    ("assistant/**/*.py", "solvers/**/*.py"): re.compile(rf"""["']({_ID})["']"""),
    ("templates/**/*.html", "static/js/*.js"): re.compile(rf"/rules/({_ID})(?![a-z0-9-])"),
}


def referenced_ids() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for globs, rule_id in PATTERNS.items():
        for pattern in globs:
            for path in ROOT.glob(pattern):
                for rid in rule_id.findall(path.read_text(encoding="utf-8")):
                    found.setdefault(rid, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_linked_rule_id_exists():
    known = {e.id for b in books().values() for e in b.entries}
    missing = {rid: sorted(where) for rid, where in referenced_ids().items() if rid not in known}
    assert not missing, f"rule ids linked but not in assistant/data/rules: {missing}"


def test_the_check_finds_links_at_all():
    assert len(referenced_ids()) >= 20
