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


def test_exact_chances_add_up_to_one(client, monkeypatch):
    """Revolution Table: close to the target late in the game the three endings are exact and sum to 1.
    The one-second cap is lifted here: on a loaded machine the count can take longer than half of it, and
    the answer is then sampled (CI saw it once); what is tested is the count, not the clock."""
    monkeypatch.setattr("assistant.robotariat.api.FORECAST_MAX_MS", 120_000)
    status, d = post(client, URL, {**body(round=6, active=1, funds=40, reputation=2), "budget_ms": 120_000})
    assert status == 200 and d["method"] == "exact"
    total = sum(Fraction(d[k]["exact"]) for k in ("p_success", "p_fail_reputation", "p_fail_time"))
    assert total == 1
    by_round = sum(Fraction(r[k]["exact"]) for r in d["by_round"] for k in ("p_success", "p_fail_reputation",
                                                                             "p_fail_time"))
    assert by_round == 1


def test_early_game_is_sampled_with_intervals_and_a_seed(client):
    """A new game is too big to count: seeded Monte Carlo, each chance with its 95 % interval."""
    req = {**body(round=1, funds=0, oppressors=[], civilians=[]), "runs": 4, "seed": 5}
    for _ in range(20):  # a busy machine may need more than one request's second for the 4 games
        status, d = post(client, URL, req)
        if d["runs"] == 4:
            break
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


def test_a_budget_over_a_second_is_cut_and_the_answer_says_so(client):
    """api.md "Robotariat forecast": no request holds a worker for more than about 1 s."""
    req = {**body(round=1, funds=0, oppressors=[], civilians=[]), "runs": 2, "budget_ms": 60_000}
    status, d = post(client, URL, req)
    assert status == 200 and d["budget_ms"] == 1000 and d["budget_clamped"] is True
    assert "was cut to 1000 ms" in d["why"]
    status, d = post(client, URL, {**req, "budget_ms": 500, "seed": 1})
    assert d["budget_ms"] == 500 and d["budget_clamped"] is False and "cut to" not in d["why"]


def test_games_are_kept_for_every_worker_and_runs_never_drop(client):
    """The games of a forecast are kept in the database: a worker that never saw this state (its own
    forecasts forgotten) goes on from them, so `runs` only grows for the same state."""
    from assistant.robotariat import api

    req = {**body(round=1, funds=0, oppressors=[], civilians=[]), "seed": 9, "runs": 3}
    first = post(client, URL, req)[1]
    assert 1 <= first["runs"] <= 3
    api._FORECASTS.clear()  # another worker: nothing in its memory
    again = post(client, URL, {**req, "runs": 5})[1]
    assert again["runs"] >= first["runs"]
    while again["runs"] < 5:
        again = post(client, URL, {**req, "runs": 5})[1]
    api._FORECASTS.clear()
    fewer = post(client, URL, {**req, "runs": 2})[1]
    assert fewer["runs"] >= 5  # the kept games count, even when fewer were asked for


def test_the_table_before_and_after_do_this_shares_one_forecast(client):
    """Round Order 2-3: once the active player has taken the suggested turn, the forecast from there (their
    NPC turn next) is the one made before it: the same games, the same numbers."""
    from assistant.robotariat import api

    req = {**body(round=1, funds=5, oppressors=["s0"], civilians=[]), "seed": 4, "runs": 3}
    before = post(client, URL, req)[1]
    while before["runs"] < 3:
        before = post(client, URL, req)[1]
    after_state = post(client, "/api/robotariat/suggest", req)[1]["options"][0]["state_after"]
    after_state.pop("ended")
    api._FORECASTS.clear()
    after = post(client, URL, {**req, "state": after_state, "next": "npc_turn"})[1]
    assert (after["runs"], after["p_success"], after["expected_funds"]) == \
        (before["runs"], before["p_success"], before["expected_funds"])


def test_a_second_process_plays_beside_the_request_with_the_same_games(app, client, monkeypatch):
    """Issue 25 (a forecast on the first view): where the app has a second process for the forecast's games
    (config ROBOTARIAT_GAMES_HELPER; off in the tests unless asked for), a request shares its games with it
    and answers with the games one process plays alone: the same game numbers, the same chances."""
    from assistant.robotariat import api
    from solvers.robotariat import games_helper

    monkeypatch.setattr(games_helper, "idle_core", lambda: True)  # whatever else the machine runs
    req = {**body(round=1, funds=0, oppressors=[], civilians=[]), "seed": 21, "budget_ms": 400}
    helper = games_helper.shared()
    assert app.config["ROBOTARIAT_GAMES_HELPER"] is False
    with app.app_context():
        assert api._games_helper() is None
    app.config["ROBOTARIAT_GAMES_HELPER"] = True
    assert helper.wait_ready(30)
    jobs = helper.jobs
    shared = post(client, URL, req)[1]
    assert helper.jobs == jobs + 1 and shared["method"] == "monte_carlo" and shared["runs"] >= 2
    app.config["ROBOTARIAT_GAMES_HELPER"] = False
    api._FORECASTS.clear()
    # alone, in this process, with no database (whose kept games it would take) and no helper, with the
    # time it needs on a loaded machine
    monkeypatch.setattr("assistant.robotariat.api.FORECAST_MAX_MS", 120_000)
    alone = api.game_forecast_json({**req, "budget_ms": 120_000}, until_runs=shared["runs"])
    assert helper.jobs == jobs + 1
    assert alone["runs"] == shared["runs"]
    assert (alone["p_success"], alone["expected_funds"]) == (shared["p_success"], shared["expected_funds"])
