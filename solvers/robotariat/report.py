"""Solver results as JSON-ready dicts (space ids, exact() numbers) and short sentences for people."""
from __future__ import annotations

from fractions import Fraction

from solvers.exact import exact

from .board import Board
from .model import CHARACTER_NAMES, SUCCESS, TableState
from .npc_turn import OPPRESSOR, Encounter, Forecast, TurnResult

FACE_NAMES = {"yellow_arrow": "yellow arrow", "blue_arrow": "blue arrow", "yellow_x": "yellow X", "blue_x": "blue X"}


def state_json(board: Board, s: TableState, names: tuple[str, ...] = ()) -> dict:
    """A state in the API's shape (api.md), plus `ended`."""
    ids = board.ids
    players = []
    for i, at in enumerate(s.players):
        p: dict = {"name": names[i] if i < len(names) else f"Player {i + 1}", "at": ids[at]}
        if s.characters[i]:
            p["character"] = s.characters[i]
        players.append(p)
    out = {"oppressors": [ids[x] for x in s.oppressors], "civilians": [ids[x] for x in s.civilians],
           "players": players, "active": s.active,
           "posters": {ids[i]: n for i, n in enumerate(s.posters) if n}, "junk": s.junk, "funds": s.funds,
           "reputation": s.reputation, "office": s.office, "entry": ids[s.entry], "ended": s.ended}
    if s.round is not None:
        out["round"] = s.round
    return out


def _signed(n: int, what: str) -> str:
    return f"{'+' if n > 0 else ''}{n} {what}"


def encounter_text(board: Board, e: Encounter) -> str:
    where = board.names[e.space]
    who = f"{'Oppressor' if e.npc == OPPRESSOR else 'Civilian'} {e.index + 1}"
    if e.blocked:
        return f"{who} reaches {where}, finds an Oppressor there and does nothing."
    parts = []
    if e.suspicious:
        parts.append("gets suspicious (4 or more there): " + _signed(e.reputation, "Reputation"))
    if e.fined_players:
        parts.append(f"fines {e.fined_players} player{'s' if e.fined_players > 1 else ''}: {_signed(e.funds, 'SPARK')}")
    elif e.funds:
        parts.append(f"donates {_signed(e.funds, 'SPARK')}")
    if e.posters_junked:
        parts.append(f"tears down {e.posters_junked} poster{'s' if e.posters_junked > 1 else ''}")
    if e.office:
        parts.append(f"fines the office: {_signed(e.office, 'contributions')}")
    if e.reposted_to is not None:
        parts.append(f"ArciTech puts one back up on {board.names[e.reposted_to]}")
    text = f"{who} reaches {where}" + (": " + "; ".join(parts) if parts else ": nothing happens")
    if e.ended:
        text += " The Revolution " + ("succeeds!" if e.ended == SUCCESS else "fails (Reputation 0).")
    return text + ("" if e.ended else ".")


def encounter_json(board: Board, e: Encounter) -> dict:
    return {"npc": e.npc, "index": e.index, "space": board.ids[e.space], "reputation": e.reputation,
            "funds": e.funds, "office": e.office, "posters_junked": e.posters_junked,
            "fined_players": e.fined_players, "suspicious": e.suspicious, "blocked": e.blocked, "ended": e.ended,
            "reposted_to": board.ids[e.reposted_to] if e.reposted_to is not None else None,
            "text": encounter_text(board, e)}


def turn_json(board: Board, r: TurnResult, names: tuple[str, ...] = ()) -> dict:
    return {"black": r.black, "red": r.red, "funds_delta": r.funds_delta, "reputation_delta": r.reputation_delta,
            "office_delta": r.office_delta, "posters_junked": r.posters_junked, "fines": r.fines,
            "ended": r.state.ended, "arcitech": board.ids[r.arcitech] if r.arcitech is not None else None,
            "encounters": [encounter_json(board, e) for e in r.encounters],
            "state": state_json(board, r.state, names)}


def forecast_json(board: Board, f: Forecast, names: tuple[str, ...] = ()) -> dict:
    """The npc-turn answer (api.md): outcomes, expectations, P(reputation loss), P(a fine), abilities."""
    summary = f.summary()
    outcomes = []
    for o in f.outcomes:
        item = {"p": exact(o.p), "value": exact(o.value - f.value_before)}
        item.update(turn_json(board, o.result, names))
        outcomes.append(item)
    out = {"outcomes": outcomes,
           "expected": {k: exact(summary[k]) for k in ("funds_delta", "reputation_delta", "office_delta",
                                                        "posters_junked", "value")},
           "p_reputation_loss": exact(summary["p_reputation_loss"]), "p_fine": exact(summary["p_fine"]),
           "p_success": exact(summary["p_success"]), "p_failure": exact(summary["p_failure"]),
           "alice_smith": None, "mt_rho": None}
    if f.alice:
        out["alice_smith"] = {"chosen": f.alice["chosen"], "tied": f.alice["tied"],
                              "expected_value": {k: exact(v) for k, v in f.alice["expected"].items()}}
    if f.mt_rho:
        out["mt_rho"] = {"reroll": [{"black": b, "red": r} for b, r in f.mt_rho["reroll"]],
                         "p_reroll": exact(f.mt_rho["p_reroll"]), "fresh_value": exact(f.mt_rho["fresh_value"])}
    return out


def outcome_bits(x: dict[str, Fraction]) -> list[str]:
    """What an NPC turn is expected to do, in short phrases: the forecast's headline and each suggested
    turn's why say it the same way (`x`: Forecast.summary() or a suggestion's `expected`)."""
    bits = [f"expected funds {number_text(x['funds_delta'], signed=True)} SPARK"]
    if x["p_fine"]:
        bits.append(f"a fine in {pct_text(x['p_fine'])} of rolls")
    if x["p_reputation_loss"]:
        bits.append(f"Reputation lost in {pct_text(x['p_reputation_loss'])}")
    if x["p_success"]:
        bits.append(f"the Revolution succeeds in {pct_text(x['p_success'])}")
    if x["p_failure"]:
        bits.append(f"it fails in {pct_text(x['p_failure'])}")
    return bits


def forecast_why(board: Board, f: Forecast) -> str:
    """One or two sentences for the forecast's headline."""
    text = "; ".join(outcome_bits(f.summary())) + "."
    text = text[0].upper() + text[1:]
    if f.alice:
        choice = FACE_NAMES[f.alice["chosen"]].split()[0]
        text += (f" {CHARACTER_NAMES['alice_smith']} sends the Oppressors down the {choice} path"
                 + (" (both paths are worth the same)." if f.alice["tied"] else " (the better path)."))
    if f.mt_rho and f.mt_rho["reroll"]:
        text += f" {CHARACTER_NAMES['mt_rho']} re-rolls {len(f.mt_rho['reroll'])} of the face pairs."
    return text


def pct_text(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


def number_text(v: Fraction, signed: bool = False) -> str:
    """A whole number as it is, else two decimals; `signed`: a + before a positive value."""
    sign = "+" if signed and v > 0 else ""
    if v.denominator == 1:
        return f"{sign}{v.numerator}"
    return f"{sign}{float(v):.2f}"
