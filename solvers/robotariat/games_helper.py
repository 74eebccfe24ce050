"""A second process that plays a forecast's sampled games beside the request's own (issue 25: a forecast
that answers on the first view).

The solvers are pure Python, so one process plays one game at a time whatever its threads. A view of the
board page gives the forecast 150 ms; at 4 or 5 players a game costs 5 to 8 ms at some tables, and a first
view played fewer than 30 games. On a machine with a second core, this process plays about half of them:

- game k of a forecast is the same wherever it is played (its random stream is `f"{seed}:{k}"`, and the
  rollout policy's choices depend on the table alone), so the games merged in index order are the ones a
  single process would have played, game for game (tests/solvers/robotariat/test_robotariat_games_helper.py);
- each side takes the next game's number from a counter both share (a word of shared memory under a
  POSIX record lock, which excludes processes), so a side whose games are slower takes fewer: fixed
  halves (even and odd games) left up to a dozen games uncounted behind one slow game at some tables;
- the helper sends each game as it ends and the request counts them between its own games, so it stops
  at the very game where one process would (every interval narrow enough) and stops the helper;
- the helper is a plain subprocess (`python -m solvers.robotariat.games_helper FD`), not a fork of a
  process that runs threads, and speaks over a socket pair with multiprocessing's Connection;
- a request never waits on it past its own deadline and a short grace: a helper that is busy with another
  request, not started yet, failing or too slow is simply not used (a slow or dead one is stopped and
  started again on a later request), and the request plays all the games itself;
- it is used only when a core is idle as the request starts (the machine's runnable tasks, /proc/loadavg):
  on a busy machine the two processes would share one core, each working out the same tables for its
  first games, and the request would play fewer games than alone (measured: 18 first views of 30 at 5
  players under 30 games against 7 alone, with another process using a core).

Only the quick rollout's games go there: card_effects.quick_policy, the same on both sides (with cards in
play, card_effects.EffectRollout; the pickled GameRules carries the cards, pinned to their moments).
"""
from __future__ import annotations

import fcntl
import mmap
import os
import pickle
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from multiprocessing.connection import Connection
from pathlib import Path

GRACE_S = 0.05  # how long past its deadline a request waits for the helper's games
FORECASTS_KEPT = 4  # forecasts whose policies the helper keeps warm (a page's refreshes reuse them)
_ROOT = Path(__file__).resolve().parents[2]  # the checkout: the helper imports `solvers` from it


