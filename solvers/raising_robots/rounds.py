"""The round as the table follows it (base game player aid, facts/raising_robots.md section 1): the round
marker over 8 rounds, the break when it reaches round 5, and the two-player dummy's phase cards, whose
cubes join the ones every seat's energy cards put on the board. Pure: no Flask."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .energy import PHASE_NAMES, PHASES, EnergyCard

ROUNDS = 8
BREAK_ROUND = 5
RULE_ROUNDS = "rr-fact-round-structure"
RULE_BREAK = "rr-fact-break-period"
RULE_DUMMY = "rr-fact-two-player-dummy"
RULE_ROUND_END = "rr-fact-round-end-steps"


def dummy_cubes(rnd: int) -> int:
    """Cubes on the dummy's card revealed in round `rnd` (two players). Setup reveals 2 of the line of 5 and
    puts 1 cube on card 3 and 2 on card 4; each round reveals the next card, and once 4 are revealed (after
    every second round) the line is dealt again: so 1 cube in odd rounds, 2 in even ones."""
    return 1 if rnd % 2 == 1 else 2


@dataclass(frozen=True)
class RoundFacts:
    round: int
    last: bool                 # round 8: the game ends with this round's end
    break_now: bool            # the marker reached round 5: the break was due on the way in
    energy_half: int           # 1 for rounds 1-4, 2 for rounds 5-8 (each half deals the 8-card deck once)
    cards_left: int            # energy cards left in each deck before this round's draw
    dummy_cubes: int | None    # two players: the cubes on the dummy card revealed this round
    notes: tuple[str, ...]
    rules: tuple[str, ...]


def round_facts(rnd: int, players: int) -> RoundFacts:
    rnd = max(1, min(ROUNDS, rnd))
    half_start = 1 if rnd < BREAK_ROUND else BREAK_ROUND
    left = 8 - 2 * (rnd - half_start)
    notes = []
    rules = [RULE_ROUNDS]
    if rnd == BREAK_ROUND:
        notes.append("Break (the marker reached round 5): everyone draws 3 Class Cards and keeps 1, and shuffles "
                     "all 8 energy cards into a new deck.")
        rules.append(RULE_BREAK)
    dummy = dummy_cubes(rnd) if players == 2 else None
    if dummy is not None:
        notes.append(f"Two players: reveal the dummy’s next phase card; it brings {dummy} "
                     f"{'cube' if dummy == 1 else 'cubes'} to that phase this round"
                     + (" (then 4 of its 5 cards are face up: deal the line again at Round End)." if dummy == 2
                        else "."))
        rules.append(RULE_DUMMY)
    if rnd == ROUNDS:
        notes.append("Last round: the game ends after this Round End.")
    return RoundFacts(rnd, rnd == ROUNDS, rnd == BREAK_ROUND, 1 if rnd < BREAK_ROUND else 2, left, dummy,
                      tuple(notes), tuple(rules))


def board_cubes(seats_cards: Iterable[Sequence[EnergyCard]], dummy_phase: str | None = None,
                dummy: int = 0, extra: Mapping[str, int] | None = None) -> dict[str, int]:
    """The cubes on each phase's board space: every seat's cards put theirs on the phase under them, the
    dummy's card (two players) its cubes on its phase, and `extra` the ones no entered card accounts for."""
    out = {p: (extra or {}).get(p, 0) for p in PHASES}
    for cards in seats_cards:
        for c in cards:
            out[c.phase] += c.cubes
    if dummy_phase in out:
        out[dummy_phase] += dummy
    return out


def board_words(board: dict[str, int]) -> str:
    placed = [f"{PHASE_NAMES[p]} {n}" for p, n in board.items() if n]
    return ", ".join(placed) if placed else "no cubes"
