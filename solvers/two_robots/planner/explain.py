"""The plan in words: its summary, why it beats the runner-up, the reasons it is best, and why each
Attack or Defense card kept stays in hand."""
from __future__ import annotations

from collections.abc import Sequence

from ..attacks import verdict
from ..cards import CANCEL_EVENT, COUNTER_ATTACK, HandCard
from ..factory import Factory
from ..odds import p_at_least_one
from .nodes import Play
from .records import EVENT_NAME, Turn
from .score import PARTS, TERMS, Score
from .turn_planner import Planner


def plan_summary(turn: Turn, seq: Sequence[Play], tail: Sequence[int]) -> str:
    bits = []
    for p in seq:
        c = turn.hand[p.hand_index]
        if not p.attack:
            assert c.part is not None
            bits.append(f"{c.part.label()} {'on stack ' + str(p.stack + 1) if p.stack is not None else 'as a new stack'}")
        elif p.freeze is not None:
            bits.append(f"play {c.title} on {turn.label(p.freeze[0])}'s stack {p.freeze[1] + 1}")
        else:
            whose = [f"{turn.label(k)}'s" for k in sorted({k for k, _, _ in p.targets if k})]
            whose += ["your own"] if any(k == 0 for k, _, _ in p.targets) else []
            bits.append(f"play {c.title} on {' and '.join(whose)} parts")
    bits += [f"play {turn.hand[i].name or turn.hand[i].kind}" for i in tail]
    return "; ".join(bits) if bits else "play nothing"


TERM_TEXT = {  # what the better plan has more (or less) of, for "Better than ..." (values follow)
    "won": "it wins now",
    "event": "it can pay for the Event phase you chose",
    "robots": "more active robots kept",
    "wanted": "more of your marked Attack/Defense cards played",
    "own_lost": "fewer of your own parts destroyed",
    "pressure": "it sets the opponents back further (parts each still needs for two robots, nearest first",
    "outs": "more unseen cards that would finish a robot",
    "ready": "more Attack/Defense cards in hand with their stack requirement met",
    "progress": "further-built stacks (parts per stack, most built first",
    "kept": "fewer cards lost to the hand limit",
    "plays": "fewer cards played, so more stay in hand",
}


def why_better(a: Score, b: Score) -> str:
    """The first term on which plan a beats plan b, in words, with both values."""
    for name in TERMS:
        x, y = getattr(a, name), getattr(b, name)
        if x != y:
            if name in ("won", "event"):
                return TERM_TEXT[name]
            if name == "progress":
                def show(v: tuple[int, ...]) -> str:
                    return ", ".join(f"{n}/{PARTS}" for n in v) or "no stack"
                return f"{TERM_TEXT[name]}: {show(x)} against {show(y)})"
            if name == "pressure":
                def dist(v: tuple) -> str:
                    return ", ".join(str(d) for d in v[0]) if v else "none"
                if x[0] == y[0]:
                    return "it leaves the opponents fewer active robots"
                return f"{TERM_TEXT[name]}: {dist(x)} against {dist(y)})"
            if name in ("kept", "plays", "own_lost"):
                x, y = -x, -y
            return f"{TERM_TEXT[name]} ({x} against {y})"
    return "nothing"


def plan_reasons(turn: Turn, score: Score, total_unseen: int) -> list[str]:
    out = []
    if score.won:
        out.append("Two active robots after these plays: you win (frozen robots count).")
        return out
    if turn.event != "none":
        out.append(f"The Event phase ({EVENT_NAME[turn.event]}) can be paid." if score.event else
                   f"The Event phase you chose ({EVENT_NAME[turn.event]}) cannot be paid with any plan.")
    out.append(f"{score.robots} active robot{'s' if score.robots != 1 else ''} at the end of the turn.")
    if score.wanted:
        out.append(f"{score.wanted} marked Attack/Defense card{'s' if score.wanted != 1 else ''} played.")
    if score.own_lost:
        out.append(f"Your own Attack cards destroy {-score.own_lost} of your own parts.")
    if total_unseen:
        p = p_at_least_one(total_unseen, score.outs, 3)
        out.append(f"{score.outs} of {total_unseen} unseen cards would finish a robot: "
                   f"{float(p) * 100:.1f} % to draw one in your next three." if score.outs else
                   "No unseen card finishes a robot in one play yet.")
    if score.ready:
        out.append(f"{score.ready} Attack/Defense card{'s' if score.ready != 1 else ''} kept in hand "
                   "can be played (stack requirement met).")
    if score.progress:
        out.append("Parts per stack, most built first: " + ", ".join(f"{n}/{PARTS}" for n in score.progress) + ".")
    return out


