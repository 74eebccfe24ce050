"""A seat as the solvers read it (`schemas.Seat.to_solver()` builds it): the planner's player state, the
class cards as scored, and the seat's inventor and Friendship cards."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .abilities import Who
from .competitions import PlayerState
from .scoring import ClassCard, Score, ScoreInputError, score


@dataclass(frozen=True)
class SeatRecord:
    player: PlayerState
    class_cards: tuple[ClassCard, ...]
    who: Who
    card_places: tuple[int, ...] = ()  # the seat's place (0..2) of each class card scored

    def score(self) -> Score:
        """The final score; a complaint names the seat's own field (`class_cards[2].vp_by_grade.B`)."""
        try:
            return score(self.player.inventory, self.player.robots, self.class_cards)
        except ScoreInputError as err:
            raise ScoreInputError(self.seat_path(err.path), err.message) from None

    def seat_path(self, path: str) -> str:
        m = re.match(r"^class_cards\[(\d+)\]", path)
        if m and int(m.group(1)) < len(self.card_places):
            return f"class_cards[{self.card_places[int(m.group(1))]}]{path[m.end():]}"
        return path
