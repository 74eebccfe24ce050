"""A slow, plain reading of the Robotariat NPC turn (semantics.md) used as the tests' oracle, and the
property tests that hold the solver to it on random small boards (rulebook "NPC Turn").

It shares no code with solvers/robotariat: dict states keyed by space id, every one of the 36 rolls
(and 36 x 36 for MT-ρ) enumerated, every ArciTech choice tried. Kept deliberately simple.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from solvers.robotariat.board import KINDS, Board
from solvers.robotariat.model import FACES, Dice, Rules, TableState
from solvers.robotariat.npc_turn import npc_turn
from solvers.robotariat.value import Valuer, Weights

ORDER = ("yellow_arrow", "blue_arrow", "yellow_x", "blue_x")


def oracle_arrivals(board: dict, red: list[str], start: str, horizon: int) -> dict[str, Fraction]:
    """Expected times a civilian starting on `start` moves onto each space in `horizon` NPC turns."""
    out = {s["id"]: Fraction(0) for s in board["spaces"]}
    dist = {start: Fraction(1)}
    for _ in range(horizon):
        new: dict[str, Fraction] = {}
        for here, p in dist.items():
            for face in red:
                q = p / 6
                if face == "yellow_arrow":
                    there = board["yellow_next"][here]
                elif face == "blue_arrow":
                    there = board["blue_next"][here]
                else:
                    there = here
                if face.endswith("arrow"):
                    out[there] += q
                new[there] = new.get(there, Fraction(0)) + q
        dist = new
    return out


def oracle_value(game: dict, st: dict) -> Fraction:
    w = game["weights"]
    v = w["spark"] * st["funds"] + w["reputation"] * st["reputation"]
    if st["ended"] == "success":
        return v + w["win"]
    if st["ended"] == "failure":
        return v - w["loss"]
    board, h = game["board"], game["horizon"]
    offices = [s["id"] for s in board["spaces"] if s["kind"] == "recruitment_office"]
    for c in st["civilians"]:
        arr = oracle_arrivals(board, game["red"], c, h)
        v += w["office"] * game["rewards"][st["office"]] * sum(arr[o] for o in offices)
        v += w["poster"] * sum(n * arr[s] for s, n in st["posters"].items())
    return v


def _uber_at(st: dict) -> str | None:
    for p in st["players"]:
        if p.get("character") == "uberbot":
            return p["at"]
    return None


def _players_on(st: dict, space: str) -> int:
    return sum(1 for p in st["players"] if p["at"] == space)


def _kind(board: dict, space: str) -> str:
    return next(s["kind"] for s in board["spaces"] if s["id"] == space)


def _after_encounters(game: dict, st: dict, steps: list, arcitech_free: bool) -> list[dict]:
    """All the ways the remaining encounters can end (one per ArciTech choice sequence), in preference
    order: declining first, then re-posting on each space in board order."""
    if not steps or st["ended"]:
        return [st]
    (who, space), rest = steps[0], steps[1:]
    st = copy.deepcopy(st)
    board = game["board"]
    mult = 2 if _uber_at(st) == space else 1
    if who == "oppressor":
        seen = st["posters"].get(space, 0) * mult + st["civilians"].count(space) + _players_on(st, space)
        if seen >= 4:
            st["reputation"] = max(0, st["reputation"] - 1)
            st["rep_lost"] = True
            if st["reputation"] == 0:
                st["ended"] = "failure"
                return [st]
        n = _players_on(st, space)
        if n:
            st["funds"] = max(0, st["funds"] - 2 * n)
            st["fines"] += 1
        torn = st["posters"].get(space, 0)
        st["posters"][space] = 0
        st["junk"] += torn
        st["junked"] += torn
        if _kind(board, space) == "recruitment_office":
            st["office"] = max(0, st["office"] - 2)
        if torn and arcitech_free and any(p.get("character") == "arcitech" for p in st["players"]):
            ways = _after_encounters(game, st, rest, True)
            for s in board["spaces"]:
                again = copy.deepcopy(st)
                again["posters"][s["id"]] = again["posters"].get(s["id"], 0) + 1
                again["junk"] -= 1
                again["reposted"] = s["id"]
                ways += _after_encounters(game, again, rest, False)
            return ways
        return _after_encounters(game, st, rest, arcitech_free)
    if space not in st["oppressors"]:
        gifts = [_players_on(st, space), st["posters"].get(space, 0) * mult]
        if _kind(board, space) == "recruitment_office" and st["office"] > 0:
            gifts.append(game["rewards"][st["office"]])
        for g in gifts:
            if g:
                st["funds"] += g
                if st["funds"] >= game["target"]:
                    st["ended"] = "success"
                    return [st]
    return _after_encounters(game, st, rest, arcitech_free)


def oracle_roll(game: dict, state: dict, black: str, red: str) -> dict:
    """One roll, resolved; ArciTech's choice is the first best by oracle_value."""
    board = game["board"]
    st = copy.deepcopy(state)
    st.update(ended=None, fines=0, junked=0, rep_lost=False, reposted=None)
    steps = []
    if black.endswith("arrow"):
        nxt = board[black.split("_")[0] + "_next"]
        st["oppressors"] = [nxt[x] for x in st["oppressors"]]
        steps += [("oppressor", x) for x in st["oppressors"]]
    else:
        st["entry"] = board[black.split("_")[0] + "_next"][st["entry"]]
    if red.endswith("arrow"):
        nxt = board[red.split("_")[0] + "_next"]
        st["civilians"] = [nxt[x] for x in st["civilians"]]
        steps += [("civilian", x) for x in st["civilians"]]
    else:
        st["entry"] = board[red.split("_")[0] + "_next"][st["entry"]]
    ways = _after_encounters(game, st, steps, True)
    best = ways[0]
    for w in ways[1:]:
        if oracle_value(game, w) > oracle_value(game, best):
            best = w
    return best