def card_notes(turn: Turn, planner: Planner, seq: Sequence[Play], tail: Sequence[int], f: Factory,
                others: tuple[Factory, ...]) -> list[str]:
    """Why each Attack or Defense card that is not played stays in hand, and when keeping a reactive
    one matters: Homing Missiles when your parts are in reach of an opponent's Attack card or your
    own Attack card may be answered; Sentry Gunship when an opponent can reveal an Event."""
    from ..standings import DESTROY_THREAT, EVENT, FINISH, Seat, threats_to  # reads the planner's neighbours

    played = {p.hand_index for p in seq} | set(tail)
    notes: list[str] = []
    labels = [turn.label(k) for k in range(len(others) + 1)]
    threats = None
    # only the threats the reactive cards kept are read for: an attack on your parts, an Event or a robot
    kinds = {k for i, e in enumerate(planner.effects) if e is not None and e.reactive and i not in played
             for k in ((DESTROY_THREAT,) if e.kind == COUNTER_ATTACK else (EVENT, FINISH))}
    for i, c in enumerate(turn.hand):
        e = planner.effects[i]
        if e is None or i in played:
            continue
        if e.reactive:
            if threats is None:
                seats = [Seat(label=labels[k], factory=g) for k, g in enumerate((f, *others))]
                threats = threats_to(seats, 0, turn.part_names, turn.unseen, kinds) if others else ()
            if e.kind == COUNTER_ATTACK:
                at_risk = [t for t in threats if t.kind == "destroy" and (t.breaks_robot or t.harm > 0)]
                attacked = [p for p in seq if p.attack and (any(k for k, _, _ in p.targets) or p.freeze)]
                why = [t.why for t in at_risk[:2]]
                if attacked:
                    why.append("your Attack this turn may be answered with Homing Missiles, which yours cancels")
                matters = (" Keeping it matters now: " + "; ".join(_lower(w.rstrip(".")) for w in why) + ".") if why else \
                    " Nothing of yours is in reach of an Attack card now."
                notes.append(f"{_not_now(c)}{c.title}: it is played out of turn, against an Attack card on "
                             f"your parts.{matters}")
            elif e.kind == CANCEL_EVENT:
                events = [t for t in threats if t.kind == "event"]
                near = [t for t in threats if t.kind == "finish"]
                why = [t.why for t in events[:2]] or [t.why for t in near[:1]]
                matters = (" Keeping it matters now: " + " ".join(_lower(w) for w in why)) if why else \
                    " No opponent can deploy a robot for an Event yet."
                notes.append(f"{_not_now(c)}{c.title}: it cancels an opponent's Event card, out of turn.{matters}")
            continue
        if c.stacks_required > len(f.stacks) and (c.play or e.modelled):
            notes.append(f"{c.title} is not played: it needs {c.stacks_required} stacks and the best plan reaches "
                         f"{len(f.stacks)}.")
        elif e.modelled:
            answer = verdict(e, (f, *others), 0, turn.part_names, labels)
            if not answer.playable:
                notes.append(f"{c.title} is not played: {answer.why}")
            elif answer.own_hit:
                notes.append(f"{c.title} is kept: it would have to destroy your own parts. {answer.why}")
            else:
                notes.append(f"{c.title} is kept: the plan is better without it now ({answer.why})")
        elif c.play:
            notes.append(f"{c.title} is not played: no action is left for it.")
    return notes


def _lower(sentence: str) -> str:
    """A sentence to go after a colon: its first letter small, unless it starts with a name."""
    first = sentence.split(" ", 1)[0]
    return sentence if first not in ("A", "An", "The") else sentence[:1].lower() + sentence[1:]


def _not_now(c: HandCard) -> str:
    return "Not a play of your turn, keep " if c.play else "Keep "
