"""Record the Two Robots turn planner's full answers on a fixed set of positions, so that a reshaping of
the planner can be checked to answer exactly as before (test_two_robots_recorded_plans.py).

Run from the project root:  .venv/bin/python tests/solvers/two_robots/data/make_recorded_plans.py
Writes recorded_plans.json.gz beside this script (JSON, one position a line, gzipped: 1.7 MB plain): each position (the Turn, in full) with the plan the
planner gave (steps, score, factories after, discards, odds, summary, reasons, runner-up, ties, Event
options, notes, warnings, end states explored) or the input error it raised. The positions are the
turns the planner's rulebook tests plan (captured while they run) and seeded random mid-game tables:
hands of 1 to 15 drawn from the default deck with Attack and Defense cards (modelled, entered and of
unknown effect, some marked to play), your factory and 0 to 3 other seats' built legally at random,
some stacks frozen, every Event choice, fewer actions, a lower hand limit and used-up Powers.
Re-run only on purpose: the file is the planner's answers as they were when it was written.
"""
from __future__ import annotations

import dataclasses
import gzip
import inspect
import json
import random
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))

from solvers.errors import InputError  # noqa: E402
from solvers.two_robots.cards import HandCard  # noqa: E402
from solvers.two_robots.factory import Factory, Part, Stack, placements  # noqa: E402
from solvers.two_robots.game_data import DATA  # noqa: E402
from solvers.two_robots.odds import Deck, Sighting, UnseenCard, unseen_pool  # noqa: E402
from solvers.two_robots.planner import Turn, plan_turn  # noqa: E402

OUT = Path(__file__).resolve().parent / "recorded_plans.json.gz"
SEED = 20261203
RANDOM_POSITIONS = 300
PN = DATA.part_ids
ENERGIES = [e.id for e in DATA.energies]


# ---- JSON both ways --------------------------------------------------------------------------------

