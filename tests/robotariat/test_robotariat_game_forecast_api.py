"""POST /api/robotariat/game-forecast (api.md "Additions"; rulebook "Game End", "Revolution Table"): the
/suggest body in, the chances of the three endings out, exact late in the game and sampled early."""
from __future__ import annotations

from fractions import Fraction

from test_robotariat_api import BODY, body, error_paths, post

URL = "/api/robotariat/game-forecast"


def test_last_turn_of_round_six_is_counted_exactly(client):
    """Game End: the last seat of round 6 far from the target: the Revolution fails after round 6, surely."""
    status, d = post(client, URL, body(round=6, active=2, funds=10))
    assert status == 200
    assert d["method"] == "exact" and d["runs"] is None
    assert d["p_fail_time"] == {"exact": "1", "approx": 1.0}
    assert d["p_success"]["exact"] == "0" and d["p_fail_reputation"]["exact"] == "0"
    assert [r["round"] for r in d["by_round"]] == [6]
    assert any("Sabotage and Upgrade" in n for n in d["not_modelled"])
    assert "rb-reading-game-forecast" in d["rules"] and d["readings"] == ["game-forecast"]


def test_exact_chances_add_up_to_one(client):
    """Revolution Table: close to the target late in the game the three endings are exact and sum to 1."""
    status, d = post(client, URL, body(round=6, active=1, funds=40, reputation=2))
    assert status == 200 and d["method"] == "exact"
    total = sum(Fraction(d[k]["exact"]) for k in ("p_success", "p_fail_reputation", "p_fail_time"))
    assert total == 1
    by_round = sum(Fraction(r[k]["exact"]) for r in d["by_round"] for k in ("p_success", "p_fail_reputation",
                                                                             "p_fail_time"))
    assert by_round == 1


def test_early_game_is_sampled_with_intervals_and_a_seed(client):
    """A new game is too big to count: seeded Monte Carlo, each chance with its 95 % interval."""
    req = {**body(round=1, funds=0, oppressors=[], civilians=[]), "runs": 4, "seed": 5}
    status, d = post(client, URL, req)
    assert status == 200 and d["method"] == "monte_carlo" and d["runs"] == 4 and d["seed"] == 5
    for k in ("p_success", "p_fail_reputation", "p_fail_time"):
        lo, hi = d[k]["interval"]
        assert 0 <= lo <= d[k]["approx"] <= hi <= 1 and "exact" not in d[k]
    again = post(client, URL, req)[1]
    assert (again["p_success"], again["expected_funds"]) == (d["p_success"], d["expected_funds"])


def test_a_finished_game_and_bad_fields_are_400s(client):
    status, d = post(client, URL, body(reputation=0))
    assert status == 400 and error_paths(d) == ["state.reputation"]
    status, d = post(client, URL, {**BODY, "runs": 0})
    assert status == 400 and error_paths(d) == ["runs"]
    status, d = post(client, URL, {**BODY, "next": "later"})
    assert status == 400 and error_paths(d) == ["next"]
