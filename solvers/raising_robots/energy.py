"""A seat's phases in one round and the Total Energy of each (base game player aid, facts/raising_robots.md
section 1: "Round Phases" / "Phase Rules" and "Total Energy"; Friends Inventor Explanations for William).

From the seat's energy cards (each card's value, its cube symbols, its x2 multiplier and the phase card put
under it), the cubes all seats put on the board, the batteries the player means to spend and the board
bonuses it has unlocked, `round_phases` says for each phase in board order whether the seat performs it
and at what Total Energy, and why. Pure: no Flask.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from solvers.errors import InputError

from .abilities import Taken, Who, treatments

PHASES = ("upgrade", "assemble", "design", "fabricate", "recycle")  # board order (player aid: Phase Rules)
PHASE_NAMES = {"upgrade": "Upgrade", "assemble": "Assemble", "design": "Design", "fabricate": "Fabricate",
               "recycle": "Recycle"}
SPLIT_PHASES = ("upgrade", "assemble")  # energy is split between actions; the others are thresholds
MAX_CARD_ENERGY = 20
MAX_CARD_CUBES = 9
MAX_BOARD_CUBES = 99
MAX_BATTERIES = 99
MAX_BONUS = 20
CARDS_A_ROUND = 2  # Round Preparation: draw 2 energy cards

RULE_PERFORM = "rr-fact-round-structure"       # a phase is performed if assigned or a cube lies on it
RULE_TOTAL = "rr-fact-total-energy"            # card + cubes (x2) + batteries + bonuses
RULE_USE = "rr-fact-phase-row-threshold"       # split in Upgrade/Assemble, threshold in the rows
RULE_ENERGY_CARDS = "rr-fact-energy-cards"     # the values are the players' entries (unverified)
RULE_WILLIAM = "rr-william-complexity-hard"
ALL_RULES = (RULE_PERFORM, RULE_TOTAL, RULE_USE, RULE_ENERGY_CARDS, RULE_WILLIAM)

# Abilities and how this answer treats them (abilities.treatments): William's cards are modelled (a card
# marked `twice`); Ada and John let a seat assign more Phase Cards, so more cards are accepted.
ENERGY_MODELLED = {
    "william": "mark his special Energy Cards: that phase is performed twice, without batteries",
    "ada": "more than two Phase Cards may be entered",
    "john": "more than two Phase Cards may be entered",
}
ENERGY_NO_EFFECT = {
    "charlotte": "a Round End ability", "johannes": "a Round End ability or a gain when kept",
    "sacagawea": "a Round End ability and how Robot Cards pay", "temple": "a Round End ability",
    "confucius": "gains on assembling and unlocking", "susan": "it changes Player Board actions, not energy",
    "yo_yo": "it pays out when you unlock an upgrade token",
    "friendship:albert": "it runs a Phase Row at 6 energy outside the phases (no cubes, no batteries)",
}
# Charles (tokens on Phase Cards), Nikola (swapping cubes), Stephen (his Energy Cards) and anything unnamed
# are listed as not taken into account.


@dataclass(frozen=True)
class EnergyCard:
    """One energy card as the player reads it, and the phase card put under it. `twice`: one of William's
    special Energy Cards (that phase is performed twice)."""
    phase: str
    energy: int
    cubes: int = 0
    multiplier: bool = False
    twice: bool = False


@dataclass(frozen=True)
class PhaseEnergy:
    phase: str
    performed: bool
    total: int          # 0 when not performed
    card: int           # the assigned card's value (0: none assigned)
    cubes: int          # cubes on the phase's board space
    cube_energy: int    # what those cubes give this seat (doubled by its card's multiplier)
    batteries: int      # batteries spent (0 when the phase is not performed or may not take them)
    bonus: int          # unlocked board bonuses counted
    times: int          # 2 for a phase under one of William's cards
    why: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class RoundEnergy:
    phases: tuple[PhaseEnergy, ...]
    notes: tuple[str, ...]
    abilities: tuple[Taken, ...]

    def performed(self) -> tuple[str, ...]:
        return tuple(p.phase for p in self.phases if p.performed)


def _whole(value: object, path: str, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
        raise InputError(path, f"a whole number from 0 to {hi}")
    return value


def _by_phase(given: Mapping[str, int] | None, path: str, hi: int) -> dict[str, int]:
    out = dict.fromkeys(PHASES, 0)
    for phase, n in (given or {}).items():
        if phase not in PHASES:
            raise InputError(f"{path}.{phase}", "not a phase: upgrade, assemble, design, fabricate or recycle")
        out[phase] = _whole(n, f"{path}.{phase}", hi)
    return out


def check_cards(cards: Sequence[EnergyCard], who: Who) -> None:
    """The seat's cards: each under its own phase (a seat has one Phase Card of each), two a round unless
    Ada or John let it assign more; William's special cards only for William."""
    most = len(PHASES) if (who.has("ada") or who.has("john")) else CARDS_A_ROUND
    if len(cards) > most:
        raise InputError("cards", f"at most {most} cards: a round deals two energy cards"
                         + ("" if most > CARDS_A_ROUND else " (more Phase Cards only with Ada or John)"))
    seen: dict[str, int] = {}
    for k, c in enumerate(cards):
        if c.phase not in PHASES:
            raise InputError(f"cards[{k}].phase", "choose a phase: upgrade, assemble, design, fabricate or recycle")
        if c.phase in seen:
            raise InputError(f"cards[{k}].phase", f"card {seen[c.phase] + 1} is already under "
                             f"{PHASE_NAMES[c.phase]}: you have one Phase Card of each phase")
        seen[c.phase] = k
        _whole(c.energy, f"cards[{k}].energy", MAX_CARD_ENERGY)
        _whole(c.cubes, f"cards[{k}].cubes", MAX_CARD_CUBES)
        if c.twice and who.inventor != "william":
            raise InputError(f"cards[{k}].twice", "only William's special Energy Cards make a phase run twice")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _phase_answer(phase: str, card: EnergyCard | None, cubes: int, batteries: int, bonus: int) -> PhaseEnergy:
    name = PHASE_NAMES[phase]
    rules = [RULE_PERFORM]
    if card is None and cubes == 0:
        extra = []
        if batteries:
            extra.append(_plural(batteries, "battery", "batteries"))
        if bonus:
            extra.append(f"a +{bonus} bonus")
        why = f"No Phase Card of yours under an energy card and no cube on {name}: you do not perform it."
        if extra:
            why += (f" The {' and the '.join(extra)} entered for it do not count: batteries and bonuses never "
                    "open a phase you do not otherwise get.")
            rules.append(RULE_TOTAL)
        return PhaseEnergy(phase, False, 0, 0, 0, 0, 0, 0, 0, why, tuple(rules))
    rules.append(RULE_TOTAL)
    doubled = card is not None and card.multiplier
    cube_energy = cubes * (2 if doubled else 1)
    twice = card is not None and card.twice
    spent = 0 if twice else batteries
    value = card.energy if card is not None else 0
    total = value + cube_energy + spent + bonus
    if card is not None:
        opened = f"Your Phase Card lies under an energy card of {value}"
    else:
        opened = (f"Not assigned, but {_plural(cubes, 'cube lies', 'cubes lie')} on {name} (anyone’s cubes count): "
                  "you perform it without a card")
    parts = [f"{value} (card)"] if card is not None else []
    if cubes:
        parts.append(f"{cube_energy} ({_plural(cubes, 'cube', 'cubes')}"
                     + (" ×2: your card’s multiplier)" if doubled else ")"))
    if spent:
        parts.append(f"{spent} ({_plural(spent, 'battery', 'batteries')})")
    if bonus:
        parts.append(f"{bonus} (unlocked bonus)")
    why = f"{opened}. Total Energy {' + '.join(parts)} = {total}." if len(parts) > 1 else \
        f"{opened}. Total Energy {total}."
    if twice:
        why += f" Under one of William’s cards you perform {name} twice, repeating each action in turn"
        why += (f"; batteries may not be spent then, so the {_plural(batteries, 'battery', 'batteries')} entered "
                "stay with you." if batteries else "; batteries may not be spent then.")
        rules.append(RULE_WILLIAM)
    if phase in SPLIT_PHASES:
        why += " Split it between actions; what is left is lost."
    else:
        why += f" Any action needing at most {total}: board actions top to bottom, then robots left to right."
    rules.append(RULE_USE)
    return PhaseEnergy(phase, True, total, value, cubes, cube_energy, spent, bonus, 2 if twice else 1, why,
                       tuple(rules))


