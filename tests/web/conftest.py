"""The demo page (tests/web/demo.py) registered on a test app, for the shared page machinery's tests."""
from __future__ import annotations

import pytest
from demo import bp as demo_bp

from assistant import create_app


@pytest.fixture
def demo_app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}", "SECRET_KEY": "t"})
    app.register_blueprint(demo_bp)
    yield app
    app.extensions["tablebot_db"].dispose()


@pytest.fixture
def demo_client(demo_app):
    return demo_app.test_client()
