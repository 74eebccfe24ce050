"""The plan's steps as a player makes them: the plays in a player's order, each with why it is legal and
what it does, the Event phase sacrifice explained card by card, and the discards down to the hand limit."""
from __future__ import annotations

from collections.abc import Sequence

from ..attacks import PartRef, StackRef, describe, destroy_option, destroyed, freeze_option, frozen
from ..cards import effect_of
from ..factory import Factory, Part, is_robot, placement, stack_parts, title
from .nodes import Play
from .records import EVENT_COST, EventOption, Step, Turn
from .turn_planner import Planner


def _runs(seq: Sequence[Play]) -> list[tuple[bool, list[Play]]]:
    """The plays cut into runs: (is a run of part plays, its plays); each Attack card is a run."""
    out: list[tuple[bool, list[Play]]] = []
    for p in seq:
        is_part = not p.attack
        if is_part and out and out[-1][0]:
            out[-1][1].append(p)
        else:
            out.append((is_part, [p]))
    return out


def player_order(turn: Turn, seq: Sequence[Play]) -> tuple[Play, ...]:
    """The plays of `seq` in the order a player makes them. In each run of part plays (between
    Attack cards): first the plays onto each stack that becomes an active robot in the run, then the
    other plays onto stacks already in the factory, then each new stack followed by the cards played
    onto it. The plan stays the same: part plays commute within a run (the search's canonical order
    relies on it), new stacks keep their order, so every stack keeps its number, and the plays onto
    one stack keep theirs, so the factory after the plays is the same card for card."""
    out: list[Play] = []
    f = turn.factory
    others = turn.others
    for is_part, plays in _runs(seq):
        if is_part:
            out += _run_order(turn, f, plays)
            for p in plays:
                part = turn.hand[p.hand_index].part
                assert part is not None
                f = f.add(part, p.stack)
        else:
            f, others = _apply_attack(f, others, plays[0])
            out += plays
    return tuple(out)


def _run_order(turn: Turn, f: Factory, plays: Sequence[Play]) -> list[Play]:
    """One run of part plays onto factory `f`, in the player's order (see `player_order`)."""
    start = len(f.stacks)
    targets, g = [], f
    for p in plays:
        targets.append(p.stack if p.stack is not None else len(g.stacks))
        part = turn.hand[p.hand_index].part
        assert part is not None
        g = g.add(part, p.stack)
    names = turn.part_names
    new_robots = {j for j in range(start) if is_robot(g.stacks[j], names) and not is_robot(f.stacks[j], names)}

    def rank(pos: int) -> tuple:
        target, new = targets[pos], plays[pos].stack is None
        return (0 if target in new_robots else 1 if target < start else 2, target, not new, pos)
    return [plays[pos] for pos in sorted(range(len(plays)), key=rank)]


def _refs(factories: Sequence[Factory], targets: Sequence[tuple[int, int, Part]]) -> list[PartRef]:
    """The named cards as positions in these factories: the top copy of equal cards, each once."""
    taken: set[tuple[int, int, int]] = set()
    refs = []
    for k, i, part in targets:
        cards = factories[k].stacks[i].cards
        j = max(j for j, c in enumerate(cards) if c == part and (k, i, j) not in taken)
        taken.add((k, i, j))
        refs.append(PartRef(factory=k, stack=i, card=j, part=part))
    return refs


def _apply_attack(f: Factory, others: tuple[Factory, ...], play: Play) -> tuple[Factory, tuple[Factory, ...]]:
    table = (f, *others)
    if play.freeze is not None:
        after = frozen(table, StackRef(factory=play.freeze[0], stack=play.freeze[1]))
    else:
        after = destroyed(table, _refs(table, play.targets))
    return after[0], tuple(after[1:])