def round_phases(cards: Sequence[EnergyCard], board_cubes: Mapping[str, int] | None = None,
                 batteries: Mapping[str, int] | None = None, bonuses: Mapping[str, int] | None = None,
                 who: Who | None = None) -> RoundEnergy:
    """Every phase in board order: performed or not, at what Total Energy, and why."""
    who = who or Who()
    check_cards(cards, who)
    board = _by_phase(board_cubes, "board_cubes", MAX_BOARD_CUBES)
    spend = _by_phase(batteries, "batteries", MAX_BATTERIES)
    bonus = _by_phase(bonuses, "bonuses", MAX_BONUS)
    under = {c.phase: c for c in cards}
    notes = []
    if len(cards) < CARDS_A_ROUND:
        notes.append(f"Only {_plural(len(cards), 'energy card is', 'energy cards are')} entered: a round deals two, "
                     "each over its own Phase Card.")
    own = {p: sum(c.cubes for c in cards if c.phase == p) for p in PHASES}
    short = [p for p in PHASES if board[p] < own[p]]
    if short:
        notes.append("Fewer cubes on the board than your own cards put there: "
                     + ", ".join(f"{PHASE_NAMES[p]} {board[p]} (your card: {own[p]})" for p in short)
                     + ". Unless an ability moved them, check the board.")
    phases = tuple(_phase_answer(p, under.get(p), board[p], spend[p], bonus[p]) for p in PHASES)
    return RoundEnergy(phases, tuple(notes), tuple(treatments(who, ENERGY_MODELLED, ENERGY_NO_EFFECT)))
