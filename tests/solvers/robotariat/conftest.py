"""Fixtures of the forecast's second process (solvers/robotariat/games_helper.py), shared by its tests and the
cards' quick policy's."""
from __future__ import annotations

import pytest

from solvers.robotariat import games_helper


@pytest.fixture
def an_idle_core(monkeypatch):
    """The helper is used only while a core is idle (/proc/loadavg): here, whatever else the machine runs."""
    monkeypatch.setattr(games_helper, "idle_core", lambda: True)


@pytest.fixture(scope="module")
def helper():
    """A helper process of the test module's own (started once, stopped after the module's last test)."""
    h = games_helper.GamesHelper()
    assert h.wait_ready(30), "the helper process did not start"
    yield h
    h.stop()
