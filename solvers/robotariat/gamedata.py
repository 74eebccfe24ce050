"""Robotariat game data: the defaults file, read once and checked at import.

`solvers/robotariat/data/defaults.toml` holds the example board, the unverified dice and Office
Rewards, the Revolution Table, the objective numbers, the entry track and the characters, each with
its source. `DEFAULTS` is the checked result; `defaults_json()` is what GET /api/robotariat/defaults
returns.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solvers import gamedata

from .board import KINDS, Board, board_problems
from .model import CHARACTERS, FACES, Dice, Rules
from .value import Weights

DATA_NAME = "defaults.toml"
SOURCES = gamedata.SOURCES + ("example", "tablebot")  # the example board; Tablebot settings
PLAYER_COUNTS = (3, 4, 5)


class GameDataError(ValueError):
    pass


@dataclass(frozen=True)
class GameData:
    raw: dict  # the TOML as read (sources, notes and urls for the pages)
    board: Board
    dice: Dice
    office_rewards: tuple[int, ...]
    spark_target: dict[int, int]
    starting_reputation: dict[int, int]
    bursar_threshold: dict[int, int]
    scrapper_posters: dict[int, int]
    turncoat_cards: dict[int, int]
    gambler_min_players: int
    entry_track: tuple[str, ...]
    max_rounds: int
    poster_supply: int
    office_max: int
    per_activation: int
    max_oppressors: int
    max_civilians: int
    cards_max: int  # Upgrade + Sabotage cards: the most one player can have played
    funds_max: int  # Tablebot's input limits (the printed tracks' lengths are in no source)
    reputation_max: int
    character_starts: dict[str, str]
    weights: Weights

    def entry_row(self, entered: int) -> int | None:
        """The entry track row the next round start uses (1-based), given how many NPCs have entered:
        one NPC enters per round, in track order; None once the track is empty."""
        return entered + 1 if entered < len(self.entry_track) else None

    def next_npc(self, entered: int) -> str | None:
        row = self.entry_row(entered)
        return self.entry_track[row - 1] if row is not None else None

    def rules(self, players: int, office_rewards: tuple[int, ...] | None = None) -> Rules:
        return Rules(target=self.spark_target[players], office_rewards=office_rewards or self.office_rewards,
                     poster_supply=self.poster_supply, office_max=self.office_max,
                     contribute_max=self.per_activation)


def check_dice(dice: dict) -> list[str]:
    problems = []
    for die in ("black", "red"):
        faces = dice.get(die)
        if not isinstance(faces, list) or len(faces) != 6:
            problems.append(f"dice.{die}: six faces are needed")
            continue
        for i, face in enumerate(faces):
            if face not in FACES:
                problems.append(f"dice.{die}[{i}]: {face!r} is not one of {', '.join(FACES)}")
    return problems


def check_office_rewards(values: list) -> list[str]:
    if not isinstance(values, list) or len(values) != 11:
        return ["office_rewards: give 11 values, for contributions 0 to 10"]
    if any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 99 for v in values):
        return ["office_rewards: each value is a whole number of SPARK from 0 to 99"]
    return []


def _by_count(table: dict, name: str) -> dict[int, int]:
    try:
        out = {n: int(table[str(n)]) for n in PLAYER_COUNTS}
    except (KeyError, TypeError, ValueError) as e:
        raise GameDataError(f"{name}: a whole number is needed for 3, 4 and 5 players") from e
    return out


def load(raw: dict | None = None) -> GameData:
    """Read and check the defaults file (or `raw`, its parsed form); GameDataError says what is wrong."""
    raw = gamedata.read("robotariat", DATA_NAME) if raw is None else raw
    for key, section in raw.items():
        if isinstance(section, dict) and section.get("source") not in SOURCES:
            raise GameDataError(f"[{key}] must say its source (one of {', '.join(SOURCES)})")
        if isinstance(section, dict) and section.get("source") == "public" and not section.get("url"):
            raise GameDataError(f"[{key}] comes from a public source: give its url")
    board_json = {k: raw["board"][k] for k in ("spaces", "links", "yellow_next", "blue_next")}
    errors, _ = board_problems(board_json)
    if errors:
        raise GameDataError(f"example board: {errors[0].path}: {errors[0].message}")
    problems = check_dice(raw["dice"]) + check_office_rewards(raw["office_rewards"]["values"])
    if problems:
        raise GameDataError(problems[0])
    track = tuple(raw["entry_track"]["rows"])
    if len(track) != raw["rounds"]["max"] or any(t not in ("oppressor", "civilian") for t in track):
        raise GameDataError("entry_track.rows: one NPC (oppressor or civilian) per round")
    starts = {cid: raw["characters"][cid]["start"] for cid in CHARACTERS}
    if any(k not in KINDS for k in starts.values()):
        raise GameDataError("characters: every start is a kind of space")
    w = raw["weights"]
    try:
        weights = Weights(**{k: Fraction(w[k]) for k in ("spark", "reputation", "office", "poster", "win", "loss")})
    except (KeyError, ValueError, ZeroDivisionError) as e:
        raise GameDataError(f"weights: {e}") from e
    obj = raw["objectives"]
    limits = raw["limits"]
    if not all(1 <= int(raw["starting_reputation"][str(n)]) <= int(limits["reputation"]) for n in PLAYER_COUNTS) \
            or not all(int(raw["spark_target"][str(n)]) <= int(limits["funds"]) for n in PLAYER_COUNTS):
        raise GameDataError("limits: the starting Reputation and the SPARK targets must fit the limits")
    return GameData(
        raw=raw, board=Board.from_json(board_json),
        dice=Dice(tuple(raw["dice"]["black"]), tuple(raw["dice"]["red"])),
        office_rewards=tuple(raw["office_rewards"]["values"]),
        spark_target=_by_count(raw["spark_target"], "spark_target"),
        starting_reputation=_by_count(raw["starting_reputation"], "starting_reputation"),
        bursar_threshold=_by_count(obj["bursar_threshold"], "objectives.bursar_threshold"),
        scrapper_posters=_by_count(obj["scrapper_posters"], "objectives.scrapper_posters"),
        turncoat_cards=_by_count(obj["turncoat_cards"], "objectives.turncoat_cards"),
        gambler_min_players=int(obj["gambler_min_players"]),
        entry_track=track, max_rounds=int(raw["rounds"]["max"]),
        poster_supply=int(raw["posters"]["supply"]), office_max=int(raw["office"]["max"]),
        per_activation=int(raw["office"]["per_activation"]),
        max_oppressors=int(raw["npcs"]["oppressors"]), max_civilians=int(raw["npcs"]["civilians"]),
        cards_max=int(raw["cards"]["upgrade"]) + int(raw["cards"]["sabotage"]),
        funds_max=int(raw["limits"]["funds"]), reputation_max=int(raw["limits"]["reputation"]),
        character_starts=starts, weights=weights)


DEFAULTS = load()


def _src(section: dict) -> dict:
    return {k: section[k] for k in ("source", "url", "section", "note") if k in section}


def defaults_json(data: GameData = DEFAULTS) -> dict:
    """The defaults as the API gives them: each value with where it comes from."""
    raw = data.raw

    def by_count(d: dict) -> dict[str, object]:
        return {str(n): d[n] for n in PLAYER_COUNTS}

    return {
        "board": data.board.to_json() | {"name": raw["board"]["name"], "provenance": _src(raw["board"])},
        "dice": {"black": list(data.dice.black), "red": list(data.dice.red), "provenance": _src(raw["dice"])},
        "office_rewards": {"values": list(data.office_rewards), "provenance": _src(raw["office_rewards"])},
        "office": {"max": data.office_max, "per_activation": data.per_activation, "provenance": _src(raw["office"])},
        "posters": {"supply": data.poster_supply, "provenance": _src(raw["posters"])},
        "npcs": {"oppressors": data.max_oppressors, "civilians": data.max_civilians, "provenance": _src(raw["npcs"])},
        "entry_track": {"rows": list(data.entry_track), "token_starts_on": raw["entry_track"]["token_starts_on"],
                        "provenance": _src(raw["entry_track"])},
        "rounds": {"max": data.max_rounds, "provenance": _src(raw["rounds"])},
        "cards": {"upgrade": raw["cards"]["upgrade"], "sabotage": raw["cards"]["sabotage"],
                  "provenance": _src(raw["cards"])},
        "limits": {"funds": data.funds_max, "reputation": data.reputation_max, "provenance": _src(raw["limits"])},
        "spark_target": {"by_players": by_count(data.spark_target), "provenance": _src(raw["spark_target"])},
        "starting_reputation": {"by_players": by_count(data.starting_reputation),
                                "provenance": _src(raw["starting_reputation"])},
        "objectives": {"bursar_threshold": by_count(data.bursar_threshold),
                       "scrapper_posters": by_count(data.scrapper_posters),
                       "turncoat_cards": by_count(data.turncoat_cards),
                       "gambler_min_players": data.gambler_min_players, "provenance": _src(raw["objectives"])},
        "characters": {"list": [{"id": c, "name": raw["characters"][c]["name"], "start": data.character_starts[c]}
                                for c in CHARACTERS], "provenance": _src(raw["characters"])},
        "weights": {"values": {k: str(v) for k, v in data.weights.as_dict().items()},
                    "provenance": _src(raw["weights"])},
    }
