"""The forecast's second process (solvers/robotariat/games_helper.py; issue 25: a forecast that answers on
the first view). Game k of a forecast uses the random stream k (rulebook "Round Order" played out by the
rollout policy), so the games two processes share out are the games one process plays alone, in the same
order; a helper that dies or does not answer costs the request nothing but its own games."""
from __future__ import annotations

import os
import pickle
import signal
import time

import pytest

from solvers.robotariat import games_helper
from solvers.robotariat.forecast import Forecaster
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import TableState
from solvers.robotariat.policies import SuggestionPolicy
from solvers.robotariat.rollout import RolloutPolicy

IDLE_CORE = games_helper.idle_core
pytestmark = pytest.mark.usefixtures("an_idle_core")  # (conftest.py; `helper` too)


def _new_game(players: int = 5) -> tuple[GameRules, TableState]:
    """Setup: a new game on the example board, every player on a start space, round 1."""
    b = DEFAULTS.board
    g = GameRules(board=b, rules=DEFAULTS.rules(players), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                  entry_track=DEFAULTS.entry_track)
    starts = ("sy", "up1", "mm", "up2", "ro")[:players]
    s = TableState(oppressors=(), civilians=(), players=tuple(b.index[x] for x in starts),
                   characters=("uberbot", "arcitech", "mt_rho", "alice_smith", None)[:players],
                   posters=(0,) * b.n, junk=0, funds=0, reputation=5, office=0, entry=b.index["mm"], active=0,
                   round=1)
    return g, s


def _shared(g: GameRules, s: TableState, helper, seed: int = 7) -> Forecaster:
    return Forecaster(g, s, SuggestionPolicy(g), seed=seed, rollout=RolloutPolicy(g), helper=helper)


def run_until_helped(f: Forecaster, seconds: float, tries: int = 20) -> None:
    """More short views of the forecast until the helper has played a game of it (`tries` at most): on a
    slow or loaded machine a helper (above all one just started) may not finish a game within one short
    view. A helper that never plays still leaves `helped` at 0 after the last try."""
    for _ in range(tries):
        if f.helped > 0:
            return
        f.run(seconds)


def test_the_games_two_processes_play_are_the_games_one_plays(helper):
    """Game k is random stream k wherever it is played: the games counted after runs shared with the helper
    are, in order, the ones one process plays alone, and the helper did play some of them."""
    g, s = _new_game()
    both = _shared(g, s, helper)
    both.exact_tried = True
    both.run(0.4)
    both.run(0.3)  # a second view: the helper keeps this forecast's policy warm under its token
    run_until_helped(both, 0.3)  # (more views while the helper played none yet: a slow machine)
    assert both.helped > 0 and both.runs >= 2
    alone = Forecaster(g, s, SuggestionPolicy(g), seed=7, rollout=RolloutPolicy(g))
    alone.exact_tried = True
    alone.run(None, until_runs=both.runs)
    assert both.games == alone.games
    assert both.result().p_success == alone.result().p_success
    assert all(k > both.runs for k in both.pending)  # a game past one not played yet waits for it


def test_sampling_stops_where_one_process_stops(helper):
    """The forecast stops once every chance is within its half-width (here +-8 points): with the helper's
    games counted as they come, at the very game where one process alone stops, with the same answer."""
    g, s = _new_game(3)
    alone = Forecaster(g, s, SuggestionPolicy(g), seed=5, half_width=0.08, rollout=RolloutPolicy(g))
    alone.exact_tried = True
    alone.run(30.0)
    both = Forecaster(g, s, SuggestionPolicy(g), seed=5, half_width=0.08, rollout=RolloutPolicy(g), helper=helper)
    both.exact_tried = True
    both.run(30.0)
    assert 100 <= alone.runs < alone.max_runs  # stopped by its intervals, not by a limit
    assert both.helped > 0 and both.runs == alone.runs and both.games == alone.games
    # it stopped there too: the games the helper finished past it (while the request played its last one; how
    # many depends on the machine's scheduling, 4 to 51 were seen) wait uncounted, and a later view plays none
    assert all(k >= both.runs for k in both.pending)
    assert both.result().p_success == alone.result().p_success
    helped = both.helped
    both.run(30.0)
    assert both.runs == alone.runs and both.helped == helped and both.games == alone.games


def test_a_helper_that_hangs_is_waited_for_at_most_the_grace_past_the_deadline(helper):
    """A helper stopped mid-game (SIGSTOP): the request, whose own last game ran 30 ms over, gives up at
    its deadline plus the grace, and the helper is replaced on a later request. The bound is the grace
    (GRACE_S, 50 ms) plus one second for stopping the helper (kill, then up to 0.5 s to reap it) on a
    loaded machine: a request that did not honour the grace would wait 5 s for the job or 60 s for the
    helper's answer."""
    g, s = _new_game(5)
    job = helper.begin(pickle.dumps((g, s, False, 7)), "hung", 0, 10**6, set(), 5.0)
    assert job is not None
    pid = helper.proc.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        deadline = time.perf_counter() - 0.03
        job.finish(deadline)
        assert time.perf_counter() - deadline <= games_helper.GRACE_S + 1.0
        assert helper.proc is None
    finally:
        try:
            os.kill(pid, signal.SIGKILL)  # (given up: it is killed already)
        except ProcessLookupError:
            pass
    assert helper.wait_ready(30)


