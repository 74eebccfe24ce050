"""Turn an entry's text into blocks a page can show: paragraphs and numbered or lettered lists.

Entry texts keep one paragraph or list item per line; lines starting "1." or "A." form lists."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_NUMBERED = re.compile(r"^(\d+)\.\s+(.*)$")
_LETTERED = re.compile(r"^([A-Z])\.\s+(.*)$")
_BULLET = re.compile(r"^[-•*]\s+(.*)$")


@dataclass
class Block:
    kind: str                 # "p", "ol" (numbers), "ol-a" (letters) or "ul"
    text: str = ""
    items: list[str] = field(default_factory=list)
    start: int = 1


def blocks(text: str) -> list[Block]:
    out: list[Block] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        for kind, pattern in (("ol", _NUMBERED), ("ol-a", _LETTERED), ("ul", _BULLET)):
            m = pattern.match(line)
            if m:
                item = m.group(m.lastindex)
                if out and out[-1].kind == kind:
                    out[-1].items.append(item)
                else:
                    start = int(m.group(1)) if kind == "ol" else 1
                    out.append(Block(kind, items=[item], start=start))
                break
        else:
            out.append(Block("p", text=line))
    return out
