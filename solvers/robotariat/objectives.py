"""End of game: did the Revolution succeed, and which secret objectives are met (rulebook "Secret
Objectives", "Game End", "Completely Cooperative Mode"; numbers per player count: facts file, S1).

What the board cannot show comes in as ObjectiveFacts: cards played per seat (Upgrade + Sabotage, not
counting A1-5's setup card), the Spy's guesses, whether "Sliding Scale" or "Adjust Traffic Reports"
was played, whether round 6 ended, and the history (a log of turns with the posters junked and the
office contributions after each, or the Contributions track as a list of values).
"""
from __future__ import annotations

from dataclasses import dataclass

from .gamedata import GameData
from .model import FAILURE, SUCCESS, TableState

OBJECTIVES = ("bursar", "dealer", "gambler", "saboteur", "scrapper", "spy", "traffic_director", "turncoat")
NAMES = {"bursar": "Bursar", "dealer": "Dealer", "gambler": "Gambler", "saboteur": "Saboteur",
         "scrapper": "Scrapper", "spy": "Spy", "traffic_director": "Traffic Director", "turncoat": "Turncoat"}
OBJECTIVE_RULES = {"bursar": ["rb-bursar", "rb-fact-bursar-threshold"], "dealer": ["rb-dealer"],
                   "gambler": ["rb-gambler"], "saboteur": ["rb-saboteur"],
                   "scrapper": ["rb-scrapper", "rb-fact-scrapper-threshold"], "spy": ["rb-spy"],
                   "traffic_director": ["rb-traffic-director"],
                   "turncoat": ["rb-turncoat", "rb-fact-turncoat-threshold"]}
PER_SEAT = ("dealer", "spy")  # whose objective it is changes the answer
IN_PROGRESS = "in_progress"


@dataclass(frozen=True)
class ObjectiveFacts:
    cooperative: bool = False
    objectives: tuple[str | None, ...] = ()  # per seat, None when not told (or no card)
    cards_played: tuple[int, ...] = ()  # per seat
    spy_correct: tuple[bool, ...] = ()  # per seat: named two others' objectives right on the first try
    gambler_cards: bool = False
    revolution_over: bool = False  # round 6 is over (the game ended without reaching the target)
    max_junked: int | None = None  # most posters junked in one turn, when the table counted it
    log: tuple[tuple[int, int | None, str, int, int | None], ...] = ()  # (round, player, turn, junked, office)
    office_track: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Check:
    objective: str
    condition: bool | None  # the objective's own condition (None: not enough facts)
    met: bool | None  # with the Revolution's outcome; None while the game goes on or facts are missing
    why: str
    seat: int | None = None


@dataclass(frozen=True)
class ObjectivesResult:
    revolution: str  # SUCCESS, FAILURE or IN_PROGRESS
    revolution_why: str
    players: int
    target: int
    cooperative: bool
    table_checks: tuple[Check, ...]  # objectives that do not depend on the seat
    seat_checks: tuple[tuple[Check, ...], ...]  # per seat: Dealer and Spy for that seat
    assigned: tuple[str | None, ...]

    def check_for(self, seat: int, objective: str) -> Check:
        if objective in PER_SEAT:
            return next(c for c in self.seat_checks[seat] if c.objective == objective)
        return next(c for c in self.table_checks if c.objective == objective)

    def as_json(self, names: tuple[str, ...] = ()) -> dict:
        def cj(c: Check) -> dict:
            return {"objective": c.objective, "name": NAMES[c.objective], "condition": c.condition, "met": c.met,
                    "why": c.why, "rules": ["rb-secret-objectives"] + OBJECTIVE_RULES[c.objective]}

        seats = []
        for seat in range(len(self.seat_checks)):
            name = names[seat] if seat < len(names) else f"Player {seat + 1}"
            if self.cooperative:
                wins = None if self.revolution == IN_PROGRESS else self.revolution == SUCCESS
                seats.append({"seat": seat, "name": name, "objective": None, "wins": wins,
                              "why": "Completely Cooperative Mode: everyone wins if the Revolution succeeds."})
                continue
            obj = self.assigned[seat] if seat < len(self.assigned) else None
            if obj is None:
                seats.append({"seat": seat, "name": name, "objective": None, "wins": None,
                              "why": "Objective not entered (it stays secret until the reveal)."})
                continue
            c = self.check_for(seat, obj)
            seats.append({"seat": seat, "name": name, "objective": obj, "wins": c.met, "why": c.why,
                          "check": cj(c)})
        rules = ["rb-game-end", "rb-revolution-table"]
        rules += ["rb-completely-cooperative-mode"] if self.cooperative else ["rb-secret-objectives"]
        return {"revolution": self.revolution, "why": self.revolution_why, "players": self.players,
                "target": self.target, "mode": "cooperative" if self.cooperative else "secret_objectives",
                "seats": seats, "checks": [cj(c) for c in self.table_checks],
                "seat_checks": [[cj(c) for c in row] for row in self.seat_checks], "rules": rules,
                "readings": ["objective-history"]}


