"""Fixtures: `app` and `client` (Flask test client on a fresh SQLite file), databases, and for browser
tests `live_url` (the app served on localhost in a thread) and `page` (Playwright in Debian's chromium
at 390x844).

Databases: `app` runs on SQLite; a test marked `@pytest.mark.both_databases` (or a module with
`pytestmark = pytest.mark.both_databases`) runs once on SQLite and once on PostgreSQL. `db_url` is a
fresh empty database, once per database kind, for tests that start apps or servers themselves.
PostgreSQL is a throwaway cluster the session starts on first use (tests/pg_cluster.py)."""
from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading

import pg_cluster
import pytest
from hypothesis import settings
from werkzeug.serving import make_server

# no test writes into the checkout's instance/ (the SQLite file and secret key of `make run`)
INSTANCE = os.environ["TABLEBOT_INSTANCE"] = tempfile.mkdtemp(prefix="tablebot-instance-")

from assistant import create_app  # noqa: E402 - after TABLEBOT_INSTANCE is set

CHROMIUM = os.environ.get("TABLEBOT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}

# the same examples on every run and machine: a red test stays red until it is fixed
settings.register_profile("tablebot", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("tablebot")


def pytest_unconfigure(config):
    shutil.rmtree(INSTANCE, ignore_errors=True)


# Stopping Playwright at the session's end waits for its driver process to exit, and once (a CI run of round 19's
# session, every test passed) it never did: chromium was gone, the driver idle, the run hung until it was killed. The
# session's fixtures are torn down after the last test; if that takes longer than this, the driver and any browser
# this run started are killed, which ends the wait (the driver's pipe closes).
BROWSER_TEARDOWN_GRACE = float(os.environ.get("TABLEBOT_BROWSER_TEARDOWN_GRACE", "60"))


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_browser_processes(pid: int | None = None) -> list[int]:
    """Kill the Playwright driver and browser processes below `pid` (this process); returns their pids."""
    killed = []
    for child in _descendants(pid or os.getpid()):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ")
        except OSError:
            continue
        if b"run-driver" in cmdline or b"chrom" in cmdline:
            try:
                os.kill(child, signal.SIGKILL)
                killed.append(child)
            except OSError:
                pass
    return killed


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    watchdog = None
    if nextitem is None and sys.platform.startswith("linux"):
        watchdog = threading.Timer(BROWSER_TEARDOWN_GRACE, kill_browser_processes)
        watchdog.daemon = True
        watchdog.start()
    yield
    if watchdog is not None:
        watchdog.cancel()


DATABASES = ["sqlite", "postgresql"]


def pytest_generate_tests(metafunc):
    if metafunc.definition.get_closest_marker("both_databases") and "app_database" in metafunc.fixturenames:
        metafunc.parametrize("app_database", DATABASES, indirect=True)


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL cluster, started on first use and stopped at the end."""
    bindir = pg_cluster.find_bin()
    if bindir is None:
        pytest.fail("Debian's postgresql package is needed for the PostgreSQL tests (no "
                    "/usr/lib/postgresql/*/bin/initdb); `make test` installs it")
    cluster = pg_cluster.Cluster(bindir).start()
    yield cluster
    cluster.stop()


def new_database(request, kind: str, tmp_path) -> str:
    if kind == "postgresql":
        return request.getfixturevalue("postgres").new_database()
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture(params=DATABASES)
def db_url(request, tmp_path) -> str:
    """A fresh, empty database: SQLite, then PostgreSQL."""
    return new_database(request, request.param, tmp_path)


@pytest.fixture
def app_database(request) -> str:
    """The database kind `app` runs on: SQLite, unless the test is marked both_databases."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def app(request, app_database, tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": new_database(request, app_database, tmp_path),
                      "SECRET_KEY": "test"})
    yield app
    app.extensions["tablebot_db"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def new_table(client):
    """`new_table(game, players=None, state=None)` starts a table through the API and returns its JSON
    (with `state` saved as version 2 when given)."""
    def make(game: str, players: int | None = None, state: dict | None = None) -> dict:
        players = players or {"raising-robots": 2, "robotariat": 3, "two-robots": 2}[game]
        table = client.post("/api/tables", json={"game": game, "players": players}).get_json()
        if state is not None:
            r = client.put(f"/api/tables/{table['id']}", json={"version": table["version"], "state": state})
            assert r.status_code == 200, r.get_json()
            table = r.get_json()
        return table
    return make


@pytest.fixture
def new_live_table(live_app):
    """`new_live_table(game, players=None, state=None)`: the same, on the app browser tests drive."""
    client = live_app.test_client()

    def make(game: str, players: int | None = None, state: dict | None = None) -> dict:
        players = players or {"raising-robots": 2, "robotariat": 3, "two-robots": 2}[game]
        table = client.post("/api/tables", json={"game": game, "players": players}).get_json()
        if state is not None:
            table = client.put(f"/api/tables/{table['id']}", json={"version": table["version"], "state": state}).get_json()
        return table
    return make


# ---- browser tests ------------------------------------------------------------------------------

class _Server:
    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    path = tmp_path_factory.mktemp("live") / "live.sqlite3"
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "test"})


@pytest.fixture(scope="session")
def live_url(live_app):
    with _Server(live_app) as server:
        yield server.url


# pytest-playwright provides `browser` and `context`; these point it at Debian's chromium and a phone.
@pytest.fixture(scope="session")
def browser_type_launch_args():
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Debian's chromium is needed for browser tests ({CHROMIUM}); `make test` installs it")
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args():
    return {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
            "service_workers": "block"}


@pytest.fixture
def page(context):
    p = context.new_page()
    errors: list[str] = []
    crashes: list[str] = []
    p.on("pageerror", lambda e: crashes.append(str(e)))
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.js_errors = errors  # console errors too (a 400 while typing logs one): tests may assert on them
    yield p
    assert not crashes, f"uncaught script errors on the page: {crashes}"


@pytest.fixture
def shots(request):
    """Where a test saves screenshots for people to look at (test-artifacts/, ignored by git)."""
    root = os.path.join(os.path.dirname(os.path.dirname(__file__)), "test-artifacts")
    os.makedirs(root, exist_ok=True)
    return lambda name: os.path.join(root, f"{name}.png")


@pytest.fixture(scope="module")
def own_words_index():
    """The rules index without the players' questions (assistant/data/rules/asks/): a ranking mechanism shown
    on a question the asks now answer outright is still shown on the entries' own words."""
    import importlib

    from assistant import rules
    from assistant.rules import RulesIndex

    index_module = importlib.import_module("assistant.rules.index")  # (assistant.rules.index is also a function)
    kept = index_module.ASKS_ON
    index_module.ASKS_ON = False
    try:
        return RulesIndex(rules.books())
    finally:
        index_module.ASKS_ON = kept