def oracle_distribution(game: dict, state: dict) -> dict[tuple[str, str], tuple[Fraction, dict]]:
    """(black kind, red kind) -> (probability, resolved state), from every one of the 36 rolls."""
    active = state["players"][state.get("active", 0)].get("character")
    black_faces, red_faces = game["black"], game["red"]
    dist: dict[tuple[str, str], Fraction] = {}
    if active == "alice_smith":
        best = None
        for face in ("yellow_arrow", "blue_arrow"):
            total = sum(oracle_value(game, oracle_roll(game, state, face, r)) for r in red_faces)
            if best is None or total > best[1]:
                best = (face, total)
        for r in red_faces:
            dist[(best[0], r)] = dist.get((best[0], r), Fraction(0)) + Fraction(1, 6)
    else:
        rolls = [(b, r) for b in black_faces for r in red_faces]
        if active == "mt_rho":
            fresh = sum(oracle_value(game, oracle_roll(game, state, b, r)) for b, r in rolls) / 36
            for first in rolls:
                if oracle_value(game, oracle_roll(game, state, *first)) < fresh:
                    for second in rolls:
                        dist[second] = dist.get(second, Fraction(0)) + Fraction(1, 36 * 36)
                else:
                    dist[first] = dist.get(first, Fraction(0)) + Fraction(1, 36)
        else:
            for roll in rolls:
                dist[roll] = dist.get(roll, Fraction(0)) + Fraction(1, 36)
    return {k: (p, oracle_roll(game, state, *k)) for k, p in dist.items()}


# ---- the property tests: solver == oracle on random small tables -----------------------------------



def to_solver(game: dict, state: dict):
    board = Board.from_json(game["board"])
    ix = board.index
    s = TableState(
        oppressors=tuple(ix[x] for x in state["oppressors"]), civilians=tuple(ix[x] for x in state["civilians"]),
        players=tuple(ix[p["at"]] for p in state["players"]),
        characters=tuple(p.get("character") for p in state["players"]),
        posters=tuple(state["posters"].get(i, 0) for i in board.ids), junk=state["junk"], funds=state["funds"],
        reputation=state["reputation"], office=state["office"], entry=ix[state["entry"]],
        active=state.get("active", 0))
    rules = Rules(target=game["target"], office_rewards=tuple(game["rewards"]))
    dice = Dice(tuple(game["black"]), tuple(game["red"]))
    valuer = Valuer(board, rules, dice, Weights(**game["weights"]), game["horizon"])
    return board, rules, dice, s, valuer


def assert_matches_oracle(game: dict, state: dict) -> None:
    board, rules, dice, s, valuer = to_solver(game, state)
    forecast = npc_turn(board, rules, dice, s, valuer)
    expected = oracle_distribution(game, state)
    got = {(o.black, o.red): o for o in forecast.outcomes}
    assert set(got) == set(expected)
    assert sum(o.p for o in forecast.outcomes) == 1
    for key, (p, st) in expected.items():
        o, after = got[key], got[key].result.state
        assert o.p == p, key
        assert after.funds == st["funds"] and after.reputation == st["reputation"], key
        assert after.office == st["office"] and after.junk == st["junk"], key
        assert after.ended == st["ended"], key
        assert [board.ids[x] for x in after.oppressors] == st["oppressors"]
        assert [board.ids[x] for x in after.civilians] == st["civilians"]
        assert board.ids[after.entry] == st["entry"]
        assert {board.ids[i]: n for i, n in enumerate(after.posters) if n} == {k: v for k, v in st["posters"].items() if v}
        assert o.result.posters_junked == st["junked"] and (o.result.fines > 0) == (st["fines"] > 0)
        assert (o.result.reputation_delta < 0) == st["rep_lost"]
        assert o.value == oracle_value(game, st)
        assert (board.ids[o.result.arcitech] if o.result.arcitech is not None else None) == st["reposted"]


SHORT_HORIZONS = hs.integers(0, 2)


