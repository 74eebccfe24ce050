"""A second process that plays a forecast's sampled games beside the request's own (issue 25: a forecast
that answers on the first view).

The solvers are pure Python, so one process plays one game at a time whatever its threads. A view of the
board page gives the forecast 150 ms; at 4 or 5 players a game costs 5 to 8 ms at some tables, and a first
view played fewer than 30 games. On a machine with a second core, this process plays every second game:

- game k of a forecast is the same wherever it is played (its random stream is `f"{seed}:{k}"`, and the
  rollout policy's choices depend on the table alone), so the games merged in index order are the ones a
  single process would have played, game for game (tests/solvers/robotariat/test_robotariat_games_helper.py);
- each side takes the next game's number from a counter both share (a word of shared memory under a
  lock), so a side whose games are slower takes fewer: fixed halves (even and odd games) left up to a
  dozen games uncounted behind one slow game at some tables;
- the helper is a plain subprocess (`python -m solvers.robotariat.games_helper FD`), not a fork of a
  process that runs threads, and speaks over a socket pair with multiprocessing's Connection;
- a request never waits on it past its own deadline and a short grace: a helper that is busy with another
  request, not started yet, failing or too slow is simply not used (a slow or dead one is stopped and
  started again on a later request), and the request plays all the games itself;
- it is used only when a core is idle as the request starts (the machine's runnable tasks, /proc/loadavg):
  on a busy machine the two processes would share one core, each working out the same tables for its
  first games, and the request would play fewer games than alone (measured: 18 first views of 30 at 5
  players under 30 games against 7 alone, with another process using a core).

Only the quick rollout's games go there (with cards in play the games use the cards' policy, in the
request's process).
"""
from __future__ import annotations

import fcntl
import mmap
import os
import pickle
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
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


def idle_core() -> bool:
    """Whether a core is free for the helper now: fewer runnable tasks than cores besides this one."""
    try:
        running = int(Path("/proc/loadavg").read_text().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return True  # no such file (not Linux): use the helper
    return running - 1 < (os.cpu_count() or 1) - 1


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
            if not idle_core():
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
    """One request's games on the helper: `finish` collects them (and frees the helper)."""

    def __init__(self, helper: GamesHelper, number: int) -> None:
        self.helper, self.number, self.done = helper, number, False

    def take(self) -> int:
        """The number of the next game this side plays."""
        return self.helper.counter.take()

    def finish(self, deadline: float | None) -> tuple[list[tuple[int, str, int, int]], list[int]]:
        """[(k, ending, round, funds)] of the games the helper played and the hashes of the positions it
        decided; ([], []) if it did not answer by `deadline` (perf_counter) and the grace (it is then
        stopped, and started again on a later request)."""
        if self.done:
            return [], []
        self.done = True
        h = self.helper
        try:
            h.conn.send(("stop",))  # the request is done with its own games: the helper ends its current one
            wait = GRACE_S + (0.0 if deadline is None else max(0.0, deadline - time.perf_counter()))
            if deadline is None:
                wait = 60.0  # no deadline (a bench or a test playing a number of games): the helper's game ends
            while h.conn.poll(wait):
                msg = h.conn.recv()
                if msg[0] in ("games", "failed") and msg[1] == self.number:
                    return (msg[2], msg[3]) if msg[0] == "games" else ([], [])
            h._forget()
            return [], []
        except (OSError, EOFError, ValueError, pickle.PickleError):
            h._forget()
            return [], []
        finally:
            h.lock.release()


_SHARED = GamesHelper()


def shared() -> GamesHelper:
    """This process's helper (not started until `start` or a first job)."""
    return _SHARED


def new_token() -> str:
    return uuid.uuid4().hex


def _serve(conn: Connection, counter: Counter) -> None:
    """The helper's side: play the games asked for, one job at a time, until the parent goes away."""
    import gc

    from .forecast import OutOfTime, _Game, _sample_game
    from .rollout import RolloutPolicy

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
                hit = (g, start, npc_next, seed, _Game(g, RolloutPolicy(g), keep=False))
            kept[token] = hit
            while len(kept) > FORECASTS_KEPT:
                kept.popitem(last=False)
            g, start, npc_next, seed, play = hit
            deadline = None if seconds is None else time.perf_counter() + seconds
            skipped, games = set(skip), []
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
                games.append((k, kind, rnd, funds))
            decided, play.decided = list(play.decided), set()
            play.trim()
            conn.send(("games", number, games, decided))
        except Exception as e:  # a table the helper cannot play: the request plays alone
            conn.send(("failed", number, type(e).__name__))


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])), Counter(int(sys.argv[2])))
