"""What a Raising Robots player has, as the solvers see it (shared by competitions, scoring, round end)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

RESOURCES = ("sensor", "gear", "microchip", "program")  # the four resources; duct tape is not one of them
ROWS = ("design", "fabricate", "recycle")
ROW_NAMES = {"design": "Design", "fabricate": "Fabricate", "recycle": "Recycle"}
TOKEN_TYPES = ("pink", "orange", "blue", "green")  # pink is Efficiency; the other names are unverified


@dataclass(frozen=True)
class Inventory:
    sensor: int = 0
    gear: int = 0
    microchip: int = 0
    program: int = 0
    duct_tape: int = 0
    battery: int = 0
    vp: int = 0
    robot_cards: int = 0  # Robot Cards in hand

    def get(self, item: str) -> int:
        return getattr(self, item)

    def add(self, **delta: int) -> Inventory:
        counts = dict(self.__dict__)  # not dataclasses.replace: this runs thousands of times per plan
        for k, v in delta.items():
            counts[k] += v
        return Inventory(**counts)

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


ITEMS = tuple(f.name for f in fields(Inventory))
# every inventory item in words: (one, several), and as a page labels its count
ITEM_WORDS = {"sensor": ("sensor", "sensors"), "gear": ("gear", "gears"),
              "microchip": ("microchip", "microchips"), "program": ("program", "programs"),
              "duct_tape": ("duct tape", "duct tape"), "battery": ("battery", "batteries"), "vp": ("VP", "VP"),
              "robot_cards": ("Robot Card", "Robot Cards")}
ITEM_LABELS = {**{k: many[0].upper() + many[1:] for k, (_, many) in ITEM_WORDS.items()},
               "vp": "VP in inventory", "robot_cards": "Robot Cards in hand"}


@dataclass(frozen=True)
class Robot:
    """An assembled robot. A cost column is (energy, resource count); a robot has one or two columns."""
    row: str
    any_row: bool = False
    cost_energy: tuple[int, ...] = ()
    cost_resources: tuple[int, ...] = ()
    basic_energy: int = 1
    upgraded_energy: int | None = None
    upgraded: bool = False
    vp: int = 0
    needs_microchip: bool = False
    column: int | None = None  # 1..5 in the play area, when known
    game_end: dict | None = field(default=None, hash=False, compare=False)

    def action_energies(self) -> tuple[int, ...]:
        """Energies of the actions that count: the upgraded action's only once the robot is upgraded."""
        if self.upgraded and self.upgraded_energy is not None:
            return (self.basic_energy, self.upgraded_energy)
        return (self.basic_energy,)