def encode(x):
    """A plan or a turn as plain JSON: a part card as "name:energy mask", an unseen kind of card as a list,
    other dataclasses as objects without the fields at their defaults, tuples as lists, fractions as "n/d"."""
    if isinstance(x, Part):
        return f"{x.part}:{x.mask}"
    if isinstance(x, UnseenCard):
        return [x.kind, encode(x.part), x.name, x.count, x.wanted]
    if dataclasses.is_dataclass(x):
        return {f.name: encode(getattr(x, f.name)) for f in dataclasses.fields(x)
                if f.default is dataclasses.MISSING or getattr(x, f.name) != f.default}
        return {f.name: encode(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, (tuple, list)):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {str(k): encode(v) for k, v in x.items()}
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    return x


def _part(d: str | None) -> Part | None:
    if d is None:
        return None
    name, mask = d.rsplit(":", 1)
    return Part(name, int(mask))


def _factory(d: dict) -> Factory:
    return Factory(tuple(Stack(tuple(_part(c) for c in s["cards"]), s.get("frozen", False))
                         for s in d.get("stacks", ())))


def decode_turn(d: dict) -> Turn:
    """The Turn `encode` wrote (fields at their defaults were left out)."""
    hand = tuple(HandCard(**{**h, "part": _part(h.get("part"))}) for h in d.get("hand", ()))
    unseen = tuple(UnseenCard(kind, _part(part), name, count, wanted) for kind, part, name, count, wanted in d.get("unseen", ()))
    rest = {k: v for k, v in d.items() if k in ("actions", "event", "powers_left", "hand_limit")}
    return Turn(factory=_factory(d["factory"]), hand=hand, part_names=tuple(d["part_names"]), unseen=unseen,
                others=tuple(_factory(f) for f in d.get("others", ())), labels=tuple(d.get("labels", ())), **rest)


def answer(t: Turn) -> dict:
    """Everything the planner answers for `t`, as JSON (an input error as its field and message)."""
    try:
        return {"plan": encode(plan_turn(t))}
    except InputError as e:
        return {"error": [e.path, e.message]}


# ---- the positions ---------------------------------------------------------------------------------

def rulebook_turns() -> list[tuple[str, Turn]]:
    """The turns the planner's rulebook tests plan, captured as they run (hypothesis tests left out)."""
    sys.path.insert(0, str(ROOT / "tests" / "solvers" / "two_robots"))
    import test_two_robots_planner as tests
    seen: list[tuple[str, Turn]] = []
    real = tests.plan_turn
    name = ""

    def capture(t: Turn):
        seen.append((name, t))
        return real(t)
    tests.plan_turn = capture
    try:
        for name, fn in inspect.getmembers(tests, inspect.isfunction):
            if name.startswith("test_") and not hasattr(fn, "hypothesis") and not inspect.signature(fn).parameters:
                fn()
    finally:
        tests.plan_turn = real
    return seen


def deck_cards(rng: random.Random) -> list[HandCard]:
    cards = [HandCard(kind="part", part=p) for p, n in DATA.default_deck(PN) for _ in range(n)]
    for i in range(DATA.deck_attack):
        energy = rng.choice(ENERGIES)
        name, energy = rng.choice([("Nuclear Explosion", None), ("Ice Blast", None), ("Blast", energy),
                                   (f"Attack {i}", None)])
        cards.append(HandCard(kind="attack", name=name, stacks_required=rng.randint(0, 4), play=rng.random() < 0.2,
                              energy=energy, destroy=rng.choice([1, 2]) if energy else 0))
    for i in range(DATA.deck_defense):
        name = rng.choice(["Homing Missiles", "Sentry Gunship", f"Defense {i}"])
        cards.append(HandCard(kind="defense", name=name, stacks_required=rng.randint(0, 3), play=rng.random() < 0.1))
    return cards


def build(rng: random.Random, deck: list[HandCard], parts: int) -> Factory:
    f = Factory(())
    for card in [c for c in deck if c.part is not None][:parts]:
        deck.remove(card)
        options = placements(f, card.part, PN)
        if options:
            grow = [p for p in options if p.stack is not None and not p.duplicate]
            choice = rng.choice(grow) if grow and rng.random() < 0.7 else rng.choice(options)
            f = f.add(card.part, choice.stack)
    if f.stacks and rng.random() < 0.25:
        k = rng.randrange(len(f.stacks))
        f = Factory(f.stacks[:k] + (Stack(f.stacks[k].cards, True),) + f.stacks[k + 1:])
    return f


def random_turn(rng: random.Random, i: int) -> Turn:
    deck = deck_cards(rng)
    rng.shuffle(deck)
    mine = build(rng, deck, rng.choice([0, 2, 4, 6, 8, 10]))
    others = tuple(build(rng, deck, rng.randint(0, 10)) for _ in range(rng.choice([0, 1, 2, 2, 3])))
    size = 1 + i % 15
    kind = rng.choice(["mixed", "mixed", "parts", "attacks"])
    if kind == "mixed":
        hand = tuple(deck[:size])
    else:
        parts = [c for c in deck if c.part is not None]
        extra = [c for c in deck if c.part is None][:min(3, size)] if kind == "attacks" else []
        hand = tuple(parts[:size - len(extra)] + extra)
    sights = [Sighting(place="your_factory", parts=tuple(c for s in mine.stacks for c in s.cards)),
              Sighting(place="your_hand", parts=tuple(c.part for c in hand if c.part is not None),
                       attack=sum(c.kind == "attack" for c in hand), defense=sum(c.kind == "defense" for c in hand)),
              Sighting(place="other_factories", parts=tuple(c for f in others for s in f.stacks for c in s.cards))]
    full = Deck(parts=tuple(DATA.default_deck(PN)), attack=DATA.deck_attack, defense=DATA.deck_defense)
    return Turn(factory=mine, hand=hand, part_names=PN, unseen=unseen_pool(full, sights).cards,
                actions=rng.choice([3, 3, 3, 2, 1]), event=rng.choice(["none", "power", "active_robot"]),
                powers_left=rng.choice([3, 2, 1, 0]), hand_limit=rng.choice([7, 7, 7, 5, 3]), others=others,
                labels=("you", "Ben", "Cy", "Dee")[:len(others) + 1] if rng.random() < 0.7 else ())


def load() -> list[dict]:
    with gzip.open(OUT, "rt", encoding="utf-8") as f:
        return json.load(f)


def main() -> None:
    rng = random.Random(SEED)
    positions = [(f"rulebook test {name}", t) for name, t in rulebook_turns()]
    positions += [(f"random {i}", random_turn(rng, i)) for i in range(RANDOM_POSITIONS)]
    rows = [{"name": name, "turn": encode(t), **answer(t)} for name, t in positions]
    with gzip.open(OUT, "wt", encoding="utf-8") as out:
        out.write("[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows) + "\n]\n")
    print(f"{len(rows)} positions ({sum('error' in r for r in rows)} input errors) written to {OUT}")


if __name__ == "__main__":
    main()