def _attack_step(turn: Turn, f: Factory, others: tuple[Factory, ...], play: Play) -> Step:
    c = turn.hand[play.hand_index]
    table = (f, *others)
    labels = [turn.label(k) for k in range(len(table))]
    if play.freeze is not None:
        real = freeze_option(table, StackRef(factory=play.freeze[0], stack=play.freeze[1]), 0, turn.part_names)
    else:
        real = destroy_option(table, _refs(table, play.targets), 0, turn.part_names)
    frozen = sum(s.frozen for s in f.stacks)
    n = len(f.stacks)
    need = (f"{c.title} needs {c.stacks_required} unique stack{'s' if c.stacks_required != 1 else ''}; you have {n}"
            + (f" ({frozen} frozen, which count)" if frozen else "") + ". ")
    what = describe(real, table, 0, turn.part_names, labels)
    own = [r for r in real.destroyed if r.factory == 0]
    if own:
        stacks = sorted({r.stack + 1 for r in own})
        what += (f" Warning: this destroys your own {' and '.join(r.part.label() for r in own)}, which breaks "
                 f"your stack{'s' if len(stacks) > 1 else ''} {' and '.join(map(str, stacks))}: the card must take "
                 f"exactly {effect_of(c).count} {title(effect_of(c).energy or '')} parts and no other choice is legal.")
    rules = ("tr-attack-defense-cards",) + (("tr-frozen-stacks",) if frozen else ()) + effect_of(c).rules
    return Step(phase="play", action=c.kind, card=c.title, hand_index=play.hand_index, stack=None, new_stack=False,
                why=need + what, rules=rules, destroyed=real.destroyed, frozen=play.freeze, destroys_own=bool(own))


def play_steps(turn: Turn, seq: Sequence[Play], tail: Sequence[int]) -> tuple[list[Step], Factory, tuple[Factory, ...]]:
    steps = []
    f, others = turn.factory, turn.others
    for play in seq:
        if play.attack:
            steps.append(_attack_step(turn, f, others, play))
            f, others = _apply_attack(f, others, play)
            continue
        i, k = play.hand_index, play.stack
        card = turn.hand[i].part
        assert card is not None
        p = placement(f, card, k, turn.part_names)
        assert p is not None
        rules = ["tr-stacking-part-cards", "tr-energy-stacks"]
        if p.completes_robot:
            rules.append("tr-how-to-build-a-robot")
        if p.duplicate:
            rules.append("tr-duplicate-parts")
        effect = p.why.split(": ", 1)[-1]  # the sentence names the card and place; the step title does already
        steps.append(Step(phase="play", action="part", card=card.label(), hand_index=i, stack=k, new_stack=k is None,
                          why=effect[:1].upper() + effect[1:], rules=tuple(rules)))
        f = f.add(card, k)
    n = len(f.stacks)
    for i in tail:
        c = turn.hand[i]
        frozen = sum(s.frozen for s in f.stacks)
        why = (f"{c.title} needs {c.stacks_required} unique stack"
               f"{'s' if c.stacks_required != 1 else ''}; you have {n}"
               + (f" ({frozen} frozen, which count)" if frozen else "") +
               ". What it does is not in the rulebook: it is yours to resolve.")
        rules = ("tr-attack-defense-cards",) + (("tr-frozen-stacks",) if frozen else ())
        steps.append(Step(phase="play", action=c.kind, card=c.title, hand_index=i, stack=None, new_stack=False,
                          why=why, rules=rules))
    return steps, f, others


def explain_sacrifice(f: Factory, picks: Sequence[tuple[int, int]], names: Sequence[str],
                       card_of: dict[int, Part]) -> tuple[list[tuple[int, Part, str]], Factory]:
    """Take the picks one by one from the factory after the plays: (stack, card, why) and the result.
    A pick names a stack and a card; the top copy of equal cards goes (the sideways duplicate)."""
    out = []
    stacks = list(f.stacks)
    alive = list(range(len(stacks)))        # original index of each remaining stack
    for i, cid in picks:
        pos = alive.index(i)
        s = stacks[pos]
        card = card_of[cid]
        j = max(k for k, c in enumerate(s.cards) if c == card)
        copies = sum(c.part == card.part for c in s.cards)
        robot = is_robot(s, names)
        if copies > 1:
            why = f"a spare copy of {card.part.upper()} on stack {i + 1}, so no part is lost"
        elif len(s.cards) == 1:
            why = f"the only card of stack {i + 1}, which goes away"
        elif robot:
            why = f"from the robot in stack {i + 1}, which breaks it (no other choice keeps it)"
        else:
            have = len(stack_parts(s, names)[0])
            why = f"stack {i + 1} goes from {have} parts to {have - 1}, the loss that hurts least"
        out.append((i, card, why))
        rest = s.without(j)
        if rest.cards:
            stacks[pos] = rest
        else:
            del stacks[pos]
            del alive[pos]
    return out, Factory(tuple(stacks))