class Counter:
    """The number of the next game to play, shared by the request's process and the helper (POSIX record
    locks exclude processes, not threads: the request's side takes it under GamesHelper.lock)."""

    def __init__(self, fd: int) -> None:
        self.fd, self.word = fd, mmap.mmap(fd, 8)

    def set(self, value: int) -> None:
        fcntl.lockf(self.fd, fcntl.LOCK_EX)
        try:
            self.word[:8] = value.to_bytes(8, "little")
        finally:
            fcntl.lockf(self.fd, fcntl.LOCK_UN)

    def take(self) -> int:
        fcntl.lockf(self.fd, fcntl.LOCK_EX)
        try:
            k = int.from_bytes(self.word[:8], "little")
            self.word[:8] = (k + 1).to_bytes(8, "little")
            return k
        finally:
            fcntl.lockf(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        self.word.close()
        os.close(self.fd)


def cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def idle_core() -> bool:
    """Whether a core is free for the helper now: fewer runnable tasks than cores besides this one."""
    try:
        running = int(Path("/proc/loadavg").read_text().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return True  # no such file (not Linux): use the helper
    return running - 1 < cores() - 1


class GamesHelper:
    """The parent's side: one helper process per serving process (started again after a fork)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # one job at a time; a request that finds it busy plays alone
        self.conn: Connection | None = None
        self.counter: Counter | None = None
        self.proc: subprocess.Popen | None = None
        self.pid: int | None = None  # the process that started it (a forked child starts its own)
        self.ready = False
        self.jobs = 0
        self.started = 0  # how many times a helper process was started (the tests read it)
        self.always = False  # used even when no core is idle (a test of the server that must see it play)

    def start(self) -> None:
        """Start the helper process if this process has none running; returns at once (it imports the
        solvers for a second or so and is used once it says it is ready)."""
        with self.lock:
            self._start()

    def _start(self) -> None:
        if self.pid == os.getpid() and self.proc is not None and self.proc.poll() is None:
            return
        self._forget()
        parent, child = socket.socketpair()
        fd = os.memfd_create("tablebot-games")
        os.ftruncate(fd, 8)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(_ROOT), os.environ.get("PYTHONPATH")) if p))
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "solvers.robotariat.games_helper", str(child.fileno()),
                                          str(fd)], pass_fds=(child.fileno(), fd), env=env,
                                         stdin=subprocess.DEVNULL, close_fds=True)
        except OSError:
            parent.close()
            os.close(fd)
            return
        finally:
            child.close()
        self.conn, self.counter = Connection(parent.detach()), Counter(fd)
        self.pid, self.ready = os.getpid(), False
        self.started += 1

    def _forget(self) -> None:
        """Drop a helper that failed or belongs to another process (a fork's copy is only closed)."""
        mine = self.pid == os.getpid()
        for end in (self.conn, self.counter):
            if end is not None:
                try:
                    end.close()
                except OSError:
                    pass
        if mine and self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(0.5)
            except subprocess.TimeoutExpired:
                pass
        self.conn = self.proc = self.pid = self.counter = None
        self.ready = False

    def wait_ready(self, seconds: float) -> bool:
        """Start the helper if needed and wait until it can take a job (benches and tests; a server
        never waits: it starts the helper with each worker)."""
        self.start()
        with self.lock:
            if self.ready:
                return True
            try:
                if self.conn is not None and self.conn.poll(seconds) and self.conn.recv() == ("ready",):
                    self.ready = True
            except (OSError, EOFError):
                self._forget()
            return self.ready

    def stop(self) -> None:
        with self.lock:
            if self.pid == os.getpid():
                self._forget()

    def begin(self, setup: bytes, token: str, first: int, limit: int, skip: set[int],
              seconds: float | None) -> Job | None:
        """Share the games from `first` below `limit` (not those in `skip`) for `seconds`: each side takes
        the next number from the counter (Job.take on this side). None when the helper cannot take the job
        now (the request then plays every game itself)."""
        if not self.lock.acquire(blocking=False):
            return None
        try:
            if self.pid != os.getpid() or self.proc is None or self.proc.poll() is not None:
                self._start()  # for a later request: this one does not wait for it
                self.lock.release()
                return None
            if not self.ready:
                if not self.conn.poll(0) or self.conn.recv() != ("ready",):
                    self.lock.release()
                    return None
                self.ready = True
            if not (self.always or idle_core()):
                self.lock.release()
                return None
            self.jobs += 1
            self.counter.set(first)
            self.conn.send(("play", self.jobs, token, setup, sorted(skip), limit, seconds))
            return Job(self, self.jobs)
        except (OSError, EOFError, ValueError, pickle.PickleError):
            self._forget()
            self.lock.release()
            return None


class Job:
    """One request's games on the helper. The helper sends each game as it ends: `collect` takes those
    come so far (the request counts them between its own games, so it stops where one process would);
    `finish` stops the helper and takes the rest (and frees the helper)."""

    def __init__(self, helper: GamesHelper, number: int) -> None:
        self.helper, self.number = helper, number
        self.ended = False  # the helper's last word on this job came (or it was given up)
        self.decided: list[int] = []  # position_key of the positions the helper decided

    def take(self) -> int:
        """The number of the next game this side plays."""
        return self.helper.counter.take()

    def collect(self) -> list[tuple[int, str, int, int]]:
        """[(k, ending, round, funds)] of the games the helper finished since the last call; never waits."""
        games: list[tuple[int, str, int, int]] = []
        try:
            while not self.ended and self.helper.conn.poll(0):
                self._read(games)
        except (OSError, EOFError, ValueError, pickle.PickleError):
            self._give_up()
        return games

    def _read(self, games: list) -> None:
        msg = self.helper.conn.recv()
        if msg[1] != self.number:
            return  # an earlier job's (not possible while jobs go one at a time; never counted)
        if msg[0] == "game":
            games.append(msg[2])
        else:  # "end" (with the positions decided) or "failed"
            self.ended = True
            self.decided = msg[2] if msg[0] == "end" else []

    def _give_up(self) -> None:
        self.ended = True
        self.helper._forget()

    def finish(self, deadline: float | None) -> list[tuple[int, str, int, int]]:
        """The helper's games not collected yet. Waits for its last word until `deadline` (perf_counter)
        plus GRACE_S at most; a helper that has not answered by then is stopped (and started again on a
        later request). No deadline (a bench or a test playing a number of games): until its game ends."""
        games: list[tuple[int, str, int, int]] = []
        h = self.helper
        try:
            if not self.ended:
                h.conn.send(("stop",))  # the request has what it needs: the helper ends its current game
            until = None if deadline is None else deadline + GRACE_S
            while not self.ended:
                wait = 60.0 if until is None else max(0.0, until - time.perf_counter())
                if not h.conn.poll(wait):
                    self._give_up()
                    break
                self._read(games)
        except (OSError, EOFError, ValueError, pickle.PickleError):
            self._give_up()
        finally:
            h.lock.release()
        return games


_SHARED = GamesHelper()


def _after_fork_in_child() -> None:
    """A forked process starts its own helper: the parent's lock may be held by a thread that does not
    exist in the child, and its socket and counter are the parent's."""
    _SHARED.lock = threading.Lock()
    _SHARED._forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def shared() -> GamesHelper:
    """This process's helper (not started until `start` or a first job)."""
    return _SHARED


def _serve(conn: Connection, counter: Counter) -> None:
    """The helper's side: play the games asked for, one job at a time, until the parent goes away."""
    import gc

    from .card_effects import quick_policy
    from .forecast import OutOfTime, _Game, _sample_game

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C at the server's terminal is the server's to handle
    gc.collect()
    gc.freeze()  # the imported modules are never walked again by the collector (as the server does)
    kept: OrderedDict[str, tuple] = OrderedDict()
    conn.send(("ready",))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg[0] != "play":
            continue  # a stop that came after its job had ended
        _, number, token, setup, skip, limit, seconds = msg
        try:
            hit = kept.pop(token, None)
            if hit is None:
                g, start, npc_next, seed = pickle.loads(setup)
                hit = (g, start, npc_next, seed, _Game(g, quick_policy(g), keep=False))
            kept[token] = hit
            while len(kept) > FORECASTS_KEPT:
                kept.popitem(last=False)
            g, start, npc_next, seed, play = hit
            deadline = None if seconds is None else time.perf_counter() + seconds
            skipped = set(skip)
            while not conn.poll():  # a message: the request has what it needs
                k = counter.take()
                if k >= limit:
                    break
                if k in skipped:
                    continue
                try:
                    kind, rnd, funds = _sample_game(g, play, start, random.Random(f"{seed}:{k}"), npc_next, deadline)
                except OutOfTime:
                    break
                conn.send(("game", number, (k, kind, rnd, funds)))  # at once: the request counts it as it goes
            decided, play.decided = list(play.decided), set()
            play.trim()
            conn.send(("end", number, decided))
        except Exception as e:  # a table the helper cannot play: the request plays alone
            conn.send(("failed", number, type(e).__name__))


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])), Counter(int(sys.argv[2])))