def revolution_status(s: TableState, target: int, over: bool) -> tuple[str, str]:
    if s.reputation <= 0:
        return FAILURE, "Reputation reached 0: the Revolution failed."
    if s.funds >= target:
        return SUCCESS, f"Funds reached {s.funds} of the {target} SPARK needed: the Revolution succeeded."
    if over:
        return FAILURE, f"Round 6 ended with {s.funds} of the {target} SPARK needed: the Revolution failed."
    return IN_PROGRESS, f"The game goes on: {s.funds} of {target} SPARK, Reputation {s.reputation}."


def junked_per_turn(log) -> list[int]:
    """Posters junked per turn: consecutive log entries of the same round, player and turn kind form one
    turn (a player's turn with the NPC turn they conduct; a round-start entry is a turn of its own)."""
    totals: list[int] = []
    last = None
    for rnd, player, turn, junked, _ in log:
        key = (rnd, player, turn if turn == "round_start" else "")
        if key != last:
            totals.append(0)
            last = key
        totals[-1] += junked
    return totals


def _office_track(facts: ObjectiveFacts) -> list[int]:
    if facts.office_track is not None:
        return list(facts.office_track)
    return [0] + [office for *_, office in facts.log if office is not None]


def _with_outcome(cond: bool | None, revolution: str, why: str, needs_success: bool = True) -> tuple[bool | None, str]:
    if cond is None:
        return None, why
    if revolution == IN_PROGRESS:
        return None, why + " The Revolution has not ended yet."
    if needs_success and revolution != SUCCESS:
        return False, why + " But the Revolution failed."
    return cond, why


def check_objectives(s: TableState, players: int, facts: ObjectiveFacts, data: GameData) -> ObjectivesResult:
    target = data.spark_target[players]
    revolution, rev_why = revolution_status(s, target, facts.revolution_over)
    checks: list[Check] = []

    def add(obj: str, cond: bool | None, why: str, needs_success: bool = True, seat: int | None = None) -> Check:
        met, text = _with_outcome(cond, revolution, why, needs_success)
        return Check(obj, cond, met, text, seat)

    t = data.bursar_threshold[players]
    track = _office_track(facts)
    peak_at = next((i for i, v in enumerate(track) if v >= t), None)
    back = peak_at is not None and any(v == 0 for v in track[peak_at + 1:])
    checks.append(add("bursar", back, f"Contributions {'reached' if peak_at is not None else 'never reached'} {t}"
                      + (" and later fell back to 0." if back else
                         (" but never fell back to 0 afterwards." if peak_at is not None else "."))))

    if players >= data.gambler_min_players:
        checks.append(add("gambler", facts.gambler_cards,
                          "“Sliding Scale” or “Adjust Traffic Reports” was played." if facts.gambler_cards
                          else "Neither “Sliding Scale” nor “Adjust Traffic Reports” was played."))
    checks.append(add("saboteur", s.reputation == 1, f"Reputation is {s.reputation} (exactly 1 is needed)."))

    n = data.scrapper_posters[players]
    totals = junked_per_turn(facts.log)
    most = max(totals + ([facts.max_junked] if facts.max_junked is not None else []), default=0)
    checks.append(add("scrapper", most >= n, f"At most {most} posters went to the junk pile in one turn "
                      f"({n} are needed)."))

    same = len(set(s.oppressors)) == 1
    checks.append(add("traffic_director", same,
                      "All Human Oppressors stand on one space." if same else
                      ("No Human Oppressor is on the board." if not s.oppressors
                       else "The Human Oppressors stand on different spaces.")))

    c = data.turncoat_cards[players]
    if facts.cards_played:
        total = sum(facts.cards_played)
        if revolution == SUCCESS:
            cond, why = total >= c, f"{total} Upgrade and Sabotage cards were played ({c} or more needed with a success)."
        elif revolution == FAILURE:
            cond, why = total < c, f"{total} Upgrade and Sabotage cards were played (fewer than {c} needed with a failure)."
        else:
            cond, why = None, f"{total} cards played so far; the outcome decides which way it counts."
        checks.append(add("turncoat", cond, why, needs_success=False))
    else:
        checks.append(Check("turncoat", None, None, "Enter the cards each player played."))

    seats = len(s.players)
    seat_checks = []
    for seat in range(seats):
        row = []
        if facts.cards_played:
            mine, top = facts.cards_played[seat], max(facts.cards_played)
            row.append(add("dealer", mine == top, f"Played {mine} cards; the most anyone played is {top}"
                           + (" (ties count)." if mine == top else "."), seat=seat))
        else:
            row.append(Check("dealer", None, None, "Enter the cards each player played.", seat))
        if facts.spy_correct:
            ok = facts.spy_correct[seat]
            row.append(add("spy", ok, "Named two other players' objectives on the first try." if ok
                           else "Did not name two other players' objectives on the first try.", seat=seat))
        else:
            row.append(Check("spy", None, None, "Enter whether the Spy's first guess was right.", seat))
        seat_checks.append(tuple(row))
    return ObjectivesResult(revolution, rev_why, players, target, facts.cooperative, tuple(checks),
                            tuple(seat_checks), tuple(facts.objectives))
