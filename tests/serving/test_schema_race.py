"""Several processes starting at the same moment on one empty database each make the schema: exactly
one creates it, the others wait for the lock and find it made (an advisory lock on PostgreSQL, a file
lock beside the SQLite file). Without the lock some of them fail with "table ... already exists"
(SQLite) or "duplicate key value violates unique constraint pg_type_typname_nsp_index" (PostgreSQL)."""
from __future__ import annotations

import multiprocessing
import os
import sys

from sqlalchemy import inspect

from assistant import db

PROCESSES = 8
ROUNDS = 6


def _make_schema(url: str, barrier, errors) -> None:
    engine = db.make_engine(url)
    try:
        barrier.wait(30)
        db.create_schema(engine)
    except Exception as err:  # noqa: BLE001 - reported to the test, which names it
        errors.put(f"{os.getpid()}: {type(err).__name__}: {err}"[:300])
    finally:
        engine.dispose()
        errors.close()
        errors.join_thread()  # the message is written before the process ends
        os._exit(0)  # a forked process: leave without running its clean-up


def test_schema_creation_is_safe_when_processes_start_at_once(request, db_url, tmp_path):
    # (forked from a clean server process, not from pytest: a fork of pytest could inherit SQLite's own lock held by a
    # thread of an earlier test's live server, and wait for it for ever; CI once hung there after the last test)
    ctx = multiprocessing.get_context("forkserver")
    # (with the app's modules this run has imported: some of them add their tables to the schema)
    ctx.set_forkserver_preload(sorted(m for m in sys.modules if m.split(".")[0] == "assistant"))
    kind = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    for round_ in range(ROUNDS):
        url = (request.getfixturevalue("postgres").new_database() if kind == "postgresql"
               else f"sqlite:///{tmp_path / f'race{round_}.sqlite3'}")
        barrier, errors = ctx.Barrier(PROCESSES), ctx.Queue()
        procs = [ctx.Process(target=_make_schema, args=(url, barrier, errors)) for _ in range(PROCESSES)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        stuck = [p for p in procs if p.is_alive()]
        for p in stuck:
            p.kill()  # (not left for the end of the run to wait on)
        assert not stuck, f"round {round_}: {len(stuck)} processes did not finish"
        found = []
        while not errors.empty():
            found.append(errors.get())
        assert found == [], f"round {round_}: {found}"
        engine = db.make_engine(url)
        try:
            assert set(inspect(engine).get_table_names()) >= set(db.metadata.tables)
        finally:
            engine.dispose()