def test_a_limit_on_the_games_holds_on_both_sides(helper):
    """The page's tables after each roll play a set number of games: never more, whoever plays them; the
    positions decided are counted as one process counts them."""
    g, s = _new_game(4)
    f = _shared(g, s, helper, seed=3)
    f.exact_tried = True
    f.run(30.0, until_runs=60)
    assert f.runs == 60 and not f.pending and f.helped > 0
    alone = Forecaster(g, s, SuggestionPolicy(g), seed=3, rollout=RolloutPolicy(g))
    alone.exact_tried = True
    alone.run(None, until_runs=60)
    assert f.games == alone.games
    assert f.decisions() == alone.decisions()  # each position decided counted once, wherever it was decided


def test_a_helper_that_dies_costs_the_request_nothing_and_comes_back():
    """A helper killed mid-game: the request counts its own games (those before the first missing one) and
    answers by its deadline; the next request starts a new helper, which plays again."""
    h = games_helper.GamesHelper()
    try:
        assert h.wait_ready(30)
        g, s = _new_game()
        f = _shared(g, s, h)
        f.exact_tried = True
        job = h.begin(pickle.dumps((g, s, False, 7)), "token", 0, 10**6, set(), 5.0)  # five seconds of games
        assert job is not None
        os.kill(h.proc.pid, signal.SIGKILL)
        assert job.finish(None) == []
        assert h.proc is None  # forgotten: the next job starts a new one
        f.run(0.2)
        assert f.runs > 0 and f.helped == 0  # no helper this time (one is starting)
        assert h.wait_ready(30) and h.started == 2
        run_until_helped(f, 0.3)  # the new helper's first game may take more than one short view
        assert f.helped > 0
    finally:
        h.stop()


def test_a_table_the_helper_cannot_play_is_played_by_the_request(helper):
    """What the helper cannot unpickle or play is answered "failed": the request plays every game itself."""
    job = helper.begin(b"not a forecast", "bad", 0, 100, set(), 1.0)
    assert job is not None
    assert job.finish(None) == []
    g, s = _new_game(3)
    f = _shared(g, s, helper, seed=11)
    f.exact_tried = True
    run_until_helped(f, 0.2)
    assert f.helped > 0  # the helper answers the next job


def test_a_busy_helper_is_not_waited_for(helper):
    """One job at a time: a second request while the helper plays for another plays alone."""
    job = helper.begin(b"not a forecast", "busy", 0, 100, set(), 1.0)
    try:
        assert helper.begin(b"x", "other", 0, 100, set(), 1.0) is None
    finally:
        job.finish(None)


def test_a_busy_machine_plays_alone(helper, monkeypatch):
    """No idle core as the request starts: the two processes would share one, each working out the same
    tables, and the request would play fewer games than alone; it plays alone."""
    monkeypatch.setattr(games_helper, "idle_core", lambda: False)
    jobs = helper.jobs
    g, s = _new_game(3)
    f = _shared(g, s, helper, seed=13)
    f.exact_tried = True
    f.run(0.1)
    assert f.runs > 0 and f.helped == 0 and helper.jobs == jobs


def test_an_idle_core_is_read_from_the_runnable_tasks(monkeypatch, tmp_path):
    """/proc/loadavg's fourth field counts the runnable tasks, this one among them."""
    cores = 2
    monkeypatch.setattr(games_helper.os, "cpu_count", lambda: cores)
    real = games_helper.Path
    for line, idle in (("0.5 0.4 0.3 1/90 123", True), ("0.5 0.4 0.3 2/90 123", False),
                       ("0.5 0.4 0.3 7/90 123", False)):
        (tmp_path / "loadavg").write_text(line)
        monkeypatch.setattr(games_helper, "Path", lambda p, line=line: real(tmp_path / "loadavg"))
        assert IDLE_CORE() is idle
    monkeypatch.setattr(games_helper, "Path", lambda p: real(tmp_path / "missing"))
    assert IDLE_CORE() is True


def test_a_forked_process_starts_its_own_helper():
    """gunicorn forks its workers from the first process: a fork gets a free lock and no helper of its own
    (the parent's socket and counter stay the parent's), even when a thread held the lock as it forked."""
    h = games_helper.shared()
    with h.lock:
        pid = os.fork()
        if pid == 0:  # the child: its helper is free and not started
            ok = h.lock.acquire(blocking=False) and h.proc is None and h.conn is None and h.pid is None
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
