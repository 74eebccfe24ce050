"""The planner of one turn: the turn read into the search's compact form, and the parts that search it."""
from __future__ import annotations

from collections.abc import Sequence

from solvers.errors import InputError

from ..attacks import Pressure, pressure
from ..cards import effect_of
from ..factory import Factory, Part, Stack
from .bound import Bounds
from .moves import Moves
from .nodes import ENERGY_BITS, AttackType, Facts, LeafContext, Reach, SStack, Strike, pack
from .records import EVENT_COST, Turn
from .sacrifice import Sacrifice
from .scoring import Scoring
from .search import Search
from .seeds import Seeds
from .stacks import StackFacts


class Planner(StackFacts, Sacrifice, Bounds, Moves, Scoring, Seeds, Search):
    """Plans one turn: `search` then `score_all` give the best plan, its ties and the runner-up. Each
    part (a module of this package) reads the turn as read here and keeps its caches here."""

    def __init__(self, turn: Turn):
        self.t = turn
        self.names = turn.part_names
        self.index = {n: i for i, n in enumerate(self.names)}
        self.full = (1 << len(self.names)) - 1
        self.part_cards: dict[int, list[int]] = {}
        for i, c in enumerate(turn.hand):
            if c.kind == "part" and c.part is not None:
                self.part_cards.setdefault(self.card(c.part), []).append(i)
        self.types = list(self.part_cards)
        # (kind, card, its energies, its hand indices) for `Moves.part_moves`
        self.part_kinds = [(t, card, card & ENERGY_BITS, self.part_cards[card]) for t, card in enumerate(self.types)]
        self.card_parts: dict[int, Part] = {}
        for c in [*(c.part for c in turn.hand if c.part is not None),
                  *(c for st in turn.factory.stacks for c in st.cards)]:
            self.card_parts[self.card(c)] = c
        self.effects = [effect_of(c) if c.kind != "part" else None for c in turn.hand]
        groups: dict[tuple, list[int]] = {}
        for i, c in enumerate(turn.hand):
            e = self.effects[i]
            if e is not None and e.modelled:
                groups.setdefault((e, c.stacks_required, c.play), []).append(i)
        self.attack_types = [AttackType(effect=e, stacks_required=req, marked=marked, hand_indices=tuple(idx))
                             for (e, req, marked), idx in groups.items()]
        # marked cards whose effect Tablebot does not model are played last, when the stacks allow
        self.flagged = [i for i, c in enumerate(turn.hand)
                        if c.kind != "part" and c.play and self.effects[i] is not None
                        and not self.effects[i].modelled and not self.effects[i].reactive]
        # unseen part cards by part-name index: [(mask, copies)]
        self.unseen_by_name: dict[int, list[tuple[int, int]]] = {}
        for u in turn.unseen:
            if u.part is not None and u.part.part in self.index and u.count > 0:
                self.unseen_by_name.setdefault(self.index[u.part.part], []).append((u.part.mask, u.count))
        self.start: tuple[SStack, ...] = tuple(
            (s.frozen, tuple(sorted(self.card(c) for c in s.cards))) for s in turn.factory.stacks)
        self.cost = EVENT_COST.get(turn.event, 0)
        self.start_free = sum(len(s[1]) for s in self.start if not s[0])
        # the other seats' factories as they stand after each Attack card: index 0 is the table as given
        self.tables: list[tuple[Factory, ...]] = [tuple(turn.others)]
        self._table_index: dict[tuple, int] = {self._table_key(self.tables[0]): 0}
        self._pressure: dict[int, tuple] = {}
        # the caches of each part, keyed by hashable stacks and facts
        self._infos: dict[SStack, Facts] = {}                                    # StackFacts
        self._shape_cache: dict[tuple[Facts, ...], tuple[int, int, tuple[int, ...]]] = {}
        self._reach: dict[SStack, Reach] = {}
        self._grow: dict[tuple, tuple[SStack, Facts, Reach | None]] = {}
        self._fronts: dict[SStack, tuple[tuple, tuple]] = {}                     # Sacrifice
        self._sac_values: dict[tuple, tuple] = {}
        self._sac_sig: dict[SStack, tuple] = {}
        self._bound_cache: dict[tuple, int] = {}                                 # Bounds
        self._triples: dict[SStack, tuple[int, int, int]] = {}
        self._caps: dict[tuple, tuple[int, ...]] = {}
        self._tail_cache: dict[tuple, tuple[tuple[int, ...], tuple[int, ...], int]] = {}   # Scoring
        self._leaf_cache: dict[tuple, LeafContext] = {}
        self._attack_cache: dict[tuple, tuple[Strike, ...]] = {}                 # Moves
        self._theirs: dict[tuple[str, int], list[tuple[int, int, Part]]] = {}

    def card(self, part: Part) -> int:
        if part.part not in self.index:
            raise InputError("part_names", f"{part.part!r} is not one of the part names {self.names}")
        return pack(self.index[part.part], part.mask)

    @staticmethod
    def _table_key(others: tuple[Factory, ...]) -> tuple:
        return tuple(f.key() for f in others)

    def table_id(self, others: tuple[Factory, ...]) -> int:
        key = self._table_key(others)
        hit = self._table_index.get(key)
        if hit is None:
            hit = self._table_index[key] = len(self.tables)
            self.tables.append(others)
        return hit

    def pressure_of(self, table: int) -> tuple:
        hit = self._pressure.get(table)
        if hit is None:
            hit = self._pressure[table] = self.pressure_record(table).key()
        return hit

    def pressure_record(self, table: int) -> Pressure:
        return pressure((Factory(()), *self.tables[table]), 0, self.names)

    def factory_of(self, stacks: Sequence[SStack]) -> Factory:
        return Factory(tuple(Stack(tuple(self.card_parts[c] for c in cards), frozen) for frozen, cards in stacks))
