"""Two Robots: who is winning, seat by seat, and what threatens the player next.

For every seat: its active robots, how many Part cards it still needs for two robots (the win, see
`factory.parts_to_two_robots`), the chance that it finishes a robot next turn, and its health (Power
cards left, flipped ones included: "The Event Phase" note). The chance counts the robots one card
finishes (a stack one part short, unfrozen, and the card has a legal place); a stack two or more
short is only counted in the parts to two robots. The player's own chance uses the hand (a card
there finishes the robot now) and otherwise the next draw of three; another seat's uses its hand
and its next draw together, which to the player are a random handful of the unseen cards
(exchangeability: the player has not seen them; hand sizes are public, "Clarifications").

Threats to the player: an opponent who may finish a robot next turn (their second one is the win);
what an Attack card of theirs on an energy would take from the player, chosen as best for them
(`attacks.best_targets` from their seat); which of the player's stacks their Ice Blast would freeze;
an opponent who can deploy a robot for an Event (Sentry Gunship cancels it).

2v2 ("Variations", `variations`): `teams` gives each seat's team. The standings are by team (a team's
best seat, its health), the partners share a win, a partner is no threat, and an opponent's Attack card
is weighed sparing that opponent's own partner. A house rule that is on wins as two robots do.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .attacks import UNREACHABLE, PartRef, StackRef, best_targets, destroyed, distance, frozen
from .cards import DESTROY, FREEZE, Effect, HandCard
from .factory import BIT, ENERGIES, Factory, analyse, is_robot, matchable, or_list, stack_parts, title
from .odds import UnseenCard, completing, p_at_least_one
from .variations import HOUSE_RULES, won_by

FINISH, DESTROY_THREAT, FREEZE_THREAT, EVENT = "finish", "destroy", "freeze", "event"
RULES = ("tr-objective", "tr-how-to-build-a-robot", "tr-attack-cards", "tr-frozen-stacks",
         "tr-note-flipped-power-health", "tr-clarification-public-info")


@dataclass(frozen=True)
class Seat:
    label: str
    factory: Factory
    hand_count: int | None = None      # cards in hand (public); None: not entered
    health: int | None = None          # Power cards left; None: not entered
    powers_left: int | None = None     # unused Power cards (Event option A)


@dataclass(frozen=True)
class SeatStanding:
    seat: int
    label: str
    you: bool
    active_robots: int
    deployable_robots: int
    parts_to_two_robots: int | None   # None: this factory cannot hold two robots any more
    won: bool
    one_short: tuple[int, ...]        # unfrozen stacks one part short of a robot
    finishing_cards: int              # unseen cards (for you: or cards in hand) that finish one of them
    p_robot_next_turn: Fraction
    in_hand: bool                     # you: a card in your hand finishes a robot now
    would_win: bool                   # the robot it may finish would be its second
    health: int | None
    why: str
    defeated: bool = False            # health 0: out of the game ("Objective"; note in "The Event Phase")


@dataclass(frozen=True)
class Threat:
    seat: int                         # the opponent
    kind: str                         # FINISH, DESTROY_THREAT, FREEZE_THREAT or EVENT
    energy: str | None = None
    hits: tuple[PartRef, ...] = ()    # DESTROY: your Part cards it takes
    stack: StackRef | None = None     # FREEZE: your stack it freezes
    breaks_robot: bool = False
    harm: int = 0                     # parts it adds to your way to two robots
    every_choice: bool = True         # every best choice of theirs does this (else one of them)
    p: Fraction | None = None         # FINISH: their chance
    why: str = ""


@dataclass(frozen=True)
class TeamStanding:
    team: int
    seats: tuple[int, ...]
    you: bool                         # the player's own team
    parts_to_two_robots: int | None   # its nearest seat still in the game
    active_robots: int                # its best seat's
    health: int | None                # its seats still in the game, added up
    out: bool                         # every seat of it defeated
    why: str


@dataclass(frozen=True)
class Standings:
    seats: tuple[SeatStanding, ...]
    leaders: tuple[int, ...]
    threats: tuple[Threat, ...]
    summary: str
    notes: tuple[str, ...]
    rules: tuple[str, ...] = RULES
    winners: tuple[int, ...] = ()     # the seats that won, once the game is decided
    how: str | None = None            # "two_robots", "last_standing" or a house rule's
    defeated: bool = False            # the player is out of the game
    teams: tuple[TeamStanding, ...] = ()   # 2v2: the standings by team


def _finishers_in_hand(factory: Factory, hand: Sequence[HandCard], part_names: Sequence[str]) -> int:
    masks = factory.masks()
    count = 0
    for c in hand:
        if c.part is None:
            continue
        for i, s in enumerate(factory.stacks):
            _, _, missing = stack_parts(s, part_names)
            if (not s.frozen and missing == (c.part.part,) and c.part.mask & masks[i]
                    and matchable(masks[:i] + (masks[i] & c.part.mask,) + masks[i + 1:])):
                count += 1
                break
    return count


def _cap(text: str) -> str:
    """The first letter up, the rest as it is (names keep their capitals, unlike str.capitalize)."""
    return text[:1].upper() + text[1:]


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


def seat_standing(k: int, seat: Seat, player: int, part_names: Sequence[str], unseen: Sequence[UnseenCard],
                  hand: Sequence[HandCard], draws: int) -> SeatStanding:
    view = analyse(seat.factory, part_names)
    you = k == player
    comps = completing(seat.factory, unseen, part_names, draws)
    one_short = tuple(c.stack for c in comps)
    total = sum(u.count for u in unseen)
    finishing = sum(unseen[j].count for j in {j for c in comps for j in c.cards})
    in_hand = you and _finishers_in_hand(seat.factory, hand, part_names) > 0
    if in_hand:
        p = Fraction(1)
        when = "a card in your hand finishes it now"
    else:
        n = draws + (0 if you else (seat.hand_count or 0))
        p = p_at_least_one(total, finishing, n) if total else Fraction(0)
        if you:
            when = f"{finishing} of {total} unseen cards finish it: {_pct(p)} in your next {draws}"
        else:
            held = f"their {seat.hand_count} cards in hand and " if seat.hand_count else ""
            when = f"{finishing} of the {total} cards you have not seen finish it: {_pct(p)} in {held}their next {draws}"
    d = distance(seat.factory, part_names)
    d_text = "cannot build two robots any more" if d >= UNREACHABLE else f"{d} part{'s' if d != 1 else ''} from two robots"
    who = "You have" if you else f"{seat.label} has"
    r = view.active_robots
    bits = [f"{who} {r} active robot{'s' if r != 1 else ''}", d_text]
    if view.won:
        bits = [f"{who} two active robots: the game is won"]
    elif one_short:
        where = or_list([f"stack {i + 1}" for i in one_short], "and")
        bits.append(f"{where} one part short ({when})")
    if seat.health is not None:
        bits.append(f"health {seat.health}")
    defeated = seat.health == 0
    if defeated:
        bits = [f"{'You are' if you else seat.label + ' is'} out of the game: health 0"]
    return SeatStanding(
        seat=k, label=seat.label, you=you, active_robots=r, deployable_robots=view.deployable_robots,
        parts_to_two_robots=None if d >= UNREACHABLE else d, won=view.won, one_short=one_short,
        finishing_cards=finishing, p_robot_next_turn=p if one_short else Fraction(0), in_hand=in_hand,
        would_win=r >= 1 and bool(one_short), health=seat.health, why=", ".join(bits) + ".", defeated=defeated)


def _rank(s: SeatStanding) -> tuple:
    return (not s.defeated, s.won, -(s.parts_to_two_robots if s.parts_to_two_robots is not None else UNREACHABLE),
            s.active_robots, s.p_robot_next_turn)


def _attack_threats(factories: Sequence[Factory], player: int, attacker: int, labels: Sequence[str],
                    part_names: Sequence[str], kinds: Collection[str] = (DESTROY_THREAT, FREEZE_THREAT),
                    spared: Collection[int] = ()) -> list[Threat]:
    """What an Attack card of this opponent's could do to you at worst: of the energies your parts
    carry, the one whose attack (aimed as best for them) sets you back most, and their Ice Blast when it
    would stop a robot of yours or a stack one part short. Only what sets you back is a threat."""
    out: list[Threat] = []
    mine = factories[player]
    before = distance(mine, part_names)
    name = labels[attacker]
    worst: Threat | None = None
    for e in ENERGIES if DESTROY_THREAT in kinds else ():
        if not any(c.mask & BIT[e] for s in mine.stacks for c in s.cards):
            continue
        best = best_targets(Effect(DESTROY, energy=e, count=2), factories, attacker, part_names, spared)
        hitting = [refs for _, refs in best if any(r.factory == player for r in refs)]
        if not hitting:
            continue
        hits = tuple(r for r in hitting[0] if r.factory == player)
        broken = any(is_robot(mine.stacks[r.stack], part_names) for r in hits)
        harm = distance(destroyed(factories, hitting[0])[player], part_names) - before
        if not broken and harm <= 0:
            continue
        cards = or_list([f"{r.part.label()} on stack {r.stack + 1}" for r in hits], "and")
        example = " (Nuclear Explosion is one)" if e == "nuclear" else ""
        may = "would" if len(hitting) == len(best) else "could"
        effect = ": it breaks your robot" if broken else f" (you would need {harm} more part{'s' if harm != 1 else ''})"
        threat = Threat(seat=attacker, kind=DESTROY_THREAT, energy=e, hits=hits, breaks_robot=broken, harm=harm,
                        every_choice=len(hitting) == len(best),
                        why=f"{name}'s Attack card on {title(e)} parts{example} {may} take your {cards}{effect}.")
        if worst is None or (threat.breaks_robot, threat.harm) > (worst.breaks_robot, worst.harm):
            worst = threat
    if worst is not None:
        out.append(worst)
    if FREEZE_THREAT not in kinds:
        return out
    best = best_targets(Effect(FREEZE), factories, attacker, part_names, spared)
    hitting = [ref for _, ref in best if ref.factory == player]
    if hitting:
        ref = hitting[0]
        s = mine.stacks[ref.stack]
        robot = is_robot(s, part_names)
        harm = distance(frozen(factories, ref)[player], part_names) - before
        if robot or harm > 0:
            what = "your robot there could not be deployed" if robot else "it would take no more parts"
            out.append(Threat(seat=attacker, kind=FREEZE_THREAT, stack=ref, breaks_robot=False, harm=harm,
                              every_choice=len(hitting) == len(best),
                              why=f"{name}'s Ice Blast {'would' if len(hitting) == len(best) else 'could'} "
                                  f"freeze your stack {ref.stack + 1}: {what}."))
    return out


THREATS = (FINISH, EVENT, DESTROY_THREAT, FREEZE_THREAT)


def threats_to(seats: Sequence[Seat], player: int, part_names: Sequence[str], unseen: Sequence[UnseenCard],
               kinds: Collection[str] = THREATS, rows: Sequence[SeatStanding] | None = None, draws: int = 3,
               teams: Sequence[int] | None = None) -> list[Threat]:
    """The threats to the player of the given kinds, most pressing first (the threats of
    `standings`, without what the other kinds would cost to work out). `rows`: the seats' standings,
    when the caller has them; `teams`: 2v2, where the partner threatens nobody."""
    factories = [s.factory for s in seats]
    labels = [s.label for s in seats]
    threats: list[Threat] = []
    for k, seat in enumerate(seats):
        if k == player or seat.health == 0:  # a defeated Salvager threatens nobody
            continue
        if teams and teams[k] == teams[player]:  # a partner is no threat
            continue
        if FINISH in kinds or EVENT in kinds:
            r = rows[k] if rows is not None else seat_standing(k, seat, player, part_names, unseen, (), draws)
            if FINISH in kinds and r.one_short and r.p_robot_next_turn > 0:
                win = " (their second robot: the win)" if r.would_win else ""
                threats.append(Threat(seat=r.seat, kind=FINISH, p=r.p_robot_next_turn,
                                      why=f"{r.label} may finish a robot next turn{win}: {_pct(r.p_robot_next_turn)}."))
            if EVENT in kinds and r.deployable_robots and any(not st.frozen for st in seat.factory.stacks):
                threats.append(Threat(seat=r.seat, kind=EVENT,
                                      why=f"{r.label} can deploy a robot for an Event (option B) next turn; Sentry "
                                          "Gunship cancels it."))
        if seat.factory.stacks:  # an Attack card needs its gold number of stacks: none without a stack
            mates = [m for m in range(len(seats)) if teams and m != k and teams[m] == teams[k]]
            threats += _attack_threats(factories, player, k, labels, part_names, kinds, mates)
    threats.sort(key=lambda t: (t.kind != FINISH, not t.breaks_robot, -t.harm, t.kind == EVENT))
    return threats


def _team_rows(rows: Sequence[SeatStanding], teams: Sequence[int]) -> tuple[TeamStanding, ...]:
    out = []
    for t in sorted(set(teams)):
        members = tuple(k for k, x in enumerate(teams) if x == t)
        live = [rows[k] for k in members if not rows[k].defeated]
        dists = [r.parts_to_two_robots for r in live if r.parts_to_two_robots is not None]
        health = [r.health for r in live if r.health is not None]
        best = max(live, key=_rank, default=None)
        names = or_list([("you" if rows[k].you else rows[k].label) for k in members], "and")
        you = any(rows[k].you for k in members)
        if not live:
            why = f"{_cap(names)}: every Salvager of the team is out."
        else:
            d = min(dists) if dists else None
            far = "no robot in sight" if d is None else f"{d} part{'s' if d != 1 else ''} from two robots"
            why = f"{_cap(names)}: nearest {far}" + (f", health {sum(health)} in all" if health else "") + "."
        out.append(TeamStanding(team=t, seats=members, you=you, parts_to_two_robots=min(dists) if dists else None,
                                active_robots=best.active_robots if best else 0,
                                health=sum(health) if health else None, out=not live, why=why))
    return tuple(out)


def _team_names(rows: Sequence[SeatStanding], seats: Sequence[int]) -> str:
    return or_list([("you" if rows[k].you else rows[k].label) for k in seats], "and")


def standings(seats: Sequence[Seat], player: int, part_names: Sequence[str], unseen: Sequence[UnseenCard],
              hand: Sequence[HandCard] = (), draws: int = 3, teams: Sequence[int] | None = None,
              house_rules: Collection[str] = ()) -> Standings:
    """Every seat's standing, the leaders, the threats to the player and the winners. `teams` (seat order,
    2v2): standings by team and a shared win; `house_rules`: the house rules on, each a win."""
    rows = tuple(seat_standing(k, s, player, part_names, unseen, hand, draws) for k, s in enumerate(seats))
    standing = [r for r in rows if not r.defeated]
    top = max((_rank(r) for r in standing), default=None)
    leaders = tuple(r.seat for r in standing if _rank(r) == top)  # a defeated seat never leads
    threats = threats_to(seats, player, part_names, unseen, rows=rows, teams=teams) if not rows[player].defeated else []
    names = [("you" if rows[k].you else rows[k].label) for k in leaders]
    winners: tuple[int, ...] = ()
    how = None
    ways = {r.seat: won_by(seats[r.seat].factory, part_names, house_rules) for r in standing}
    if teams:
        left = {teams[r.seat] for r in standing}
        built = [k for k, w in ways.items() if w]
        if len(left) == 1 and len(rows) > 1:
            t = left.pop()
            winners, how = tuple(k for k in range(len(rows)) if teams[k] == t), "last_standing"
        elif built:
            won = {teams[k] for k in built}
            winners, how = tuple(k for k in range(len(rows)) if teams[k] in won), ways[built[0]]
        if standing:  # the leading team is the one whose best seat ranks highest
            lead_team = teams[max(standing, key=_rank).seat]
            leaders = tuple(r.seat for r in standing if teams[r.seat] == lead_team)
    elif len(standing) == 1 and len(rows) > 1:
        winners, how = leaders, "last_standing"
    else:
        for way in ("two_robots", *HOUSE_RULES):
            built = tuple(k for k, w in ways.items() if w == way)
            if built:
                winners, how = built, way
                break
    out = "You are out of the game (health 0). " if rows[player].defeated else ""
    way_words = {"two_robots": "two active robots", "uniform_robot": "a perfectly uniform robot (house rule)",
                 "five_stacks": "five Stacks (house rule)"}
    if not leaders and not winners:
        summary = out + "Every Salvager is out of the game: nobody is left to win."
    elif teams and winners:
        mine = teams[player] == teams[winners[0]]
        who = "Your team wins" if mine else f"{_cap(_team_names(rows, winners))} win"
        summary = out + f"{who}: " + ("the last team standing." if how == "last_standing" else f"{way_words[how]}.")
    elif how == "last_standing":
        who = "You win" if rows[winners[0]].you else f"{rows[winners[0]].label} wins"
        summary = out + f"{who}: the last Salvager standing."
    elif how is not None:
        who = or_list([("you" if rows[k].you else rows[k].label) for k in winners], "and")
        summary = out + f"{_cap(who)} won: {way_words[how]}."
    else:
        lead = max((rows[k] for k in leaders), key=_rank)
        d = lead.parts_to_two_robots
        far = "no robot in sight" if d is None else f"{d} part{'s' if d != 1 else ''} from two robots"
        if teams:
            mine = teams[player] == teams[lead.seat]
            whose = "Your team leads" if mine else f"{_cap(_team_names(rows, [k for k in range(len(rows)) if teams[k] == teams[lead.seat]]))} lead"
            summary = out + f"{whose}: {lead.label if not lead.you else 'you'}, {lead.active_robots} active " \
                            f"robot{'s' if lead.active_robots != 1 else ''}, {far}."
        elif len(leaders) == len(rows):
            summary = out + f"Level: every seat is {far}."
        elif len(leaders) == 1:
            summary = out + (f"{'You lead' if lead.you else lead.label + ' leads'}: {lead.active_robots} active "
                             f"robot{'s' if lead.active_robots != 1 else ''}, {far}.")
        else:
            summary = out + f"{_cap(or_list(names, 'and'))} share the lead, {far}."
    notes = ["Chances count robots one card finishes; a stack two or more parts short is only in the parts to two "
             "robots.", "Opponents' hands are not read: to you they are cards you have not seen."]
    if any(not s.factory.stacks for k, s in enumerate(seats) if k != player):
        notes.append("A seat with no stack yet is left out of the attack threats (Tablebot's reading: an Attack "
                     "card's gold number asks for at least one stack).")
    if any(s.hand_count is None for k, s in enumerate(seats) if k != player):
        notes.append("A seat without a hand size counts only its next draw.")
    if any(r.defeated for r in rows):
        notes.append("A Salvager at health 0 is out of the game: it never leads and threatens nobody.")
    if teams:
        notes.append("2v2: the partners share the win; your partner is no threat, and an opponent's Attack card is "
                     "weighed sparing that opponent's partner (Tablebot's reading).")
    if house_rules:
        notes.append("House rules on: " + "; ".join(HOUSE_RULES[h] for h in house_rules) + ". Parts to win count "
                     "two robots only.")
    return Standings(seats=rows, leaders=leaders, threats=tuple(threats), summary=summary, notes=tuple(notes),
                     winners=winners, how=how, defeated=rows[player].defeated,
                     teams=_team_rows(rows, teams) if teams else ())