def sacrifice_steps(planner: Planner, f: Factory, stacks: tuple, kept_reqs: tuple[int, ...]
                    ) -> tuple[list[Step], Factory]:
    """The Event phase sacrifice of the turn's Event as steps, from the factory after the plays `f`
    (`stacks` in the search's form), and the factory after it."""
    picks = planner.sacrifice(stacks, kept_reqs, planner.t.event)[1]
    explained, after = explain_sacrifice(f, picks, planner.t.part_names, planner.card_parts)
    return [Step(phase="event", action="sacrifice", card=card.label(), hand_index=None, stack=i, new_stack=False,
                 why=f"{why[:1].upper()}{why[1:]}.",
                 rules=("tr-the-event-phase", "tr-note-sacrifice-anywhere", "tr-duplicate-parts"))
            for i, card, why in explained], after


def event_option(planner: Planner, f: Factory, stacks: tuple, event: str, kept_reqs: tuple[int, ...]) -> EventOption:
    t = planner.t
    n = EVENT_COST[event]
    if not planner.can_pay(stacks, [planner.info(s) for s in stacks], event):
        if event == "power" and t.powers_left < 1:
            why = "No unused Power card left."
        elif event == "active_robot" and not any(is_robot(s, t.part_names) and not s.frozen for s in f.stacks):
            why = ("No active robot that can be deployed (a frozen robot cannot)." if
                   any(is_robot(s, t.part_names) for s in f.stacks) else "No active robot in your factory.")
        else:
            free = sum(len(s.cards) for s in f.stacks if not s.frozen)
            why = f"Needs {n} part{'s' if n != 1 else ''} from unfrozen stacks; you have {free}."
        return EventOption(event=event, available=False, sacrifice=(), breaks_robot=False, why=why)
    _, picks, breaks, _ = planner.sacrifice(stacks, kept_reqs, event)
    explained, _ = explain_sacrifice(f, picks, t.part_names, planner.card_parts)
    why = "Sacrifice " + "; ".join(f"{c.label()}: {w}" for _, c, w in explained) + "."
    return EventOption(event=event, available=True, sacrifice=tuple((i, c, w) for i, c, w in explained),
                       breaks_robot=breaks, why=why)


def choose_discards(turn: Turn, f: Factory, kept: list[int]) -> tuple[list[int], dict[int, str]]:
    """Which cards to discard down to the hand limit, worst first, each with its reason."""
    extra = len(kept) - turn.hand_limit
    reasons: dict[int, str] = {}
    ranks: dict[int, tuple] = {}
    n = len(f.stacks)
    for i in kept:
        c = turn.hand[i]
        if c.kind != "part" or c.part is None:
            if c.stacks_required <= n:
                ranks[i], reasons[i] = (3,), f"its stack requirement ({c.stacks_required}) is met"
            else:
                ranks[i], reasons[i] = (1,), f"needs {c.stacks_required} stacks, you have {n}"
            continue
        best = (0,)
        why = "it has no legal place in your factory now"
        for k in [*range(n), None]:
            p = placement(f, c.part, k, turn.part_names)
            if p is None:
                continue
            if p.completes_robot:
                cand = (4,), f"it finishes the robot in stack {k + 1}" if k is not None else "it finishes a robot"
            elif k is not None and not p.duplicate:
                cand = (3,), f"it adds a new part to stack {k + 1}"
            elif k is None:
                cand = (2,), "it could only start a new stack"
            else:
                cand = (1,), "it would only be a duplicate"
            if cand[0] > best:
                best, why = cand
        ranks[i], reasons[i] = best, why
    if extra <= 0:
        return [], reasons
    # lowest rank first; among equals, copies of a card kept anyway, then later cards in hand
    def label(i: int) -> str:
        return turn.hand[i].label()
    order = sorted(kept, key=lambda i: (ranks[i], -sum(label(j) == label(i) for j in kept), -i))
    return order[:extra], reasons


def discard_steps(turn: Turn, discards: list[int], reasons: dict[int, str]) -> list[Step]:
    """The cleanup discards (`choose_discards`) as steps."""
    return [Step(phase="cleanup", action="discard", card=turn.hand[i].label(), hand_index=i, stack=None,
                 new_stack=False, why=f"Discard {turn.hand[i].label()}: {reasons[i]}, the least useful card "
                                      f"kept (hand limit {turn.hand_limit}).", rules=("tr-cleanup-phase",))
            for i in discards]