@hs.composite
def tables(draw, characters=("uberbot", "arcitech", "mt_rho", "alice_smith", None), horizon=SHORT_HORIZONS):
    n = draw(hs.integers(3, 6))
    ids = [f"s{i}" for i in range(n)]
    kinds = draw(hs.lists(hs.sampled_from(KINDS), min_size=n, max_size=n))
    if draw(hs.booleans()):
        kinds[0] = "recruitment_office"
    links = {tuple(sorted((ids[i], ids[(i + 1) % n]))) for i in range(n)}
    for a, b in draw(hs.lists(hs.tuples(hs.sampled_from(ids), hs.sampled_from(ids)), max_size=3)):
        if a != b:
            links.add(tuple(sorted((a, b))))
    nbrs = {i: sorted({b for a, b in links if a == i} | {a for a, b in links if b == i}) for i in ids}
    board = {"spaces": [{"id": i, "kind": k} for i, k in zip(ids, kinds)], "links": [list(x) for x in sorted(links)],
             "yellow_next": {i: draw(hs.sampled_from(nbrs[i])) for i in ids},
             "blue_next": {i: draw(hs.sampled_from(nbrs[i])) for i in ids}}
    space = hs.sampled_from(ids)
    chars = draw(hs.lists(hs.sampled_from(characters), min_size=3, max_size=5))
    seen: set = set()
    chars = [c if c not in seen and not seen.add(c) else None for c in chars]
    players = [{"name": f"P{i}", "at": draw(space), "character": c} for i, c in enumerate(chars)]
    posters: dict[str, int] = {}
    for x in draw(hs.lists(space, max_size=6)):
        posters[x] = posters.get(x, 0) + 1
    target = draw(hs.sampled_from([45, 60, 75]))
    state = {"oppressors": draw(hs.lists(space, max_size=3)), "civilians": draw(hs.lists(space, max_size=3)),
             "players": players, "active": draw(hs.integers(0, len(players) - 1)), "posters": posters,
             "junk": draw(hs.integers(0, 8 - sum(posters.values()))),
             "funds": draw(hs.one_of(hs.integers(0, 6), hs.integers(target - 8, target - 1))),
             "reputation": draw(hs.integers(1, 3)), "office": draw(hs.integers(0, 10)), "entry": draw(space)}
    game = {"board": board, "target": target,
            "rewards": [0] + sorted(draw(hs.lists(hs.integers(0, 6), min_size=10, max_size=10))),
            "black": draw(hs.lists(hs.sampled_from(FACES), min_size=6, max_size=6)),
            "red": draw(hs.lists(hs.sampled_from(FACES), min_size=6, max_size=6)),
            "weights": {"spark": Fraction(1), "reputation": Fraction(draw(hs.sampled_from([0, 1, 5]))),
                        "office": Fraction(draw(hs.sampled_from([0, 1]))), "poster": Fraction(draw(hs.sampled_from([0, 1, 3]))),
                        "win": Fraction(100), "loss": Fraction(100)},
            "horizon": draw(horizon)}
    return game, state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=("uberbot", "arcitech", None), horizon=hs.just(0)))
def test_npc_turn_matches_all_36_rolls(table):
    """NPC Turn + Encounter Quick-Reference Table: every roll of both dice, merged by face kinds, equals
    the plain enumeration of the 36 rolls (Überbot doubling, ArciTech's re-post, game end mid-turn)."""
    assert_matches_oracle(*table)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=("mt_rho", "alice_smith", "arcitech", "uberbot", None)))
def test_abilities_match_enumeration(table):
    """Character Abilities: MT-ρ's re-roll (36 x 36 rolls), Alice Smith's chosen path and ArciTech's
    re-post, with the future-donation terms of the score, equal the oracle's enumeration."""
    assert_matches_oracle(*table)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=("arcitech", "uberbot", "mt_rho", "alice_smith", None)))
def test_the_shared_roll_memo_changes_no_outcome(table):
    """NPC Turn: reusing a roll's encounters between states (npc_turn's memo, which the suggestions use
    for ArciTech's re-post) gives the very same outcomes as resolving each state from scratch."""
    game, state = table
    board, rules, dice, s, valuer = to_solver(game, state)
    if s.funds >= rules.target:
        return
    memo: dict = {}
    others = [s] + [replace(s, posters=tuple(p + (i == x) for i, p in enumerate(s.posters)))
                    for x in range(board.n)]
    for st in others:
        npc_turn(board, rules, dice, st, valuer, memo)
    for st in others:
        a = npc_turn(board, rules, dice, st, valuer, memo)
        b = npc_turn(board, rules, dice, st, Valuer(board, rules, dice, valuer.weights, valuer.horizon))
        assert [(o.black, o.red, o.weight, o.result, o.scaled) for o in a.outcomes] == \
            [(o.black, o.red, o.weight, o.result, o.scaled) for o in b.outcomes]
